package forest

import (
	"math/rand/v2"

	"github.com/aer-go/aer/tree"
)

// Scheme is how each tree's rows are drawn.
type Scheme int

const (
	// BootstrapThenBalance is imbalanced-learn's BalancedBaggingClassifier
	// (a scikit-learn BaggingClassifier over a RandomUnderSampler and a
	// tree): a bootstrap of all rows, then the majority class of the
	// bootstrap under-sampled to the size of its minority; a row drawn k
	// times is k rows of the tree.
	BootstrapThenBalance Scheme = iota
	// BalanceThenBootstrap is imbalanced-learn's
	// BalancedRandomForestClassifier: the majority class under-sampled to
	// the size of the minority, then a bootstrap of that balanced sample,
	// which weights each row by the times it was drawn (scikit-learn's
	// forests pass the bootstrap as sample weights).
	BalanceThenBootstrap
)

// drawer draws tree samples from n rows with labels y and row weights w
// (nil: 1 each).
type drawer struct {
	y           []int
	w           []float64
	bootstrap   bool
	replacement bool // under-sample with replacement
	// scratch, one drawer per worker
	count []int32
	pos   []int
	neg   []int
}

func newDrawer(y []int, w []float64, bootstrap, replacement bool) *drawer {
	return &drawer{y: y, w: w, bootstrap: bootstrap, replacement: replacement, count: make([]int32, len(y))}
}

// draw returns the sample of one tree.
func (d *drawer) draw(s Scheme, r *rand.Rand) tree.Sample {
	n := len(d.y)
	clear(d.count)
	if s == BootstrapThenBalance {
		d.pos, d.neg = d.pos[:0], d.neg[:0]
		for k := range n {
			i := k
			if d.bootstrap {
				i = r.IntN(n)
			}
			if d.y[i] == 1 {
				d.pos = append(d.pos, i)
			} else {
				d.neg = append(d.neg, i)
			}
		}
		for _, i := range d.balance(d.pos, d.neg, r) {
			d.count[i]++
		}
		return d.sample(true)
	}
	d.pos, d.neg = d.pos[:0], d.neg[:0]
	for i, y := range d.y {
		if y == 1 {
			d.pos = append(d.pos, i)
		} else {
			d.neg = append(d.neg, i)
		}
	}
	bal := d.balance(d.pos, d.neg, r)
	if !d.bootstrap {
		for _, i := range bal {
			d.count[i]++
		}
		return d.sample(true)
	}
	for range bal {
		d.count[bal[r.IntN(len(bal))]]++
	}
	// The bootstrap weights rows; each row drawn is one row of the tree
	// (a row under-sampled twice with replacement and drawn from both
	// entries counts once, a rounding of imbalanced-learn's two).
	return d.sample(false)
}

// balance under-samples the larger of two classes' row lists to the size
// of the smaller, returning both concatenated (reusing their storage).
// One empty class leaves the other whole.
func (d *drawer) balance(a, b []int, r *rand.Rand) []int {
	if len(a) > len(b) {
		a, b = b, a
	}
	k := len(a)
	if k == 0 {
		return b
	}
	if d.replacement {
		for range k {
			a = append(a, b[r.IntN(len(b))])
		}
		return a
	}
	// A partial Fisher-Yates shuffle draws k of b without replacement.
	for j := range k {
		t := j + r.IntN(len(b)-j)
		b[j], b[t] = b[t], b[j]
	}
	return append(a, b[:k]...)
}

// sample turns d.count into a tree sample: the rows drawn, in increasing
// order, weighing their count times their weight; with counts, a row
// drawn k times counts k rows.
func (d *drawer) sample(withCounts bool) tree.Sample {
	var s tree.Sample
	for i, c := range d.count {
		if c == 0 {
			continue
		}
		s.Rows = append(s.Rows, i)
		w := float64(c)
		if d.w != nil {
			w *= d.w[i]
		}
		s.Weight = append(s.Weight, w)
		if withCounts {
			s.Count = append(s.Count, c)
		}
	}
	return s
}

// multiDrawer draws the tree samples of k classes.
type multiDrawer struct {
	drawer
	cls [][]int // scratch: each class's rows
}

func newMultiDrawer(y []int, w []float64, k int, bootstrap, replacement bool) *multiDrawer {
	return &multiDrawer{drawer: *newDrawer(y, w, bootstrap, replacement), cls: make([][]int, k)}
}

// draw returns the sample of one tree: BootstrapThenBalance draws a
// bootstrap of every row and under-samples its classes; BalanceThenBootstrap
// under-samples the classes, then bootstraps that sample as weights.
func (d *multiDrawer) draw(s Scheme, r *rand.Rand) tree.Sample {
	n := len(d.y)
	clear(d.count)
	for c := range d.cls {
		d.cls[c] = d.cls[c][:0]
	}
	if s == BootstrapThenBalance {
		for k := range n {
			i := k
			if d.bootstrap {
				i = r.IntN(n)
			}
			d.cls[d.y[i]] = append(d.cls[d.y[i]], i)
		}
		d.balanceMulti(r, func(i int) { d.count[i]++ })
		return d.sample(true)
	}
	for i, y := range d.y {
		d.cls[y] = append(d.cls[y], i)
	}
	var bal []int
	d.balanceMulti(r, func(i int) { bal = append(bal, i) })
	if !d.bootstrap {
		for _, i := range bal {
			d.count[i]++
		}
		return d.sample(true)
	}
	for range bal {
		d.count[bal[r.IntN(len(bal))]]++
	}
	return d.sample(false)
}

// balanceMulti under-samples every class of d.cls but the smallest
// non-empty one (the first of the smallest) to the smallest one's size,
// class by class in order, and calls take with each row kept (a row
// listed twice, twice). An empty class stays empty.
func (d *multiDrawer) balanceMulti(r *rand.Rand, take func(i int)) {
	minority, m := -1, 0
	for c, rows := range d.cls {
		if len(rows) > 0 && (minority < 0 || len(rows) < m) {
			minority, m = c, len(rows)
		}
	}
	for c, rows := range d.cls {
		switch {
		case c == minority || len(rows) == 0:
			// kept whole
		case d.replacement:
			for range m {
				take(rows[r.IntN(len(rows))])
			}
			continue
		default:
			// A partial Fisher-Yates shuffle draws m without replacement.
			for j := range m {
				t := j + r.IntN(len(rows)-j)
				rows[j], rows[t] = rows[t], rows[j]
			}
			rows = rows[:m]
		}
		for _, i := range rows {
			take(i)
		}
	}
}

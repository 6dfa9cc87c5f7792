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

// drawer draws tree samples from n rows with labels y (0..k-1) and row
// weights w (nil: 1 each).
type drawer struct {
	y           []int
	w           []float64
	bootstrap   bool
	replacement bool // under-sample with replacement
	// twoClass follows imbalanced-learn's rule for two classes (labels 0
	// and 1): class 1 is the minority when the classes are equal, and
	// the minority's rows come first in a balanced sample.
	twoClass bool
	// scratch, one drawer per worker
	count []int32
	cls   [][]int // each class's rows
}

// newDrawer returns a drawer of labels 0..k-1, or of labels 0 and 1 by
// the two-class rule when k is 0.
func newDrawer(y []int, w []float64, k int, bootstrap, replacement bool) *drawer {
	return &drawer{y: y, w: w, bootstrap: bootstrap, replacement: replacement, twoClass: k == 0,
		count: make([]int32, len(y)), cls: make([][]int, max(k, 2))}
}

// draw returns the sample of one tree: BootstrapThenBalance draws a
// bootstrap of every row and under-samples its classes; BalanceThenBootstrap
// under-samples the classes, then bootstraps that sample as weights.
func (d *drawer) draw(s Scheme, r *rand.Rand) tree.Sample {
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
		d.balance(r, func(i int) { d.count[i]++ })
		return d.sample(true)
	}
	for i, y := range d.y {
		d.cls[y] = append(d.cls[y], i)
	}
	var bal []int
	d.balance(r, func(i int) { bal = append(bal, i) })
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

// balance under-samples every class of d.cls but the smallest non-empty
// one (the first of the smallest; by the two-class rule, the last) to
// the smallest one's size, class by class in order, and calls take with
// each row kept (a row listed twice, twice): the minority's rows first
// by the two-class rule, else in class order. An empty class stays
// empty.
func (d *drawer) balance(r *rand.Rand, take func(i int)) {
	minority, m := -1, 0
	for c, rows := range d.cls {
		if len(rows) > 0 && (minority < 0 || len(rows) < m || d.twoClass && len(rows) == m) {
			minority, m = c, len(rows)
		}
	}
	if d.twoClass && minority >= 0 {
		for _, i := range d.cls[minority] {
			take(i)
		}
	}
	for c, rows := range d.cls {
		switch {
		case c == minority && d.twoClass:
			continue // taken first
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

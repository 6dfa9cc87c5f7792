package resample

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/neighbors"
	"gonum.org/v1/gonum/mat"
)

// Link is a Tomek link: a minority row and a majority row of x that are
// each other's nearest neighbour within the searched subset.
type Link struct {
	Minority int `json:"minority"`
	Majority int `json:"majority"`
}

// TomekOptions tunes TomekLinks. A nil *TomekOptions means the defaults.
type TomekOptions struct {
	// Strict counts a pair only when each end's nearest neighbour is
	// unique (the paper's strict inequalities, Eq. 6): the second nearest
	// must be farther, comparing the Euclidean distances package neighbors
	// reports. The default breaks ties by row number, like a
	// nearest-neighbour search does.
	Strict bool
	// Workers bounds the goroutines of the neighbour searches; 0 means
	// GOMAXPROCS. Results do not depend on it.
	Workers int
	// first, when set, answers the first search of tomek (the k nearest
	// neighbours of the positions small of the index over the subset),
	// in place of ix.SearchSelf; see sharedFirst.
	first func(ix *neighbors.Index, small []int, k int) (*neighbors.Result, error)
}

// TomekLinks returns the Tomek links among the rows of x listed in subset
// (all rows when subset is nil), ordered by minority row. y holds a label,
// 0 or 1, for every row of x.
func TomekLinks(x *mat.Dense, y []int, subset []int, opt *TomekOptions) ([]Link, error) {
	r, _ := x.Dims()
	if len(y) != r {
		return nil, fmt.Errorf("resample: %d labels for %d rows", len(y), r)
	}
	rows, err := sortedRows(subset, r)
	if err != nil {
		return nil, err
	}
	for _, i := range rows {
		if y[i] != 0 && y[i] != 1 {
			return nil, fmt.Errorf("resample: row %d: label %d is not 0 or 1", i, y[i])
		}
	}
	if opt == nil {
		opt = &TomekOptions{}
	}
	links, err := tomek(x, rows, func(i int) bool { return y[i] == 1 }, opt)
	if err != nil {
		return nil, fmt.Errorf("resample: %w", err)
	}
	return links, nil
}

// sortedRows checks subset against r rows and returns it sorted (a copy),
// or all rows when subset is nil.
func sortedRows(subset []int, r int) ([]int, error) {
	if subset == nil {
		rows := make([]int, r)
		for i := range rows {
			rows[i] = i
		}
		return rows, nil
	}
	rows := slices.Clone(subset)
	slices.Sort(rows)
	for k, i := range rows {
		if i < 0 || i >= r {
			return nil, fmt.Errorf("resample: row %d out of range [0, %d)", i, r)
		}
		if k > 0 && rows[k-1] == i {
			return nil, fmt.Errorf("resample: row %d listed twice", i)
		}
	}
	return rows, nil
}

// tomek finds the links among rows (sorted, distinct, labels checked).
func tomek(x *mat.Dense, rows []int, minority func(int) bool, opt *TomekOptions) ([]Link, error) {
	if len(rows) < 2 {
		return nil, nil
	}
	// Positions in the index follow row order, so the search's tie-break
	// (smaller position) is the smaller row number.
	var pos [2][]int // positions of majority and minority rows
	for p, i := range rows {
		if minority(i) {
			pos[1] = append(pos[1], p)
		} else {
			pos[0] = append(pos[0], p)
		}
	}
	if len(pos[0]) == 0 || len(pos[1]) == 0 {
		return nil, nil
	}
	small := pos[1]
	if len(pos[0]) < len(pos[1]) {
		small = pos[0]
	}
	ix, err := neighbors.NewRows(x, rows)
	if err != nil {
		return nil, fmt.Errorf("tomek links: %w", err)
	}
	k := 1
	if opt.Strict && len(rows) > 2 {
		k = 2 // the second neighbour tells whether the first is tied
	}
	search := &neighbors.Options{Workers: opt.Workers}
	var first *neighbors.Result
	if opt.first != nil {
		first, err = opt.first(ix, small, k)
	} else {
		first, err = ix.SearchSelf(small, k, search)
	}
	if err != nil {
		return nil, fmt.Errorf("tomek links: %w", err)
	}
	unique := func(res *neighbors.Result, q int) bool {
		_, d := res.Row(q)
		return k == 1 || !opt.Strict || d[1] > d[0]
	}
	isMin := func(p int) bool { return minority(rows[p]) }
	// Partners of the other class, each searched once. A partner can only
	// link to a row that chose it, the nearest of which is within[j]
	// away: its search may stop at any row nearer than that.
	partners, within, partnerOf := nearestPartners(first, len(small), func(q, nn int) bool {
		return isMin(nn) != isMin(small[q]) && unique(first, q)
	})
	if len(partners) == 0 {
		return nil, nil
	}
	second, err := ix.SearchSelfWithin(partners, k, within, search)
	if err != nil {
		return nil, fmt.Errorf("tomek links: %w", err)
	}
	var links []Link
	for q, p := range small {
		j := partnerOf[q]
		if j < 0 {
			continue
		}
		nn, _ := second.Row(j)
		if nn[0] != p || !unique(second, j) {
			continue
		}
		a, b := rows[p], rows[partners[j]]
		if !minority(a) {
			a, b = b, a
		}
		links = append(links, Link{Minority: a, Majority: b})
	}
	slices.SortFunc(links, func(a, b Link) int { return a.Minority - b.Minority })
	return links, nil
}

// DropMajority returns rows without the majority end of every link, in
// the order of rows.
func DropMajority(rows []int, links []Link) []int {
	drop := make(map[int]bool, len(links))
	for _, l := range links {
		drop[l.Majority] = true
	}
	kept := make([]int, 0, len(rows))
	for _, i := range rows {
		if !drop[i] {
			kept = append(kept, i)
		}
	}
	return kept
}

// Tomek is Tomek-link cleaning as a Sampler, imbalanced-learn's
// TomekLinks: the links of the whole data are found and the ends of the
// classes Strategy names are removed. On labels 0 and 1 with "auto" or
// "all", the links are TomekLinks' and "auto" removes the majority end
// (the majority is the class with more rows, label 0 on a tie), "all"
// both. Otherwise, on any number of classes, a link is two rows of
// different labels each the other's nearest neighbour (imbalanced-learn's
// is_tomek), and the ends whose class Strategy names go (see
// Strategy.Targets: auto is not minority). Missing values are refused (a
// row with one has no distance). Kept rows keep their weights; the links
// do not look at weights.
type Tomek struct {
	// Strategy is which ends of the links go: "auto" the majority end
	// (every end but the minority's), "all" both; or majority, not
	// minority, not majority, or a list of classes "CLASS,CLASS" (class
	// indices; one class is written "2,"). Empty is auto for labels 0 and
	// 1 only (the two-class default): labels beyond them are an error
	// until the strategy is set.
	Strategy string
}

var tomekParams = learn.ParamTable[Tomek]{
	strategyParam("sampling_strategy", Cleaning,
		"ends of the Tomek links removed: auto = the majority end (all but the minority's), all = both; or majority, not minority, not majority, or a list of classes CLASS,CLASS (class indices from 0)",
		nil, func(s *Tomek) *string { return &s.Strategy }),
}

func (s Tomek) resolved() Tomek {
	if s.Strategy == "" {
		s.Strategy = "auto"
	}
	return s
}

// Name returns "tomek".
func (s *Tomek) Name() string { return "tomek" }

// Set sets sampling_strategy.
func (s *Tomek) Set(key, value string) error { return tomekParams.Set(s, key, value) }

// Params lists sampling_strategy.
func (s *Tomek) Params() []learn.Param {
	cur, def := s.resolved(), Tomek{}.resolved()
	return tomekParams.List(&cur, &def)
}

// Resample returns d without the removed ends of its Tomek links, in
// order. Data of one class labelled 0 or 1 has no links and comes back
// whole; on other labels, one class is an error, as in imbalanced-learn.
func (s *Tomek) Resample(ctx context.Context, d *learn.Data, env learn.Env) (*learn.Data, error) {
	out, _, err := s.resample(ctx, s.Name(), d, env)
	return out, err
}

// Trace resamples as Resample does and says where each row comes from
// (every row is one of d's).
func (s *Tomek) Trace(ctx context.Context, d *learn.Data, env learn.Env) (*learn.Data, []Origin, error) {
	out, kept, err := s.resample(ctx, s.Name(), d, env)
	if err != nil {
		return nil, nil, err
	}
	return out, keptOrigins(kept), nil
}

// resample returns d without the removed rows, and the rows it kept.
func (s *Tomek) resample(ctx context.Context, name string, d *learn.Data, env learn.Env) (*learn.Data, []int, error) {
	if s.Strategy == "" { // the two-class default: more classes are set explicitly
		if i := otherLabel(d); i >= 0 {
			return nil, nil, fmt.Errorf("%s: %w: data to resample row %d: label %d is not 0 or 1, and the default sampling_strategy is the two-class rule: for more classes, set it (auto, not minority, all, ...)",
				name, learn.ErrData, i+1, d.Y[i])
		}
	}
	r := s.resolved()
	p, err := planFor(name, Cleaning, 0, r.Strategy, d)
	if err != nil {
		return nil, nil, err
	}
	if p.binary {
		return r.binary(ctx, name, d, env)
	}
	if err := checkFinite(name, d, nil); err != nil {
		return nil, nil, err
	}
	if err := learn.Interrupted(ctx); err != nil {
		return nil, nil, err
	}
	linked, err := linkedRows(d.X, d.Y, env.Threads())
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := learn.Interrupted(ctx); err != nil {
		return nil, nil, err
	}
	named := map[int]bool{}
	for _, t := range p.targets {
		named[t.Class] = true
	}
	drop := map[int]bool{}
	for i, l := range linked {
		if l && named[d.Y[i]] {
			drop[i] = true
		}
	}
	kept := keptRows(d.Rows(), drop)
	return d.Subset(kept), kept, nil
}

// binary is Tomek on labels 0 and 1 with auto or all.
func (r Tomek) binary(ctx context.Context, name string, d *learn.Data, env learn.Env) (*learn.Data, []int, error) {
	if err := d.Check("data to resample"); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := checkFinite(name, d, nil); err != nil {
		return nil, nil, err
	}
	if err := learn.Interrupted(ctx); err != nil {
		return nil, nil, err
	}
	links, err := TomekLinks(d.X, d.Y, nil, &TomekOptions{Workers: env.Threads()})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := learn.Interrupted(ctx); err != nil {
		return nil, nil, err
	}
	minLabel, _, _ := classes(d.Y)
	drop := make(map[int]bool, len(links))
	for _, l := range links {
		if r.Strategy == "all" || minLabel == 1 {
			drop[l.Majority] = true // label 0
		}
		if r.Strategy == "all" || minLabel == 0 {
			drop[l.Minority] = true // label 1
		}
	}
	kept := keptRows(d.Rows(), drop)
	return d.Subset(kept), kept, nil
}

// linkedRows marks the rows of x that are an end of a Tomek link on any
// number of classes: rows i and j with y[i] != y[j], each the other's
// nearest neighbour among all rows (ties to the smaller row number). As
// TomekLinks, it needs no all-pairs search: every link has an end outside
// the largest class, so the nearest neighbours of those rows are found
// first, then only for their partners of another class, each search
// stopping at the first row certainly nearer than the row that chose it.
func linkedRows(x *mat.Dense, y []int, workers int) ([]bool, error) {
	linked := make([]bool, len(y))
	st, err := countClasses(y)
	if err != nil || len(st.class) < 2 {
		return linked, err
	}
	largest := st.class[st.majority()]
	var small []int
	for i, v := range y {
		if v != largest {
			small = append(small, i)
		}
	}
	ix, err := neighbors.New(x)
	if err != nil {
		return nil, fmt.Errorf("tomek links: %w", err)
	}
	search := &neighbors.Options{Workers: workers}
	first, err := ix.SearchSelf(small, 1, search)
	if err != nil {
		return nil, fmt.Errorf("tomek links: %w", err)
	}
	partners, within, partnerOf := nearestPartners(first, len(small), func(q, nn int) bool {
		return y[nn] != y[small[q]]
	})
	if len(partners) == 0 {
		return linked, nil
	}
	second, err := ix.SearchSelfWithin(partners, 1, within, search)
	if err != nil {
		return nil, fmt.Errorf("tomek links: %w", err)
	}
	for q, i := range small {
		if j := partnerOf[q]; j >= 0 {
			if nn, _ := second.Row(j); nn[0] == i {
				linked[i], linked[partners[j]] = true, true
			}
		}
	}
	return linked, nil
}

// sharedK is the number of neighbours the shared first search keeps per
// minority row (sharedFirst).
const sharedK = 16

// sharedMisses counts the rows sharedFirst's functions searched in the
// subset's own index (for tests).
var sharedMisses atomic.Int64

// sharedFirst returns, for each of the subsets (sorted row lists that all
// hold every minority row of x and are searched with opt), a first-search
// function for TomekOptions.first, or nil when sharing does not pay. The
// first search of Tomek links, the nearest neighbour of every minority row
// within its subset, costs minority rows x subset rows per subset; AER's
// global subsets share all minority rows and overlap in their majority
// rows, so the search runs once over their union: each minority row's
// sharedK nearest rows of the union, ordered by distance then row number
// like every search, and its nearest neighbours within a subset are the
// first of them that belong to it. Where fewer than k of them do, the
// function searches the subset's index for those rows (with ownWorkers;
// the shared search uses workers). The answers are those of the subset's
// own search, row for row.
func sharedFirst(x *mat.Dense, subsets [][]int, minority []int, workers, ownWorkers int) ([]func(*neighbors.Index, []int, int) (*neighbors.Result, error), error) {
	if len(subsets) < 2 || len(minority) == 0 {
		return nil, nil
	}
	var union []int
	total := 0
	for _, rows := range subsets {
		union = mergeSorted(union, rows)
		total += len(rows)
	}
	// Worth it when the union is clearly smaller than the subsets
	// together: misses cost a search of the subset's own index.
	if len(union) < 2 || 5*len(union) > 4*total {
		return nil, nil
	}
	// at[l][u] is the position in subset l of union row u, or -1.
	at := make([][]int32, len(subsets))
	for l, rows := range subsets {
		a := make([]int32, len(union))
		j := 0
		for u, r := range union {
			a[u] = -1
			if j < len(rows) && rows[j] == r {
				a[u] = int32(j)
				j++
			}
		}
		at[l] = a
	}
	// Positions of the minority rows in the union, in row order.
	minPos := make([]int, 0, len(minority))
	for _, r := range minority {
		u, ok := slices.BinarySearch(union, r)
		if !ok {
			return nil, nil // not reached: every subset holds the minority rows
		}
		minPos = append(minPos, u)
	}
	slices.Sort(minPos)
	ix, err := neighbors.NewRows(x, union)
	if err != nil {
		return nil, err
	}
	K := min(sharedK, len(union)-1)
	search := &neighbors.Options{Workers: workers}
	res, err := ix.SearchSelf(minPos, K, search)
	if err != nil {
		return nil, err
	}
	out := make([]func(*neighbors.Index, []int, int) (*neighbors.Result, error), len(subsets))
	for l := range subsets {
		a := at[l]
		out[l] = func(sub *neighbors.Index, small []int, k int) (*neighbors.Result, error) {
			// small lists the subset's minority positions in row order
			// when the minority is the smaller class; otherwise search.
			own := func(pos []int) (*neighbors.Result, error) {
				return sub.SearchSelf(pos, k, &neighbors.Options{Workers: ownWorkers})
			}
			if len(small) != len(minPos) || small[0] != int(a[minPos[0]]) {
				return own(small)
			}
			r := &neighbors.Result{K: k, Index: make([]int, len(small)*k), Dist: make([]float64, len(small)*k)}
			var miss []int // query numbers
			for q := range small {
				idx, dist := res.Row(q)
				got := 0
				for j, u := range idx {
					if p := a[u]; p >= 0 {
						r.Index[q*k+got] = int(p)
						r.Dist[q*k+got] = dist[j]
						got++
						if got == k {
							break
						}
					}
				}
				if got < k {
					miss = append(miss, q)
				}
			}
			if len(miss) > 0 {
				sharedMisses.Add(int64(len(miss)))
				pos := make([]int, len(miss))
				for i, q := range miss {
					pos[i] = small[q]
				}
				m, err := own(pos)
				if err != nil {
					return nil, err
				}
				for i, q := range miss {
					copy(r.Index[q*k:(q+1)*k], m.Index[i*k:(i+1)*k])
					copy(r.Dist[q*k:(q+1)*k], m.Dist[i*k:(i+1)*k])
				}
			}
			return r, nil
		}
	}
	return out, nil
}

// mergeSorted returns the union of the increasing lists a and b.
func mergeSorted(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// nearestPartners collects, for the n searched rows of first, the
// nearest neighbours that may end a link (link(q, nn) true): the
// partners, each listed once, the distance within which each partner's
// own search may stop (the nearest row that chose it), and for each
// searched row its partner's index (-1: none).
func nearestPartners(first *neighbors.Result, n int, link func(q, nn int) bool) (partners []int, within []float64, partnerOf []int) {
	partnerOf = make([]int, n)
	seen := make(map[int]int)
	for q := range n {
		partnerOf[q] = -1
		nn, dist := first.Row(q)
		if !link(q, nn[0]) {
			continue
		}
		j, ok := seen[nn[0]]
		if !ok {
			j = len(partners)
			seen[nn[0]] = j
			partners = append(partners, nn[0])
			within = append(within, dist[0])
		}
		within[j] = min(within[j], dist[0])
		partnerOf[q] = j
	}
	return partners, within, partnerOf
}

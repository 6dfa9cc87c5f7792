package resample

import (
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/aer-go/aer/internal/par"
	"github.com/aer-go/aer/internal/rng"
	"gonum.org/v1/gonum/mat"
)

// Subset kinds.
const (
	Global = "global"
	Local  = "local"
)

// Subset is one training subset of AER. Its exported counts marshal to
// JSON as the size report; the rows themselves do not.
type Subset struct {
	Component int    `json:"component"`
	Kind      string `json:"kind"` // Global or Local
	// Majority is the number of majority rows kept, Random of them drawn
	// at random (local subsets).
	Majority int `json:"majority"`
	Random   int `json:"random"`
	Minority int `json:"minority"`
	// TomekRemoved is the number of majority rows dropped as ends of Tomek
	// links (global subsets), len(Links).
	TomekRemoved int `json:"tomek_removed"`
	// Rows are the subset's row numbers of x, increasing.
	Rows []int `json:"-"`
	// Links are the Tomek links found inside the global subset before
	// cleaning.
	Links []Link `json:"-"`
}

// SubsetOptions tunes Subsets. A nil *SubsetOptions means the defaults.
type SubsetOptions struct {
	// LocalRandom sets the number of randomly drawn majority rows of a
	// local subset to floor(LocalRandom * m_k); 0 means 0.5 (the paper).
	LocalRandom float64
	// NoTomek keeps global subsets uncleaned.
	NoTomek bool
	// StrictTomek uses the paper's strict Tomek condition (TomekOptions.Strict).
	StrictTomek bool
	// Workers bounds the goroutines; 0 means GOMAXPROCS. Results do not
	// depend on it.
	Workers int
}

// Subsets builds AER's 2L training subsets (Algorithm 1): for each
// component l = 0..L-1, the global subset then the local subset, so
// element 2l is global and 2l+1 local.
//
// scores has one row per element of majority and one column per component:
// scores.At(i, l) ranks row majority[i] under component l, higher first
// (log N(x | mu_l, Sigma_l) by default, or a responsibility; the caller
// decides). Equal scores rank the smaller row number first. x is needed for
// the Tomek links of the global subsets; majority and minority are disjoint
// row numbers of x. The random part of local subset l draws from
// rng.Derive(seed, l).
//
// When m_k exceeds m_n, a local subset takes all majority rows and draws
// none; when the top m_k leave fewer than floor(0.5·m_k) rows, it draws all
// that remain.
func Subsets(x *mat.Dense, scores *mat.Dense, majority, minority []int, seed uint64, opt *SubsetOptions) ([]Subset, error) {
	if opt == nil {
		opt = &SubsetOptions{}
	}
	nx, _ := x.Dims()
	mn, L := scores.Dims()
	if mn != len(majority) {
		return nil, fmt.Errorf("resample: %d score rows for %d majority rows", mn, len(majority))
	}
	if len(majority) == 0 || L == 0 {
		return nil, fmt.Errorf("resample: need majority rows and components, have %d and %d", len(majority), L)
	}
	frac, err := localFraction(opt.LocalRandom)
	if err != nil {
		return nil, err
	}
	isMin, err := markMinority(nx, majority, minority)
	if err != nil {
		return nil, err
	}
	if err := checkScores(scores, majority); err != nil {
		return nil, err
	}
	minRows := slices.Clone(minority)
	slices.Sort(minRows)

	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	perComp := min(workers, L)
	tom := &TomekOptions{Strict: opt.StrictTomek, Workers: max(1, workers/perComp)}
	ranks, globals := rankComponents(scores, majority, minRows, perComp)
	toms, err := componentTomek(x, globals, majority, minRows, workers, tom, opt.NoTomek)
	if err != nil {
		return nil, err
	}

	out := make([]Subset, 2*L)
	errs := make([]error, L)
	par.For(perComp, L, func(l int) {
		out[2*l], out[2*l+1], errs[l] = component(x, ranks[l], globals[l], l, majority, minRows, isMin, seed, frac, opt.NoTomek, toms[l])
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// localFraction is SubsetOptions.LocalRandom with its default, 0.5.
func localFraction(v float64) (float64, error) {
	frac := v
	if frac == 0 {
		frac = 0.5
	}
	if frac < 0 || math.IsNaN(frac) || math.IsInf(frac, 0) {
		return 0, fmt.Errorf("resample: LocalRandom %v is not a non-negative number", v)
	}
	return frac, nil
}

// markMinority checks that the majority and minority rows are row
// numbers below nx and none is listed twice, and marks the minority ones.
func markMinority(nx int, majority, minority []int) ([]bool, error) {
	isMin := make([]bool, nx)
	seen := make([]bool, nx)
	for _, list := range [2][]int{majority, minority} {
		for _, i := range list {
			if i < 0 || i >= nx {
				return nil, fmt.Errorf("resample: row %d out of range [0, %d)", i, nx)
			}
			if seen[i] {
				return nil, fmt.Errorf("resample: row %d listed twice", i)
			}
			seen[i] = true
		}
	}
	for _, i := range minority {
		isMin[i] = true
	}
	return isMin, nil
}

// checkScores refuses a NaN score.
func checkScores(scores *mat.Dense, majority []int) error {
	_, L := scores.Dims()
	for i, row := range majority {
		for l := range L {
			if v := scores.At(i, l); math.IsNaN(v) {
				return fmt.Errorf("resample: score of row %d under component %d is NaN", row, l)
			}
		}
	}
	return nil
}

// rankComponents ranks the majority rows under every component (indices
// into majority, best first) and lists each component's global rows: its
// top len(majority)/L majority rows and the minority rows, sorted.
func rankComponents(scores *mat.Dense, majority, minRows []int, perComp int) (ranks, globals [][]int) {
	mn, L := scores.Dims()
	ranks = make([][]int, L)
	globals = make([][]int, L)
	par.For(perComp, L, func(l int) {
		ranks[l] = rankDesc(scores, l, majority) // indices into majority, best first
		g := make([]int, 0, mn/L+len(minRows))
		for _, i := range ranks[l][:mn/L] {
			g = append(g, majority[i])
		}
		g = append(g, minRows...)
		slices.Sort(g)
		globals[l] = g
	})
	return ranks, globals
}

// componentTomek is each component's Tomek options: tom, with the Tomek
// links' first search of its global rows, which the components share
// (sharedFirst), unless noTomek.
func componentTomek(x *mat.Dense, globals [][]int, majority, minRows []int, workers int, tom *TomekOptions, noTomek bool) ([]*TomekOptions, error) {
	toms := make([]*TomekOptions, len(globals))
	for l := range toms {
		toms[l] = tom
	}
	if noTomek {
		return toms, nil
	}
	firsts, err := sharedFirst(x, globals, minRows, workers, tom.Workers)
	if err != nil {
		return nil, fmt.Errorf("resample: tomek links: %w", err)
	}
	for l, f := range firsts {
		t := *tom
		t.first = f
		toms[l] = &t
	}
	// The shared search's index over the union (float64 rows and
	// int16 panels, float32 ones where a tile needs them: 1.2 to 1.7
	// GB at 6M rows) is garbage from here: collect
	// it before the subsets build their own, so that the process never
	// holds both (it was the 6M-row fit's peak, 0.6 GB above the rest).
	if _, cols := x.Dims(); firsts != nil && len(majority)*cols >= 1<<24 {
		runtime.GC()
	}
	return toms, nil
}

// component builds the global and local subsets of component l from its
// ranking of the majority rows and its global rows g (the top mn/L
// majority rows and the minority rows, sorted).
func component(x *mat.Dense, rank, g []int, l int, majority, minRows []int, isMin []bool, seed uint64, frac float64, noTomek bool, tom *TomekOptions) (global, local Subset, err error) {
	mn := len(majority)
	mk := len(minRows)
	rowsOf := func(idx []int) []int {
		r := make([]int, len(idx))
		for k, i := range idx {
			r[k] = majority[i]
		}
		return r
	}

	nTop := len(g) - mk
	global = Subset{Component: l, Kind: Global, Minority: mk, Rows: g}
	if !noTomek {
		links, err := tomek(x, g, func(i int) bool { return isMin[i] }, tom)
		if err != nil {
			return global, local, fmt.Errorf("resample: component %d: %w", l, err)
		}
		global.Links = links
		global.TomekRemoved = len(links)
		global.Rows = DropMajority(g, links)
	}
	global.Majority = nTop - global.TomekRemoved

	top := min(mk, mn)
	rest := rowsOf(rank[top:])
	// Clamped as a float: a huge local_random (1e18) overflowed the int.
	nRand := len(rest)
	if f := math.Floor(frac * float64(mk)); f < float64(nRand) {
		nRand = int(f)
	}
	drawn, err := Sample(rest, nRand, rng.Derive(seed, uint64(l)))
	if err != nil {
		return global, local, err // not reached: nRand <= len(rest)
	}
	loc := rowsOf(rank[:top])
	loc = append(loc, drawn...)
	loc = append(loc, minRows...)
	slices.Sort(loc)
	local = Subset{Component: l, Kind: Local, Majority: top + nRand, Random: nRand, Minority: mk, Rows: loc}
	return global, local, nil
}

package neighbors

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/aer-go/aer/internal/par"
	"gonum.org/v1/gonum/mat"
)

// ErrK is returned (wrapped) when k is not between 1 and the number of
// reference rows a query may use.
var ErrK = errors.New("neighbors: k out of range")

// symmetricMax bounds the rows of the symmetric all-rows search, whose
// per-worker state for every row costs about 100 + 24k bytes per row and
// worker.
const symmetricMax = 1 << 20

// Options tunes a search. A nil *Options means the defaults.
type Options struct {
	// Workers is the number of goroutines that share the query blocks;
	// 0 means runtime.GOMAXPROCS(0). Results do not depend on it.
	Workers int
	// Exhaustive forces the blocked scan of every reference row. By
	// default a search of many queries over many rows of moderate
	// dimension tries a k-d tree first and keeps it when it prunes (see
	// the package documentation). Results do not depend on it.
	Exhaustive bool
}

// tryTree reports whether a search of nq queries should try the tree.
func (o *Options) tryTree(ix *Index, nq int) bool {
	return (o == nil || !o.Exhaustive) && ix.n >= treeMin && ix.d <= treeMaxDim && nq >= treeMinQueries
}

func (o *Options) workers() int {
	if o == nil || o.Workers <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return o.Workers
}

// Index is a set of reference rows prepared for exact nearest-neighbour
// search. It is safe for concurrent searches.
type Index struct {
	n, d   int
	data   []float64 // n*d, row-major
	norms  []float64 // squared Euclidean norm of each row
	maxNrm float64   // largest squared norm

	// The k-d tree, built by the first search that tries it, or treeBad
	// when its probe showed that it does not prune here.
	// Reference rows in panels of 8 for the assembly scan (panel.go),
	// built by the first search that uses them.
	panelOnce sync.Once
	panels    []float64
	pnorms    []float64
	// The float32 copy for the float32 filter (panel32.go), and whether
	// the rows allow it.
	f32Once     sync.Once
	panel32Once sync.Once
	panels32    []float32
	pnorms32    []float32
	f32ok       bool
	// The int16 copy for the AVX2 6-query filter (panel16.go), its
	// quantization, and whether the rows allow it.
	panel16Once sync.Once
	panels16    []int16
	pnorms16    []int32
	q16         *quant16
	i16ok       bool

	treeMu  sync.Mutex
	tree    *kdTree
	treeBad bool
}

// New builds an index over all rows of x. Reference position p is row p.
func New(x *mat.Dense) (*Index, error) {
	return NewRows(x, nil)
}

// NewRows builds an index over the rows of x listed in rows (all rows when
// rows is nil). Reference position p is row rows[p] of x; ties in distance
// go to the smaller position, so pass rows in increasing order to break
// ties by row number.
func NewRows(x *mat.Dense, rows []int) (*Index, error) {
	r, c := x.Dims()
	if rows == nil {
		rows = make([]int, r)
		for i := range rows {
			rows[i] = i
		}
	}
	data := make([]float64, len(rows)*c)
	for p, i := range rows {
		if i < 0 || i >= r {
			return nil, fmt.Errorf("neighbors: row %d out of range [0, %d)", i, r)
		}
		mat.Row(data[p*c:(p+1)*c], i, x)
	}
	return newIndex(data, c, rows)
}

// NewFlat builds an index over the row-major n x d matrix data (copied).
func NewFlat(data []float64, d int) (*Index, error) {
	if d <= 0 || len(data)%d != 0 {
		return nil, fmt.Errorf("neighbors: %d values do not form rows of %d columns", len(data), d)
	}
	return newIndex(slices.Clone(data), d, nil)
}

// newIndex takes ownership of data; rows (may be nil) names rows in errors.
func newIndex(data []float64, d int, rows []int) (*Index, error) {
	if d <= 0 {
		return nil, fmt.Errorf("neighbors: reference rows have no columns")
	}
	n := len(data) / d
	ix := &Index{n: n, d: d, data: data, norms: make([]float64, n)}
	for p := range n {
		row := data[p*d : (p+1)*d]
		var s float64
		for _, v := range row {
			s += v * v
		}
		if math.IsNaN(s) || math.IsInf(s, 0) {
			name := p
			if rows != nil {
				name = rows[p]
			}
			return nil, fmt.Errorf("neighbors: reference row %d: %w", name, badRow(row))
		}
		ix.norms[p] = s
		ix.maxNrm = max(ix.maxNrm, s)
	}
	return ix, nil
}

// badRow describes why a row cannot be searched.
func badRow(row []float64) error {
	for j, v := range row {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("column %d is %v", j, v)
		}
	}
	return errors.New("squared norm overflows")
}

// Len returns the number of reference rows.
func (ix *Index) Len() int { return ix.n }

// Dim returns the number of columns.
func (ix *Index) Dim() int { return ix.d }

// Result holds the k nearest neighbours of each query, nearest first.
type Result struct {
	K int
	// Index[q*K+j] is the reference position of the (j+1)-th nearest
	// neighbour of query q.
	Index []int
	// Dist[q*K+j] is its Euclidean distance.
	Dist []float64
}

// Row returns the neighbours of query q and their distances.
func (r *Result) Row(q int) ([]int, []float64) {
	return r.Index[q*r.K : (q+1)*r.K], r.Dist[q*r.K : (q+1)*r.K]
}

// Search finds the k nearest reference rows of every row of query. When
// exclude is not nil it has one entry per query: the reference position the
// query must not return (the query's own position when the queries are
// reference rows), or -1 for none.
func (ix *Index) Search(query *mat.Dense, k int, exclude []int, opt *Options) (*Result, error) {
	nq, c := query.Dims()
	if c != ix.d {
		return nil, fmt.Errorf("neighbors: query has %d columns, index has %d", c, ix.d)
	}
	raw := query.RawMatrix()
	row := func(q int) []float64 { return raw.Data[q*raw.Stride : q*raw.Stride+c] }
	if err := checkQueries(nq, row); err != nil {
		return nil, err
	}
	return ix.search(nq, row, k, exclude, nil, opt)
}

func checkQueries(nq int, row func(int) []float64) error {
	for q := range nq {
		for j, v := range row(q) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("neighbors: query row %d: column %d is %v", q, j, v)
			}
		}
	}
	return nil
}

// SearchFlat is Search for a row-major query matrix with Dim() columns.
func (ix *Index) SearchFlat(query []float64, k int, exclude []int, opt *Options) (*Result, error) {
	if len(query)%ix.d != 0 {
		return nil, fmt.Errorf("neighbors: %d query values do not form rows of %d columns", len(query), ix.d)
	}
	nq := len(query) / ix.d
	row := func(q int) []float64 { return query[q*ix.d : (q+1)*ix.d] }
	if err := checkQueries(nq, row); err != nil {
		return nil, err
	}
	return ix.search(nq, row, k, exclude, nil, opt)
}

// SearchSelf finds the k nearest other reference rows of the reference rows
// at positions pos (all rows when pos is nil); each query excludes itself.
// With pos nil every pair of rows is computed once for both directions,
// which halves the work (up to symmetricMax rows).
func (ix *Index) SearchSelf(pos []int, k int, opt *Options) (*Result, error) {
	if pos == nil {
		if ix.n <= symmetricMax {
			return ix.searchAll(k, opt)
		}
		pos = make([]int, ix.n)
		for i := range pos {
			pos[i] = i
		}
	}
	for _, p := range pos {
		if p < 0 || p >= ix.n {
			return nil, fmt.Errorf("neighbors: position %d out of range [0, %d)", p, ix.n)
		}
	}
	return ix.search(len(pos), func(q int) []float64 { return ix.data[pos[q]*ix.d : (pos[q]+1)*ix.d] }, k, pos, nil, opt)
}

// SearchSelfWithin is SearchSelf for the rows at positions pos, for a
// caller that only needs the neighbours of a query q when no other
// reference row is nearer than within[q] (a Euclidean distance): the
// search may give up on q as soon as it finds another row certainly
// nearer, and then reports q's neighbours as position -1 at distance
// +Inf. Every other row of the result is SearchSelf's; in particular the
// answer for q is exact whenever its nearest neighbour's distance is at
// least within[q]. "Certainly" leaves a margin of the order of the
// rounding error: a row nearer by less may not end the search. Tomek
// links use it to check that a row's nearest neighbour is the row that
// chose it, which most rows of a dense class fail after a few reference
// blocks.
func (ix *Index) SearchSelfWithin(pos []int, k int, within []float64, opt *Options) (*Result, error) {
	if len(within) != len(pos) {
		return nil, fmt.Errorf("neighbors: %d bounds for %d queries", len(within), len(pos))
	}
	for _, p := range pos {
		if p < 0 || p >= ix.n {
			return nil, fmt.Errorf("neighbors: position %d out of range [0, %d)", p, ix.n)
		}
	}
	return ix.search(len(pos), func(q int) []float64 { return ix.data[pos[q]*ix.d : (pos[q]+1)*ix.d] }, k, pos, within, opt)
}

// search answers the queries; within (may be nil) is SearchSelfWithin's.
func (ix *Index) search(nq int, row func(int) []float64, k int, exclude []int, within []float64, opt *Options) (*Result, error) {
	if exclude != nil && len(exclude) != nq {
		return nil, fmt.Errorf("neighbors: %d exclusions for %d queries", len(exclude), nq)
	}
	if k < 1 || k > ix.n {
		return nil, fmt.Errorf("%w: k = %d with %d reference rows", ErrK, k, ix.n)
	}
	for q, e := range exclude {
		if e >= ix.n || e < -1 {
			return nil, fmt.Errorf("neighbors: query %d excludes position %d, not in [-1, %d)", q, e, ix.n)
		}
		if e >= 0 && k > ix.n-1 {
			return nil, fmt.Errorf("%w: k = %d but query %d may use only %d of %d reference rows", ErrK, k, q, ix.n-1, ix.n)
		}
	}
	res := &Result{K: k, Index: make([]int, nq*k), Dist: make([]float64, nq*k)}
	if nq == 0 {
		return res, nil
	}
	if opt.tryTree(ix, nq) && ix.searchTree(nq, row, k, exclude, opt, res) {
		return res, nil
	}
	qb, rb := scanBlocks(ix.d, nq, opt.workers())
	nblocks := (nq + qb - 1) / qb
	scanners := make([]*scanner, min(opt.workers(), nblocks))
	par.ForWorker(len(scanners), nblocks, func(w, b int) {
		if scanners[w] == nil {
			scanners[w] = newScanner(ix, k, qb, rb)
		}
		lo, hi := b*qb, min((b+1)*qb, nq)
		scanners[w].run(lo, hi, row, exclude, within, res)
	})
	return res, nil
}

// scanBlocks is blockSizes for the query scan of nq queries by workers
// goroutines: with the panel kernel the query block is a multiple of its
// 4 rows (and of the 3-row and 6-row tiles) and the reference block of its
// 8-row panels.
//
// With AVX2 the query block grows to up to 240 rows while that leaves at
// least 4 blocks per worker: the kernels keep the reference block in L2,
// and every query block streams all reference rows from memory once, so
// 240 rows instead of 60 read them a quarter as often (about 10% faster
// at 1M rows of 20 columns, where they do not fit in L3).
func scanBlocks(d, nq, workers int) (qb, rb int) {
	qb, rb = blockSizes(d)
	switch {
	case useAVX512:
		qb = max(8, min(64, 16384/(8*d))/8*8)
		rb = max(16, min(1024, 131072/(8*d))/16*16)
	case useAVX2:
		qb = max(4, min(60, 16384/(8*d))/12*12)
		if qb < 12 {
			qb = 4
		} else {
			per := (nq + 4*workers - 1) / (4 * workers)
			qb = max(qb, min(240, 98304/(8*d), (per+11)/12*12)/12*12)
		}
		// Multiples of 16 for the float32 kernel's panels.
		rb = max(16, min(1024, 131072/(8*d))/16*16)
	}
	return qb, rb
}

// blockSizes picks a query block of about 16 KiB (a multiple of the 3-row
// tile) and a reference block of about 128 KiB (even, for the 2-column
// tile), so one query block sits in L1 and one reference block in L2.
func blockSizes(d int) (qb, rb int) {
	qb = max(3, min(63, 16384/(8*d))/3*3)
	rb = max(2, min(1024, 131072/(8*d))/2*2)
	return qb, rb
}

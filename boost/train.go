package boost

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/hugepage"
	"github.com/aer-go/aer/internal/par"
	"github.com/aer-go/aer/internal/rng"
)

// Data is a training or validation set.
type Data struct {
	// X holds one row per example and one column per feature; NaN marks a
	// missing value.
	X *mat.Dense
	// Y holds the labels: 0 or 1 for Train, 0..k-1 for TrainMulti.
	Y []int
	// Weight holds non-negative sample weights; nil means 1 for every row.
	// A row of integer weight k counts as k copies of the row (0: as if
	// absent), down to the bin cuts when every feature has at most MaxBin
	// distinct values (TestIntegerWeightsRepeatRows).
	Weight []float64
	// Bins, when not nil, are X's feature bins made by NewBins from the
	// same X and Weight, with the same MaxBin as the Settings: several
	// trainings on the same rows then bin them once. Train checks their
	// shape and MaxBin.
	Bins *Bins
}

// Bins are the feature bins of a training matrix (quantile cuts and bin
// codes), which depend on the rows, their weights and MaxBin only.
type Bins struct {
	m      *matrix
	maxBin int
}

// NewBins bins the rows of x (NaN = missing) with row weights w (nil: 1)
// into at most s.MaxBin bins per feature (nil s: the defaults), as Train
// does, using s.Threads goroutines (the bins do not depend on them).
func NewBins(x *mat.Dense, w []float64, s *Settings) (*Bins, error) {
	set, err := s.resolved()
	if err != nil {
		return nil, err
	}
	d := Data{X: x, Y: make([]int, x.RawMatrix().Rows), Weight: w}
	if err := d.check("training set", -1); err != nil {
		return nil, err
	}
	return &Bins{m: newMatrix(x, w, set.MaxBin, set.Threads), maxBin: set.MaxBin}, nil
}

func (d *Data) check(what string, nf int) error { return d.checkClasses(what, nf, 2) }

// checkClasses is check for labels 0..k-1.
func (d *Data) checkClasses(what string, nf, k int) error {
	if d.X == nil {
		return fmt.Errorf("boost: %s: no data", what)
	}
	n, c := d.X.Dims()
	if nf >= 0 && c != nf {
		return fmt.Errorf("boost: %s has %d features, want %d", what, c, nf)
	}
	if len(d.Y) != n {
		return fmt.Errorf("boost: %s has %d rows but %d labels", what, n, len(d.Y))
	}
	if d.Weight != nil && len(d.Weight) != n {
		return fmt.Errorf("boost: %s has %d rows but %d weights", what, n, len(d.Weight))
	}
	for i, y := range d.Y {
		if k == 2 && y != 0 && y != 1 {
			return fmt.Errorf("boost: %s row %d: label %d is not 0 or 1", what, i, y)
		}
		if y < 0 || y >= k {
			return fmt.Errorf("boost: %s row %d: label %d is not in 0..%d", what, i, y, k-1)
		}
	}
	for i, w := range d.Weight {
		if !(w >= 0) || math.IsInf(w, 0) {
			return fmt.Errorf("boost: %s row %d: weight %v is not a finite non-negative number", what, i, w)
		}
	}
	raw := d.X.RawMatrix()
	for i := 0; i < n; i++ {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+c] {
			if math.IsInf(v, 0) {
				return fmt.Errorf("boost: %s row %d, feature %d: value %v is infinite", what, i, j, v)
			}
		}
	}
	return nil
}

// matrix returns the binned training rows: d.Bins's, checked against
// d's shape and s.MaxBin, or binned now.
func (d *Data) matrix(s *Settings) (*matrix, error) {
	n, nf := d.X.Dims()
	b := d.Bins
	if b == nil {
		return newMatrix(d.X, d.Weight, s.MaxBin, s.Threads), nil
	}
	if b.m.n != n || b.m.nf != nf || b.maxBin != s.MaxBin {
		return nil, fmt.Errorf("boost: bins of %d x %d rows with max_bin %d for %d x %d rows with max_bin %d", b.m.n, b.m.nf, b.maxBin, n, nf, s.MaxBin)
	}
	return b.m, nil
}

// EvalResult is the validation record of a training run.
type EvalResult struct {
	// Metric is LogLoss or AUC.
	Metric string `json:"metric"`
	// Curve holds the validation metric after each round.
	Curve []float64 `json:"curve"`
	// BestIteration is the 0-based round with the best metric; the model
	// keeps trees 0..BestIteration when training stopped early.
	BestIteration int `json:"best_iteration"`
	// BestScore is the metric at BestIteration.
	BestScore float64 `json:"best_score"`
	// Stopped tells whether early stopping ended training.
	Stopped bool `json:"stopped"`
}

// newMatrix bins x.
func newMatrix(x *mat.Dense, w []float64, maxBin, threads int) *matrix {
	n, nf := x.Dims()
	raw := x.RawMatrix()
	m := &matrix{n: n, nf: nf, cuts: make([][]float64, nf), minVal: make([]float64, nf),
		nb: make([]int32, nf), off: make([]int32, nf+1), dense: true}
	stride := max(1, (n+sketchRows-1)/sketchRows)
	nblocks := (n + block - 1) / block
	// Which features have missing values: one row-major pass, by blocks
	// of rows (a pass per feature down the columns would read the whole
	// matrix once per feature).
	blockMissing := make([][]bool, nblocks)
	par.For(threads, nblocks, func(b int) {
		miss := make([]bool, nf)
		for i := b * block; i < min(n, (b+1)*block); i++ {
			for f, x := range raw.Data[i*raw.Stride : i*raw.Stride+nf] {
				if x != x {
					miss[f] = true
				}
			}
		}
		blockMissing[b] = miss
	})
	missing := make([]bool, nf)
	for _, miss := range blockMissing {
		for f, v := range miss {
			missing[f] = missing[f] || v
		}
	}
	// The cuts of each feature from every stride-th row, gathered in one
	// row-major pass (a strided pass per feature would fetch a cache line
	// per value, once per feature) into one column per feature.
	ns := (n + stride - 1) / stride
	sample := make([]float64, nf*ns)
	par.For(threads, (ns+block-1)/block, func(b int) {
		for k := b * block; k < min(ns, (b+1)*block); k++ {
			i := k * stride
			for f, x := range raw.Data[i*raw.Stride : i*raw.Stride+nf] {
				sample[f*ns+k] = x
			}
		}
	})
	par.For(threads, nf, func(f int) {
		// The feature's non-missing values in row order, compacted in place.
		col := sample[f*ns : (f+1)*ns]
		v := col[:0]
		var vw []float64
		if w != nil {
			vw = make([]float64, 0, ns)
		}
		for k, x := range col {
			if math.IsNaN(x) {
				continue
			}
			v = append(v, x)
			if w != nil {
				vw = append(vw, w[k*stride])
			}
		}
		mb := maxBin
		if missing[f] {
			mb = min(maxBin, 255) // keep a code for missing values
		}
		m.cuts[f], m.minVal[f] = cutsFor(v, vw, mb)
		m.nb[f] = int32(len(m.cuts[f]))
	})
	for f := 0; f < nf; f++ {
		if missing[f] {
			m.dense = false
		}
		m.off[f+1] = m.off[f] + m.nb[f] + 1
	}
	m.histLen = int(m.off[nf])
	m.bcols, m.boff, m.bLen = nf, m.off, m.histLen
	// Bins in both layouts at once: row-major for the histograms,
	// feature-major for the partitions.
	m.bins = hugepage.Bytes(n * nf)
	m.cols = hugepage.Bytes(n * nf)
	tabs := make([]cutTable, nf)
	for f := range tabs {
		tabs[f] = *newCutTable(m.cuts[f])
	}
	par.For(threads, nblocks, func(b int) {
		lo, hi := b*block, min(n, (b+1)*block)
		// Groups of four features by the vector kernel, where there is
		// one, for the rows it takes; then the rest as below.
		done := make([]int, (nf+3)/4)
		for f := 0; f+4 <= nf; f += 4 {
			nb := [4]int64{int64(m.nb[f]), int64(m.nb[f+1]), int64(m.nb[f+2]), int64(m.nb[f+3])}
			done[f/4] = binRows4(tabs[f:f+4], raw.Data[lo*raw.Stride+f:], raw.Stride, m.bins[lo*nf+f:], nf, &nb, hi-lo)
		}
		for i := lo; i < hi; i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+nf]
			out := m.bins[i*nf : i*nf+nf]
			f := 0
			for ; f+4 <= nf; f += 4 {
				if i-lo < done[f/4] {
					continue
				}
				x0, x1, x2, x3 := row[f], row[f+1], row[f+2], row[f+3]
				c0, c1, c2, c3 := bin4(&tabs[f], &tabs[f+1], &tabs[f+2], &tabs[f+3], x0, x1, x2, x3)
				// A feature without values has no cuts: every code is
				// nb = 0, which its all-+Inf table gives too.
				if x0 != x0 {
					c0 = int(m.nb[f])
				}
				if x1 != x1 {
					c1 = int(m.nb[f+1])
				}
				if x2 != x2 {
					c2 = int(m.nb[f+2])
				}
				if x3 != x3 {
					c3 = int(m.nb[f+3])
				}
				out[f], out[f+1], out[f+2], out[f+3] = uint8(c0), uint8(c1), uint8(c2), uint8(c3)
			}
			for ; f < nf; f++ {
				c := bin1(&tabs[f], row[f])
				if row[f] != row[f] {
					c = int(m.nb[f])
				}
				out[f] = uint8(c)
			}
			for f, c := range out {
				m.cols[f*n+i] = c
			}
		}
	})
	m.planBundles(missing, threads)
	return m
}

// Errors returned by Train.
var (
	// ErrNoData: the training set has no rows or no features.
	ErrNoData = errors.New("boost: training set is empty")
	// ErrNoValidation: early stopping was asked for without a validation set.
	ErrNoValidation = errors.New("boost: early_stopping_rounds needs a validation set")
)

// Train fits a boosted-tree model. valid, if not nil, is evaluated after
// every round (Settings.EvalMetric) and drives early stopping. s may be
// nil for XGBoost's defaults. Training stops with ctx's error when ctx
// is cancelled.
func Train(ctx context.Context, train Data, valid *Data, s *Settings) (*Model, error) {
	set, err := s.resolved()
	if err != nil {
		return nil, err
	}
	if err := train.check("training set", -1); err != nil {
		return nil, err
	}
	n, nf := train.X.Dims()
	if n == 0 || nf == 0 {
		return nil, ErrNoData
	}
	if valid != nil {
		if err := valid.check("validation set", nf); err != nil {
			return nil, err
		}
	} else if set.EarlyStoppingRounds > 0 {
		return nil, ErrNoValidation
	}

	if set.BalancedPosWeight {
		var neg, pos float64
		for i, y := range train.Y {
			wi := 1.0
			if train.Weight != nil {
				wi = train.Weight[i]
			}
			if y == 1 {
				pos += wi
			} else {
				neg += wi
			}
		}
		if !(pos > 0 && neg > 0) {
			return nil, fmt.Errorf("boost: scale_pos_weight=balanced needs rows of both classes with positive weight (negative %v, positive %v)", neg, pos)
		}
		set.ScalePosWeight = neg / pos
	}
	// Row weights with the positive-class multiplier folded in; nil when
	// every row weighs 1 (the common case, which skips the multiply).
	var w []float64
	if train.Weight != nil || set.ScalePosWeight != 1 {
		w = make([]float64, n)
		for i := range w {
			w[i] = 1
			if train.Weight != nil {
				w[i] = train.Weight[i]
			}
			if train.Y[i] == 1 {
				w[i] *= set.ScalePosWeight
			}
		}
	}
	mx, err := train.matrix(&set)
	if err != nil {
		return nil, err
	}
	g := newGrower(mx, &set)
	g.w = w
	lossFn := rowGrad(&set)

	model := &Model{Settings: set, NumFeatures: nf, BaseMargin: logit(set.BaseScore)}
	margin := hugepage.Float64s(n)
	for i := range margin {
		margin[i] = model.BaseMargin
	}
	var vmargin []float64
	var ev *EvalResult
	if valid != nil {
		vn, _ := valid.X.Dims()
		vmargin = make([]float64, vn)
		for i := range vmargin {
			vmargin[i] = model.BaseMargin
		}
		ev = &EvalResult{Metric: set.EvalMetric, BestIteration: -1}
		model.Eval = ev
	}
	r := rng.Derive(set.Seed, 1)
	nblocks := (n + block - 1) / block
	gradErr := make([]error, nblocks)
	// When the last tree was grown on every row, its margin update is
	// pending: leafOf[i] indexes the value in leafVal that row i adds to
	// margin[i], applied block by block just before the block's gradients
	// (a sequential pass, while the block is in cache) instead of a
	// scattered read-modify-write of the margins at the end of the round;
	// each row still adds its one value, so the sums are the same.
	var leafOf []uint8
	var leafVal [256]float64
	pending := false
	for round := 0; round < set.NEstimators; round++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rows := drawTree(r, &set, g.featOK, g.idx)
		// Gradients: for the logistic loss on all rows, block by block
		// as the root's histogram is built (grower.rootGrad).
		grad := func(b int) {
			if pending {
				// Subslices of one length: no bounds checks in the loop
				// (leafVal has 256 entries, one per code).
				lo, hi := b*block, min(n, (b+1)*block)
				mg := margin[lo:hi]
				codes := leafOf[lo:hi][:len(mg)]
				for i, c := range codes {
					mg[i] += leafVal[c]
				}
			}
			if set.Objective == Logistic {
				// The common case: finite margins give finite gradients.
				lo, hi := b*block, min(n, (b+1)*block)
				logisticGrad(g.gp[lo:hi], margin[lo:hi], train.Y[lo:hi])
				return
			}
			for i := b * block; i < min(n, (b+1)*block); i++ {
				gr, hs := lossFn(margin[i], train.Y[i])
				if math.IsNaN(gr) || math.IsNaN(hs) || math.IsInf(gr, 0) || math.IsInf(hs, 0) {
					gradErr[b] = fmt.Errorf("boost: objective gave gradient %v, hessian %v at row %d (margin %v)", gr, hs, i, margin[i])
				}
				g.gp[i] = gpair{float32(gr), float32(hs)}
			}
		}
		g.rootGrad = nil
		if set.Objective == Logistic && rows == n {
			g.rootGrad = func(lo, _ int) { grad(lo / block) }
		} else {
			par.For(set.Threads, nblocks, grad)
			if err := errors.Join(gradErr...); err != nil {
				return nil, err
			}
		}
		tree, leaves, last := g.grow(rows)
		pending = false
		if marginPending && rows == n && len(leaves)+2*len(last) <= len(leafVal) {
			// Every row is in a leaf's range or a last split's: the update
			// becomes pending (see leafOf).
			if leafOf == nil {
				leafOf = make([]uint8, n)
			}
			for k, lf := range leaves {
				leafVal[k] = tree.Value[lf.id]
			}
			for k, nd := range last {
				li := tree.Left[nd.id]
				leafVal[len(leaves)+2*k] = tree.Value[li]
				leafVal[len(leaves)+2*k+1] = tree.Value[li+1]
			}
			par.For(set.Threads, len(leaves), func(k int) {
				lf := leaves[k]
				for _, r := range g.idx[lf.begin:lf.end] {
					leafOf[r] = uint8(k)
				}
			})
			jobs := lastJobs(last, len(leaves))
			par.For(set.Threads, len(jobs), func(k int) {
				j := &jobs[k]
				left := leftTable(mx, &j.nd.best)
				col := mx.cols[j.nd.best.feat*n : (j.nd.best.feat+1)*n]
				codes := [2]uint8{uint8(j.nl + 1), uint8(j.nl)} // right, left
				for _, r := range g.idx[j.lo:j.hi] {
					leafOf[r] = codes[b2i(left[col[r]])]
				}
			})
			pending = true
		} else {
			g.updateAllMargins(margin, tree, leaves, last, rows, train.X)
		}
		model.Trees = append(model.Trees, *tree)
		if set.Progress != nil {
			set.Progress(round+1, set.NEstimators)
		}

		if valid != nil {
			addTree(vmargin, tree, valid.X, nil, set.Threads)
			if ev.record(round, evalMetric(set.EvalMetric, vmargin, valid.Y, valid.Weight), set.EarlyStoppingRounds) {
				model.Trees = model.Trees[:ev.BestIteration+1]
				break
			}
		}
	}
	model.compile()
	return model, nil
}

// marginPending enables the pending margin updates (see leafOf); tests
// turn it off to compare with the direct updates.
var marginPending = true

// lastJobs splits the rows of the last splits into blocks; each job's nl
// is first + 2*(the split's index in last), the slot of its left child.
func lastJobs(last []*gnode, first int) []partJob {
	var jobs []partJob
	for k, nd := range last {
		for lo := nd.begin; lo < nd.end; lo += block {
			jobs = append(jobs, partJob{nd: nd, lo: lo, hi: min(lo+block, nd.end), nl: first + 2*k})
		}
	}
	return jobs
}

// drawTree draws from r the features (featOK) and the rows (idx[:rows],
// in order: the root's rows) of one tree, as s.ColsampleByTree and
// s.Subsample ask, and returns rows: drawFeatures, then drawRows.
func drawTree(r *rand.Rand, s *Settings, featOK []bool, idx []int32) (rows int) {
	drawFeatures(r, s, featOK)
	return drawRows(r, s, idx)
}

// drawFeatures sets featOK[f] for the features one tree may split on,
// drawn from r when s.ColsampleByTree < 1.
func drawFeatures(r *rand.Rand, s *Settings, featOK []bool) {
	nf := len(featOK)
	for f := range featOK {
		featOK[f] = s.ColsampleByTree >= 1
	}
	if s.ColsampleByTree < 1 {
		k := max(1, int(math.Round(s.ColsampleByTree*float64(nf))))
		for _, f := range r.Perm(nf)[:k] {
			featOK[f] = true
		}
	}
}

// drawRows puts the rows of one tree in idx[:rows], in order, and
// returns rows: each of the len(idx) rows with probability s.Subsample,
// drawn from r (at least one row), or all of them, without drawing,
// when s.Subsample is 1.
func drawRows(r *rand.Rand, s *Settings, idx []int32) (rows int) {
	n := len(idx)
	if s.Subsample < 1 {
		rows = 0
		for i := 0; i < n; i++ {
			if r.Float64() < s.Subsample {
				idx[rows] = int32(i)
				rows++
			}
		}
		if rows == 0 {
			idx[0] = int32(r.IntN(n))
			rows = 1
		}
		return rows
	}
	par.For(s.Threads, (n+block-1)/block, func(b int) {
		lo := b * block
		ids := idx[lo:min(n, lo+block)]
		for k := range ids {
			ids[k] = int32(lo + k)
		}
	})
	return n
}

// updateAllMargins adds the tree, grown on the rows g.idx[:rows], to the
// margins of every row of x (the training rows): those it was grown on
// by updateMargins, the others (rows < n, when rows were sampled) by
// walking it.
func (g *grower) updateAllMargins(margin []float64, tree *Tree, leaves, last []*gnode, rows int, x *mat.Dense) {
	g.updateMargins(margin, tree, leaves, last)
	n := len(margin)
	if rows >= n {
		return
	}
	in := make([]bool, n)
	for _, r := range g.idx[:rows] {
		in[r] = true
	}
	addTree(margin, tree, x, in, g.threads)
}

// addTree adds the leaf value t gives each row i of x to margin[i],
// except for the rows where skip (nil: none) is true.
func addTree(margin []float64, t *Tree, x *mat.Dense, skip []bool, threads int) {
	raw := x.RawMatrix()
	nf := raw.Cols
	par.For(threads, (len(margin)+block-1)/block, func(b int) {
		for i := b * block; i < min(len(margin), (b+1)*block); i++ {
			if skip == nil || !skip[i] {
				margin[i] += t.Value[t.Leaf(raw.Data[i*raw.Stride:i*raw.Stride+nf])]
			}
		}
	})
}

// updateMargins adds the tree's leaf values to the margins of the rows
// it was grown on: from the leaves' row ranges, and for the rows of a
// last split (never partitioned) by routing them here.
func (g *grower) updateMargins(margin []float64, tree *Tree, leaves, last []*gnode) {
	m := g.m
	par.For(g.threads, len(leaves), func(k int) {
		lf := leaves[k]
		v := tree.Value[lf.id]
		for _, r := range g.idx[lf.begin:lf.end] {
			margin[r] += v
		}
	})
	jobs := lastJobs(last, 0)
	par.For(g.threads, len(jobs), func(k int) {
		j := &jobs[k]
		left := leftTable(m, &j.nd.best)
		col := m.cols[j.nd.best.feat*m.n : (j.nd.best.feat+1)*m.n]
		li := tree.Left[j.nd.id]
		vals := [2]float64{tree.Value[li+1], tree.Value[li]} // right, left
		for _, r := range g.idx[j.lo:j.hi] {
			margin[r] += vals[b2i(left[col[r]])]
		}
	})
}

// record adds round's validation score to ev's curve, keeps the best
// round (better for ev.Metric), and tells whether training stops early:
// patience > 0 rounds without a better score (ev.Stopped is then set).
func (ev *EvalResult) record(round int, score float64, patience int) bool {
	ev.Curve = append(ev.Curve, score)
	if ev.BestIteration < 0 || better(ev.Metric, score, ev.BestScore) {
		ev.BestIteration, ev.BestScore = round, score
	}
	if patience > 0 && round-ev.BestIteration >= patience {
		ev.Stopped = true
		return true
	}
	return false
}

func better(metric string, a, b float64) bool {
	if metric == AUC {
		return a > b
	}
	return a < b
}

func evalMetric(metric string, margin []float64, y []int, w []float64) float64 {
	if metric == AUC {
		return rocAUC(margin, y)
	}
	return logLoss(margin, y, w)
}

// logLoss is the (weighted) mean negative log-likelihood of labels y
// under probabilities sigmoid(margin).
func logLoss(margin []float64, y []int, w []float64) float64 {
	s, sw := 0.0, 0.0
	for i, m := range margin {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		if y[i] == 1 {
			s -= wi * logSigmoid(m)
		} else {
			s -= wi * logSigmoid(-m)
		}
		sw += wi
	}
	if sw == 0 {
		return 0
	}
	return s / sw
}

// rocAUC is the area under the ROC curve of scores for labels y, ties
// counted one half (the Mann-Whitney statistic); 0.5 with one class only.
func rocAUC(score []float64, y []int) float64 {
	idx := make([]int, len(score))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return score[idx[a]] < score[idx[b]] })
	var npos, nneg, rankSum float64
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && score[idx[j]] == score[idx[i]] {
			j++
		}
		avg := float64(i+j+1) / 2 // mean 1-based rank of the tie group
		for k := i; k < j; k++ {
			if y[idx[k]] == 1 {
				rankSum += avg
				npos++
			} else {
				nneg++
			}
		}
		i = j
	}
	if npos == 0 || nneg == 0 {
		return 0.5
	}
	return (rankSum - npos*(npos+1)/2) / (npos * nneg)
}

// Softmax is the objective a MultiModel's Settings record: XGBoost's
// multi:softprob. It is not a value of Settings.Objective for Train.
const Softmax = "softmax"

// MLogLoss is the validation metric of TrainMulti (XGBoost's mlogloss):
// the weighted mean of -log p, p the probability of the row's class.
const MLogLoss = "mlogloss"

// MaxClasses bounds the number of classes of TrainMulti: each class
// takes a tree a round and a gradient pair a row.
const MaxClasses = 10_000

// CheckClasses reports the first setting of s that multi-class training
// refuses: a scale_pos_weight other than 1, an objective other than the
// logistic loss (focal, weighted, custom) or a parameter of one, the AUC
// validation metric. The softmax loss takes the place of the logistic
// one; nil s is the defaults.
func CheckClasses(s *Settings) error {
	if s == nil {
		return nil
	}
	bad := func(name string, v any) error {
		return fmt.Errorf("boost: %s = %v does not apply to multi-class training", name, v)
	}
	switch {
	case s.BalancedPosWeight:
		return bad("scale_pos_weight", "balanced")
	case s.ScalePosWeight != 0 && s.ScalePosWeight != 1:
		return bad("scale_pos_weight", s.ScalePosWeight)
	case s.Objective != "" && s.Objective != Logistic:
		return bad("objective", s.Objective)
	case s.Gradient != nil:
		return bad("objective", "a custom gradient")
	case s.FocalGamma != 0:
		return bad("focal_gamma", s.FocalGamma)
	case s.FocalAlpha != 0:
		return bad("focal_alpha", s.FocalAlpha)
	case s.WeightedAlpha != 0 && s.WeightedAlpha != 1:
		return bad("weighted_alpha", s.WeightedAlpha)
	case s.EvalMetric == AUC:
		return bad("eval_metric", s.EvalMetric)
	}
	return nil
}

// TrainMulti fits a multi-class boosted-tree model, XGBoost's
// multi:softprob, on train, whose labels are 0..k-1 (2 <= k <=
// MaxClasses). Each round computes the softmax probabilities p_c of
// every row from the current margins, then grows one tree per class c,
// as Train grows one, from the gradients p_c - [y = c] and the hessians
// max(2 p_c (1 - p_c), 1e-16), times the row weights; every class's
// margin starts from Settings.BaseScore (not its logit: XGBoost's
// base_score, which cancels in the probabilities). The trees of a round
// are grown in parallel, each drawing its features and rows (ColsampleByTree,
// Subsample) from the one seeded stream in class order, so the model
// does not depend on Settings.Threads. valid, if not nil, is evaluated
// after every round (MLogLoss) and drives early stopping. CheckClasses
// lists the settings refused. Training stops with ctx's error when ctx
// is cancelled.
func TrainMulti(ctx context.Context, train Data, valid *Data, k int, s *Settings) (*MultiModel, error) {
	if err := CheckClasses(s); err != nil {
		return nil, err
	}
	set, err := s.resolved()
	if err != nil {
		return nil, err
	}
	if k < 2 || k > MaxClasses {
		return nil, fmt.Errorf("boost: %d classes, want 2 to %d", k, MaxClasses)
	}
	if err := train.checkClasses("training set", -1, k); err != nil {
		return nil, err
	}
	n, nf := train.X.Dims()
	if n == 0 || nf == 0 {
		return nil, ErrNoData
	}
	if valid != nil {
		if err := valid.checkClasses("validation set", nf, k); err != nil {
			return nil, err
		}
	} else if set.EarlyStoppingRounds > 0 {
		return nil, ErrNoValidation
	}
	set.Objective, set.EvalMetric = Softmax, MLogLoss
	mx, err := train.matrix(&set)
	if err != nil {
		return nil, err
	}
	// One grower per tree grown at once, each with its share of the
	// threads; the trees do not depend on either number, nor on which
	// grower grows which.
	ng := min(k, set.Threads)
	gset := set
	gset.Threads = max(1, set.Threads/ng)
	growers := make([]*grower, ng)
	for i := range growers {
		growers[i] = newGrower(mx, &gset)
		// Each tree takes its class's pairs from gp below.
		growers[i].gp = nil
		growers[i].w = train.Weight
	}

	model := &MultiModel{Settings: set, nf: nf, Base: make([]float64, k)}
	for c := range model.Base {
		model.Base[c] = set.BaseScore
	}
	// Margins and gradient pairs class by class: class c's are
	// [c*n, (c+1)*n), what a grower takes.
	margin := hugepage.Float64s(k * n)
	for c := range k {
		for i := range n {
			margin[c*n+i] = model.Base[c]
		}
	}
	gp := make([]gpair, k*n)
	var vmargin []float64
	var ev *EvalResult
	vn := 0
	if valid != nil {
		vn, _ = valid.X.Dims()
		vmargin = make([]float64, k*vn)
		for c := range k {
			for i := range vn {
				vmargin[c*vn+i] = model.Base[c]
			}
		}
		ev = &EvalResult{Metric: MLogLoss, BestIteration: -1}
		model.Eval = ev
	}
	// The features and rows of each class's tree, drawn in class order
	// from one stream before the trees are grown.
	r := rng.Derive(set.Seed, 1)
	feats := make([][]bool, k)
	sampled := make([][]int32, k)
	rows := make([]int, k)
	for c := range k {
		feats[c] = make([]bool, nf)
		if set.Subsample < 1 {
			sampled[c] = make([]int32, n)
		}
	}
	// The growers, taken by the trees as they start.
	pool := make(chan *grower, ng)
	for _, g := range growers {
		pool <- g
	}
	nblocks := (n + block - 1) / block
	for round := 0; round < set.NEstimators; round++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		par.For(set.Threads, nblocks, func(b int) {
			softmaxGrad(gp, margin, train.Y, n, k, b*block, min(n, (b+1)*block))
		})
		for c := range k {
			drawFeatures(r, &set, feats[c])
			rows[c] = n
			if sampled[c] != nil {
				rows[c] = drawRows(r, &set, sampled[c])
			}
		}
		trees := make([]Tree, k)
		par.For(ng, k, func(c int) {
			g := <-pool
			defer func() { pool <- g }()
			g.featOK, g.gp = feats[c], gp[c*n:(c+1)*n]
			if sampled[c] != nil {
				copy(g.idx, sampled[c][:rows[c]])
			} else {
				drawRows(nil, g.s, g.idx) // all rows: draws nothing
			}
			tree, leaves, last := g.grow(rows[c])
			g.updateAllMargins(margin[c*n:(c+1)*n], tree, leaves, last, rows[c], train.X)
			trees[c] = *tree
		})
		model.Trees = append(model.Trees, trees)
		if set.Progress != nil {
			set.Progress(round+1, set.NEstimators)
		}
		if valid != nil {
			for c := range k {
				addTree(vmargin[c*vn:(c+1)*vn], &trees[c], valid.X, nil, set.Threads)
			}
			if ev.record(round, multiLogLoss(vmargin, valid.Y, valid.Weight, k), set.EarlyStoppingRounds) {
				model.Trees = model.Trees[:ev.BestIteration+1]
				break
			}
		}
	}
	model.classes()
	return model, nil
}

// softmaxGrad sets the gradient pairs of rows lo..hi-1 of every class
// (class-major, n rows a class, as margin) for labels y: p - [y = c] and
// max(2 p (1 - p), 1e-16), p the softmax of the row's margins
// (XGBoost's SoftmaxMultiClassObj; row weights are applied as the pairs
// are added).
func softmaxGrad(gp []gpair, margin []float64, y []int, n, k, lo, hi int) {
	e := make([]float64, k)
	for i := lo; i < hi; i++ {
		mx := margin[i]
		for c := 1; c < k; c++ {
			mx = max(mx, margin[c*n+i])
		}
		sum := 0.0
		for c := range e {
			e[c] = math.Exp(margin[c*n+i] - mx)
			sum += e[c]
		}
		for c, v := range e {
			p := v / sum
			gr := p
			if y[i] == c {
				gr--
			}
			hs := 2 * p * (1 - p)
			if hs < minHess {
				hs = minHess
			}
			gp[c*n+i] = gpair{float32(gr), float32(hs)}
		}
	}
}

// multiLogLoss is the (weighted) mean of -log p, p the softmax
// probability of the row's class, for class-major margins (k classes).
func multiLogLoss(margin []float64, y []int, w []float64, k int) float64 {
	n := len(y)
	s, sw := 0.0, 0.0
	for i, yi := range y {
		mx := margin[i]
		for c := 1; c < k; c++ {
			mx = max(mx, margin[c*n+i])
		}
		sum := 0.0
		for c := range k {
			sum += math.Exp(margin[c*n+i] - mx)
		}
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		s += wi * (mx + math.Log(sum) - margin[yi*n+i])
		sw += wi
	}
	if sw == 0 {
		return 0
	}
	return s / sw
}

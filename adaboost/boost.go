package adaboost

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/internal/softmax"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/tree"
)

// eps is numpy's finfo(float64).eps: scikit-learn clips the trees'
// probabilities below at eps before taking their log, and the boosting
// weights below at eps before each round (scikit-learn issue #20320).
const eps = 0x1p-52

// Settings configure one boosted ensemble: scikit-learn 1.2's
// AdaBoostClassifier(algorithm="SAMME.R"), or with UnderSample
// imbalanced-learn 0.10's RUSBoostClassifier. The zero value is
// AdaBoostClassifier(): up to 50 rounds of stumps, learning rate 1.
type Settings struct {
	// NEstimators is the largest number of rounds; 0 means 50. Boosting
	// stops earlier when a round's tree classifies every row right or the
	// weights stop summing to a finite positive number.
	NEstimators int
	// LearningRate scales the exponent of each weight update; 0 means 1.
	// As in scikit-learn's SAMME.R it does not scale the trees' terms in
	// the decision.
	LearningRate float64
	// Tree are the settings of every round's tree; nil means stumps,
	// tree.Settings{MaxDepth: 1}. A "balanced" class weight is computed
	// from the class counts of the rows the tree is grown on, as
	// scikit-learn's trees do, not from their boosting weights.
	Tree *tree.Settings
	// UnderSample grows each round's tree on a random under-sample of
	// the larger class to the size of the smaller one (class 0 when they
	// are equal), the rows keeping their boosting weights, while the error
	// and the weight update take every row: imbalanced-learn's RUSBoost.
	UnderSample bool
	// Replacement draws the under-sample with replacement.
	Replacement bool
}

// Resolved returns the settings with every default filled in; the tree
// settings are a copy.
func (s Settings) Resolved() Settings {
	if s.NEstimators == 0 {
		s.NEstimators = 50
	}
	if s.LearningRate == 0 {
		s.LearningRate = 1
	}
	t := tree.Settings{MaxDepth: 1}
	if s.Tree != nil {
		t = *s.Tree
	}
	t = t.Resolved()
	s.Tree = &t
	return s
}

// Check validates the settings.
func (s Settings) Check() error {
	r := s.Resolved()
	if r.NEstimators < 1 || r.NEstimators > learn.MaxTrees {
		return fmt.Errorf("%w: n_estimators %d is not in [1, %d]", learn.ErrParam, s.NEstimators, learn.MaxTrees)
	}
	if !(r.LearningRate > 0) || math.IsInf(r.LearningRate, 0) {
		return fmt.Errorf("%w: learning_rate %v is not a finite positive number", learn.ErrParam, s.LearningRate)
	}
	return r.Tree.Check()
}

// Ensemble is a fitted SAMME.R ensemble. Its decision for a row is the
// mean over its trees of log p1 - log p0, the class probabilities of the
// leaf the row reaches clipped below at eps; its probability of class 1
// is the logistic function of the decision (scikit-learn's
// decision_function and predict_proba for two classes).
type Ensemble struct {
	NumFeatures int
	Trees       []*tree.Tree
	// Errors holds each round's weighted training error
	// (scikit-learn's estimator_errors_).
	Errors []float64
	// Terms[k][node] is log p1 - log p0 at a leaf of tree k (0 at a
	// split). p0 and p1 are each class's share of the leaf's weight, so
	// that a nearly pure leaf keeps the precision of its smaller class,
	// which 1 - Value would lose.
	Terms [][]float64
}

// leafTerm returns the term of a leaf whose class weights are s0 and s1
// (clipped probabilities, as scikit-learn's _samme_proba).
func leafTerm(s0, s1 float64) float64 {
	lp1, lp0 := logProba(s0, s1)
	return lp1 - lp0
}

// logProba returns the logs of the probabilities of class 1 and class 0
// of a leaf whose class weights are s0 and s1, clipped below at eps.
func logProba(s0, s1 float64) (lp1, lp0 float64) {
	n := s0 + s1
	return math.Log(max(s1/n, eps)), math.Log(max(s0/n, eps))
}

// Decision returns the ensemble's decision for one row: positive for
// class 1, at most log(1/eps) = 36.04 in size.
func (e *Ensemble) Decision(row []float64) float64 {
	s := 0.0
	for k, t := range e.Trees {
		s += e.Terms[k][t.Leaf(row)]
	}
	return s / float64(len(e.Trees))
}

// PredictRow returns the probability of class 1 for one row.
func (e *Ensemble) PredictRow(row []float64) float64 { return sigmoid(e.Decision(row)) }

func sigmoid(d float64) float64 { return 1 / (1 + math.Exp(-d)) }

// Importance returns scikit-learn's AdaBoostClassifier
// feature_importances_: the mean over trees of each tree's normalised
// impurity decrease (SAMME.R weighs every tree 1).
func (e *Ensemble) Importance() []float64 {
	imp := make([]float64, e.NumFeatures)
	one := make([]float64, e.NumFeatures)
	for _, t := range e.Trees {
		clear(one)
		t.Importance(one)
		tree.Normalize(one)
		for j, v := range one {
			imp[j] += v
		}
	}
	tree.Normalize(imp)
	return imp
}

// MultiEnsemble is a fitted multi-class SAMME.R ensemble of K classes
// (scikit-learn 1.2's AdaBoostClassifier on K classes). Its decision for
// a row is the mean over its trees of h_c = (K-1)(log p_c - mean_j log
// p_j), p the class shares of the leaf the row reaches clipped below at
// eps; its class probabilities are the softmax of the decision over K-1.
type MultiEnsemble struct {
	NumFeatures int
	Classes     int
	// Trees are multi-class trees (their leaves' class shares in Dist).
	Trees []*tree.Tree
	// Errors holds each round's weighted training error.
	Errors []float64
	// terms[t][node*Classes+c] is h_c at a leaf of tree t, computed from
	// the tree's class shares (so not stored in payloads).
	terms [][]float64
}

// samme returns the SAMME.R terms h of a tree's nodes (0 at a split).
func samme(t *tree.Tree) []float64 {
	k := t.Classes
	out := make([]float64, len(t.Feature)*k)
	lp := make([]float64, k)
	for node, f := range t.Feature {
		if f >= 0 {
			continue
		}
		logProbaMulti(t.Dist[node*k:(node+1)*k], lp)
		mean := 0.0
		for _, v := range lp {
			mean += v
		}
		mean /= float64(k)
		for c, v := range lp {
			out[node*k+c] = float64(k-1) * (v - mean)
		}
	}
	return out
}

// logProbaMulti writes the logs of class shares p, clipped below at eps,
// into lp.
func logProbaMulti(p, lp []float64) {
	for c, v := range p {
		lp[c] = math.Log(max(v, eps))
	}
}

// Decision adds the ensemble's decision for one row to dst (Classes
// values).
func (e *MultiEnsemble) decision(row, dst []float64) {
	k := e.Classes
	clear(dst)
	for t, tr := range e.Trees {
		l := tr.Leaf(row)
		for c, v := range e.terms[t][l*k : (l+1)*k] {
			dst[c] += v
		}
	}
	for c := range dst {
		dst[c] /= float64(len(e.Trees))
	}
}

// predictRow writes the class probabilities of one row into dst:
// scikit-learn's softmax of the decision over K-1.
func (e *MultiEnsemble) predictRow(row, dst []float64) {
	e.decision(row, dst)
	k := float64(e.Classes)
	for c := range dst {
		dst[c] /= k - 1
	}
	softmax.Apply(dst)
}

// Importance returns the mean over trees of each tree's normalised
// impurity decrease, normalised.
func (e *MultiEnsemble) Importance() []float64 {
	return (&Ensemble{NumFeatures: e.NumFeatures, Trees: e.Trees}).Importance()
}

// Fit boosts an ensemble on train as s says; round k draws its
// under-sample and its trees' features from the stream k of seed.
// progress, when not nil, is called after each round.
func Fit(ctx context.Context, train *learn.Data, s Settings, seed uint64, workers int, progress func(done, total int)) (*Ensemble, error) {
	b, err := boostAll(ctx, train, 0, s, workers)
	if err != nil {
		return nil, err
	}
	return b.run(ctx, seed, progress)
}

// FitClasses boosts a multi-class ensemble (SAMME.R on K classes) on
// train, whose labels are 0..k-1, as s says; with s.UnderSample every
// round's tree is grown on every class but the smallest under-sampled to
// the smallest's size (imbalanced-learn's RUSBoost on K classes). Round
// j draws from the stream j of seed.
func FitClasses(ctx context.Context, train *learn.Data, k int, s Settings, seed uint64, workers int, progress func(done, total int)) (*MultiEnsemble, error) {
	b, err := boostAll(ctx, train, k, s, workers)
	if err != nil {
		return nil, err
	}
	return b.runMulti(ctx, seed, progress)
}

// boostAll prepares to boost on every row of train, of labels 0 and 1 (k
// = 0) or 0..k-1.
func boostAll(ctx context.Context, train *learn.Data, k int, s Settings, workers int) (*booster, error) {
	g, s, err := newGrower(ctx, train, k, s, workers)
	if err != nil {
		return nil, err
	}
	return newBooster(ctx, g, train.X, train.Y, nil, train.W, nil, s)
}

// newGrower checks the settings and data of a fit on labels 0 and 1 (k
// = 0) or 0..k-1 (multi-class trees) and ranks the features; it returns
// the settings resolved.
func newGrower(ctx context.Context, train *learn.Data, k int, s Settings, workers int) (*tree.Grower, Settings, error) {
	if err := s.Check(); err != nil {
		return nil, s, err
	}
	dataErr := train.Check("training data")
	if k > 0 {
		dataErr = tree.CheckClasses(train, "training data", k)
	}
	if dataErr != nil {
		return nil, s, dataErr
	}
	s = s.Resolved()
	if _, err := s.Tree.MaxFeaturesOf(train.Cols()); err != nil {
		return nil, s, fmt.Errorf("%w: max_features: %v", learn.ErrParam, err)
	}
	workers = learn.Env{Workers: workers}.Threads()
	if k == 0 {
		g, err := tree.NewGrower(ctx, train.X, train.Y, workers)
		return g, s, err
	}
	if _, err := s.Tree.ClassWeight.OfMulti(nil, nil, k); err != nil {
		return nil, s, err
	}
	g, err := tree.NewMultiGrower(ctx, train.X, train.Y, k, workers)
	return g, s, err
}

// booster boosts one ensemble on some rows of a Grower: of labels 0 and
// 1, or of K classes (a multi-class Grower, whose trees hold class
// shares).
type booster struct {
	g    *tree.Grower
	pre  *tree.Presorted // the rows boosted on, when every round takes them all
	x    *mat.Dense      // the Grower's rows
	y    []int           // the Grower's labels
	rows []int           // the rows boosted on, increasing; nil: every row
	s    Settings        // resolved
	n    int             // len(rows), or every row
	k    int             // number of classes
	// multi: the trees hold class shares (SAMME.R on K classes).
	multi bool

	w     []float64 // boosting weights, one per row boosted on
	cnt   []int32   // times each row was drawn (nil: once)
	zero  []bool    // rows of weight 0 from the start, never clipped
	cls   [][]int   // positions of each class, for under-sampling
	leaf  []int32   // scratch: the leaf of each row
	errs  []float64
	tree  []*tree.Tree
	terms [][]float64 // each tree's terms (SAMME.R's h, by node and class)

	// scratch for samples
	pick  []int32
	smp   tree.Sample
	count []int32
}

// newBooster prepares to boost on rows (nil: all) of a Grower on x and y,
// with initial weights w (one per row boosted on; nil: 1 each) and draw
// counts cnt (nil: 1 each) that multiply the weights. Under-sampling
// needs cnt nil. The error is ctx's when it is cancelled while the rows
// are presorted.
func newBooster(ctx context.Context, g *tree.Grower, x *mat.Dense, y []int, rows []int, w []float64, cnt []int32, s Settings) (*booster, error) {
	n := len(rows)
	if rows == nil {
		n = len(y)
	}
	k := max(2, g.Classes())
	b := &booster{g: g, x: x, y: y, rows: rows, s: s, n: n, cnt: cnt, k: k, multi: g.Classes() > 0,
		w: make([]float64, n), zero: make([]bool, n), leaf: make([]int32, n), cls: make([][]int, k)}
	sum := 0.0
	for i := range b.w {
		v := 1.0
		if w != nil {
			v = w[i]
		}
		if cnt != nil {
			v *= float64(cnt[i])
		}
		b.w[i] = v
		sum += v
	}
	if !(sum > 0) {
		return nil, fmt.Errorf("%w: the row weights sum to %v, not a positive number", learn.ErrData, sum)
	}
	if !s.UnderSample {
		// Every round grows on the same rows: sort them once.
		var err error
		if b.pre, err = g.Presort(ctx, rows); err != nil {
			return nil, err
		}
	}
	for i := range b.w {
		b.w[i] /= sum
		b.zero[i] = b.w[i] == 0
		c := b.label(i)
		b.cls[c] = append(b.cls[c], i)
	}
	return b, nil
}

// row returns the Grower row of position i.
func (b *booster) row(i int) int {
	if b.rows == nil {
		return i
	}
	return b.rows[i]
}

func (b *booster) label(i int) int { return b.y[b.row(i)] }

// run boosts up to s.NEstimators rounds: an Ensemble of labels 0 and 1
// (of K classes, its rounds are runMulti's).
func (b *booster) run(ctx context.Context, seed uint64, progress func(done, total int)) (*Ensemble, error) {
	total := b.s.NEstimators
	for k := range total {
		if err := learn.Interrupted(ctx); err != nil {
			return nil, err
		}
		r := rng.Derive(seed, uint64(k))
		var pick []int32
		if b.s.UnderSample {
			pick = b.underSample(r)
		}
		stop, err := b.round(ctx, k, r, pick)
		if err != nil {
			return nil, err
		}
		if progress != nil {
			progress(k+1, total)
		}
		if stop {
			if progress != nil && k+1 < total {
				progress(total, total)
			}
			break
		}
	}
	_, p := b.x.Dims()
	return &Ensemble{NumFeatures: p, Trees: b.tree, Errors: b.errs, Terms: b.terms}, nil
}

// runMulti boosts an ensemble of K classes.
func (b *booster) runMulti(ctx context.Context, seed uint64, progress func(done, total int)) (*MultiEnsemble, error) {
	e, err := b.run(ctx, seed, progress)
	if err != nil {
		return nil, err
	}
	return &MultiEnsemble{NumFeatures: e.NumFeatures, Classes: b.k, Trees: e.Trees, Errors: e.Errors, terms: e.Terms}, nil
}

// underSample draws the positions of a balanced sample (drawBalanced) in
// increasing order; b.count holds the times each was drawn.
func (b *booster) underSample(r *rand.Rand) []int32 {
	if cap(b.count) < b.n {
		b.count = make([]int32, b.n)
	}
	b.count = b.count[:b.n]
	clear(b.count)
	drawBalanced(b.cls, b.count, b.s.Replacement, !b.multi, r)
	b.pick = b.pick[:0]
	for i, c := range b.count {
		if c > 0 {
			b.pick = append(b.pick, int32(i))
		}
	}
	return b.pick
}

// round k grows a tree on the rows picked (nil: every row boosted on; the
// times drawn in b.count), computes its weighted error on every row and
// updates every row's weight, as scikit-learn's BaseWeightBoosting.fit and
// AdaBoostClassifier._boost_real do (imbalanced-learn's RUSBoost
// _boost_real when picked), for two classes or K. It reports when
// boosting stops.
func (b *booster) round(ctx context.Context, k int, r *rand.Rand, pick []int32) (stop bool, err error) {
	// Weights that became tiny are raised to eps; those 0 from the start
	// stay 0.
	for i, w := range b.w {
		if w < eps && !b.zero[i] {
			b.w[i] = eps
		}
	}
	smp := b.sample(pick)
	ts := *b.s.Tree
	ys := make([]int, len(smp.Rows))
	for t, i := range smp.Rows {
		ys[t] = b.y[i]
	}
	if smp.Rows == nil {
		ys = b.y
	}
	// scikit-learn's trees balance class counts (compute_sample_weight),
	// not the weights they are given.
	var counts []float64
	if ts.ClassWeight == tree.Balanced && smp.Count != nil {
		counts = make([]float64, len(smp.Count))
		for t, v := range smp.Count {
			counts[t] = float64(v)
		}
	}
	if b.multi {
		return b.roundMulti(ctx, k, r, pick, smp, ts, ys, counts)
	}
	var cw [2]float64
	if ts.ClassWeight == tree.Balanced {
		ts.ClassWeight = tree.ExplicitClassWeight(ts.ClassWeight.Of(ys, counts))
	}
	cw[0], cw[1] = ts.ClassWeight.Of(ys, smp.Weight)
	t, err := b.grow(ctx, k, r, pick, smp, ts)
	if err != nil {
		return false, err
	}

	// Each leaf's class weights from the rows the tree was grown on
	// (scikit-learn's tree_.value).
	sums := make([][2]float64, t.NumNodes())
	add := func(i int, w float64) {
		c := b.label(i)
		sums[b.leaf[i]][c] += w * cw[c]
	}
	if pick == nil {
		for i, w := range b.w {
			add(i, w)
		}
	} else {
		for _, i := range pick {
			add(int(i), float64(b.count[i])*b.w[i])
		}
	}
	terms := make([]float64, t.NumNodes())
	for node, f := range t.Feature {
		if f < 0 {
			terms[node] = leafTerm(sums[node][0], sums[node][1])
		}
	}
	b.terms = append(b.terms, terms)

	// The tree predicts class 1 where p1 > p0 (numpy's argmax keeps the
	// first of equal probabilities).
	return b.update(k, func(i int) bool {
		s := sums[b.leaf[i]]
		return (s[1] > s[0]) != (b.label(i) == 1)
	}, func() func(i int) float64 {
		// w *= exp(-lr (K-1)/K y_coding . log p), K = 2, y_coding 1 for the
		// row's class and -1 for the other; the factor depends only on the
		// leaf and the class, so it is computed once for each.
		coef := -1.0 * b.s.LearningRate * 0.5
		factor := make([][2]float64, t.NumNodes())
		for node, f := range t.Feature {
			if f < 0 {
				lp1, lp0 := logProba(sums[node][0], sums[node][1])
				factor[node] = [2]float64{math.Exp(coef * (lp0 - lp1)), math.Exp(coef * (-lp0 + lp1))}
			}
		}
		return func(i int) float64 { return factor[b.leaf[i]][b.label(i)] }
	}), nil
}

// roundMulti is round for K classes: imbalanced-learn's _boost_real
// (scikit-learn's when nothing is picked) with the y coding 1 for the
// row's class and -1/(K-1) for the others.
func (b *booster) roundMulti(ctx context.Context, j int, r *rand.Rand, pick []int32, smp tree.Sample, ts tree.Settings, ys []int, counts []float64) (bool, error) {
	if ts.ClassWeight == tree.Balanced {
		// The count-balanced class weights are folded into the rows'
		// weights.
		cw, err := ts.ClassWeight.OfMulti(ys, counts, b.k)
		if err != nil {
			return false, err
		}
		wt := make([]float64, len(ys))
		for t, y := range ys {
			wt[t] = smp.Weight[t] * cw[y]
		}
		smp.Weight = wt
		ts.ClassWeight = tree.ClassWeight{}
	}
	t, err := b.grow(ctx, j, r, pick, smp, ts)
	if err != nil {
		return false, err
	}
	b.terms = append(b.terms, samme(t))
	k := b.k
	// The tree predicts its most probable class (numpy's argmax keeps
	// the first of equal probabilities).
	pred := make([]int, t.NumNodes())
	for node, f := range t.Feature {
		if f < 0 {
			d := t.Dist[node*k : (node+1)*k]
			for c := range d {
				if d[c] > d[pred[node]] {
					pred[node] = c
				}
			}
		}
	}
	return b.update(j, func(i int) bool { return pred[b.leaf[i]] != b.label(i) }, func() func(i int) float64 {
		// w *= exp(-lr (K-1)/K y_coding . log p), computed once for each
		// leaf and class.
		kf := float64(k)
		factor := make([]float64, t.NumNodes()*k)
		lp := make([]float64, k)
		for node, f := range t.Feature {
			if f >= 0 {
				continue
			}
			logProbaMulti(t.Dist[node*k:(node+1)*k], lp)
			for y := range k {
				s := 0.0
				for c, v := range lp {
					code := -1 / (kf - 1)
					if c == y {
						code = 1
					}
					s += code * v
				}
				factor[node*k+y] = math.Exp(-1.0 * b.s.LearningRate * ((kf - 1) / kf) * s)
			}
		}
		return func(i int) float64 { return factor[int(b.leaf[i])*k+b.label(i)] }
	}), nil
}

// grow grows round k's tree on smp with settings ts and finds the leaf
// of every row boosted on (b.leaf).
func (b *booster) grow(ctx context.Context, k int, r *rand.Rand, pick []int32, smp tree.Sample, ts tree.Settings) (t *tree.Tree, err error) {
	if pick == nil && b.pre != nil {
		t, err = b.pre.Grow(ctx, smp.Weight, smp.Count, ts, r)
	} else {
		t, err = b.g.Grow(ctx, smp, ts, r)
	}
	if err != nil {
		return nil, fmt.Errorf("round %d: %w", k+1, err)
	}
	b.tree = append(b.tree, t)
	raw := b.x.RawMatrix()
	_, p := b.x.Dims()
	for i := range b.n {
		g := b.row(i)
		b.leaf[i] = int32(t.Leaf(raw.Data[g*raw.Stride : g*raw.Stride+p]))
	}
	return t, nil
}

// update ends round k: the weighted error of the rows the tree gets
// wrong, then, unless it is 0 or the round the last, every row's weight
// times its factor (from factors) and the weights normalised. It reports
// when boosting stops.
func (b *booster) update(k int, wrong func(i int) bool, factors func() func(i int) float64) bool {
	var bad, sum float64
	for i, w := range b.w {
		if wrong(i) {
			bad += w
		}
		sum += w
	}
	e := bad / sum
	if e <= 0 {
		b.errs = append(b.errs, 0)
		return true
	}
	b.errs = append(b.errs, e)
	last := k == b.s.NEstimators-1
	if !last {
		factor := factors()
		for i := range b.w {
			f := factor(i)
			// Only positive weights grow (0 * Inf would be NaN).
			if b.w[i] > 0 || f < 1 {
				b.w[i] *= f
			}
		}
	}
	sum = 0
	for _, w := range b.w {
		sum += w
	}
	if math.IsInf(sum, 0) || math.IsNaN(sum) || sum <= 0 {
		// scikit-learn warns of the overflow and stops, keeping the tree.
		return true
	}
	if !last {
		for i := range b.w {
			b.w[i] /= sum
		}
	}
	return false
}

// sample returns the tree sample of the positions picked (nil: all), in
// increasing row order, weighing their boosting weight times the times
// drawn. It reuses b's storage.
func (b *booster) sample(pick []int32) tree.Sample {
	s := &b.smp
	if pick == nil {
		s.Rows, s.Weight, s.Count = b.rows, b.w, b.cnt
		return *s
	}
	s.Rows, s.Weight, s.Count = s.Rows[:0], s.Weight[:0], s.Count[:0]
	repeated := false
	for _, i := range pick {
		c := b.count[i]
		s.Rows = append(s.Rows, b.row(int(i)))
		s.Weight = append(s.Weight, float64(c)*b.w[i])
		s.Count = append(s.Count, c)
		repeated = repeated || c > 1
	}
	if !repeated {
		return tree.Sample{Rows: s.Rows, Weight: s.Weight}
	}
	return *s
}

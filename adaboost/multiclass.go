package adaboost

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/tree"
)

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
	top := math.Inf(-1)
	for c := range dst {
		dst[c] /= k - 1
		top = max(top, dst[c])
	}
	s := 0.0
	for c, v := range dst {
		dst[c] = math.Exp(v - top)
		s += dst[c]
	}
	for c := range dst {
		dst[c] /= s
	}
}

// Importance returns the mean over trees of each tree's normalised
// impurity decrease, normalised.
func (e *MultiEnsemble) Importance() []float64 {
	return (&Ensemble{NumFeatures: e.NumFeatures, Trees: e.Trees}).Importance()
}

// multiBooster boosts one multi-class ensemble on some rows of a
// multi-class Grower: booster's rounds for K classes.
type multiBooster struct {
	*booster
	k   int
	cls [][]int // positions of each class, for under-sampling
}

// newMultiBooster is newBooster for a multi-class Grower.
func newMultiBooster(ctx context.Context, g *tree.Grower, x *mat.Dense, y []int, rows []int, w []float64, cnt []int32, s Settings) (*multiBooster, error) {
	b, err := newRounds(ctx, g, x, y, rows, w, cnt, s)
	if err != nil {
		return nil, err
	}
	mb := &multiBooster{booster: b, k: g.Classes(), cls: make([][]int, g.Classes())}
	for i := range b.n {
		c := b.label(i)
		mb.cls[c] = append(mb.cls[c], i)
	}
	return mb, nil
}

// run boosts up to s.NEstimators rounds.
func (b *multiBooster) run(ctx context.Context, seed uint64, progress func(done, total int)) (*MultiEnsemble, error) {
	total := b.s.NEstimators
	var terms [][]float64
	for j := range total {
		if err := learn.Interrupted(ctx); err != nil {
			return nil, err
		}
		r := rng.Derive(seed, uint64(j))
		var pick []int32
		if b.s.UnderSample {
			if cap(b.count) < b.n {
				b.count = make([]int32, b.n)
			}
			b.count = b.count[:b.n]
			clear(b.count)
			drawBalancedMulti(b.cls, b.count, b.s.Replacement, r)
			b.pick = b.pick[:0]
			for i, c := range b.count {
				if c > 0 {
					b.pick = append(b.pick, int32(i))
				}
			}
			pick = b.pick
		}
		stop, tt, err := b.round(ctx, j, r, pick)
		if err != nil {
			return nil, err
		}
		terms = append(terms, tt)
		if progress != nil {
			progress(j+1, total)
		}
		if stop {
			if progress != nil && j+1 < total {
				progress(total, total)
			}
			break
		}
	}
	_, p := b.x.Dims()
	return &MultiEnsemble{NumFeatures: p, Classes: b.k, Trees: b.tree, Errors: b.errs, terms: terms}, nil
}

// round j is booster.round for K classes: imbalanced-learn's
// _boost_real (scikit-learn's when nothing is picked) with the y coding
// 1 for the row's class and -1/(K-1) for the others. It returns the
// tree's terms.
func (b *multiBooster) round(ctx context.Context, j int, r *rand.Rand, pick []int32) (stop bool, terms []float64, err error) {
	for i, w := range b.w {
		if w < eps && !b.zero[i] {
			b.w[i] = eps
		}
	}
	smp := b.sample(pick)
	ts := *b.s.Tree
	if ts.ClassWeight == tree.Balanced {
		// scikit-learn's trees balance class counts, not the weights
		// they are given: the count-balanced class weights are folded
		// into the rows' weights.
		ys := make([]int, len(smp.Rows))
		for t, i := range smp.Rows {
			ys[t] = b.y[i]
		}
		if smp.Rows == nil {
			ys = b.y
		}
		var c []float64
		if smp.Count != nil {
			c = make([]float64, len(smp.Count))
			for t, v := range smp.Count {
				c[t] = float64(v)
			}
		}
		cw, err := ts.ClassWeight.OfMulti(ys, c, b.k)
		if err != nil {
			return false, nil, err
		}
		wt := make([]float64, len(ys))
		for t, y := range ys {
			wt[t] = smp.Weight[t] * cw[y]
		}
		smp.Weight = wt
		ts.ClassWeight = tree.ClassWeight{}
	}
	var t *tree.Tree
	if pick == nil && b.pre != nil {
		t, err = b.pre.Grow(ctx, smp.Weight, smp.Count, ts, r)
	} else {
		t, err = b.g.Grow(ctx, smp, ts, r)
	}
	if err != nil {
		return false, nil, fmt.Errorf("round %d: %w", j+1, err)
	}
	b.tree = append(b.tree, t)
	terms = samme(t)

	raw := b.x.RawMatrix()
	_, p := b.x.Dims()
	for i := range b.n {
		g := b.row(i)
		b.leaf[i] = int32(t.Leaf(raw.Data[g*raw.Stride : g*raw.Stride+p]))
	}
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
	var wrong, sum float64
	for i, w := range b.w {
		if pred[b.leaf[i]] != b.label(i) {
			wrong += w
		}
		sum += w
	}
	e := wrong / sum
	if e <= 0 {
		b.errs = append(b.errs, 0)
		return true, terms, nil
	}
	b.errs = append(b.errs, e)
	last := j == b.s.NEstimators-1
	if !last {
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
		for i := range b.w {
			f := factor[int(b.leaf[i])*k+b.label(i)]
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
		return true, terms, nil
	}
	if !last {
		for i := range b.w {
			b.w[i] /= sum
		}
	}
	return false, terms, nil
}

// drawBalancedMulti adds to count[i] the times position i is drawn by
// imbalanced-learn's RandomUnderSampler (sampling_strategy "auto") from
// the positions cls of each class: every position of the smallest
// non-empty class (the first of the smallest) once, and as many of every
// other class, class by class, without replacement unless replacement is
// set. The order of the positions of the classes drawn changes.
func drawBalancedMulti(cls [][]int, count []int32, replacement bool, r *rand.Rand) {
	minority, m := -1, 0
	for c, rows := range cls {
		if len(rows) > 0 && (minority < 0 || len(rows) < m) {
			minority, m = c, len(rows)
		}
	}
	for c, rows := range cls {
		switch {
		case c == minority || len(rows) == 0:
			for _, i := range rows {
				count[i]++
			}
		case replacement:
			for range m {
				count[rows[r.IntN(len(rows))]]++
			}
		default:
			for j := range m {
				t := j + r.IntN(len(rows)-j)
				rows[j], rows[t] = rows[t], rows[j]
				count[rows[j]]++
			}
		}
	}
}

// FitMulti boosts a multi-class ensemble (SAMME.R on K classes) on
// train, whose labels are 0..k-1, as s says; with s.UnderSample every
// round's tree is grown on every class but the smallest under-sampled to
// the smallest's size (imbalanced-learn's RUSBoost on K classes). Round
// j draws from the stream j of seed.
func FitMulti(ctx context.Context, train *learn.Data, k int, s Settings, seed uint64, workers int, progress func(done, total int)) (*MultiEnsemble, error) {
	g, s, err := multiGrower(ctx, train, k, s, workers)
	if err != nil {
		return nil, err
	}
	b, err := newMultiBooster(ctx, g, train.X, train.Y, nil, train.W, nil, s)
	if err != nil {
		return nil, err
	}
	return b.run(ctx, seed, progress)
}

// multiGrower checks the settings and data of a multi-class fit and
// ranks the features; it returns the settings resolved.
func multiGrower(ctx context.Context, train *learn.Data, k int, s Settings, workers int) (*tree.Grower, Settings, error) {
	if err := s.Check(); err != nil {
		return nil, s, err
	}
	if err := tree.CheckClasses(train, "training data", k); err != nil {
		return nil, s, err
	}
	s = s.Resolved()
	if _, err := s.Tree.MaxFeaturesOf(train.Cols()); err != nil {
		return nil, s, fmt.Errorf("%w: max_features: %v", learn.ErrParam, err)
	}
	if _, err := s.Tree.ClassWeight.OfMulti(nil, nil, k); err != nil {
		return nil, s, err
	}
	g, err := tree.NewMultiGrower(ctx, train.X, train.Y, k, learn.Env{Workers: workers}.Threads())
	return g, s, err
}

// FitEasyMulti fits an EasyEnsemble on train, whose labels are 0..k-1:
// ensemble j boosts (SAMME.R on K classes) on its own under-sample, every
// class but the smallest drawn down to the smallest's size from the
// stream j of seed, with the seed rng.DeriveSeed(seed, j), so the result
// does not depend on workers.
func FitEasyMulti(ctx context.Context, train *learn.Data, k int, s EasySettings, seed uint64, workers int, progress func(done, total int)) ([]*MultiEnsemble, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	s = s.Resolved()
	workers = learn.Env{Workers: workers}.Threads()
	g, bs, err := multiGrower(ctx, train, k, s.Boost, workers)
	if err != nil {
		return nil, err
	}
	out := make([]*MultiEnsemble, s.NEstimators)
	j, err := learn.ForEach(ctx, workers, s.NEstimators, func() func(context.Context, int) error {
		return func(ctx context.Context, j int) error {
			cls := make([][]int, k)
			for i, y := range train.Y {
				cls[y] = append(cls[y], i)
			}
			count := make([]int32, len(train.Y))
			drawBalancedMulti(cls, count, s.Replacement, rng.Derive(seed, uint64(j)))
			var rows []int
			var cnt []int32
			repeated := false
			for i, c := range count {
				if c > 0 {
					rows, cnt = append(rows, i), append(cnt, c)
					repeated = repeated || c > 1
				}
			}
			if !repeated {
				cnt = nil
			}
			b, err := newMultiBooster(ctx, g, train.X, train.Y, rows, learn.Pick(train.W, rows), cnt, bs)
			if err != nil {
				return err
			}
			out[j], err = b.run(ctx, rng.DeriveSeed(seed, uint64(j)), nil)
			return err
		}
	}, progress)
	switch {
	case j >= 0:
		return nil, fmt.Errorf("ensemble %d: %w", j+1, err)
	case err != nil:
		return nil, err
	}
	return out, nil
}

// FitMulti boosts on train, whose labels are 0..k-1 (valid is not
// used): RUSBoost and AdaBoost one SAMME.R ensemble on K classes,
// EasyEnsemble its ensembles in parallel on the Env's workers; no model
// depends on their number. The learn.MultiFitter contract.
func (m *Method) FitMulti(ctx context.Context, train, _ *learn.Data, k int, env learn.Env) (learn.Model, error) {
	ens, err := fitEnsembles(m, env,
		func(s EasySettings, progress func(done, total int)) ([]*MultiEnsemble, error) {
			return FitEasyMulti(ctx, train, k, s, env.Seed, env.Threads(), progress)
		},
		func(s Settings, progress func(done, total int)) (*MultiEnsemble, error) {
			return FitMulti(ctx, train, k, s, env.Seed, env.Threads(), progress)
		})
	if err != nil {
		return nil, err
	}
	return &MultiModel{ensembles: ens, features: train.Features}, nil
}

// magicMulti starts a multi-class payload; its last byte is the format
// version.
var magicMulti = []byte("aer.adaboost.multi\x01")

// LoadMulti decodes a model written by MultiModel.MarshalBinary (the
// learn.MultiFitter contract).
func (m *Method) LoadMulti(payload []byte) (learn.Model, error) {
	if !bytes.HasPrefix(payload, magicMulti) {
		return nil, fmt.Errorf("adaboost: not a multi-class AdaBoost payload")
	}
	b := payload[len(magicMulti):]
	short := fmt.Errorf("adaboost: payload is truncated")
	if len(b) < 12 {
		return nil, short
	}
	p := int(binary.LittleEndian.Uint32(b))
	k := int(binary.LittleEndian.Uint32(b[4:]))
	ne := int(binary.LittleEndian.Uint32(b[8:]))
	b = b[12:]
	if k < 2 || k > tree.MaxClasses {
		return nil, fmt.Errorf("adaboost: %d classes", k)
	}
	if ne == 0 || ne > len(b) {
		return nil, short
	}
	ens := make([]*MultiEnsemble, ne)
	for e := range ens {
		if len(b) < 4 {
			return nil, short
		}
		nt := int(binary.LittleEndian.Uint32(b))
		b = b[4:]
		if nt == 0 || nt > len(b)/8 {
			return nil, short
		}
		me := &MultiEnsemble{NumFeatures: p, Classes: k, Errors: make([]float64, nt)}
		for j := range me.Errors {
			v := math.Float64frombits(binary.LittleEndian.Uint64(b[8*j:]))
			if !(v >= 0 && v <= 1) {
				return nil, fmt.Errorf("adaboost: ensemble %d, round %d: error %v is not in [0, 1]", e+1, j+1, v)
			}
			me.Errors[j] = v
		}
		b = b[8*nt:]
		for j := range nt {
			t, rest, err := tree.DecodeTreeMulti(b)
			if err != nil {
				return nil, fmt.Errorf("adaboost: ensemble %d, tree %d: %w", e+1, j+1, err)
			}
			if t.NumFeatures != p || t.Classes != k {
				return nil, fmt.Errorf("adaboost: ensemble %d, tree %d has %d features and %d classes, the model %d and %d", e+1, j+1, t.NumFeatures, t.Classes, p, k)
			}
			me.Trees = append(me.Trees, t)
			me.terms = append(me.terms, samme(t))
			b = rest
		}
		ens[e] = me
	}
	names, rest, err := tree.DecodeNames(b, p)
	if err != nil {
		return nil, fmt.Errorf("adaboost: %w", err)
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("adaboost: %d bytes after the model", len(rest))
	}
	return &MultiModel{ensembles: ens, features: names}, nil
}

var _ learn.MultiFitter = (*Method)(nil)

// MultiModel is a fitted multi-class AdaBoost, RUSBoost or EasyEnsemble
// (learn.MultiModel): the mean of its ensembles' class probabilities
// (one ensemble but for EasyEnsemble).
type MultiModel struct {
	ensembles []*MultiEnsemble
	features  []string
}

// Ensembles returns the fitted ensembles.
func (m *MultiModel) Ensembles() []*MultiEnsemble { return m.ensembles }

// NumClasses returns the number of classes.
func (m *MultiModel) NumClasses() int { return m.ensembles[0].Classes }

// NumFeatures returns the number of input features.
func (m *MultiModel) NumFeatures() int { return m.ensembles[0].NumFeatures }

// NumParams is the number of leaves of all trees.
func (m *MultiModel) NumParams() int {
	n := 0
	for _, e := range m.ensembles {
		for _, t := range e.Trees {
			n += t.NumLeaves()
		}
	}
	return n
}

// PredictProba writes the class probabilities of each row of x,
// Classes() per row: the mean over the ensembles of the softmax of their
// decisions over K-1.
func (m *MultiModel) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	n, c := x.Dims()
	if c != m.NumFeatures() {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, m.NumFeatures())
	}
	k := m.NumClasses()
	if len(dst) < n*k {
		dst = make([]float64, n*k)
	}
	dst = dst[:n*k]
	raw := x.RawMatrix()
	one := make([]float64, k)
	for i := range n {
		row, out := raw.Data[i*raw.Stride:i*raw.Stride+c], dst[i*k:(i+1)*k]
		if len(m.ensembles) == 1 {
			m.ensembles[0].predictRow(row, out)
			continue
		}
		clear(out)
		for _, e := range m.ensembles {
			e.predictRow(row, one)
			for j, v := range one {
				out[j] += v
			}
		}
		for j := range out {
			out[j] /= float64(len(m.ensembles))
		}
	}
	return dst, nil
}

// MarshalBinary encodes the ensembles (each its rounds' errors, then its
// multi-class trees; the terms follow from the trees) and the feature
// names.
func (m *MultiModel) MarshalBinary() ([]byte, error) {
	b := bytes.Clone(magicMulti)
	b = binary.LittleEndian.AppendUint32(b, uint32(m.NumFeatures()))
	b = binary.LittleEndian.AppendUint32(b, uint32(m.NumClasses()))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(m.ensembles)))
	for _, e := range m.ensembles {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(e.Trees)))
		for _, v := range e.Errors {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		for _, t := range e.Trees {
			var err error
			if b, err = t.AppendBinaryMulti(b); err != nil {
				return nil, err
			}
		}
	}
	return tree.AppendNames(b, m.features), nil
}

// Summary reports the ensembles' sizes, the rounds' errors and the
// feature importances.
func (m *MultiModel) Summary() any {
	s := &Summary{Ensembles: len(m.ensembles), Leaves: m.NumParams()}
	imp := make([]float64, m.NumFeatures())
	for _, e := range m.ensembles {
		s.Rounds = append(s.Rounds, len(e.Trees))
		for j, v := range e.Importance() {
			imp[j] += v
		}
	}
	tree.Normalize(imp)
	s.Importance = tree.Importances(imp, m.features)
	if len(m.ensembles) == 1 {
		s.Errors = m.ensembles[0].Errors
	}
	return s
}

// PreferDecomposition makes one-vs-rest the default of RUSBoost,
// EasyEnsemble and AdaBoost on multi-class labels (multiclass.Decomposer;
// "ovr" is multiclass.OneVsRest), the native SAMME.R model being asked
// for by name (aer fit --multiclass native). On the 5 shared multi-class
// tables, 3:1:1 splits with seeds 0-2, native was below one-vs-rest:
// rusboost by 0.078 balanced accuracy (standard error 0.028),
// easy-ensemble by 0.111 (0.021), as imbalanced-learn's own are (SAMME.R
// over stumps on several classes).
func (m *Method) PreferDecomposition() string { return "ovr" }

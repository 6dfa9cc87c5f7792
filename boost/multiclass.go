package boost

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/hugepage"
	"github.com/aer-go/aer/internal/par"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
)

// Softmax is the objective a MultiModel's Settings record: XGBoost's
// multi:softprob. It is not a value of Settings.Objective for Train.
const Softmax = "softmax"

// MLogLoss is the validation metric of TrainMulti (XGBoost's mlogloss):
// the weighted mean of -log p, p the probability of the row's class.
const MLogLoss = "mlogloss"

// MaxClasses bounds the number of classes of TrainMulti: each class
// takes a tree a round and a gradient pair a row.
const MaxClasses = 10_000

// MultiModel is a multi-class boosted-tree model, XGBoost's
// multi:softprob: every round adds one tree to each class's margin, and
// the class probabilities are the softmax of the margins. Its exported
// fields are saved by MarshalBinary and must not change once it
// predicts; its methods are safe for concurrent use.
type MultiModel struct {
	// Settings are the resolved training settings; Objective is Softmax.
	Settings Settings
	// Base holds the margin every prediction of each class starts from:
	// XGBoost's base_score (Settings.BaseScore) for every class, which
	// cancels in the probabilities.
	Base []float64
	// Trees holds the rounds kept: Trees[r][c] is the tree of class c
	// in round r (XGBoost's tree r*Classes()+c).
	Trees [][]Tree
	// Eval is the validation record (Metric MLogLoss), nil when trained
	// without validation data.
	Eval *EvalResult

	nf int

	once  sync.Once
	class []*Model

	summary *Summary
}

// multiJSON is the encoding of a MultiModel.
type multiJSON struct {
	Settings    Settings    `json:"settings"`
	NumFeatures int         `json:"num_features"`
	Base        []float64   `json:"base_margin"`
	Trees       [][]Tree    `json:"trees"`
	Eval        *EvalResult `json:"eval,omitempty"`
}

// NumClasses returns the number of classes.
func (m *MultiModel) NumClasses() int { return len(m.Base) }

// NumFeatures returns the number of input features.
func (m *MultiModel) NumFeatures() int { return m.nf }

// Class returns the model of class c's margin alone: its trees, in round
// order, and its base margin (sharing m's trees). Its PredictMargin is
// column c of Margins, its SHAP values class c's attributions (XGBoost's
// pred_contribs for the class).
func (m *MultiModel) Class(c int) *Model { return m.classes()[c] }

func (m *MultiModel) classes() []*Model {
	m.once.Do(func() {
		m.class = make([]*Model, len(m.Base))
		for c := range m.class {
			trees := make([]Tree, len(m.Trees))
			for r := range m.Trees {
				trees[r] = m.Trees[r][c]
			}
			m.class[c] = &Model{Settings: m.Settings, NumFeatures: m.nf, BaseMargin: m.Base[c], Trees: trees, Eval: m.Eval}
		}
	})
	return m.class
}

// FirstRounds returns a model made of the first r rounds of m (sharing
// their trees), as if training had stopped after r rounds.
func (m *MultiModel) FirstRounds(r int) *MultiModel {
	r = max(0, min(r, len(m.Trees)))
	return &MultiModel{Settings: m.Settings, Base: m.Base, Trees: m.Trees[:r:r], Eval: m.Eval, nf: m.nf}
}

// Importance returns one value per feature over the trees of every
// class (XGBoost's get_score of a multi-class model): Gain, TotalGain,
// Cover, TotalCover or Count, as Model.Importance.
func (m *MultiModel) Importance(kind string) ([]float64, error) {
	return m.flat().Importance(kind)
}

// flat is a Model of every tree of m, round by round (its margin means
// nothing: for importances and counts).
func (m *MultiModel) flat() *Model {
	all := &Model{Settings: m.Settings, NumFeatures: m.nf, Eval: m.Eval}
	for _, round := range m.Trees {
		all.Trees = append(all.Trees, round...)
	}
	return all
}

// Summary returns what the fit found (learn.Summarizer): every class's
// trees and leaves, the validation curve (MLogLoss), the features by
// total gain over all trees; nil for a loaded model.
func (m *MultiModel) Summary() any {
	if m.summary == nil {
		return nil
	}
	return m.summary
}

// SetThreads sets the number of goroutines Margins and
// PredictProba use (0: all cores). Call it before predicting, not
// concurrently with prediction.
func (m *MultiModel) SetThreads(n int) {
	m.Settings.Threads = n
	for _, cm := range m.classes() {
		cm.SetThreads(n)
	}
}

// Margins writes the raw margins of the rows of x (NaN = missing) into
// dst, row-major, Classes() per row (allocated when too short), and
// returns it.
func (m *MultiModel) Margins(x *mat.Dense, dst []float64) ([]float64, error) {
	n, nf := x.Dims()
	if nf != m.nf {
		return nil, fmt.Errorf("boost: data has %d features, the model %d", nf, m.nf)
	}
	k := m.NumClasses()
	if cap(dst) < n*k {
		dst = make([]float64, n*k)
	}
	dst = dst[:n*k]
	col := make([]float64, n)
	for c, cm := range m.classes() {
		cm.PredictMargin(x, col)
		for i, v := range col {
			dst[i*k+c] = v
		}
	}
	return dst, nil
}

// PredictProba writes the class probabilities of the rows of x
// (NaN = missing) into dst, row-major, Classes() per row (allocated when
// too short), and returns it: the softmax of the margins. It is the
// learn.MultiModel contract; it uses Settings.Threads goroutines (1 in a
// model from Method.FitMulti or LoadMulti).
func (m *MultiModel) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	dst, err := m.Margins(x, dst)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", learn.ErrData, err)
	}
	k := m.NumClasses()
	for i := 0; i < len(dst); i += k {
		softmax(dst[i : i+k])
	}
	return dst, nil
}

// softmax turns margins into probabilities in place (log-sum-exp).
func softmax(z []float64) {
	hi := z[0]
	for _, v := range z[1:] {
		hi = max(hi, v)
	}
	sum := 0.0
	for j, v := range z {
		z[j] = math.Exp(v - hi)
		sum += z[j]
	}
	for j := range z {
		z[j] /= sum
	}
}

// MarshalBinary encodes the model as JSON (without Settings.Gradient).
// Every float64 survives the round trip exactly.
func (m *MultiModel) MarshalBinary() ([]byte, error) {
	return json.Marshal(multiJSON{Settings: m.Settings, NumFeatures: m.nf, Base: m.Base, Trees: m.Trees, Eval: m.Eval})
}

// UnmarshalBinary decodes a model written by MarshalBinary and checks
// it: at least two classes, one tree per class in every round, each tree
// well formed as Model.UnmarshalBinary checks it.
func (m *MultiModel) UnmarshalBinary(data []byte) error {
	var tmp multiJSON
	if err := json.Unmarshal(data, &tmp); err != nil {
		return fmt.Errorf("boost: decoding multi-class model: %w", err)
	}
	k := len(tmp.Base)
	if k < 2 || k > MaxClasses {
		return fmt.Errorf("boost: multi-class model has %d classes, want 2 to %d", k, MaxClasses)
	}
	for r, trees := range tmp.Trees {
		if len(trees) != k {
			return fmt.Errorf("boost: round %d has %d trees for %d classes", r, len(trees), k)
		}
	}
	nm := MultiModel{Settings: tmp.Settings, Base: tmp.Base, Trees: tmp.Trees, Eval: tmp.Eval, nf: tmp.NumFeatures}
	for c, cm := range nm.classes() {
		if err := cm.validate(); err != nil {
			return fmt.Errorf("boost: class %d: %w", c, err)
		}
	}
	m.Settings, m.Base, m.Trees, m.Eval, m.nf = nm.Settings, nm.Base, nm.Trees, nm.Eval, nm.nf
	m.once = sync.Once{}
	m.class = nil
	m.SetThreads(m.Settings.Threads)
	return nil
}

// CheckMulti reports the first setting of s that multi-class training
// refuses: a scale_pos_weight other than 1, an objective other than the
// logistic loss (focal, weighted, custom) or a parameter of one, the AUC
// validation metric. The softmax loss takes the place of the logistic
// one; nil s is the defaults.
func CheckMulti(s *Settings) error {
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
// after every round (MLogLoss) and drives early stopping. CheckMulti
// lists the settings refused. Training stops with ctx's error when ctx
// is cancelled.
func TrainMulti(ctx context.Context, train Data, valid *Data, k int, s *Settings) (*MultiModel, error) {
	if err := CheckMulti(s); err != nil {
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
			score := multiLogLoss(vmargin, valid.Y, valid.Weight, k)
			ev.Curve = append(ev.Curve, score)
			if ev.BestIteration < 0 || score < ev.BestScore {
				ev.BestIteration, ev.BestScore = round, score
			}
			if set.EarlyStoppingRounds > 0 && round-ev.BestIteration >= set.EarlyStoppingRounds {
				ev.Stopped = true
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

// FitMulti trains multi-class boosted trees (TrainMulti) on train, whose
// labels are 0..k-1, with its row weights and the Env's seed and
// workers; valid, when given, is evaluated every round (MLogLoss) and
// drives early stopping. The learn.MultiFitter contract: bad data and
// k < 2 wrap learn.ErrData, the settings CheckMulti refuses
// learn.ErrParam. The model predicts on one goroutine.
func (m *Method) FitMulti(ctx context.Context, train, valid *learn.Data, k int, env learn.Env) (learn.Model, error) {
	if err := m.s.Check(); err != nil {
		return nil, fmt.Errorf("%w: %v", learn.ErrParam, err)
	}
	if err := CheckMulti(&m.s); err != nil {
		return nil, fmt.Errorf("%w: %v", learn.ErrParam, err)
	}
	if m.s.EarlyStoppingRounds > 0 && valid == nil {
		return nil, fmt.Errorf("%w: early_stopping_rounds needs validation data", learn.ErrParam)
	}
	if k < 2 || k > MaxClasses {
		return nil, fmt.Errorf("%w: %d classes, want 2 to %d", learn.ErrData, k, MaxClasses)
	}
	if err := checkMultiData(train, "training data", k); err != nil {
		return nil, err
	}
	if valid != nil {
		if err := checkMultiData(valid, "validation data", k); err != nil {
			return nil, err
		}
	}
	s, td, vd, err := m.runData(train, valid, env)
	if err != nil {
		return nil, err
	}
	mm, err := TrainMulti(ctx, td, vd, k, &s)
	if err != nil {
		return nil, err
	}
	mm.SetThreads(1)
	mm.summary = summarize(mm.flat(), train.Features)
	return mm, nil
}

// checkMultiData is learn.Data.Check for labels 0..k-1 (rows numbered
// from 1, errors wrapping learn.ErrData), with a positive, finite total
// row weight.
func checkMultiData(d *learn.Data, what string, k int) error {
	if d.Rows() == 0 {
		return fmt.Errorf("%w: %s has no rows", learn.ErrData, what)
	}
	if len(d.Y) != d.Rows() {
		return fmt.Errorf("%w: %s has %d rows but %d labels", learn.ErrData, what, d.Rows(), len(d.Y))
	}
	for i, y := range d.Y {
		if y < 0 || y >= k {
			return fmt.Errorf("%w: %s row %d: label %d is not a class of 0..%d", learn.ErrData, what, i+1, y, k-1)
		}
	}
	// The rest as for two classes.
	tmp := *d
	tmp.Y = make([]int, len(d.Y))
	if err := tmp.Check(what); err != nil {
		return err
	}
	total := 0.0
	for i := range d.Y {
		total += d.Weight(i)
	}
	if !(total > 0) || math.IsInf(total, 0) || total > 1e300 {
		return fmt.Errorf("%w: %s: the row weights sum to %v; want a positive total below 1e300 (only their ratios matter)", learn.ErrData, what, total)
	}
	return nil
}

// LoadMulti decodes a model written by MultiModel.MarshalBinary (the
// learn.MultiFitter contract); it predicts on one goroutine.
func (m *Method) LoadMulti(payload []byte) (learn.Model, error) {
	mm := new(MultiModel)
	if err := mm.UnmarshalBinary(payload); err != nil {
		return nil, err
	}
	mm.SetThreads(1)
	return mm, nil
}

var _ learn.MultiFitter = (*Method)(nil)

package boost

import (
	"context"
	"fmt"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/tree"
)

// MethodName is the name the boosted-tree method is registered under.
const MethodName = "gbdt"

// Method is gradient-boosted trees on the learn contract: its parameters
// are Settings' (XGBoost's names), Fit trains with the Env's seed and
// workers, and models predict one goroutine each.
type Method struct {
	name     string
	describe string
	s        Settings
	// base holds the variant's defaults, which Params lists.
	base Settings
	// grid is the paper's grid for the variant (nil: the default grid).
	grid []string
}

// NewMethod returns the boosted-tree method with XGBoost's defaults.
func NewMethod() learn.Method {
	return &Method{name: MethodName, describe: "gradient-boosted trees (histogram-based, XGBoost's hist algorithm, split for split)"}
}

// New returns the boosted-tree method registered as gbdt with the typed
// settings s (a zero field is its default), for Go programs: the same
// method as NewMethod with the parameters set one by one from text.
func New(s Settings) learn.Method {
	m := NewMethod().(*Method)
	m.s = s
	return m
}

// NewVariant returns the boosted-tree method registered as name, with the
// given description and its defaults changed by base, a list of key,
// value pairs. It panics on a bad pair: variants are declared in code.
func NewVariant(name, describe string, base ...string) *Method {
	m := &Method{name: name, describe: describe}
	for i := 0; i+1 < len(base); i += 2 {
		if err := m.s.Set(base[i], base[i+1]); err != nil {
			panic(err)
		}
	}
	m.base = m.s
	return m
}

// Name returns the registered name.
func (m *Method) Name() string { return m.name }

// Describe returns a one-line description.
func (m *Method) Describe() string { return m.describe }

// WithPaperGrid sets the variant's grid from the paper's appendix (axes
// "key=v1,v2") and returns m.
func (m *Method) WithPaperGrid(axes ...string) *Method {
	m.grid = axes
	return m
}

// PaperGrid is the variant's grid from the paper's appendix; by default
// the paper's grid of its boosted trees (the LightGBM row, also AER's
// members): learning rate x depth x rounds, 96 points of 7 to 10 trees.
func (m *Method) PaperGrid() []string {
	if m.grid != nil {
		return m.grid
	}
	return []string{"eta=0.1,0.3,0.5,0.7", "max_depth=5,6,7,8,9,10", "n_estimators=7,8,9,10"}
}

// Settings returns a copy of the configured settings.
func (m *Method) Settings() Settings { return m.s }

// Set sets one XGBoost parameter (see Settings.Set).
func (m *Method) Set(key, value string) error { return m.s.Set(key, value) }

// Params lists every parameter with its value and default, the
// variant's own (scale_pos_weight=balanced for gbdt-tuned's members).
func (m *Method) Params() []learn.Param {
	ps := m.s.List()
	def := learn.ParamMap(m.base.List())
	for i := range ps {
		ps[i].Default = def[ps[i].Key]
	}
	return ps
}

// Fit trains boosted trees on train, with row weights; valid, when given,
// is evaluated every round and drives early stopping.
func (m *Method) Fit(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Scorer, error) {
	if err := m.checkSettings(valid, false); err != nil {
		return nil, err
	}
	// Train checks the data too, but numbers rows from 0 and wraps no
	// learn error; the learn contract names rows from 1 and wraps ErrData.
	if err := train.Check("training data"); err != nil {
		return nil, err
	}
	if err := train.CheckClassWeights("training data"); err != nil {
		return nil, err
	}
	if valid != nil {
		if err := valid.Check("validation data"); err != nil {
			return nil, err
		}
	}
	s, td, vd, err := m.runData(train, valid, env)
	if err != nil {
		return nil, err
	}
	bm, err := Train(ctx, td, vd, &s)
	if err != nil {
		return nil, err
	}
	bm.SetThreads(1)
	return &Fitted{Model: bm, report: report{summarize(bm, train.Features)}}, nil
}

// checkSettings checks the settings of a fit on k classes (multi: more
// than two, CheckClasses), and that early stopping has validation data:
// errors wrapping learn.ErrParam.
func (m *Method) checkSettings(valid *learn.Data, multi bool) error {
	if err := m.s.Check(); err != nil {
		return fmt.Errorf("%w: %v", learn.ErrParam, err)
	}
	if multi {
		if err := CheckClasses(&m.s); err != nil {
			return fmt.Errorf("%w: %v", learn.ErrParam, err)
		}
	}
	if m.s.EarlyStoppingRounds > 0 && valid == nil {
		return fmt.Errorf("%w: early_stopping_rounds needs validation data", learn.ErrParam)
	}
	return nil
}

// FitClasses trains multi-class boosted trees (TrainMulti) on train, whose
// labels are 0..k-1, with its row weights and the Env's seed and
// workers; valid, when given, is evaluated every round (MLogLoss) and
// drives early stopping. The learn.ClassFitter contract: bad data and
// k < 2 wrap learn.ErrData, the settings CheckClasses refuses
// learn.ErrParam. The model predicts on one goroutine.
func (m *Method) FitClasses(ctx context.Context, train, valid *learn.Data, k int, env learn.Env) (learn.Model, error) {
	if err := m.checkSettings(valid, true); err != nil {
		return nil, err
	}
	if k < 2 || k > MaxClasses {
		return nil, fmt.Errorf("%w: %d classes, want 2 to %d", learn.ErrData, k, MaxClasses)
	}
	if err := tree.CheckLabels(train, "training data", k); err != nil {
		return nil, err
	}
	if valid != nil {
		if err := tree.CheckLabels(valid, "validation data", k); err != nil {
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

// sharedBins returns the bins of train's rows from train.Shared, made
// there by the first fit that asks (nil without train.Shared): fits with
// other learning rates or depths on the same rows (an ensemble's
// members, a grid) bin them once.
func sharedBins(train *learn.Data, s *Settings, env learn.Env) (*Bins, error) {
	if train.Shared == nil {
		return nil, nil
	}
	key := fmt.Sprintf("boost.bins x=%p w=%p n=%d max_bin=%d", train.X.RawMatrix().Data, train.W, len(train.Y), s.MaxBin)
	v := train.Shared.Get(key, func() any {
		// The bins do not depend on the threads: the fits waiting
		// for them lend theirs (env.SharedWorkers).
		bs := *s
		bs.Threads = env.SharedThreads()
		b, err := NewBins(train.X, train.W, &bs)
		if err != nil {
			return err
		}
		return b
	})
	switch v := v.(type) {
	case *Bins:
		return v, nil
	case error:
		return nil, v
	}
	return nil, fmt.Errorf("boost: shared bins of type %T", v)
}

// Load decodes a model written by Fitted.MarshalBinary.
func (m *Method) Load(payload []byte) (learn.Scorer, error) {
	bm := new(Model)
	if err := bm.UnmarshalBinary(payload); err != nil {
		return nil, err
	}
	bm.SetThreads(1)
	return &Fitted{Model: bm}, nil
}

// LoadClasses decodes a model written by MultiModel.MarshalBinary (the
// learn.ClassFitter contract); it predicts on one goroutine.
func (m *Method) LoadClasses(payload []byte) (learn.Model, error) {
	mm := new(MultiModel)
	if err := mm.UnmarshalBinary(payload); err != nil {
		return nil, err
	}
	mm.SetThreads(1)
	return mm, nil
}

var _ learn.ClassFitter = (*Method)(nil)

// Fitted is a trained boosted-tree model on the learn contract.
type Fitted struct {
	*Model
	report
}

// report is what a fit found, for the model it gave.
type report struct{ summary *Summary }

// Summary returns what the fit found (learn.Summarizer), or nil for a
// loaded model.
func (r *report) Summary() any {
	if r.summary == nil {
		return nil
	}
	return r.summary
}

// NumFeatures returns the number of input features.
func (f *Fitted) NumFeatures() int { return f.Model.NumFeatures }

// PositiveProba writes the positive-class probabilities of the rows of x.
func (f *Fitted) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	if _, c := x.Dims(); c != f.Model.NumFeatures {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, f.Model.NumFeatures)
	}
	return f.Model.Predict(x, dst), nil
}

// NumParams is the number of leaves over all trees.
func (f *Fitted) NumParams() int {
	n := 0
	for t := range f.Trees {
		n += f.Trees[t].NumLeaves()
	}
	return n
}

// Summary is the report of a boosted-tree fit.
type Summary struct {
	Trees          int       `json:"trees"`
	Leaves         int       `json:"leaves"`
	ScalePosWeight float64   `json:"scale_pos_weight"`
	EvalMetric     string    `json:"eval_metric,omitempty"`
	ValidCurve     []float64 `json:"valid_curve,omitempty"`
	BestIteration  *int      `json:"best_iteration,omitempty"`
	BestScore      *float64  `json:"best_score,omitempty"`
	StoppedEarly   bool      `json:"stopped_early,omitempty"`
	// Importance lists the features the trees split on by total gain
	// (loss reduction summed over their splits), largest first.
	Importance []FeatureImportance `json:"importance"`
}

// FeatureImportance is one feature's share of the splits.
type FeatureImportance struct {
	Feature   string  `json:"feature"`
	TotalGain float64 `json:"total_gain"`
	Splits    int     `json:"splits"`
}

func summarize(m *Model, features []string) *Summary {
	s := &Summary{Trees: len(m.Trees), ScalePosWeight: m.Settings.ScalePosWeight, Importance: []FeatureImportance{}}
	for i := range m.Trees {
		s.Leaves += m.Trees[i].NumLeaves()
	}
	gain, _ := m.Importance(TotalGain)
	count, _ := m.Importance(Count)
	for j := range count {
		if count[j] == 0 {
			continue
		}
		name := fmt.Sprintf("f%d", j)
		if j < len(features) {
			name = features[j]
		}
		s.Importance = append(s.Importance, FeatureImportance{Feature: name, TotalGain: gain[j], Splits: int(count[j])})
	}
	sort.SliceStable(s.Importance, func(a, b int) bool { return s.Importance[a].TotalGain > s.Importance[b].TotalGain })
	if ev := m.Eval; ev != nil {
		s.EvalMetric, s.ValidCurve, s.StoppedEarly = ev.Metric, ev.Curve, ev.Stopped
		s.BestIteration, s.BestScore = &ev.BestIteration, &ev.BestScore
	}
	return s
}

// String is the summary in one line, for aer fit's text output.
func (s *Summary) String() string {
	out := fmt.Sprintf("%d trees (%d leaves)", s.Trees, s.Leaves)
	if s.BestIteration != nil {
		out += fmt.Sprintf("; validation best %s %.6g at round %d of %d", s.EvalMetric, *s.BestScore, *s.BestIteration+1, len(s.ValidCurve))
	}
	return out
}

// runData is the method's settings with env's run-time choices (seed,
// threads, progress), and train and valid as boost Data, train's bins
// shared with the other fits on its rows when it has any.
func (m *Method) runData(train, valid *learn.Data, env learn.Env) (Settings, Data, *Data, error) {
	s := m.s
	s.Seed, s.Threads = env.Seed, env.Threads()
	if env.Progress != nil {
		s.Progress = func(done, total int) { env.Report("trees", done, total) }
	}
	var vd *Data
	if valid != nil {
		vd = &Data{X: valid.X, Y: valid.Y, Weight: valid.W}
	}
	td := Data{X: train.X, Y: train.Y, Weight: train.W}
	var err error
	if td.Bins, err = sharedBins(train, &s, env); err != nil {
		return s, td, nil, err
	}
	return s, td, vd, nil
}

// NumClasses is 2: Fitted scores the positive class (PositiveProba).
func (f *Fitted) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (f *Fitted) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(f, x, dst)
}

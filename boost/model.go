package boost

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/catsplit"
	"github.com/aer-go/aer/internal/softmax"
	"github.com/aer-go/aer/internal/treeshap"
	"github.com/aer-go/aer/learn"
)

// Model is a trained boosted-tree model. Its exported fields are saved by
// MarshalBinary; its methods are safe for concurrent use.
type Model struct {
	// Settings are the resolved training settings.
	Settings Settings `json:"settings"`
	// NumFeatures is the number of input features.
	NumFeatures int `json:"num_features"`
	// BaseMargin is the margin every prediction starts from.
	BaseMargin float64 `json:"base_margin"`
	// Trees are the boosting rounds kept.
	Trees []Tree `json:"trees"`
	// Eval is the validation record, nil when trained without one.
	Eval *EvalResult `json:"eval,omitempty"`

	once   sync.Once
	forest forest

	shapOnce sync.Once
	shap     *treeshap.Set

	quant *learn.Quantization // how the model was quantised; nil: it was not
}

func (m *Model) compile() { m.once.Do(func() { m.forest = compile(m.Trees, m.NumFeatures) }) }

// PredictRowMargin returns the raw margin (log-odds) of one row.
func (m *Model) PredictRowMargin(row []float64) float64 {
	if len(row) != m.NumFeatures {
		panic(fmt.Sprintf("boost: row has %d values, model has %d features", len(row), m.NumFeatures))
	}
	var out [1]float64
	var small [64]float64
	var buf []float64
	if 2*m.NumFeatures <= len(small) {
		buf = small[:2*m.NumFeatures]
	}
	m.margins([][]float64{row}, out[:], buf)
	return out[0]
}

// margins sets out[k] to the margin of rows[k]; buf is scratch space for
// the widened rows, allocated when too short (64 rows take
// 128*NumFeatures values either way). From eight rows on, amd64 walks
// them with walkGroup; fewer rows (a served one), and other
// architectures, with the Go kernel: both give the same margins.
func (m *Model) margins(rows [][]float64, out []float64, buf []float64) {
	m.compile()
	for k := range out {
		out[k] = 0
	}
	if len(m.forest.group) > 0 && len(rows) >= 8 {
		need := (len(rows) + 7) / 8 * 16 * m.NumFeatures
		if len(buf) < need {
			buf = make([]float64, need)
		}
		groupWiden(rows, m.NumFeatures, buf[:need])
		m.forest.addGroupMargins(buf[:need], out)
	} else if m.forest.ok {
		need := len(rows) * 2 * m.NumFeatures
		if len(buf) < need {
			buf = make([]float64, need)
		}
		widen(rows, m.NumFeatures, buf[:need])
		m.forest.addMargins(buf[:need], out)
	} else {
		for k, row := range rows {
			for ti := range m.Trees {
				out[k] += m.Trees[ti].Value[m.Trees[ti].walk(row)]
			}
		}
	}
	for k := range out {
		out[k] += m.BaseMargin
	}
}

// PredictRow returns the probability of the positive class for one row.
func (m *Model) PredictRow(row []float64) float64 {
	return sigmoid(m.PredictRowMargin(row))
}

// PredictMargin writes the raw margins of the rows of x into dst (which is
// allocated when nil or too short) and returns it.
func (m *Model) PredictMargin(x *mat.Dense, dst []float64) []float64 {
	n, nf := x.Dims()
	if nf != m.NumFeatures {
		panic(fmt.Sprintf("boost: data has %d features, model has %d", nf, m.NumFeatures))
	}
	if len(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	m.compile()
	raw := x.RawMatrix()
	const rowsPerTask = 64
	threads := m.Settings.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	tasks := (n + rowsPerTask - 1) / rowsPerTask
	// Each goroutine takes blocks of rows in turn and keeps one buffer
	// of widened rows.
	// The buffer margins needs for a block of k rows: a single-row call
	// (a server's) must not allocate and clear a whole block's.
	k := min(n, rowsPerTask)
	bufLen := 2 * k * nf
	if k >= 8 {
		bufLen = (k + 7) / 8 * 16 * nf
	}
	var next atomic.Int64
	work := func() {
		var rows [rowsPerTask][]float64
		buf := make([]float64, bufLen)
		for {
			b := int(next.Add(1)) - 1
			if b >= tasks {
				return
			}
			lo, hi := b*rowsPerTask, min(n, (b+1)*rowsPerTask)
			for i := lo; i < hi; i++ {
				rows[i-lo] = raw.Data[i*raw.Stride : i*raw.Stride+nf]
			}
			m.margins(rows[:hi-lo], dst[lo:hi], buf)
		}
	}
	if threads <= 1 || tasks <= 1 {
		work()
		return dst
	}
	var wg sync.WaitGroup
	for range min(threads, tasks) {
		wg.Go(work)
	}
	wg.Wait()
	return dst
}

// Predict writes the positive-class probabilities of the rows of x into
// dst (allocated when nil or too short) and returns it.
func (m *Model) Predict(x *mat.Dense, dst []float64) []float64 {
	dst = m.PredictMargin(x, dst)
	for i, v := range dst {
		dst[i] = sigmoid(v)
	}
	return dst
}

// SetThreads sets the number of goroutines batch prediction uses (0: all
// cores). Call it before predicting, not concurrently with prediction.
func (m *Model) SetThreads(n int) { m.Settings.Threads = n }

// Importance kinds.
const (
	Gain       = "gain"        // mean loss reduction of the feature's splits (XGBoost's default)
	TotalGain  = "total_gain"  // summed loss reduction
	Cover      = "cover"       // mean hessian sum of the rows reaching its splits
	TotalCover = "total_cover" // summed cover
	Count      = "weight"      // number of splits on the feature (XGBoost's "weight")
)

// Importance returns one value per feature: Gain, TotalGain, Cover,
// TotalCover or Count (XGBoost's "weight"). Features never split on get 0.
func (m *Model) Importance(kind string) ([]float64, error) {
	gain := make([]float64, m.NumFeatures)
	cover := make([]float64, m.NumFeatures)
	count := make([]float64, m.NumFeatures)
	for ti := range m.Trees {
		t := &m.Trees[ti]
		for i, f := range t.Feature {
			if f < 0 {
				continue
			}
			gain[f] += t.Gain[i]
			cover[f] += t.Cover[i]
			count[f]++
		}
	}
	mean := func(s []float64) []float64 {
		for i := range s {
			if count[i] > 0 {
				s[i] /= count[i]
			}
		}
		return s
	}
	switch kind {
	case Gain:
		return mean(gain), nil
	case TotalGain:
		return gain, nil
	case Cover:
		return mean(cover), nil
	case TotalCover:
		return cover, nil
	case Count:
		return count, nil
	}
	return nil, fmt.Errorf("boost: unknown importance kind %q (want gain, total_gain, cover, total_cover or weight)", kind)
}

// MarshalBinary encodes the model (without Settings.Gradient). Every
// float64 survives the round trip exactly.
func (m *Model) MarshalBinary() ([]byte, error) {
	if m.quant != nil {
		return m.marshalQuant()
	}
	return json.Marshal(m)
}

// UnmarshalBinary decodes a model written by MarshalBinary and checks
// that its trees are well formed.
func (m *Model) UnmarshalBinary(data []byte) error {
	if bytes.HasPrefix(data, []byte(quantMagic)) {
		return m.unmarshalQuant(data)
	}
	var tmp Model
	if err := json.Unmarshal(data, &tmp); err != nil {
		return fmt.Errorf("boost: decoding model: %w", err)
	}
	if err := tmp.validate(); err != nil {
		return err
	}
	m.Settings, m.NumFeatures, m.BaseMargin, m.Trees, m.Eval, m.quant = tmp.Settings, tmp.NumFeatures, tmp.BaseMargin, tmp.Trees, tmp.Eval, nil
	m.once = sync.Once{}
	m.forest = forest{}
	m.shapOnce = sync.Once{}
	m.shap = nil
	m.compile()
	return nil
}

// validate checks the structure of a decoded model, so that prediction
// cannot index out of range or loop.
func (m *Model) validate() error {
	if m.NumFeatures <= 0 {
		return fmt.Errorf("boost: model has %d features", m.NumFeatures)
	}
	if math.IsNaN(m.BaseMargin) || math.IsInf(m.BaseMargin, 0) {
		return fmt.Errorf("boost: model base margin is %v", m.BaseMargin)
	}
	for ti := range m.Trees {
		t := &m.Trees[ti]
		n := len(t.Feature)
		if n == 0 || len(t.Threshold) != n || len(t.DefaultLeft) != n || len(t.Left) != n ||
			len(t.Value) != n || len(t.Gain) != n || len(t.Cover) != n {
			return fmt.Errorf("boost: tree %d: node arrays have different lengths", ti)
		}
		for i := 0; i < n; i++ {
			if t.Left[i] < 0 {
				if math.IsNaN(t.Value[i]) || math.IsInf(t.Value[i], 0) {
					return fmt.Errorf("boost: tree %d node %d: leaf value %v", ti, i, t.Value[i])
				}
				continue
			}
			// Children come after their parent, so walks end.
			if int(t.Left[i]) <= i || int(t.Left[i])+1 >= n {
				return fmt.Errorf("boost: tree %d node %d: bad child %d", ti, i, t.Left[i])
			}
			if t.Feature[i] < 0 || int(t.Feature[i]) >= m.NumFeatures {
				return fmt.Errorf("boost: tree %d node %d: feature %d out of range", ti, i, t.Feature[i])
			}
		}
		if t.CategoryRule != catsplit.XGBoost && t.CategoryRule != catsplit.LightGBM {
			return fmt.Errorf("boost: tree %d: unknown category rule %q", ti, string(t.CategoryRule))
		}
		if t.ZeroMissing != nil {
			if len(t.ZeroMissing) != n {
				return fmt.Errorf("boost: tree %d: %d zero-as-missing flags for %d nodes", ti, len(t.ZeroMissing), n)
			}
			for i, z := range t.ZeroMissing {
				if z && (t.Left[i] < 0 || (t.Categories != nil && t.Categories[i] != nil)) {
					return fmt.Errorf("boost: tree %d node %d: zero as missing at a leaf or a categorical split", ti, i)
				}
			}
		}
		if t.Categories != nil {
			if len(t.Categories) != n {
				return fmt.Errorf("boost: tree %d: %d category sets for %d nodes", ti, len(t.Categories), n)
			}
			for i, c := range t.Categories {
				if c == nil {
					continue
				}
				if t.Left[i] < 0 {
					return fmt.Errorf("boost: tree %d node %d: a leaf with categories", ti, i)
				}
				if err := t.CategoryRule.Check(c); err != nil {
					return fmt.Errorf("boost: tree %d node %d: %w", ti, i, err)
				}
			}
		}
	}
	return nil
}

// FirstTrees returns a model made of the first k trees of m (sharing
// them), as if training had stopped after k rounds.
func (m *Model) FirstTrees(k int) *Model {
	k = max(0, min(k, len(m.Trees)))
	return &Model{Settings: m.Settings, NumFeatures: m.NumFeatures, BaseMargin: m.BaseMargin, Trees: m.Trees[:k:k], Eval: m.Eval}
}

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

	nf    int
	quant *learn.Quantization // how the model was quantised; nil: it was not

	once  sync.Once
	class []*Model

	report
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
// model from Method.FitClasses or LoadClasses).
func (m *MultiModel) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	dst, err := m.Margins(x, dst)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", learn.ErrData, err)
	}
	k := m.NumClasses()
	for i := 0; i < len(dst); i += k {
		softmax.Apply(dst[i : i+k])
	}
	return dst, nil
}

// MarshalBinary encodes the model as JSON (without Settings.Gradient).
// Every float64 survives the round trip exactly.
func (m *MultiModel) MarshalBinary() ([]byte, error) {
	if m.quant != nil {
		return m.marshalQuant()
	}
	return json.Marshal(multiJSON{Settings: m.Settings, NumFeatures: m.nf, Base: m.Base, Trees: m.Trees, Eval: m.Eval})
}

// UnmarshalBinary decodes a model written by MarshalBinary and checks
// it: at least two classes, one tree per class in every round, each tree
// well formed as Model.UnmarshalBinary checks it.
func (m *MultiModel) UnmarshalBinary(data []byte) error {
	if bytes.HasPrefix(data, []byte(quantMagicMulti)) {
		return m.unmarshalQuant(data)
	}
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
	m.Settings, m.Base, m.Trees, m.Eval, m.nf, m.quant = nm.Settings, nm.Base, nm.Trees, nm.Eval, nm.nf, nil
	m.once = sync.Once{}
	m.class = nil
	m.SetThreads(m.Settings.Threads)
	return nil
}

// NewMultiModel returns the multi-class model of the given rounds
// (trees[r][c] is class c's tree of round r) and per-class base margins,
// for numFeatures features, checked as UnmarshalBinary checks a saved
// model: for models another library trained (package interop/xgboost,
// interop/lightgbm). Its Settings are s (Objective Softmax); it predicts
// on one goroutine.
func NewMultiModel(s Settings, numFeatures int, base []float64, trees [][]Tree) (*MultiModel, error) {
	b, err := json.Marshal(multiJSON{Settings: s, NumFeatures: numFeatures, Base: base, Trees: trees})
	if err != nil {
		return nil, fmt.Errorf("boost: encoding multi-class model: %w", err)
	}
	m := new(MultiModel)
	if err := m.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	m.SetThreads(1)
	return m, nil
}

// GroupRounds arranges trees, tree i of class class[i] (0..k-1), into the
// rounds of a MultiModel: class c's trees in their order, round r
// holding each class's r-th tree, and a tree of one leaf of value 0
// where a class has fewer trees than another. A class's margin is
// unchanged: the sum of its trees.
func GroupRounds(trees []Tree, class []int, k int) ([][]Tree, error) {
	if len(class) != len(trees) {
		return nil, fmt.Errorf("boost: %d classes for %d trees", len(class), len(trees))
	}
	per := make([][]Tree, k)
	for i, c := range class {
		if c < 0 || c >= k {
			return nil, fmt.Errorf("boost: tree %d of class %d; the model has %d", i, c, k)
		}
		per[c] = append(per[c], trees[i])
	}
	n := 0
	for _, ts := range per {
		n = max(n, len(ts))
	}
	rounds := make([][]Tree, n)
	for r := range rounds {
		rounds[r] = make([]Tree, k)
		for c := range k {
			if r < len(per[c]) {
				rounds[r][c] = per[c][r]
			} else {
				rounds[r][c] = Tree{Feature: []int32{-1}, Threshold: []float64{0}, DefaultLeft: []bool{false},
					Left: []int32{-1}, Value: []float64{0}, Gain: []float64{0}, Cover: []float64{0}}
			}
		}
	}
	return rounds, nil
}

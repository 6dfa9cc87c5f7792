package boost

import (
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/catsplit"
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
	shap     *shapTrees
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
	return json.Marshal(m)
}

// UnmarshalBinary decodes a model written by MarshalBinary and checks
// that its trees are well formed.
func (m *Model) UnmarshalBinary(data []byte) error {
	var tmp Model
	if err := json.Unmarshal(data, &tmp); err != nil {
		return fmt.Errorf("boost: decoding model: %w", err)
	}
	if err := tmp.validate(); err != nil {
		return err
	}
	m.Settings, m.NumFeatures, m.BaseMargin, m.Trees, m.Eval = tmp.Settings, tmp.NumFeatures, tmp.BaseMargin, tmp.Trees, tmp.Eval
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

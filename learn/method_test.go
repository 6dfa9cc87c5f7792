package learn_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// logit is a test model: the probability of a row is the logistic of a
// weighted sum of its features. Its options make it misbehave.
type logit struct {
	W []float64
	// nanRow, when >= 0, is a row (0-based, counted over the whole
	// matrix through rowOffset) whose probability is NaN.
	nanRow int
	// fresh makes PositiveProba return a new slice instead of dst.
	fresh bool
	// fail makes PositiveProba return this error.
	fail error

	mu     sync.Mutex
	blocks []int // rows of each PositiveProba call
}

func newLogit(w ...float64) *logit { return &logit{W: w, nanRow: -1} }

func (m *logit) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	r, c := x.Dims()
	if c != len(m.W) {
		return nil, fmt.Errorf("%w: %d features, want %d", learn.ErrData, c, len(m.W))
	}
	m.mu.Lock()
	m.blocks = append(m.blocks, r)
	m.mu.Unlock()
	if m.fail != nil {
		return nil, m.fail
	}
	if len(dst) < r || m.fresh {
		dst = make([]float64, r)
	}
	for i := range r {
		z := 0.0
		for j, w := range m.W {
			z += w * x.At(i, j)
		}
		dst[i] = 1 / (1 + math.Exp(-z))
		if m.nanRow >= 0 && x.At(i, 0) == float64(m.nanRow) {
			dst[i] = math.NaN()
		}
	}
	return dst[:r], nil
}

func (m *logit) NumFeatures() int               { return len(m.W) }
func (m *logit) MarshalBinary() ([]byte, error) { return json.Marshal(m.W) }

// rowsMatrix returns n rows of 3 features; the first feature is the row
// index, so a model can find a row.
func rowsMatrix(n int) *mat.Dense {
	x := mat.NewDense(n, 3, nil)
	for i := range n {
		x.Set(i, 0, float64(i))
		x.Set(i, 1, math.Sin(float64(i)))
		x.Set(i, 2, float64(i%7)-3)
	}
	return x
}

func TestPredictIndependentOfWorkers(t *testing.T) {
	for _, n := range []int{1, 5, 1023, 1024, 1025, 2500, 5000} {
		x := rowsMatrix(n)
		m := newLogit(-0.001, 0.7, 0.3)
		want, err := m.PositiveProba(x, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{0, 1, 2, 7} {
			m.blocks = nil
			got, err := learn.Predict(context.Background(), m, x, workers)
			if err != nil {
				t.Fatalf("%d rows, %d workers: %v", n, workers, err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%d rows, %d workers: Predict differs from one PositiveProba call", n, workers)
			}
			// Fixed blocks of 1024 rows, the last one shorter.
			var wantBlocks []int
			for r := n; r > 0; r -= 1024 {
				wantBlocks = append(wantBlocks, min(r, 1024))
			}
			slices.Sort(m.blocks)
			slices.Sort(wantBlocks)
			if !slices.Equal(m.blocks, wantBlocks) {
				t.Errorf("%d rows, %d workers: blocks %v, want %v", n, workers, m.blocks, wantBlocks)
			}
		}
	}
}

// TestPredictModelAllocates: a model that returns its own slice rather
// than dst still fills the result.
func TestPredictModelAllocates(t *testing.T) {
	x := rowsMatrix(3000)
	m := newLogit(0.002, 1, -1)
	m.fresh = true
	want, _ := m.PositiveProba(x, nil)
	got, err := learn.Predict(context.Background(), m, x, 2)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Predict with a model that allocates: %v, equal %v", err, slices.Equal(got, want))
	}
}

func TestPredictErrors(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	boom := errors.New("boom")
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		m      func() *logit
		x      *mat.Dense
		is     error
		errHas string
	}{
		{"nil matrix", context.Background(), func() *logit { return newLogit(1, 1, 1) }, nil, learn.ErrData, "no rows"},
		{"empty matrix", context.Background(), func() *logit { return newLogit(1, 1, 1) }, &mat.Dense{}, learn.ErrData, "no rows"},
		{"too few features", context.Background(), func() *logit { return newLogit(1, 1, 1, 1) }, rowsMatrix(10), learn.ErrData, "data has 3 features, the model 4"},
		{"too many features", context.Background(), func() *logit { return newLogit(1, 1) }, rowsMatrix(10), learn.ErrData, "data has 3 features, the model 2"},
		{"NaN probability", context.Background(), func() *logit { m := newLogit(0, 1, 1); m.nanRow = 1500; return m }, rowsMatrix(3000), nil, "row 1501 is NaN"},
		{"model error", context.Background(), func() *logit { m := newLogit(0, 1, 1); m.fail = boom; return m }, rowsMatrix(3000), boom, "boom"},
		{"cancelled", cancelled, func() *logit { return newLogit(0, 1, 1) }, rowsMatrix(3000), context.Canceled, "canceled"},
	} {
		for _, workers := range []int{1, 2, 7} {
			var (
				p   []float64
				err error
			)
			func() {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("panic: %v", r)
						t.Errorf("%s, %d workers: Predict panicked: %v", tc.name, workers, r)
					}
				}()
				p, err = learn.Predict(tc.ctx, tc.m(), tc.x, workers)
			}()
			if err == nil {
				t.Errorf("%s, %d workers: no error", tc.name, workers)
				continue
			}
			if p != nil {
				t.Errorf("%s, %d workers: probabilities with the error", tc.name, workers)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("%s, %d workers: %v does not wrap %v", tc.name, workers, err, tc.is)
			}
			if !strings.Contains(err.Error(), tc.errHas) {
				t.Errorf("%s, %d workers: %q does not say %q", tc.name, workers, err, tc.errHas)
			}
		}
	}
}

// TestPredictCancelStops: a context cancelled while Predict runs stops it
// before every block is scored.
func TestPredictCancelStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := &cancelling{logit: newLogit(0, 1, 1), cancel: cancel}
	_, err := learn.Predict(ctx, m, rowsMatrix(20*1024), 1)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Predict: %v, want context.Canceled", err)
	}
	if m.calls != 1 {
		t.Errorf("%d blocks were scored after the cancel, want none", m.calls-1)
	}
}

// cancelling cancels its context in the first PositiveProba call.
type cancelling struct {
	*logit
	cancel func()
	calls  int
}

func (c *cancelling) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	c.calls++
	c.cancel()
	return c.logit.PositiveProba(x, dst)
}

// extras is a model with every optional behaviour.
type extras struct{ *logit }

func (extras) Threshold() float64 { return 0.2 }
func (extras) NumParams() int     { return 42 }

func TestOptionalBehaviour(t *testing.T) {
	plain, rich := newLogit(1), extras{newLogit(1)}
	if learn.NumParams(plain) != 1 || learn.NumParams(rich) != 42 {
		t.Errorf("NumParams: %d, %d, want 1, 42", learn.NumParams(plain), learn.NumParams(rich))
	}
	if learn.ThresholdOf(plain) != 0.5 || learn.ThresholdOf(rich) != 0.2 {
		t.Errorf("ThresholdOf: %v, %v, want 0.5, 0.2", learn.ThresholdOf(plain), learn.ThresholdOf(rich))
	}
}

// NumClasses is 2: logit scores the positive class (PositiveProba).
func (m *logit) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (m *logit) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(m, x, dst)
}

// NumClasses is 2: cancelling scores the positive class (PositiveProba).
func (c *cancelling) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (c *cancelling) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(c, x, dst)
}

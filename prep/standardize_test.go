package prep

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// spy is an inner method that keeps the data it was fitted on; its model
// scores a row by its first feature through a sigmoid.
type spy struct{ seen *learn.Data }

func (s *spy) Name() string                { return "spy" }
func (s *spy) Set(key, value string) error { return learn.ErrParam }
func (s *spy) Params() []learn.Param       { return nil }
func (s *spy) Fit(_ context.Context, train, _ *learn.Data, _ learn.Env) (learn.Scorer, error) {
	s.seen = train
	return &first{D: train.Cols()}, nil
}
func (s *spy) Load(b []byte) (learn.Scorer, error) {
	var f first
	return &f, json.Unmarshal(b, &f)
}

type first struct{ D int }

func (f *first) NumFeatures() int               { return f.D }
func (f *first) MarshalBinary() ([]byte, error) { return json.Marshal(f) }
func (f *first) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	r, _ := x.Dims()
	out := make([]float64, r)
	for i := range out {
		out[i] = 1 / (1 + math.Exp(-x.At(i, 0)))
	}
	return out, nil
}

func TestStandardize(t *testing.T) {
	x := mat.NewDense(4, 2, []float64{1, 10, 3, math.NaN(), 5, 30, math.NaN(), 20})
	train := &learn.Data{X: x, Y: []int{0, 1, 0, 1}}
	inner := &spy{}
	m := Standardize(inner)
	model, err := m.Fit(context.Background(), train, nil, learn.Env{})
	if err != nil {
		t.Fatal(err)
	}
	// The inner method saw imputed, standardised columns: mean 0, variance 1.
	for j := range 2 {
		var s, ss float64
		for i := range 4 {
			v := inner.seen.X.At(i, j)
			s += v
			ss += v * v
		}
		if math.Abs(s) > 1e-12 || math.Abs(ss/4-0.75) > 1e-12 && math.Abs(ss/4-1) > 1e-12 {
			t.Errorf("column %d: sum %v, mean square %v", j, s, ss/4)
		}
	}
	if !math.IsNaN(x.At(1, 1)) {
		t.Error("the caller's data was changed")
	}
	// Row 4 (first feature missing) takes the training mean 3: score 0.5.
	p, err := model.PositiveProba(x, nil)
	if err != nil || math.Abs(p[3]-0.5) > 1e-15 || !(p[0] < 0.5 && p[2] > 0.5) {
		t.Errorf("scores %v, %v", p, err)
	}
	b, _ := model.MarshalBinary()
	back, err := m.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := back.PositiveProba(x, nil)
	for i := range p {
		if p[i] != q[i] {
			t.Errorf("row %d: %v before saving, %v after", i, p[i], q[i])
		}
	}
	if _, err := back.PositiveProba(mat.NewDense(1, 3, nil), nil); err == nil {
		t.Error("wrong feature count accepted")
	}
	if err := m.Set("standardize", "false"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Fit(context.Background(), train, nil, learn.Env{}); err != nil || inner.seen.X.At(0, 1) != 10 || inner.seen.X.At(1, 1) != 20 {
		t.Errorf("standardize=false: inner saw %v (%v)", mat.Formatted(inner.seen.X), err)
	}
}

// estimator is a spy that estimates its fit's memory; mappedEstimator is
// one that also maps the rows as it copies them.
type estimator struct{ spy }

func (e *estimator) FitMemory(s learn.Shape) int64 { return 1000 }

type mappedEstimator struct{ estimator }

func (m *mappedEstimator) FitMapped(ctx context.Context, train, valid *learn.Data, _ *learn.ColumnMap, env learn.Env) (learn.Scorer, error) {
	return m.Fit(ctx, train, valid, env)
}

// TestFitMemory: the wrapper estimates only for inner methods that do,
// adding its copy of the validation rows, and of the training rows unless
// the inner method maps them as it copies them (and standardize is on).
func TestFitMemory(t *testing.T) {
	if _, ok := Standardize(&spy{}).(learn.MemoryEstimator); ok {
		t.Error("the wrapper of a method without an estimate claims one")
	}
	sh := learn.Shape{Rows: 100, Features: 3, ValidRows: 10}
	copies := int64(8 * 3 * (100 + 10))
	if got, _ := learn.FitMemory(Standardize(&estimator{}), sh); got != 1000+copies {
		t.Errorf("copying inner: %d, want %d", got, 1000+copies)
	}
	mapped := Standardize(&mappedEstimator{})
	if got, _ := learn.FitMemory(mapped, sh); got != 1000+8*3*10 {
		t.Errorf("mapping inner: %d, want %d", got, 1000+8*3*10)
	}
	if err := mapped.Set("standardize", "false"); err != nil {
		t.Fatal(err)
	}
	if got, _ := learn.FitMemory(mapped, sh); got != 1000+copies {
		t.Errorf("mapping inner, standardize=false: %d, want %d", got, 1000+copies)
	}
}

// TestMappedPath: an inner method that maps rows as it copies them gets
// the caller's rows when they are complete, and a standardised copy when
// a value is missing (the map has no imputation).
func TestMappedPath(t *testing.T) {
	full := mat.NewDense(4, 2, []float64{1, 10, 3, 40, 5, 30, 7, 20})
	gaps := mat.NewDense(4, 2, []float64{1, 10, 3, math.NaN(), 5, 30, 7, 20})
	for _, x := range []*mat.Dense{full, gaps} {
		inner := &mappedEstimator{}
		if _, err := Standardize(inner).Fit(context.Background(), &learn.Data{X: x, Y: []int{0, 1, 0, 1}}, nil, learn.Env{}); err != nil {
			t.Fatal(err)
		}
		if same := inner.seen.X == x; same != (x == full) {
			t.Errorf("missing values %v: the inner method saw the caller's rows: %v", x == gaps, same)
		}
	}
}

// NumClasses is 2: first scores the positive class (PositiveProba).
func (f *first) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (f *first) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(f, x, dst)
}

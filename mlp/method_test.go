package mlp_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/mlp"
)

// blobs returns n rows of two features: positives around (2, 2),
// negatives around (-2, -2), with spread sd; one row in ratio is positive.
func blobs(n, ratio int, sd float64, seed uint64) *learn.Data {
	r := rng.New(seed)
	x := mat.NewDense(n, 2, nil)
	y := make([]int, n)
	for i := range n {
		c := -2.0
		if i%ratio == 0 {
			y[i], c = 1, 2
		}
		x.Set(i, 0, c+sd*r.NormFloat64())
		x.Set(i, 1, c+sd*r.NormFloat64())
	}
	return &learn.Data{X: x, Y: y}
}

func fit(t *testing.T, m learn.Method, train, valid *learn.Data, seed uint64, workers int, kv ...string) (*mlp.Model, *mlp.Summary) {
	t.Helper()
	for i := 0; i+1 < len(kv); i += 2 {
		if err := m.Set(kv[i], kv[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	model, err := m.Fit(context.Background(), train, valid, learn.Env{Seed: seed, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	mm := model.(*mlp.Model)
	return mm, mm.Summary().(*mlp.Summary)
}

func predict(t *testing.T, m learn.Scorer, x *mat.Dense) []float64 {
	t.Helper()
	p, err := m.PositiveProba(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSeparable: two well separated clusters are learned with the
// paper's loss; every row is on the right side of 1/2.
func TestSeparable(t *testing.T) {
	train, valid, test := blobs(300, 5, 0.7, 1), blobs(100, 5, 0.7, 2), blobs(200, 5, 0.7, 3)
	model, sum := fit(t, mlp.NewMethod(), train, valid, 1, 2)
	p := predict(t, model, test.X)
	if auc := metrics.ROCAUC(test.Y, p, nil); auc != 1 {
		t.Errorf("test ROC AUC %v, want 1", auc)
	}
	if r := metrics.Evaluate(test.Y, p, 0.5, nil); r.BalancedAccuracy != 1 {
		t.Errorf("test balanced accuracy at 1/2: %v, want 1 (%v)", r.BalancedAccuracy, r.Confusion)
	}
	if last, first := sum.TrainLoss[len(sum.TrainLoss)-1], sum.TrainLoss[0]; !(last < first/10) {
		t.Errorf("training loss went from %v to %v, want a tenfold drop", first, last)
	}
}

// TestEarlyStoppingRestoresBest: on validation rows whose labels are the
// opposite of the training rows' the validation loss turns upward once
// the network has learnt the training rows; training stops patience
// epochs after its lowest point and the model is exactly the one that
// training for the best epoch's number of epochs gives.
func TestEarlyStoppingRestoresBest(t *testing.T) {
	train := blobs(400, 4, 1.5, 4)
	flipped := blobs(100, 4, 1.5, 5)
	for i := range flipped.Y {
		flipped.Y[i] = 1 - flipped.Y[i]
	}
	test := blobs(50, 4, 1.5, 6)
	const patience = 4
	model, sum := fit(t, mlp.NewMethod(), train, flipped, 3, 1, "patience", "4", "learning_rate", "0.01", "batch_size", "32")
	best := slices.Index(sum.ValidLoss, slices.Min(sum.ValidLoss)) + 1
	if sum.BestEpoch != best || !sum.StoppedEarly || sum.Epochs != best+patience || len(sum.TrainLoss) != sum.Epochs {
		t.Fatalf("best epoch %d of %d (validation loss lowest at %d), stopped early %v; curve %v", sum.BestEpoch, sum.Epochs, best, sum.StoppedEarly, sum.ValidLoss)
	}
	short, ssum := fit(t, mlp.NewMethod(), train, flipped, 3, 2, "patience", "4", "learning_rate", "0.01", "batch_size", "32", "max_epochs", strconv.Itoa(sum.BestEpoch))
	if ssum.Epochs != sum.BestEpoch || ssum.BestEpoch != sum.BestEpoch {
		t.Fatalf("the short fit ran %d epochs, best %d; want %d", ssum.Epochs, ssum.BestEpoch, sum.BestEpoch)
	}
	if !slices.Equal(predict(t, model, test.X), predict(t, short, test.X)) {
		t.Error("the early-stopped model predicts differently from the model trained for its best epoch's number of epochs")
	}
	if !slices.Equal(ssum.ValidLoss, sum.ValidLoss[:sum.BestEpoch]) || !slices.Equal(ssum.TrainLoss, sum.TrainLoss[:sum.BestEpoch]) {
		t.Error("the curves of the short fit are not the start of the long fit's")
	}
}

// TestHoldout: without validation data a stratified tenth of the training
// rows is held out; with validation_fraction 0 every epoch runs.
func TestHoldout(t *testing.T) {
	train := blobs(200, 5, 1, 7)
	_, sum := fit(t, mlp.NewMethod(), train, nil, 1, 1)
	if sum.Validation != "held out" || sum.HeldOut != 20 || len(sum.ValidLoss) != sum.Epochs {
		t.Errorf("validation %q, %d rows held out, %d validation losses for %d epochs; want 20 rows held out", sum.Validation, sum.HeldOut, len(sum.ValidLoss), sum.Epochs)
	}
	_, sum = fit(t, mlp.NewMethod(), train, nil, 1, 1, "validation_fraction", "0", "max_epochs", "7")
	if sum.Validation != "none" || sum.HeldOut != 0 || sum.Epochs != 7 || sum.BestEpoch != 7 || sum.ValidLoss != nil || sum.StoppedEarly {
		t.Errorf("validation_fraction 0: %+v", sum)
	}
	if s := sum.String(); !strings.Contains(s, "7 epochs, no validation rows") {
		t.Errorf("summary %q", s)
	}
}

// TestWorkers: a model does not depend on the number of workers, with
// batches of several blocks and a validation set of many.
func TestWorkers(t *testing.T) {
	train, valid := blobs(1000, 7, 2, 8), blobs(300, 7, 2, 9)
	var first []byte
	for _, w := range []int{1, 2, 5} {
		m, _ := fit(t, mlp.NewMethod(), train, valid, 11, w, "max_epochs", "5", "batch_size", "300")
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = b
		} else if !slices.Equal(b, first) {
			t.Errorf("%d workers: a different model than 1 worker", w)
		}
	}
}

// TestZeroWeightRows: rows of weight 0 do not count. With one full batch
// they only scale the gradient, which Adam undoes up to its epsilon and
// rounding.
func TestZeroWeightRows(t *testing.T) {
	clean := blobs(120, 4, 1.5, 10)
	noise := blobs(40, 4, 1.5, 11)
	for i := range noise.Y {
		noise.Y[i] = 1 - noise.Y[i]
	}
	all := &learn.Data{X: mat.NewDense(160, 2, nil), Y: append(slices.Clone(clean.Y), noise.Y...), W: make([]float64, 160)}
	all.X.Slice(0, 120, 0, 2).(*mat.Dense).Copy(clean.X)
	all.X.Slice(120, 160, 0, 2).(*mat.Dense).Copy(noise.X)
	for i := range 120 {
		all.W[i] = 1
	}
	test := blobs(60, 4, 1.5, 12)
	kv := []string{"batch_size", "1000", "max_epochs", "30", "validation_fraction", "0", "epsilon", "1e-12"}
	a, _ := fit(t, mlp.NewMethod(), clean, nil, 2, 1, kv...)
	b, _ := fit(t, mlp.NewMethod(), all, nil, 2, 1, kv...)
	pa, pb := predict(t, a, test.X), predict(t, b, test.X)
	for i := range pa {
		if math.Abs(pa[i]-pb[i]) > 1e-6 {
			t.Fatalf("row %d: %v without the zero-weight rows, %v with them", i, pa[i], pb[i])
		}
	}
}

func TestFitErrors(t *testing.T) {
	good := blobs(50, 5, 1, 13)
	withNaN := blobs(50, 5, 1, 13)
	withNaN.X.Set(6, 1, math.NaN())
	zero := blobs(50, 5, 1, 13)
	zero.W = make([]float64, 50)
	for _, tc := range []struct {
		name         string
		train, valid *learn.Data
		kv           []string
		is           error
		has          string
	}{
		{"missing value", withNaN, nil, nil, learn.ErrData, "training data row 7, feature 2: missing value"},
		{"missing validation value", good, withNaN, nil, learn.ErrData, "validation data row 7, feature 2"},
		{"validation of other width", good, &learn.Data{X: mat.NewDense(2, 3, nil), Y: []int{0, 1}}, nil, learn.ErrData, "3 features"},
		{"zero weights", zero, nil, nil, learn.ErrData, "no row of positive weight"},
		{"zero validation weights", good, zero, nil, learn.ErrData, "validation data has no row of positive weight"},
		{"label 3", &learn.Data{X: good.X, Y: append([]int{3}, good.Y[1:]...)}, nil, nil, learn.ErrData, "row 1"},
		{"too many parameters", &learn.Data{X: mat.NewDense(2, 5000, nil), Y: []int{0, 1}}, nil, []string{"hidden1", "16000", "hidden2", "16000"}, learn.ErrParam, "parameters"},
	} {
		m := mlp.NewMethod()
		for i := 0; i+1 < len(tc.kv); i += 2 {
			if err := m.Set(tc.kv[i], tc.kv[i+1]); err != nil {
				t.Fatal(err)
			}
		}
		_, err := m.Fit(context.Background(), tc.train, tc.valid, learn.Env{})
		if !errors.Is(err, tc.is) || err == nil || !strings.Contains(err.Error(), tc.has) {
			t.Errorf("%s: %v, want an error wrapping %v saying %q", tc.name, err, tc.is, tc.has)
		}
	}
}

func TestSetErrors(t *testing.T) {
	m := mlp.NewMethod()
	for _, kv := range [][2]string{
		{"hidden1", "0"}, {"hidden2", "100000"}, {"alpha", "1.5"}, {"gamma", "-1"},
		{"learning_rate", "0"}, {"beta1", "1"}, {"beta2", "-0.1"}, {"epsilon", "0"},
		{"weight_decay", "-1"}, {"batch_size", "0"}, {"max_epochs", "x"}, {"patience", "0"},
		{"validation_fraction", "1"}, {"dropout", "0.5"},
	} {
		if err := m.Set(kv[0], kv[1]); !errors.Is(err, learn.ErrParam) {
			t.Errorf("Set(%s, %s): %v, want ErrParam", kv[0], kv[1], err)
		}
	}
	if got, want := m.(*mlp.Method).Settings(), mlp.DefaultSettings(); got != want {
		t.Errorf("refused values changed the settings: %+v", got)
	}
}

func TestPredictErrors(t *testing.T) {
	model, _ := fit(t, mlp.NewMethod(), blobs(60, 5, 1, 14), nil, 1, 1, "max_epochs", "2")
	x := mat.NewDense(3, 2, []float64{0, 0, 1, math.NaN(), 2, 2})
	if _, err := model.PositiveProba(x, nil); !errors.Is(err, learn.ErrData) || !strings.Contains(err.Error(), "row 2, feature 2") {
		t.Errorf("a missing value: %v", err)
	}
	// A view with a stride wider than its columns predicts as a copy.
	wide := mat.NewDense(3, 4, []float64{9, 1, 2, 9, 9, -1, 0, 9, 9, 3, -3, 9})
	view := wide.Slice(0, 3, 1, 3).(*mat.Dense)
	if a, b := predict(t, model, view), predict(t, model, mat.DenseCopyOf(view)); !slices.Equal(a, b) {
		t.Errorf("view %v, copy %v", a, b)
	}
}

func TestLoadErrors(t *testing.T) {
	model, _ := fit(t, mlp.NewMethod(), blobs(60, 5, 1, 15), nil, 1, 1, "max_epochs", "2", "hidden1", "3", "hidden2", "2")
	good, _ := model.MarshalBinary()
	for _, tc := range []struct{ name, payload, has string }{
		{"empty", "", "decoding"},
		{"other format", strings.Replace(string(good), "aer/mlp-focal/1", "aer/mlp-focal/9", 1), "format"},
		{"no features", `{"format":"aer/mlp-focal/1","features":0,"hidden":[3,2],"theta":[]}`, "0 features"},
		{"bad width", `{"format":"aer/mlp-focal/1","features":2,"hidden":[0,2],"theta":[]}`, "hidden layer of 0"},
		{"short", `{"format":"aer/mlp-focal/1","features":2,"hidden":[3,2],"theta":[1,2]}`, "2 parameters"},
		{"huge", `{"format":"aer/mlp-focal/1","features":2000000000,"hidden":[16000,16000],"theta":[]}`, "parameters"},
	} {
		if _, err := mlp.NewMethod().Load([]byte(tc.payload)); err == nil || !strings.Contains(err.Error(), tc.has) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.has)
		}
	}
	loaded, err := mlp.Load(good)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.Summary() != nil || loaded.NumParams() != model.NumParams() || !slices.Equal(loaded.Hidden(), []int{3, 2}) {
		t.Errorf("loaded: summary %v, %d parameters, hidden %v", loaded.Summary(), loaded.NumParams(), loaded.Hidden())
	}
}

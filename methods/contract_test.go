package methods_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	_ "github.com/aer-go/aer/methods"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/synth"
)

// task is a small imbalanced problem split 3:1:1 into train, valid, test.
type task struct {
	train, valid, test *learn.Data
}

func newTask(t *testing.T) task {
	t.Helper()
	g, err := synth.Generate(&synth.Settings{Samples: 600, Features: 6, Informative: 3, Ratio: 10}, 11)
	if err != nil {
		t.Fatal(err)
	}
	all := &learn.Data{X: g.X, Y: g.Y, Features: g.Features}
	parts, err := dataset.StratifiedSplit(g.Y, []float64{3, 1, 1}, 5)
	if err != nil {
		t.Fatal(err)
	}
	return task{all.Subset(parts[0]), all.Subset(parts[1]), all.Subset(parts[2])}
}

// small are the settings that keep every fit fast, applied where the
// method has the key.
var small = [][2]string{
	{"n_estimators", "20"},
	{"components", "2-3"},
	{"n_init", "2"},
	// A fully grown tree scores rows 0 or 1; leaves of at least 5 rows
	// give it the ranking the AUC check below asks for.
	{"min_samples_leaf", "5"},
}

// configure returns the registered method name with the small settings.
func configure(t *testing.T, name string) learn.Method {
	t.Helper()
	m, err := learn.New(name)
	if err != nil {
		t.Fatal(err)
	}
	keys := learn.ParamMap(m.Params())
	for _, kv := range small {
		if _, ok := keys[kv[0]]; ok {
			if err := m.Set(kv[0], kv[1]); err != nil {
				t.Fatalf("Set(%s, %s): %v", kv[0], kv[1], err)
			}
		}
	}
	return m
}

// TestContract checks every registered method against the learn
// contract on a small imbalanced task.
func TestContract(t *testing.T) {
	names := learn.Names()
	for _, want := range []string{"aer", "dynens", "gbdt", "gbdt-tuned"} {
		if !slices.Contains(names, want) {
			t.Errorf("%s is not registered: %v", want, names)
		}
	}
	tk := newTask(t)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Run("params", func(t *testing.T) { checkParams(t, name) })
			checkFit(t, name, tk)
		})
	}
}

// checkParams: keys are unique and every displayed value is accepted back
// by Set and still displayed after it; bad keys and values wrap ErrParam.
func checkParams(t *testing.T, name string) {
	m, _ := learn.New(name)
	if m.Name() != name {
		t.Errorf("New(%q).Name() = %q", name, m.Name())
	}
	ps := m.Params()
	if len(ps) == 0 {
		t.Fatal("no parameters")
	}
	seen := map[string]bool{}
	for _, p := range ps {
		if p.Key == "" || p.Help == "" {
			t.Errorf("parameter %+v has no key or no help", p)
		}
		if seen[p.Key] {
			t.Errorf("key %q is listed twice", p.Key)
		}
		seen[p.Key] = true

		fresh, _ := learn.New(name)
		if err := fresh.Set(p.Key, p.Value); err != nil {
			t.Errorf("Set(%s, %q) of the displayed value: %v", p.Key, p.Value, err)
			continue
		}
		if got := learn.ParamMap(fresh.Params())[p.Key]; got != p.Value {
			t.Errorf("Set(%s, %q) then shows %q", p.Key, p.Value, got)
		}
	}
	for _, kv := range [][2]string{{"no_such_key", "1"}, {"n_estimators", "many"}, {"n_estimators", "0"}} {
		before := m.Params()
		err := m.Set(kv[0], kv[1])
		if !errors.Is(err, learn.ErrParam) {
			t.Errorf("Set(%s, %q): %v, want an error wrapping ErrParam", kv[0], kv[1], err)
		}
		if !reflect.DeepEqual(m.Params(), before) {
			t.Errorf("a refused Set(%s, %q) changed the parameters", kv[0], kv[1])
		}
	}
}

func checkFit(t *testing.T, name string, tk task) {
	ctx := context.Background()
	m := configure(t, name)
	before := m.Params()
	const seed = 7

	fit := func(workers int) learn.Scorer {
		t.Helper()
		model, err := m.Fit(ctx, tk.train, tk.valid, learn.Env{Seed: seed, Workers: workers})
		if err != nil {
			t.Fatalf("Fit with %d workers: %v", workers, err)
		}
		return model
	}
	model := fit(1)
	if after := m.Params(); !reflect.DeepEqual(before, after) {
		t.Errorf("Fit changed the method's parameters:\nbefore %v\nafter  %v", before, after)
	}
	payload, err := model.MarshalBinary()
	if err != nil {
		t.Fatalf("MarshalBinary: %v", err)
	}
	// Two fits at once on 2 workers each, reporting progress: one Method
	// fits from several goroutines, and the model does not depend on the
	// workers.
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		progress []learn.Progress
		payloads [2][]byte
		errs     [2]error
	)
	env := learn.Env{Seed: seed, Workers: 2, Progress: func(p learn.Progress) {
		mu.Lock()
		progress = append(progress, p)
		mu.Unlock()
	}}
	for k := range 2 {
		wg.Go(func() {
			var model learn.Scorer
			if model, errs[k] = m.Fit(ctx, tk.train, tk.valid, env); errs[k] == nil {
				payloads[k], errs[k] = model.MarshalBinary()
			}
		})
	}
	wg.Wait()
	for k := range 2 {
		if errs[k] != nil || !bytes.Equal(payload, payloads[k]) {
			t.Errorf("the same seed with 1 and 2 workers gives different models (%d and %d bytes, %v)", len(payload), len(payloads[k]), errs[k])
		}
	}
	for _, p := range progress {
		if p.Stage == "" || p.Done < 0 || p.Done > p.Total {
			t.Errorf("progress %+v", p)
		}
	}

	if got := model.NumFeatures(); got != tk.train.Cols() {
		t.Errorf("NumFeatures = %d, want %d", got, tk.train.Cols())
	}
	p, err := model.PositiveProba(tk.test.X, nil)
	if err != nil {
		t.Fatalf("PositiveProba: %v", err)
	}
	if len(p) != tk.test.Rows() {
		t.Fatalf("PositiveProba gave %d probabilities for %d rows", len(p), tk.test.Rows())
	}
	for i, v := range p {
		if !(v >= 0 && v <= 1) {
			t.Fatalf("row %d: probability %v is not in [0, 1]", i+1, v)
		}
	}
	if par, err := learn.Predict(ctx, model, tk.test.X, 2); err != nil || !slices.Equal(par, p) {
		t.Errorf("Predict with 2 workers differs from PositiveProba (%v)", err)
	}
	// The model has learnt something: the positives rank above the
	// negatives far more often than at random.
	if auc := metrics.ROCAUC(tk.test.Y, p, nil); !(auc > 0.75) {
		t.Errorf("test ROC AUC %.3f, want > 0.75", auc)
	}

	loaded, err := m.Load(payload)
	if err != nil {
		t.Fatalf("Load(MarshalBinary()): %v", err)
	}
	if lp, err := loaded.PositiveProba(tk.test.X, nil); err != nil || !bitEqual(lp, p) {
		t.Errorf("the loaded model predicts differently (%v)", err)
	}
	if again, err := loaded.MarshalBinary(); err != nil || !bytes.Equal(again, payload) {
		t.Errorf("the loaded model encodes to different bytes (%v)", err)
	}
	if loaded.NumFeatures() != model.NumFeatures() {
		t.Errorf("loaded NumFeatures = %d, want %d", loaded.NumFeatures(), model.NumFeatures())
	}
	if _, err := m.Load(payload[:len(payload)/2]); err == nil {
		t.Error("Load of a truncated payload: no error")
	}

	for _, cols := range []int{tk.test.Cols() - 1, tk.test.Cols() + 2} {
		x := mat.NewDense(3, cols, nil)
		for _, mm := range []learn.Scorer{model, loaded} {
			if err := noPanic(func() error { _, err := mm.PositiveProba(x, nil); return err }); err == nil {
				t.Errorf("PositiveProba of %d columns: no error", cols)
			}
		}
	}

	if th, ok := learn.TunedThreshold(model); ok {
		if !(th > 0 && th < 1) {
			t.Errorf("Threshold %v is not in (0, 1)", th)
		}
		if lt, ok := learn.TunedThreshold(loaded); !ok || lt != th {
			t.Error("the loaded model lost its threshold")
		}
	}
	if ex, ok := learn.ExplainerOf(model); ok {
		checkExplainer(t, ex, tk.test.X.RawRowView(0))
	}
	checkAttributions(t, name, model, loaded, tk.test.X, p)
	if s, ok := learn.As[learn.Summarizer](model); ok {
		if _, err := json.Marshal(s.Summary()); err != nil {
			t.Errorf("the summary does not encode to JSON: %v", err)
		}
	}
	if k := learn.NumParams(model); k < 1 {
		t.Errorf("NumParams = %d", k)
	}

	// Without validation data the method holds out rows of train.
	if hm, err := m.Fit(ctx, tk.train, nil, learn.Env{Seed: seed}); err != nil {
		t.Errorf("Fit without validation data: %v", err)
	} else if hp, err := learn.Predict(ctx, hm, tk.test.X, 2); err != nil || !(slices.Min(hp) >= 0 && slices.Max(hp) <= 1) {
		t.Errorf("Fit without validation data: probabilities %v, %v", hp, err)
	} else if !(learn.ThresholdOf(hm) > 0 && learn.ThresholdOf(hm) < 1) {
		t.Errorf("Fit without validation data: threshold %v", learn.ThresholdOf(hm))
	}

	// A cancelled context stops Fit with an error.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := m.Fit(cancelled, tk.train, tk.valid, learn.Env{Seed: seed, Workers: 2}); !errors.Is(err, context.Canceled) {
		t.Errorf("Fit with a cancelled context: %v, want context.Canceled", err)
	}

	// Bad data is an error, not a panic.
	bad := tk.train.Subset(seq(tk.train.Rows()))
	bad.Y[3] = 2
	if err := noPanic(func() error { _, err := m.Fit(ctx, bad, tk.valid, learn.Env{Seed: seed}); return err }); !errors.Is(err, learn.ErrData) || !strings.Contains(err.Error(), "row 4") {
		t.Errorf("Fit with a label 2 in row 4: %v, want an error wrapping ErrData naming the row", err)
	}
}

// attributing are the registered methods that must offer feature
// attributions.
var attributing = []string{"aer", "dynens", "gbdt", "gbdt-tuned", "gbdt-focal", "gbdt-leafwise", "rus-gbdt", "smote-gbdt",
	"logreg", "tree", "balanced-rf", "balanced-bagging"}

// checkAttributions: every row's base + sum of attributions is its
// probability (in probability space) or its log-odds (in logit space); the
// values do not depend on the workers and survive saving.
func checkAttributions(t *testing.T, name string, model, loaded learn.Scorer, x *mat.Dense, p []float64) {
	t.Helper()
	ctx := context.Background()
	a, err := learn.Attribute(ctx, model, x, 1)
	if errors.Is(err, learn.ErrNoAttribution) {
		if slices.Contains(attributing, name) {
			t.Errorf("Attribute: %v", err)
		}
		return
	}
	if err != nil {
		t.Fatalf("Attribute: %v", err)
	}
	if a.Space != learn.Logit && a.Space != learn.Probability {
		t.Fatalf("attributions in space %q", a.Space)
	}
	worst := 0.0
	for i := range p {
		out := a.Output(i)
		if a.Space == learn.Logit {
			out = 1 / (1 + math.Exp(-out))
		}
		worst = math.Max(worst, math.Abs(out-p[i]))
	}
	if worst > 1e-9 {
		t.Errorf("%s space: max |base + sum(phi) - output| = %.3g over %d rows (probability scale), want <= 1e-9", a.Space, worst, len(p))
	}
	for _, mm := range []learn.Scorer{model, loaded} {
		b, err := learn.Attribute(ctx, mm, x, 2)
		if err != nil || !mat.Equal(a.Phi, b.Phi) || !slices.Equal(a.Base, b.Base) {
			t.Errorf("attributions differ with 2 workers or after loading (%v)", err)
		}
	}
}

func checkExplainer(t *testing.T, ex learn.Explainer, row []float64) {
	t.Helper()
	e, err := ex.Explain(row)
	if err != nil {
		t.Fatalf("Explain: %v", err)
	}
	if b, err := json.Marshal(e); err != nil || len(b) < 3 {
		t.Errorf("the explanation does not encode to JSON: %s, %v", b, err)
	}
	var buf bytes.Buffer
	if err := e.WriteText(&buf); err != nil || buf.Len() == 0 {
		t.Errorf("WriteText wrote %d bytes, %v", buf.Len(), err)
	}
	if err := noPanic(func() error { _, err := ex.Explain(row[:len(row)-1]); return err }); err == nil {
		t.Error("Explain of a short row: no error")
	}
}

// noPanic runs f and turns a panic into an error.
func noPanic(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

func bitEqual(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

package onnx_test

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/adaboost"
	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/ensemble"
	"github.com/aer-go/aer/forest"
	"github.com/aer-go/aer/interop/onnx"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/mixture"
	"github.com/aer-go/aer/prep"
	"github.com/aer-go/aer/tree"
)

// fakeModel is a model of k classes defined outside package onnx, with
// no graph: scoring is not what these tests are about.
type fakeModel struct{ k, nf int }

func (m *fakeModel) NumClasses() int  { return m.k }
func (m *fakeModel) NumFeatures() int { return m.nf }
func (m *fakeModel) MarshalBinary() ([]byte, error) {
	return nil, errors.New("fake model")
}
func (m *fakeModel) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return nil, errors.New("fake model")
}

// fakeScorer is a two-class fakeModel with the learn.Scorer fast path.
type fakeScorer struct{ fakeModel }

func (m *fakeScorer) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return nil, errors.New("fake model")
}

// fakeExporter is a fakeScorer with a graph: sigmoid(x.w), w an
// initializer named fake_w.
type fakeExporter struct {
	fakeScorer
	w []float64
}

func (m *fakeExporter) BuildONNX(b *onnx.Builder, in *onnx.Features) (onnx.Value, error) {
	w := b.Doubles("fake_w", []int64{int64(len(m.w)), 1}, m.w)
	return b.Op("Sigmoid", []onnx.Value{b.MatMul(in.Values(b), w)}), nil
}

// fakeClasses is a fakeModel of k classes with a graph: the softmax of
// x W, W an initializer named fake_coef.
type fakeClasses struct{ fakeModel }

func (m *fakeClasses) BuildONNX(b *onnx.Builder, in *onnx.Features) (onnx.Value, error) {
	w := make([]float64, m.nf*m.k)
	for i := range w {
		w[i] = float64(i)
	}
	return b.Softmax(b.MatMul(in.Values(b), b.Doubles("fake_coef", []int64{int64(m.nf), int64(m.k)}, w))), nil
}

var (
	_ learn.Scorer    = (*fakeExporter)(nil)
	_ onnx.Exporter   = (*fakeExporter)(nil)
	_ onnx.Exporter   = (*fakeClasses)(nil)
	_ learn.Model     = (*fakeModel)(nil)
	_ learn.Scorer    = (*fakeScorer)(nil)
	_ onnx.Exporter   = (*prep.MultiModel)(nil)
	_ learn.Unwrapper = (*prep.Model)(nil)
)

// opTypes lists the graph's node operators in order.
func opTypes(m *model) []string {
	var ops []string
	for _, n := range m.nodes {
		ops = append(ops, n.str(4))
	}
	return ops
}

// initNamed returns the initializer whose name starts with prefix_.
func initNamed(t *testing.T, m *model, prefix string) msg {
	t.Helper()
	for name, init := range m.inits {
		if strings.HasPrefix(name, prefix+"_") {
			return init
		}
	}
	t.Fatalf("no initializer %s_N among %d", prefix, len(m.inits))
	return nil
}

// A model type outside package onnx exports through onnx.Marshal by
// implementing onnx.Exporter, with no edit to package onnx: the
// two-class graph holds its nodes and initializer between the input
// and the threshold's outputs, and behind package prep's
// standardisation (a wrapper looking its inner model up the same way);
// a model of more classes gets the class outputs.
func TestExporterFromOutside(t *testing.T) {
	fake := &fakeExporter{fakeScorer: fakeScorer{fakeModel{k: 2, nf: 3}}, w: []float64{0.5, -1, 2}}
	b, err := onnx.Marshal(&onnx.Spec{Model: fake, Threshold: 0.25, Method: "fake", Features: []string{"a", "b", "c"}, Classes: []string{"no", "yes"}})
	if err != nil {
		t.Fatal(err)
	}
	m := readModel(t, b)
	checkGraph(t, m, 3)
	if w := doubles(t, initNamed(t, m, "fake_w")); !slices.Equal(w, fake.w) {
		t.Errorf("fake_w holds %v, want %v", w, fake.w)
	}
	if got, want := opTypes(m), []string{"Cast", "MatMul", "Sigmoid", "Reshape", "Cast", "GreaterOrEqual", "Cast"}; !slices.Equal(got, want) {
		t.Errorf("operators %v, want %v", got, want)
	}
	if m.metadata["method"] != "fake" || m.metadata["threshold"] != "0.25" || m.metadata["classes"] != "no,yes" {
		t.Errorf("metadata %v", m.metadata)
	}

	// Behind a preprocessing wrapper of package prep.
	wrapped := &prep.Model{Wrapped: learn.Wrapped{Inner: fake, Changed: learn.InputChanged},
		Prep: &prep.Prep{Means: []float64{1, 2, 3}, Scaler: &dataset.Scaler{Mean: []float64{0, 0, 0}, Scale: []float64{1, 2, 4}}}}
	b, err = onnx.Marshal(&onnx.Spec{Model: wrapped, Threshold: 0.5, Method: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	m = readModel(t, b)
	checkGraph(t, m, 3)
	initNamed(t, m, "fake_w")
	if ops := opTypes(m); !slices.Contains(ops, "IsNaN") || !slices.Contains(ops, "Where") || slices.Index(ops, "Where") > slices.Index(ops, "MatMul") {
		t.Errorf("the imputation does not come before the fake's nodes: %v", ops)
	}

	// A model of three classes.
	classes := &fakeClasses{fakeModel{k: 3, nf: 2}}
	b, err = onnx.Marshal(&onnx.Spec{Model: classes, Weights: []float64{1, 2, 3}, Method: "fake", Classes: []string{"x", "y", "z"}})
	if err != nil {
		t.Fatal(err)
	}
	m = readModel(t, b)
	if len(m.outputs) != 2 || m.outputs[0].str(1) != onnx.Probabilities || m.outputs[1].str(1) != onnx.Label {
		t.Fatalf("outputs %v", m.outputs)
	}
	if w := doubles(t, initNamed(t, m, "fake_coef")); len(w) != 6 || w[5] != 5 {
		t.Errorf("fake_coef holds %v", w)
	}
	if ops := opTypes(m); ops[len(ops)-1] != "ArgMax" || !slices.Contains(ops, "ReduceMax") {
		t.Errorf("operators %v", ops)
	}
	if m.metadata["classes"] != "x,y,z" || m.metadata["class_weights"] != "1,2,3" {
		t.Errorf("metadata %v", m.metadata)
	}
}

// A model type with no graph, two-class or not, alone or behind a
// wrapper, is refused with an error wrapping ErrUnsupported that names
// its type; nothing is returned.
func TestUnknownModel(t *testing.T) {
	scorer := &fakeScorer{fakeModel{k: 2, nf: 2}}
	for _, tc := range []struct {
		name string
		spec *onnx.Spec
	}{
		{"two-class", &onnx.Spec{Model: scorer, Method: "fake"}},
		{"behind prep", &onnx.Spec{Model: &prep.Model{Wrapped: learn.Wrapped{Inner: scorer, Changed: learn.InputChanged}, Prep: &prep.Prep{Means: []float64{0, 0}}}, Method: "fake"}},
		{"three classes", &onnx.Spec{Model: &fakeModel{k: 3, nf: 2}, Weights: []float64{1, 1, 1}, Method: "fake"}},
		{"three classes behind prep", &onnx.Spec{Model: &prep.MultiModel{Prep: &prep.Prep{Means: []float64{0, 0}}, Inner: &fakeModel{k: 3, nf: 2}}, Weights: []float64{1, 1, 1}, Method: "fake"}},
	} {
		b, err := onnx.Marshal(tc.spec)
		if !errors.Is(err, onnx.ErrUnsupported) || !strings.Contains(err.Error(), "onnx_test.fake") || !strings.Contains(err.Error(), "fake model") || b != nil {
			t.Errorf("%s: %v (%d bytes)", tc.name, err, len(b))
		}
	}
}

// The exporters know every exported field of the parts they convert: a
// field added to one of them (a tree's new kind of split, a combiner's
// new rule) may change the score, and must be converted, or refused,
// before this list is extended.
func TestFieldsKnown(t *testing.T) {
	for _, tc := range []struct {
		typ   reflect.Type
		known []string
	}{
		{reflect.TypeFor[boost.Tree](), []string{"Feature", "Threshold", "DefaultLeft", "Left", "Value", "Gain", "Cover", "Categories", "CategoryRule", "ZeroMissing"}},
		{reflect.TypeFor[tree.Tree](), []string{"NumFeatures", "Feature", "Threshold", "DefaultLeft", "Left", "Right", "Value", "Weight", "Samples", "Impurity", "Classes", "Dist"}},
		{reflect.TypeFor[boost.Model](), []string{"Settings", "NumFeatures", "BaseMargin", "Trees", "Eval"}},
		{reflect.TypeFor[logreg.Model](), []string{"Coef", "Intercept", "FitIntercept", "Means"}},
		{reflect.TypeFor[prep.Prep](), []string{"Means", "Scaler"}},
		{reflect.TypeFor[forest.Forest](), []string{"NumFeatures", "Trees"}},
		{reflect.TypeFor[adaboost.Ensemble](), []string{"NumFeatures", "Trees", "Errors", "Terms"}},
		{reflect.TypeFor[ensemble.Combiner](), []string{"Static", "Owner", "Dynamic", "Lambda", "Delta", "Space", "Eps"}},
		{reflect.TypeFor[ensemble.DynamicSettings](), []string{"Rule", "T", "LogPi"}},
		// Family other than Gaussian (with Nu, NuFixed) is refused (adaptive's logDensitiesONNX).
		{reflect.TypeFor[mixture.Model](), []string{"Covariance", "Weights", "Means", "Covariances", "Family", "Nu", "NuFixed"}},
		{reflect.TypeFor[decision.Calibration](), []string{"Method", "Logit", "A", "B", "X", "Y"}},
	} {
		for i := range tc.typ.NumField() {
			if f := tc.typ.Field(i); f.IsExported() && !slices.Contains(tc.known, f.Name) {
				t.Errorf("%s has a field %s the ONNX export does not know", tc.typ, f.Name)
			}
		}
	}
}

// A decision layer's calibration converts to onnx.Calibration field by
// field, and both of package decision's methods have a graph: Platt's
// sigmoid and the isotonic map; another method is refused.
func TestCalibration(t *testing.T) {
	fake := &fakeExporter{fakeScorer: fakeScorer{fakeModel{k: 2, nf: 1}}, w: []float64{1}}
	for _, tc := range []struct {
		cal  decision.Calibration
		want string // an operator only that calibration adds
	}{
		{decision.Calibration{Method: decision.Sigmoid, Logit: true, A: -2, B: 0.5}, "Log"},
		{decision.Calibration{Method: decision.Isotonic, X: []float64{0, 0.5, 1}, Y: []float64{0, 0.2, 1}}, "Less"},
	} {
		cal := onnx.Calibration(tc.cal)
		b, err := onnx.Marshal(&onnx.Spec{Model: fake, Calibration: &cal, Threshold: 0.5})
		if err != nil {
			t.Fatalf("%s: %v", tc.cal.Method, err)
		}
		m := readModel(t, b)
		if ops := opTypes(m); !slices.Contains(ops, tc.want) || m.metadata["calibration"] != tc.cal.Method {
			t.Errorf("%s: operators %v, metadata %v", tc.cal.Method, ops, m.metadata)
		}
	}
	cal := onnx.Calibration{Method: "beta"}
	if _, err := onnx.Marshal(&onnx.Spec{Model: fake, Calibration: &cal, Threshold: 0.5}); !errors.Is(err, onnx.ErrUnsupported) {
		t.Errorf("beta calibration: %v", err)
	}
}

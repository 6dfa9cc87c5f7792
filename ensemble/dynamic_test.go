package ensemble

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func near(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

func TestComponentWeightsHandComputed(t *testing.T) {
	const tol = 1e-15
	// Row 0: all negative log-densities -1, -2, -3.
	// Row 1: mixed signs 1, -2, 0.5 (log sum -0.5 gives -2, 4, -1: out of [0, 1]).
	// Row 2: all positive 1, 1, 2.
	logDens := mat.NewDense(3, 3, []float64{
		-1, -2, -3,
		1, -2, 0.5,
		1, 1, 2,
	})
	e := math.E
	exp0 := []float64{1 / (1 + 1/e + 1/(e*e)), (1 / e) / (1 + 1/e + 1/(e*e)), (1 / (e * e)) / (1 + 1/e + 1/(e*e))}
	z1 := e + math.Exp(-2) + math.Exp(0.5)
	exp1 := []float64{e / z1, math.Exp(-2) / z1, math.Exp(0.5) / z1}
	z2 := 2*e + e*e
	exp2 := []float64{e / z2, e / z2, e * e / z2}

	w, d, err := ComponentWeights(nil, logDens, DynamicSettings{Rule: Exp})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][]float64{exp0, exp1, exp2} {
		if got := mat.Row(nil, i, w); !near(got, want, tol) {
			t.Errorf("exp row %d = %v, want %v", i, got, want)
		}
	}
	if d != (DynamicDiag{Rows: 3, MixedSignRows: 1, AllNegativeRows: 1}) {
		t.Errorf("exp diag %+v", d)
	}

	w, d, err = ComponentWeights(nil, logDens, DynamicSettings{Rule: Log})
	if err != nil {
		t.Fatal(err)
	}
	// Row 0: -1/-6 etc.: the farthest component gets the most weight.
	// Row 1 falls back to exp. Row 2: 1/4, 1/4, 2/4.
	for i, want := range [][]float64{{1.0 / 6, 2.0 / 6, 3.0 / 6}, exp1, {0.25, 0.25, 0.5}} {
		if got := mat.Row(nil, i, w); !near(got, want, tol) {
			t.Errorf("log row %d = %v, want %v", i, got, want)
		}
	}
	if d != (DynamicDiag{Rows: 3, LogFallbackRows: 1, MixedSignRows: 1, AllNegativeRows: 1}) {
		t.Errorf("log diag %+v", d)
	}

	// Tempered with T = 1 is exp; large T approaches uniform; T = 0.5
	// equals exp of doubled log-densities.
	wt, _, _ := ComponentWeights(nil, logDens, DynamicSettings{Rule: Tempered, T: 1})
	we, _, _ := ComponentWeights(nil, logDens, DynamicSettings{Rule: Exp})
	if !mat.EqualApprox(wt, we, tol) {
		t.Errorf("tempered T=1 differs from exp")
	}
	wt, _, _ = ComponentWeights(nil, logDens, DynamicSettings{Rule: Tempered, T: 1e6})
	for i := range 3 {
		if got := mat.Row(nil, i, wt); !near(got, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-6) {
			t.Errorf("T=1e6 row %d = %v, want near uniform", i, got)
		}
	}
	var doubled mat.Dense
	doubled.Scale(2, logDens)
	wt, _, _ = ComponentWeights(nil, logDens, DynamicSettings{Rule: Tempered, T: 0.5})
	we, _, _ = ComponentWeights(nil, &doubled, DynamicSettings{})
	if !mat.EqualApprox(wt, we, 1e-14) {
		t.Errorf("tempered T=0.5 differs from exp of 2 log N")
	}
	wu, _, _ := ComponentWeights(nil, logDens, DynamicSettings{Rule: Uniform})
	if got := mat.Row(nil, 1, wu); !near(got, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, 0) {
		t.Errorf("uniform = %v", got)
	}
}

func TestComponentWeightsLogPiAndExtremes(t *testing.T) {
	// Log-densities that underflow exp: -1000 and -1001; with pi = (0.2, 0.8).
	logDens := mat.NewDense(2, 2, []float64{-1000, -1001, math.Inf(-1), math.Inf(-1)})
	logPi := []float64{math.Log(0.2), math.Log(0.8)}
	w, d, err := ComponentWeights(nil, logDens, DynamicSettings{LogPi: logPi})
	if err != nil {
		t.Fatal(err)
	}
	a := 0.2 / (0.2 + 0.8/math.E)
	if got := mat.Row(nil, 0, w); !near(got, []float64{a, 1 - a}, 1e-14) {
		t.Errorf("row 0 = %v, want [%v %v]", got, a, 1-a)
	}
	if got := mat.Row(nil, 1, w); !near(got, []float64{0.5, 0.5}, 0) || d.DegenerateRows != 1 {
		t.Errorf("all -Inf row = %v (diag %+v), want uniform", got, d)
	}
	bad := mat.NewDense(2, 2, []float64{0, 0, 0, math.NaN()})
	if _, _, err := ComponentWeights(nil, bad, DynamicSettings{}); err == nil || !strings.Contains(err.Error(), "row 1, component 1") {
		t.Errorf("NaN log-density: %v", err)
	}
	if _, _, err := ComponentWeights(nil, logDens, DynamicSettings{Rule: Tempered, T: -1}); err == nil {
		t.Errorf("negative temperature accepted")
	}
}

func TestMemberWeights(t *testing.T) {
	comp := mat.NewDense(1, 2, []float64{0.7, 0.3})
	mw, err := MemberWeights(nil, comp, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := mat.Row(nil, 0, mw); !near(got, []float64{0.35, 0.35, 0.15, 0.15}, 1e-16) {
		t.Fatalf("MemberWeights = %v", got)
	}
	// Explicit layout: component 0 owns three members, component 1 one,
	// and the last member (a classifier on all rows) none.
	mw, err = MemberWeights(nil, comp, []int{0, 0, 1, 0, -1})
	if err != nil {
		t.Fatal(err)
	}
	if got := mat.Row(nil, 0, mw); !near(got, []float64{0.7 / 3, 0.7 / 3, 0.3, 0.7 / 3, 0}, 1e-16) {
		t.Fatalf("MemberWeights with owner = %v", got)
	}
	if _, err := MemberWeights(nil, comp, []int{0, 0, -1}); err == nil || !strings.Contains(err.Error(), "component 1 has no member") {
		t.Fatalf("component without members: %v", err)
	}
}

func TestCombinerOwner(t *testing.T) {
	// One component owning members 0 and 1; member 2 has only a static
	// weight. lambda = 1: score = (f0 + f1)/2; lambda = 0: w.f.
	f := mat.NewDense(1, 3, []float64{0.2, 0.4, 0.9})
	logDens := mat.NewDense(1, 1, []float64{-5})
	c := &Combiner{Static: []float64{0, 0, 1}, Owner: []int{0, 0, -1}, Lambda: 1}
	s, _, err := c.Score(nil, f, logDens)
	if err != nil || math.Abs(s[0]-0.3) > 1e-16 {
		t.Fatalf("lambda 1: %v %v", s, err)
	}
	c.Lambda = 0.5
	s, _, _ = c.Score(nil, f, logDens)
	e, err := c.Explain([]float64{0.2, 0.4, 0.9}, []float64{-5})
	if err != nil || math.Abs(s[0]-0.6) > 1e-15 || e.Score != s[0] || !near(e.Likelihood, []float64{0.5, 0.5, 0}, 0) {
		t.Fatalf("lambda 0.5: %v %+v %v", s, e, err)
	}
}

func TestCombinerScoreAndExplain(t *testing.T) {
	// L = 2: members 0,1 belong to component 0 and members 2,3 to 1.
	f := mat.NewDense(2, 4, []float64{
		0.9, 0.7, 0.2, 0.1,
		0.4, 0.6, 0.8, 1.0,
	})
	logDens := mat.NewDense(2, 2, []float64{0, math.Inf(-1), -2, -2})
	c := &Combiner{Static: []float64{0.1, 0.2, 0.3, 0.4}, Lambda: 0.25, Delta: 0.5}
	scores, _, err := c.Score(nil, f, logDens)
	if err != nil {
		t.Fatal(err)
	}
	// Row 0: l* = (1, 0) -> members (0.5, 0.5, 0, 0): dynamic score 0.8;
	// static 0.09+0.14+0.06+0.04 = 0.33; 0.25*0.8 + 0.75*0.33 = 0.4475.
	// Row 1: l* uniform -> members 0.25 each: 0.7; static
	// 0.04+0.12+0.24+0.4 = 0.8; 0.25*0.7 + 0.75*0.8 = 0.775.
	if !near(scores, []float64{0.4475, 0.775}, 1e-15) {
		t.Fatalf("scores = %v", scores)
	}
	if p := c.Predict(nil, scores); p[0] != 0 || p[1] != 1 {
		t.Fatalf("predictions %v", p)
	}
	e, err := c.Explain(mat.Row(nil, 0, f), mat.Row(nil, 0, logDens))
	if err != nil {
		t.Fatal(err)
	}
	if e.Score != scores[0] || e.Prediction != 0 ||
		!near(e.Mixed, []float64{0.25*0.5 + 0.75*0.1, 0.25*0.5 + 0.75*0.2, 0.75 * 0.3, 0.75 * 0.4}, 1e-16) ||
		!near(e.Likelihood, []float64{0.5, 0.5, 0, 0}, 0) || !near(e.Component, []float64{1, 0}, 0) {
		t.Fatalf("explanation %+v", e)
	}
	var sum float64
	for _, v := range e.Contribution {
		sum += v
	}
	if math.Abs(sum-e.Score) > 1e-15 {
		t.Fatalf("contributions sum to %v, score %v", sum, e.Score)
	}
	// Shape errors.
	if _, _, err := c.Score(nil, f, mat.NewDense(2, 3, nil)); err == nil {
		t.Fatal("3 components for 4 members accepted")
	}
	bad := &Combiner{Static: []float64{0.5, 0.5, 0.5, 0.5}}
	if _, _, err := bad.Score(nil, f, logDens); err == nil {
		t.Fatal("static weights off the simplex accepted")
	}
}

func TestCombinerJSON(t *testing.T) {
	c := Combiner{
		Static:  []float64{0.5, 0.5},
		Dynamic: DynamicSettings{Rule: Tempered, T: 3, LogPi: []float64{0}},
		Lambda:  0.35,
		Delta:   0.42,
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"static":[0.5,0.5],"dynamic":{"rule":"tempered","t":3,"log_pi":[0]},"lambda":0.35,"delta":0.42,"space":"probability"}`
	if string(b) != want {
		t.Fatalf("JSON %s, want %s", b, want)
	}
	var back Combiner
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Dynamic.Rule != Tempered || back.Dynamic.T != 3 || back.Lambda != 0.35 {
		t.Fatalf("round trip: %+v", back)
	}
	if err := json.Unmarshal([]byte(`{"dynamic":{"rule":"cubic"}}`), &back); err == nil || !strings.Contains(err.Error(), "cubic") {
		t.Fatalf("unknown rule: %v", err)
	}
}

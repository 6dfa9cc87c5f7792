package ensemble

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
)

// balancedAccuracy is the paper's metric, (TPR + TNR)/2; a test-only helper
// (the metrics package is separate).
func balancedAccuracy(tp, fp, tn, fn int) float64 {
	var tpr, tnr float64
	if tp+fn > 0 {
		tpr = float64(tp) / float64(tp+fn)
	}
	if tn+fp > 0 {
		tnr = float64(tn) / float64(tn+fp)
	}
	return (tpr + tnr) / 2
}

// f1Score is 2TP/(2TP+FP+FN), NaN when undefined.
func f1Score(tp, fp, tn, fn int) float64 {
	return 2 * float64(tp) / float64(2*tp+fp+fn)
}

func TestTuneKnownOptimum(t *testing.T) {
	// L = 1, static weights (1, 0), so the score is f0 + (lambda/2)(f1 - f0).
	// The positives are separated from the negatives only for lambda in
	// (0.47, 0.53): P2 crosses N2 at 0.47 and P1 crosses N1 at 0.53. At
	// lambda = 0.5 the scores are N1 0.4375, N2 0.455395, P1 0.457905,
	// P2 0.475, so thresholds 0.456 and 0.457 of a 0.001 grid reach
	// balanced accuracy 1 and the lower middle, 0.456, is chosen.
	f := mat.NewDense(4, 2, []float64{
		0.61054, 0, // P1
		0.25, 1, // N1
		0.3, 1, // P2
		0.60719, 0, // N2
	})
	y := []int{1, 0, 1, 0}
	logDens := mat.NewDense(4, 1, nil)
	deltas := make([]float64, 999)
	for k := range deltas {
		deltas[k] = float64(k+1) / 1000
	}
	res, err := Tune(f, y, logDens, []float64{1, 0}, &TuneSettings{Metric: balancedAccuracy, Deltas: deltas})
	if err != nil {
		t.Fatal(err)
	}
	if res.Metric != 1 || res.Combiner.Lambda != 0.5 || res.Combiner.Delta != 0.456 ||
		res.TiedLambdas != 1 || res.TiedDeltas != 2 || res.TiedDeltaMax != 0.457 {
		t.Fatalf("got metric %v lambda %v delta %v (tied lambdas %d, deltas %d up to %v)",
			res.Metric, res.Combiner.Lambda, res.Combiner.Delta, res.TiedLambdas, res.TiedDeltas, res.TiedDeltaMax)
	}
	for _, p := range res.ByLambda {
		if p.Lambda != 0.5 && p.Metric >= 1 {
			t.Errorf("lambda %v also separates", p.Lambda)
		}
	}
	if _, err := json.Marshal(res); err != nil {
		t.Fatal(err)
	}
}

// tieData: L = 2, each row belongs clearly to one component whose members
// output 0.88 on positives and 0.26 on negatives, while the other
// component's members output the opposite. With uniform static weights the
// static score is 0.57 on every row; the mixed score is 0.57 +- 0.31 lambda.
func tieData() (*mat.Dense, []int, *mat.Dense) {
	const rows = 8
	f := mat.NewDense(rows, 4, nil)
	logDens := mat.NewDense(rows, 2, nil)
	y := make([]int, rows)
	for i := range rows {
		y[i] = i % 2
		comp := (i / 2) % 2
		right, wrong := 0.26, 0.88
		if y[i] == 1 {
			right, wrong = 0.88, 0.26
		}
		for l := range 2 {
			v := wrong
			if l == comp {
				v = right
			}
			f.Set(i, 2*l, v)
			f.Set(i, 2*l+1, v)
			logDens.Set(i, l, -60)
		}
		logDens.Set(i, comp, 0)
	}
	return f, y, logDens
}

func TestTuneTies(t *testing.T) {
	f, y, logDens := tieData()
	static := []float64{0.25, 0.25, 0.25, 0.25}
	res, err := Tune(f, y, logDens, static, &TuneSettings{Metric: balancedAccuracy})
	if err != nil {
		t.Fatal(err)
	}
	// Every lambda > 0 separates (20 tied: 0.05..1): the lower middle is
	// index 9, lambda 0.5. There the scores are 0.415 and 0.725, so the
	// thresholds 0.42..0.72 tie (31 values) and the middle is 0.57.
	if res.Metric != 1 || res.Combiner.Lambda != 0.5 || res.TiedLambdas != 20 ||
		res.TiedDeltas != 31 || math.Abs(res.Combiner.Delta-0.57) > 1e-15 {
		t.Fatalf("got metric %v lambda %v (%d tied) delta %v (%d tied)",
			res.Metric, res.Combiner.Lambda, res.TiedLambdas, res.Combiner.Delta, res.TiedDeltas)
	}
	// Dynamic Ensemble baseline: lambda fixed at 1, scores 0.26 / 0.88:
	// thresholds 0.27..0.88 tie (62), lower middle 0.57.
	res, err = Tune(f, y, logDens, static, &TuneSettings{Metric: balancedAccuracy, Lambdas: DynamicEnsembleLambdas()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Combiner.Lambda != 1 || res.TiedDeltas != 62 || math.Abs(res.Combiner.Delta-0.57) > 1e-15 {
		t.Fatalf("dynamic ensemble: lambda %v delta %v (%d tied)", res.Combiner.Lambda, res.Combiner.Delta, res.TiedDeltas)
	}
	// Tempered candidates: every finite T separates (even T = 1000 leaves
	// weights 0.515/0.485, scores 0.579/0.561 at lambda 1), so four tie and
	// the lower middle, T = 1, is chosen; uniform (T -> inf) cannot separate.
	cands := TemperedCandidates([]float64{0.1, 1, 10, 1000}, nil, true)
	res, err = Tune(f, y, logDens, static, &TuneSettings{Metric: balancedAccuracy, Candidates: cands})
	if err != nil {
		t.Fatal(err)
	}
	if res.TiedCandidates != 4 || res.Combiner.Dynamic.T != 1 || res.Candidates[4].Metric != 0.5 {
		t.Fatalf("tempered: chose %+v with %d tied; candidates %+v", res.Combiner.Dynamic, res.TiedCandidates, res.Candidates)
	}
}

// naiveBest evaluates every (lambda, delta) with Combiner.Score and Predict
// and applies the documented tie rule.
func naiveBest(t *testing.T, f *mat.Dense, y []int, logDens *mat.Dense, static []float64, metric Metric, space Space) (float64, float64, float64) {
	lambdas, deltas := LambdaGrid(), DeltaGrid()
	vals := make([][]float64, len(lambdas))
	best := math.Inf(-1)
	for k, lam := range lambdas {
		c := &Combiner{Static: static, Lambda: lam, Space: space}
		scores, _, err := c.Score(nil, f, logDens)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range deltas {
			c.Delta = d
			var tp, fp, tn, fn int
			for i, p := range c.Predict(nil, scores) {
				switch {
				case p == 1 && y[i] == 1:
					tp++
				case p == 1:
					fp++
				case y[i] == 1:
					fn++
				default:
					tn++
				}
			}
			v := metric(tp, fp, tn, fn)
			vals[k] = append(vals[k], v)
			best = math.Max(best, v)
		}
	}
	tied := func(v float64) bool { return v >= best-1e-12 }
	var tl []int
	for k := range lambdas {
		for _, v := range vals[k] {
			if tied(v) {
				tl = append(tl, k)
				break
			}
		}
	}
	k := tl[(len(tl)-1)/2]
	var td []int
	for j, v := range vals[k] {
		if tied(v) {
			td = append(td, j)
		}
	}
	return best, lambdas[k], deltas[td[(len(td)-1)/2]]
}

func randomTuneData(r *rand.Rand, rows, L int) (*mat.Dense, []int, *mat.Dense, []float64) {
	f := mat.NewDense(rows, 2*L, nil)
	logDens := mat.NewDense(rows, L, nil)
	y := make([]int, rows)
	for i := range rows {
		if r.Float64() < 0.25 {
			y[i] = 1
		}
		for j := range 2 * L {
			f.Set(i, j, 1/(1+math.Exp(-(float64(2*y[i]-1)*0.8+1.2*r.NormFloat64()))))
		}
		for l := range L {
			logDens.Set(i, l, -3*r.Float64()*float64(l+1)+r.NormFloat64())
		}
	}
	static := make([]float64, 2*L)
	for j := range static {
		static[j] = r.Float64()
	}
	ProjectSimplex(static, static)
	return f, y, logDens, static
}

func TestTuneMatchesNaive(t *testing.T) {
	r := rng.New(7)
	for trial := range 10 {
		f, y, logDens, static := randomTuneData(r, 30+10*trial, 1+trial%3)
		metric := Metric(balancedAccuracy)
		if trial%2 == 1 {
			metric = f1Score
		}
		space := Space(trial / 5) // half the trials in logit space
		res, err := Tune(f, y, logDens, static, &TuneSettings{Metric: metric, Space: space})
		if err != nil {
			t.Fatal(err)
		}
		best, lam, delta := naiveBest(t, f, y, logDens, static, metric, space)
		if math.Abs(res.Metric-best) > 1e-12 || res.Combiner.Lambda != lam || res.Combiner.Delta != delta {
			t.Errorf("trial %d: Tune %v at (%v, %v), naive %v at (%v, %v)", trial,
				res.Metric, res.Combiner.Lambda, res.Combiner.Delta, best, lam, delta)
		}
	}
}

func TestTuneQuantiles(t *testing.T) {
	r := rng.New(8)
	f, y, logDens, static := randomTuneData(r, 50, 2)
	base, err := Tune(f, y, logDens, static, &TuneSettings{Metric: balancedAccuracy})
	if err != nil {
		t.Fatal(err)
	}
	q, err := Tune(f, y, logDens, static, &TuneSettings{Metric: balancedAccuracy, DeltaQuantiles: 100})
	if err != nil {
		t.Fatal(err)
	}
	if q.Metric < base.Metric || len(q.ByDelta) <= len(base.ByDelta) {
		t.Fatalf("quantile thresholds: metric %v < %v or no extra thresholds (%d vs %d)",
			q.Metric, base.Metric, len(q.ByDelta), len(base.ByDelta))
	}
	for k := 1; k < len(q.ByDelta); k++ {
		if !(q.ByDelta[k].Delta > q.ByDelta[k-1].Delta) {
			t.Fatalf("thresholds not strictly ascending at %d", k)
		}
	}
}

func TestTemperatureGrid(t *testing.T) {
	g := DefaultTemperatures()
	if len(g) != 9 || g[0] != 0.1 || math.Abs(g[2]-1) > 1e-12 || math.Abs(g[8]-1000) > 1e-9 {
		t.Fatalf("DefaultTemperatures = %v", g)
	}
}

func TestTuneInfiniteMetric(t *testing.T) {
	// The positive likelihood ratio TPR/FPR is +Inf without false
	// positives; NaN when nothing is predicted positive.
	lr := func(tp, fp, tn, fn int) float64 {
		return (float64(tp) / float64(tp+fn)) / (float64(fp) / float64(fp+tn))
	}
	f, y, logDens := tieData()
	res, err := Tune(f, y, logDens, []float64{0.25, 0.25, 0.25, 0.25}, &TuneSettings{Metric: lr})
	if err != nil {
		t.Fatal(err)
	}
	if res.Metric != math.MaxFloat64 || res.Combiner.Lambda != 0.5 {
		t.Fatalf("metric %v at lambda %v", res.Metric, res.Combiner.Lambda)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Fatal(err)
	}
	nan := func(tp, fp, tn, fn int) float64 { return math.NaN() }
	if _, err := Tune(f, y, logDens, []float64{0.25, 0.25, 0.25, 0.25}, &TuneSettings{Metric: nan}); err == nil {
		t.Fatal("all-NaN metric accepted")
	}
}

func TestTuneWorkersIdentical(t *testing.T) {
	f, y, logDens, static := randomTuneData(rng.New(14), 200, 3)
	var first []byte
	for _, w := range []int{1, 2, 5} {
		res, err := Tune(f, y, logDens, static, &TuneSettings{
			Metric: balancedAccuracy, Workers: w, DeltaQuantiles: 50,
			Candidates: TemperedCandidates(DefaultTemperatures(), nil, true),
		})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		if first == nil {
			first = b
		} else if string(b) != string(first) {
			t.Fatalf("workers %d: result differs from 1 worker", w)
		}
	}
}

func TestRocAUC(t *testing.T) {
	for _, c := range []struct {
		s    []float64
		y    []int
		want float64
	}{
		{[]float64{0.1, 0.4, 0.35, 0.8}, []int{0, 0, 1, 1}, 0.75}, // scikit-learn's example
		{[]float64{0.5, 0.5, 0.2, 0.9}, []int{0, 1, 0, 1}, 0.875}, // a tie counts half
		{[]float64{0.3, 0.3}, []int{0, 1}, 0.5},
	} {
		pairs, pos := make([]scored, len(c.s)), 0
		for i := range c.s {
			pairs[i] = mustScored(t, c.s[i], c.y[i])
			pos += c.y[i]
		}
		slices.SortFunc(pairs, byScore)
		if got := rocAUC(pairs, pos); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%v %v: AUC %v, want %v", c.s, c.y, got, c.want)
		}
	}
	if !math.IsNaN(rocAUC([]scored{mustScored(t, 0.2, 0)}, 0)) {
		t.Error("one class: want NaN")
	}
}

// With SelectAUC, Tune keeps the (rule, lambda) of the best validation
// ROC-AUC, and the threshold is the metric's best for it.
func TestTuneSelectAUC(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 400
	y := make([]int, n)
	f := mat.NewDense(n, 2, nil)
	for i := range n {
		if i%8 == 0 {
			y[i] = 1
		}
		// Member 0 ranks well, member 1 is noise.
		f.Set(i, 0, min(0.99, max(0.01, 0.3+0.4*float64(y[i])+0.25*r.NormFloat64())))
		f.Set(i, 1, r.Float64())
	}
	logDens := mat.NewDense(n, 1, nil)
	s := &TuneSettings{Metric: balancedAccuracy, Select: SelectAUC, Owner: []int{0, 0}, Workers: 2}
	res, err := Tune(f, y, logDens, []float64{1, 0}, s)
	if err != nil {
		t.Fatal(err)
	}
	// lambda 0 scores by member 0 alone; larger lambdas mix in the noise.
	if res.Combiner.Lambda != 0 {
		t.Errorf("lambda %v, want 0 (the best ROC-AUC)", res.Combiner.Lambda)
	}
	for _, p := range res.ByLambda {
		if p.AUC <= 0 || p.AUC > 1 {
			t.Errorf("lambda %v: AUC %v", p.Lambda, p.AUC)
		}
		if p.Lambda == res.Combiner.Lambda && res.Metric != p.Metric {
			t.Errorf("the threshold's metric %v is not the chosen lambda's best %v", res.Metric, p.Metric)
		}
	}
	if res.ByLambda[0].AUC <= res.ByLambda[len(res.ByLambda)-1].AUC {
		t.Errorf("AUC at lambda 0 %v not above lambda 1's %v", res.ByLambda[0].AUC, res.ByLambda[len(res.ByLambda)-1].AUC)
	}
}

// byScore orders by score; scores are never NaN.
func byScore(a, b scored) int {
	switch {
	case a.s() < b.s():
		return -1
	case a.s() > b.s():
		return 1
	}
	return 0
}

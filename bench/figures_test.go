package bench

import (
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/cmpimg"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// figureCurves are three made-up scorers of 200 rows, 40 positive: a good
// one, a weaker one and one whose scores are not probabilities.
func figureCurves() []curve {
	y := make([]int, 200)
	good, weak, raw := make([]float64, 200), make([]float64, 200), make([]float64, 200)
	for i := range y {
		if i%5 == 0 {
			y[i] = 1
		}
		u := math.Mod(float64(i)*0.6180339887, 1) // evenly spread in [0, 1)
		good[i] = 0.7*u*u + 0.3*float64(y[i])
		weak[i] = 0.85*u + 0.15*float64(y[i])
		raw[i] = 2*(0.6*u+0.25*float64(y[i])) - 0.5
	}
	return []curve{{"good", y, good}, {"weak", y, weak}, {"raw-scores", y, raw}}
}

// goldenFigure writes one format of a figure to testdata for cmpimg.
func goldenFigure(t *testing.T, name string, r *rendered, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", name), r.png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFigures compares the figures with their golden images, as gonum/plot
// tests its own (go test -regen rewrites the goldens: look at them first).
func TestFigures(t *testing.T) {
	cs := figureCurves()
	cmpimg.CheckPlot(func() {
		r, err := rocFigure("task: ROC curves", cs, nil)
		goldenFigure(t, "roc.png", r, err)
		r, err = prFigure("task: precision-recall curves", cs, nil)
		goldenFigure(t, "pr.png", r, err)
		r, err = reliabilityFigure("task: reliability", cs, nil)
		goldenFigure(t, "reliability.png", r, err)
		r, err = cdFigure([]string{"aer", "gbdt", "logreg", "tree", "svm", "balanced-rf"}, []float64{1.75, 2.5, 3.625, 5.5, 3.875, 3.75}, 2.6657, 8)
		goldenFigure(t, "cd.png", r, err)
	}, t, "roc.png", "pr.png", "reliability.png", "cd.png")
}

func TestFigureErrors(t *testing.T) {
	if _, err := cdFigure([]string{"a"}, []float64{1}, 1, 3); err == nil {
		t.Error("one method: no error")
	}
	if _, err := cdFigure([]string{"a", "b"}, []float64{1}, 1, 3); err == nil {
		t.Error("ranks of the wrong length: no error")
	}
	// The SVG of a figure is a document HTML can inline.
	r, err := rocFigure("t", figureCurves(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.svg) == 0 || !containsSVG(r.svg) {
		t.Error("no <svg element")
	}
}

func containsSVG(b []byte) bool {
	for i := 0; i+4 <= len(b); i++ {
		if string(b[i:i+4]) == "<svg" {
			return true
		}
	}
	return false
}

// figureTunings are made-up tunings of three seeds: mixtures of 2, 3 and 2
// components (so 5, 7 and 5 members), curves against lambda and delta
// from 400 validation rows, 20 positive.
func figureTunings() []seedTuning {
	var runs []seedTuning
	for i, l := range []int{2, 3, 2} {
		t := &tuning{Metric: "balanced_accuracy"}
		for c := range l {
			t.Members = append(t.Members, fmt.Sprintf("global %d", c), fmt.Sprintf("local %d", c))
		}
		t.Members = append(t.Members, "all rows")
		sum := 0.0
		for k := range t.Members {
			w := 0.2 + math.Mod(float64(k+3*i)*0.6180339887, 1)
			if k == 2 && i == 1 {
				w = 0 // a member the weights switch off
			}
			t.Static = append(t.Static, w)
			sum += w
		}
		for k := range t.Static {
			t.Static[k] /= sum
		}
		shift := float64(i) * 0.04
		for k := 0; k <= 20; k++ {
			lam := float64(k) / 20
			m := 0.86 + 0.05*math.Sin(3*lam+shift*10) - 0.04*lam*lam
			t.ByLambda = append(t.ByLambda, lambdaPoint{Lambda: lam, Metric: m, Delta: 0.3 + 0.2*lam})
			if k == 0 || m > t.Best {
				t.Lambda, t.Best = lam, m
			}
		}
		best := -1.0
		for k := 1; k < 100; k++ {
			d := float64(k) / 100
			tp := int(math.Round(20 * (1 - math.Pow(d, 3+float64(i)))))
			fp := int(math.Round(380 * math.Pow(1-d, 4+shift*20)))
			c := confusion{TP: tp, FP: fp, TN: 380 - fp, FN: 20 - tp}
			ba := (float64(tp)/20 + float64(380-fp)/380) / 2
			t.ByDelta = append(t.ByDelta, deltaPoint{Delta: d, Metric: ba, Confusion: c})
			if ba > best {
				best, t.Delta = ba, d
			}
		}
		t.Best = best
		runs = append(runs, seedTuning{seed: uint64(i), t: t})
	}
	return runs
}

// TestTuningFigures compares the AER figures with their golden images.
func TestTuningFigures(t *testing.T) {
	runs := figureTunings()
	cmpimg.CheckPlot(func() {
		r, err := weightStripFigure("task: aer static weights", runs)
		goldenFigure(t, "weights.png", r, err)
		r, err = lambdaFigure("task: aer validation balanced accuracy vs lambda", "balanced_accuracy", runs)
		goldenFigure(t, "lambda.png", r, err)
		r, err = deltaFigure("task: aer validation balanced accuracy vs delta", "balanced_accuracy", runs)
		goldenFigure(t, "delta.png", r, err)
		r, err = f1FMFigure("task: aer validation F1 and Fowlkes-Mallows vs delta", runs)
		goldenFigure(t, "f1_fm.png", r, err)
	}, t, "weights.png", "lambda.png", "delta.png", "f1_fm.png")
}

// ruleTunings are figureTunings as the default aer records them: lambda
// chosen by validation ROC-AUC, whose peak is not the balanced accuracy's,
// and delta by the Bayes rule, off the curve's candidates and its peak.
func ruleTunings() []seedTuning {
	runs := figureTunings()
	for i, r := range runs {
		t := r.t
		t.Select, t.DeltaRule, t.BayesDelta = selectAUC, deltaBayes, true
		best := -1.0
		for k := range t.ByLambda {
			q := &t.ByLambda[k]
			q.AUC = 0.9 + 0.04*math.Cos(4*(q.Lambda-0.7-0.05*float64(i)))
			if q.AUC > best {
				best, t.Lambda = q.AUC, q.Lambda
			}
		}
		t.Delta = 0.415 + 0.1*float64(i) // between the candidates 0.41 and 0.42
		// The confusion at that delta of figureTunings' made-up scorer.
		tp := int(math.Round(20 * (1 - math.Pow(t.Delta, 3+float64(i)))))
		fp := int(math.Round(380 * math.Pow(1-t.Delta, 4+float64(i)*0.8)))
		t.Chosen = &confusion{TP: tp, FP: fp, TN: 380 - fp, FN: 20 - tp}
	}
	return runs
}

// TestTuningFigureRules checks that the lambda and delta figures mark the
// point the recorded rule chose and their captions name that rule.
func TestTuningFigureRules(t *testing.T) {
	runs := ruleTunings()
	for _, r := range runs {
		auc := aucCurve(r.t)
		m, ok := lambdaMark(r.t, auc)
		top := 0.0
		for _, q := range auc {
			top = max(top, q.Y)
		}
		if !ok || m.X != r.t.Lambda || m.Y != top {
			t.Errorf("seed %d: lambda mark %v, want lambda %v at the highest ROC-AUC %v", r.seed, m, r.t.Lambda, top)
		}
		// The balanced accuracy curve peaks elsewhere: the figure must
		// not suggest it chose lambda.
		ba := metricByLambda(r.t)
		peak := ba[0]
		for _, q := range ba {
			if q.Y > peak.Y {
				peak = q
			}
		}
		if peak.X == r.t.Lambda {
			t.Fatalf("seed %d: test data: the ROC-AUC and balanced accuracy peak at the same lambda", r.seed)
		}
		d, ok := deltaMark(r.t, nil, metricOf("balanced_accuracy"))
		want := r.t.Chosen.metrics().BalancedAccuracy()
		if !ok || d.X != r.t.Delta || d.Y != want {
			t.Errorf("seed %d: delta mark %v, want (%v, %v): the Bayes delta at the final model's validation balanced accuracy", r.seed, d, r.t.Delta, want)
		}
		// A tuned delta is the curve's own point.
		tuned := *r.t
		tuned.BayesDelta, tuned.Delta = false, 0.414
		xy := plotter.XYs{{X: 0.41, Y: 0.8}, {X: 0.42, Y: 0.9}}
		if d, ok := deltaMark(&tuned, xy, metricOf("balanced_accuracy")); !ok || d != xy[0] {
			t.Errorf("seed %d: tuned delta mark %v, want %v", r.seed, d, xy[0])
		}
	}

	short, s := lambdaRule(runs, "balanced accuracy")
	if short != "\nchosen by validation ROC-AUC" || !strings.Contains(s, "chosen by the validation ROC-AUC (select=auc)") || !strings.Contains(s, "did not choose it") {
		t.Errorf("lambda rule %q, %q", short, s)
	}
	short, s = deltaRule(runs, "balanced accuracy")
	if short != "\nchosen by the Bayes rule" || !strings.Contains(s, "Bayes rule of a sigmoid calibration") || !strings.Contains(s, "not as the best point of this curve") {
		t.Errorf("delta rule %q, %q", short, s)
	}
	// The paper's rules, and a seed whose calibration fell back.
	paper := figureTunings()
	for _, r := range paper {
		r.t.Select, r.t.DeltaRule = selectThreshold, deltaTuned
	}
	if short, s := lambdaRule(paper, "balanced accuracy"); short != "\nchosen by validation balanced accuracy" || !strings.Contains(s, "select=threshold") {
		t.Errorf("paper lambda rule %q, %q", short, s)
	}
	if short, s := deltaRule(paper, "balanced accuracy"); short != "\nchosen by validation balanced accuracy" || !strings.Contains(s, "best point of this curve (delta_rule=tuned") {
		t.Errorf("paper delta rule %q, %q", short, s)
	}
	runs[1].t.BayesDelta = false
	if short, s := deltaRule(runs, "balanced accuracy"); short != "" || !strings.Contains(s, "for seeds 0, 2") || !strings.Contains(s, "for seed 1, where the Bayes rule was asked for but the calibration could not") {
		t.Errorf("mixed delta rule %q, %q", short, s)
	}
	if _, s := lambdaRule(figureTunings(), "balanced accuracy"); !strings.Contains(s, "do not record") {
		t.Errorf("unrecorded lambda rule %q", s)
	}
}

// TestTuningRuleFigures compares the figures of a default aer's rules
// (lambda by ROC-AUC in two panels, delta by the Bayes rule) with their
// golden images.
func TestTuningRuleFigures(t *testing.T) {
	runs := ruleTunings()
	cmpimg.CheckPlot(func() {
		r, err := lambdaFigure("task: aer, tuning lambda\nchosen by validation ROC-AUC", "balanced_accuracy", runs)
		goldenFigure(t, "lambda_auc.png", r, err)
		r, err = deltaFigure("task: aer, tuning delta\nchosen by the Bayes rule", "balanced_accuracy", runs)
		goldenFigure(t, "delta_bayes.png", r, err)
	}, t, "lambda_auc.png", "delta_bayes.png")
}

// TestSVGRasterType: a raster image is embedded in the SVG (and so in
// report.html) as PNG data labelled image/png; gonum's SVG canvas labels
// it image/jpg.
func TestSVGRasterType(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	r, err := render(vg.Inch, vg.Inch, func(c draw.Canvas) { c.DrawImage(c.Rectangle, img) })
	if err != nil {
		t.Fatal(err)
	}
	s := string(r.svg)
	if !strings.Contains(s, "data:image/png;base64,iVBOR") || strings.Contains(s, "data:image/jpg") {
		t.Errorf("embedded raster: png %v, jpg %v", strings.Contains(s, "data:image/png"), strings.Contains(s, "data:image/jpg"))
	}
}

// TestWeightStripColourBar: the heat strip's colour bar is vector shapes
// a readable width with its tick values, not gonum's ColorBar raster (one
// pixel wide, which browsers drew a pixel or two wide).
func TestWeightStripColourBar(t *testing.T) {
	r, err := weightStripFigure("weights", figureTunings())
	if err != nil {
		t.Fatal(err)
	}
	s := string(r.svg)
	if strings.Contains(s, "<image") {
		t.Error("the weight strip's SVG embeds a raster")
	}
	if !strings.Contains(s, ">static weight<") {
		t.Error("the weight strip's colour bar has no label")
	}
	// The bar: 64 filled bands, each 14 points wide.
	bands := 0
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "<path d=\"M") && strings.Contains(line, "fill:") && strings.Count(line, "L") == 3 {
			var x0, y0, x1, y1 float64
			if _, err := fmt.Sscanf(line, "<path d=\"M%g,%gL%g,%g", &x0, &y0, &x1, &y1); err == nil && math.Abs(x1-x0-14) < 0.01 && y0 == y1 {
				bands++
			}
		}
	}
	if bands < 60 {
		t.Errorf("%d colour bands 14 points wide in the weight strip's SVG, want 64", bands)
	}
}

// crowdedReport is a report of ten methods m0..m9 and the paper's AER on
// two datasets, without a ranking: m9 the best by balanced accuracy, m0
// the worst; the reference is m0.
func crowdedReport() *report {
	rp := &report{cells: map[string][]*cell{}}
	for i := range 10 {
		rp.cfg.Methods = append(rp.cfg.Methods, Spec{Name: fmt.Sprintf("m%d", i)})
	}
	rp.cfg.Methods = append(rp.cfg.Methods, PaperPreset)
	rp.ref = rp.cfg.Methods[0]
	for _, d := range []string{"a", "b"} {
		rp.ds = append(rp.ds, &data{name: d})
		for i, s := range rp.cfg.Methods {
			rp.cells[d] = append(rp.cells[d], &cell{spec: s, runs: 1, rows: []*Row{{BalancedAccuracy: 0.5 + 0.04*float64(i%10)}}})
		}
	}
	return rp
}

// TestHighlight: a figure of more than maxColoured methods colours the
// highlightTop best (by mean balanced accuracy here, with no ranking), the
// reference and the paper's AER, in that order of rank, and greys the
// rest; a figure of few methods colours each.
func TestHighlight(t *testing.T) {
	rp := crowdedReport()
	var cs []curve
	for _, s := range rp.cfg.Methods {
		cs = append(cs, curve{name: s.String()})
	}
	hl, caption := rp.highlight(cs)
	// Ranked: m9 m8 m7 m6 (aer:preset=paper ties m0 at 0.5, after it) ... m0.
	want := map[string]int{"m9": 0, "m8": 1, "m7": 2, "m6": 3, "m0": 4, PaperPreset.String(): 5}
	for i, c := range cs {
		k, ok := want[c.name]
		if !ok {
			k = -1
		}
		if hl[i] != k {
			t.Errorf("%s: colour %d, want %d", c.name, hl[i], k)
		}
	}
	if !strings.Contains(caption, "(m9, m8, m7, m6, m0, aer:preset=paper)") || !strings.Contains(caption, "thin grey") {
		t.Errorf("caption %q", caption)
	}
	if hl, caption := rp.highlight(cs[:maxColoured]); hl != nil || caption != "" {
		t.Errorf("%d methods: colours %v, caption %q", maxColoured, hl, caption)
	}
}

// TestCrowdedCurves: a ROC figure of many methods draws the highlighted
// ones thick in colour, the others thin grey, and lists the grey ones
// apart in its legend.
func TestCrowdedCurves(t *testing.T) {
	base := figureCurves()
	var cs []curve
	for i := range 9 {
		c := base[i%2]
		cs = append(cs, curve{name: fmt.Sprintf("method-%d", i), y: c.y, s: c.s})
	}
	hl := []int{-1, 1, -1, -1, 0, -1, -1, 2, -1}
	r, err := rocFigure("crowded", cs, hl)
	if err != nil {
		t.Fatal(err)
	}
	s := string(r.svg)
	// color.Gray{190}: six grey curves and six legend lines, at least.
	grey := strings.Count(s, "stroke:#BEBEBE")
	if grey < 12 {
		t.Errorf("%d grey strokes, want one per grey curve and legend entry", grey)
	}
	for _, want := range []string{"other methods (grey):", "method-4 (AUC", "method-0 (AUC"} {
		if !strings.Contains(s, want) {
			t.Errorf("figure lacks %q", want)
		}
	}
	// The coloured legend lists by colour: method-4, method-1, method-7.
	i4, i1, i7 := strings.Index(s, ">method-4 "), strings.Index(s, ">method-1 "), strings.Index(s, ">method-7 ")
	if !(i4 >= 0 && i4 < i1 && i1 < i7) {
		t.Errorf("legend order: method-4 at %d, method-1 at %d, method-7 at %d", i4, i1, i7)
	}
	if ig := strings.Index(s, "other methods (grey):"); ig < i7 {
		t.Error("grey methods listed before the coloured ones")
	}
}

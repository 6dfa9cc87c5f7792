package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aer-go/aer/predfile"
)

// aerTask writes a small synthetic task split 3:1:1 into dir.
func aerTask(t *testing.T, dir string) (train, valid, test string) {
	t.Helper()
	data := filepath.Join(dir, "task.csv")
	if _, errOut, code := aer(t, "gen", "--rows", "1500", "--ratio", "12", "--clusters", "3", "--features", "6",
		"--informative", "4", "--seed", "2", "--out", data); code != 0 {
		t.Fatal(errOut)
	}
	if _, errOut, code := aer(t, "split", "--data", data, "--out-dir", dir, "--seed", "2"); code != 0 {
		t.Fatal(errOut)
	}
	return filepath.Join(dir, "task.train.csv"), filepath.Join(dir, "task.valid.csv"), filepath.Join(dir, "task.test.csv")
}

var smallAER = []string{"--param", "components=2-3", "--param", "n_init=2", "--param", "member.n_estimators=20", "--param", "member.max_depth=3"}

func TestAERFitPredictExplain(t *testing.T) {
	dir := t.TempDir()
	train, valid, test := aerTask(t, dir)
	model := filepath.Join(dir, "m.aer")
	args := append([]string{"fit", "--method", "aer", "--train", train, "--valid", valid, "--out", model, "--json", "--seed", "4"}, smallAER...)
	out, errOut, code := aer(t, args...)
	if code != 0 {
		t.Fatalf("fit: %s", errOut)
	}
	var fit struct {
		Method    string  `json:"method"`
		Threshold float64 `json:"threshold"`
		Decision  *struct {
			Rule string `json:"rule"`
		} `json:"decision"`
		Result struct {
			Mixture struct {
				Components int `json:"components"`
				Candidates []struct {
					BIC float64 `json:"bic"`
				} `json:"candidates"`
			} `json:"mixture"`
			Subsets []struct {
				Kind     string `json:"kind"`
				Majority int    `json:"majority"`
				Minority int    `json:"minority"`
			} `json:"subsets"`
			Combiner struct {
				Static []float64 `json:"static"`
				Lambda float64   `json:"lambda"`
				Delta  float64   `json:"delta"`
			} `json:"combiner"`
			Valid struct {
				BalancedAccuracy float64 `json:"balanced_accuracy"`
			} `json:"valid"`
			Seconds struct {
				Total float64 `json:"total"`
			} `json:"seconds"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(out), &fit); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	r := fit.Result
	L := r.Mixture.Components
	// 2L subset members, one on all rows and the two peers (logreg, svm).
	if fit.Method != "aer" || L < 2 || L > 3 || len(r.Mixture.Candidates) != 2 || len(r.Subsets) != 2*L || len(r.Combiner.Static) != 2*L+3 {
		t.Fatalf("fit report: %+v", fit)
	}
	if r.Subsets[0].Kind != "global" || r.Subsets[1].Kind != "local" || r.Valid.BalancedAccuracy < 0.6 || r.Seconds.Total <= 0 {
		t.Errorf("fit report: %+v", r)
	}

	// The default AER's Bayes delta gives way to the default decision
	// layer: its scores are calibrated probabilities, and predict uses the
	// layer's threshold (the training positive share) unless --threshold
	// is given.
	if fit.Decision == nil || fit.Decision.Rule != "bayes" || fit.Threshold <= 0 || fit.Threshold >= 0.5 {
		t.Fatalf("default aer: no Bayes decision layer: %s", out)
	}
	preds := filepath.Join(dir, "p.csv")
	if out, errOut, code := aer(t, "predict", "--model", model, "--data", test, "--out", preds, "--json"); code != 0 {
		t.Fatal(errOut)
	} else if !strings.Contains(out, `"threshold": `+trimFloat(fit.Threshold)) || !strings.Contains(out, `"scores": "probability"`) {
		t.Errorf("predict did not use the layer's threshold %v:\n%s", fit.Threshold, out)
	}
	p, err := predfile.LoadPredictions(preds)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range p.Score {
		if (s >= fit.Threshold) != (p.Pred[i] == 1) || s < 0 || s > 1 {
			t.Fatalf("row %d: score %v, pred %d, threshold %v", i, s, p.Pred[i], fit.Threshold)
		}
	}
	out, errOut, code = aer(t, "eval", "--data", preds, "--json")
	if code != 0 || !strings.Contains(out, "balanced_accuracy") {
		t.Errorf("eval: %s %s", out, errOut)
	}

	// explain agrees with predict, row by row.
	out, errOut, code = aer(t, "explain", "--model", model, "--data", test, "--rows", "1-3", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var ex struct {
		Rows []struct {
			Row int `json:"row"`
			F   struct {
				Space  string  `json:"space"`
				Base   float64 `json:"base"`
				Output float64 `json:"output"`
				Values []struct {
					Attribution float64 `json:"attribution"`
				} `json:"values"`
			} `json:"features"`
			E struct {
				Score      float64 `json:"score"`
				Prediction int     `json:"prediction"`
				Model      struct {
					Members      []string  `json:"members"`
					Contribution []float64 `json:"contribution"`
					Component    []float64 `json:"component"`
				} `json:"model"`
			} `json:"explanation"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &ex); err != nil {
		t.Fatal(err)
	}
	if len(ex.Rows) != 3 {
		t.Fatalf("explained %d rows", len(ex.Rows))
	}
	for k, e := range ex.Rows {
		if e.Row != k+1 || math.Abs(e.E.Score-p.Score[k]) > 1e-12 || e.E.Prediction != p.Pred[k] || len(e.E.Model.Members) != 2*L+3 || len(e.E.Model.Component) != L {
			t.Errorf("row %d: explain %+v, predict score %v pred %d", k+1, e, p.Score[k], p.Pred[k])
		}
		// The features come first and sum to the score's logit.
		sum := e.F.Base
		for _, v := range e.F.Values {
			sum += v.Attribution
		}
		if e.F.Space != "logit" || math.Abs(sum-e.F.Output) > 1e-9 || math.Abs(1/(1+math.Exp(-sum))-p.Score[k]) > 1e-9 {
			t.Errorf("row %d: features %+v sum to %v, score %v", k+1, e.F, sum, p.Score[k])
		}
	}
	if out, _, code := aer(t, "explain", "--model", model, "--data", test, "--rows", "2"); code != 0 || !strings.Contains(out, "row 2") || !strings.Contains(out, "local 0") {
		t.Errorf("explain text:\n%s", out)
	}
	// Errors: rows out of range, a gbdt model, data of other columns.
	if _, _, code := aer(t, "explain", "--model", model, "--data", test, "--rows", "0"); code != 2 {
		t.Errorf("--rows 0: exit %d", code)
	}
	gbdt := filepath.Join(dir, "g.aer")
	if _, errOut, code := aer(t, "fit", "--method", "gbdt", "--train", train, "--out", gbdt, "--param", "n_estimators=3"); code != 0 {
		t.Fatal(errOut)
	}
	// A gbdt model has no breakdown but has feature attributions.
	if out, errOut, code := aer(t, "explain", "--model", gbdt, "--data", test, "--rows", "1"); code != 0 || !strings.Contains(out, "features (logit space)") || strings.Contains(out, "breakdown") {
		t.Errorf("explain of a gbdt model: exit %d %s\n%s", code, errOut, out)
	}
	other := filepath.Join(dir, "other.csv")
	os.WriteFile(other, []byte("x0,x1,zz,label\n1,2,3,0\n"), 0o644)
	if _, errOut, code := aer(t, "predict", "--model", model, "--data", other, "--out", filepath.Join(dir, "x.csv")); code != 1 || !strings.Contains(errOut, "does not fit model") {
		t.Errorf("predict on other columns: exit %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.csv")); err == nil {
		t.Error("failed predict left an output file")
	}

	// Same seed, same model file.
	model2 := filepath.Join(dir, "m2.aer")
	args2 := append([]string{"fit", "--method", "aer", "--train", train, "--valid", valid, "--out", model2, "--seed", "4", "--threads", "1"}, smallAER...)
	if _, errOut, code := aer(t, args2...); code != 0 {
		t.Fatal(errOut)
	}
	a, _ := os.ReadFile(model)
	b, _ := os.ReadFile(model2)
	if string(a) != string(b) {
		t.Error("same seed with 1 and all threads gave different model files")
	}

	// The Dynamic Ensemble baseline has lambda 1.
	out, errOut, code = aer(t, append([]string{"fit", "--method", "dynens", "--train", train, "--out", model2, "--json"}, smallAER...)...)
	if code != 0 || !strings.Contains(out, `"lambda": 1,`) {
		t.Errorf("dynens: exit %d %s", code, errOut)
	}
	if _, _, code := aer(t, append([]string{"fit", "--method", "aer", "--train", train, "--out", model2, "--param", "likelihood=cosh"}, smallAER...)...); code != 2 {
		t.Errorf("bad AER parameter: exit %d", code)
	}
}

func trimFloat(v float64) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestDemo(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := aer(t, "demo", "--samples", "2400", "--out", dir, "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var d demoOutput
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.Rows != 2400 || d.Positives != 30 || d.Features != 20 || len(d.Seeds) != 2 || d.Out != dir || len(d.Results) != 4 ||
		d.Bench == nil || d.Bench.Ran != 8 || d.Bench.Failed != 0 {
		t.Fatalf("demo: %+v", d)
	}
	for i, m := range []string{"aer", "gbdt", "gbdt-tuned", "logreg"} {
		r := d.Results[i]
		ba := r.Metrics["balanced_accuracy"]
		if r.Method != m || r.Runs != 2 || ba.Mean <= 0.4 || ba.Mean > 1 || ba.Std < 0 || len(r.Metrics) != len(demoMetrics) {
			t.Errorf("demo result %d: %+v", i, r)
		}
	}
	// The bench's report, with AER's figures, is where the demo says.
	for _, f := range []string{d.Report, filepath.Join(dir, "report.html"), filepath.Join(dir, "figures", "demo_aer_weights.png"), filepath.Join(dir, "figures", "demo_aer_lambda.svg")} {
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}
	// Again in the same directory: every run is reused; the table is the same.
	out, errOut, code = aer(t, "demo", "--samples", "2400", "--out", dir)
	if code != 0 || !strings.Contains(out, "balanced accuracy") || !strings.Contains(out, "Report (tables, tests, figures): "+d.Report) ||
		strings.Count(errOut, "already done") != 8 {
		t.Errorf("second demo: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, _, code := aer(t, "demo", "--samples", "10"); code != 2 {
		t.Errorf("tiny demo: exit %d", code)
	}
	if _, _, code := aer(t, "demo", "--methods", "nosuch"); code != 2 {
		t.Errorf("unknown method: exit %d", code)
	}
	help, _, code := aer(t, "help", "demo")
	if code != 0 {
		t.Fatal(code)
	}
	golden(t, "demo/help.golden", help)
}

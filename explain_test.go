package aer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/serve"
)

// multiTable writes a 3-class table of n rows (classes "low", "mid",
// "high"; numeric features a, b with missing cells, and a categorical
// column color) and reads it.
func multiTable(t *testing.T, n int, phase float64) *aer.Table {
	t.Helper()
	var sb strings.Builder
	sb.WriteString("a,b,color,label\n")
	colors := []string{"red", "green", "blue"}
	for i := range n {
		a, b := math.Sin(float64(i)*1.3+phase), math.Cos(float64(i)*0.7+phase)
		c := (i*5 + 1) % 3
		s := []float64{a + 0.4*math.Sin(float64(i)*5.1), b - a + 0.3*float64(c), -b - 0.2*float64(c)}
		y := 0
		for k := range s {
			if s[k] > s[y] {
				y = k
			}
		}
		cell := fmt.Sprintf("%.4f", b)
		if i%11 == 4 {
			cell = ""
		}
		fmt.Fprintf(&sb, "%.4f,%s,%s,%s\n", a, cell, colors[c], []string{"low", "mid", "high"}[y])
	}
	path := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, err := aer.ReadTable(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// TestExplainMultiClass explains rows of multi-class models: the class
// the model's decision picks, every class's probability as Predict gives
// them, and per class the attributions of that class's output, one per
// column (the categorical column's one-hot attributions summed), with
// base + sum = output: for gbdt and logreg (native) the outputs' softmax
// is the probabilities, for one-vs-rest the outputs' sigmoids normalised
// are. One-vs-one says why it has none.
func TestExplainMultiClass(t *testing.T) {
	ctx := context.Background()
	train, valid, test := multiTable(t, 300, 0), multiTable(t, 100, 0.4), multiTable(t, 20, 0.9)
	cases := []struct {
		method, multiclass string
		link               func([]float64) []float64 // outputs to probabilities
	}{
		{"gbdt", aer.Native, softmaxOf},
		{"logreg", aer.Native, softmaxOf},
		{"gbdt", aer.OneVsRest, normalisedSigmoids},
		{"logreg", aer.OneVsOne, nil},
	}
	for _, c := range cases {
		t.Run(c.method+"-"+c.multiclass, func(t *testing.T) {
			method, _ := aer.Method(c.method)
			m, err := aer.Fit(ctx, train, valid, &aer.Settings{Spec: aer.Spec{Decomposition: c.multiclass, Params: paramsFor(c.method)}, Env: aer.Env{Seed: 1}}, method)
			if err != nil {
				t.Fatal(err)
			}
			p, err := m.Predict(ctx, test, nil)
			if err != nil {
				t.Fatal(err)
			}
			for row := range test.Rows() {
				ex, err := m.Explain(ctx, test, row)
				if err != nil {
					t.Fatal(err)
				}
				if ex.Class != p.Class(row) || ex.Score != p.Score[row] || ex.Decision != "bayes" || !slicesEqual(ex.Classes, []string{"high", "low", "mid"}) {
					t.Fatalf("row %d: class %s score %v decision %q classes %q; Predict %s %v", row, ex.Class, ex.Score, ex.Decision, ex.Classes, p.Class(row), p.Score[row])
				}
				for k, v := range ex.Probabilities {
					if v != p.Proba[row*3+k] {
						t.Fatalf("row %d: probabilities %v, Predict's %v", row, ex.Probabilities, p.Proba[row*3:row*3+3])
					}
				}
				if c.link == nil {
					if ex.ClassAttributions != nil || !strings.Contains(ex.Unavailable, "one-vs-one") {
						t.Fatalf("one-vs-one: %+v", ex)
					}
					continue
				}
				checkClassAttributions(t, row, ex, c.link)
			}
		})
	}
}

// paramsFor keeps gbdt small.
func paramsFor(method string) []string {
	if method == "gbdt" {
		return []string{"n_estimators=20", "max_depth=3"}
	}
	return nil
}

func checkClassAttributions(t *testing.T, row int, ex *aer.Explanation, link func([]float64) []float64) {
	t.Helper()
	if len(ex.ClassAttributions) != 3 || ex.Attribution == "" || ex.Unavailable != "" {
		t.Fatalf("row %d: %d class attributions, %q, unavailable %q", row, len(ex.ClassAttributions), ex.Attribution, ex.Unavailable)
	}
	out := make([]float64, 3)
	for k, ca := range ex.ClassAttributions {
		if ca.Class != ex.Classes[k] || ca.Total != 3 || len(ca.Values) != 3 {
			t.Fatalf("row %d class %d: %s, %d of %d columns", row, k, ca.Class, len(ca.Values), ca.Total)
		}
		sum := ca.Base
		for j, v := range ca.Values {
			sum += v.Attribution
			if j > 0 && math.Abs(v.Attribution) > math.Abs(ca.Values[j-1].Attribution) {
				t.Fatalf("row %d class %d: attributions not largest first: %+v", row, k, ca.Values)
			}
			if _, ok := v.Value.(string); ok != (v.Feature == "color") {
				t.Fatalf("row %d class %d: column %s value %v", row, k, v.Feature, v.Value)
			}
		}
		if math.Abs(sum-ca.Output) > 1e-9 {
			t.Fatalf("row %d class %d: base + sum %v, output %v", row, k, sum, ca.Output)
		}
		out[k] = ca.Output
	}
	for k, v := range link(out) {
		if math.Abs(v-ex.Probabilities[k]) > 1e-9 {
			t.Fatalf("row %d: outputs %v give probabilities %v, the model's %v", row, out, link(out), ex.Probabilities)
		}
	}
}

func softmaxOf(z []float64) []float64 {
	hi := math.Max(z[0], math.Max(z[1], z[2]))
	out := make([]float64, len(z))
	sum := 0.0
	for k, v := range z {
		out[k] = math.Exp(v - hi)
		sum += out[k]
	}
	for k := range out {
		out[k] /= sum
	}
	return out
}

func normalisedSigmoids(z []float64) []float64 {
	out := make([]float64, len(z))
	sum := 0.0
	for k, v := range z {
		out[k] = 1 / (1 + math.Exp(-v))
		sum += out[k]
	}
	for k := range out {
		out[k] /= sum
	}
	return out
}

// TestExplainBinaryJSON: a binary model's Explanation has none of the
// multi-class fields in JSON.
func TestExplainBinaryJSON(t *testing.T) {
	ctx := context.Background()
	tb := multiTable(t, 200, 0)
	d := tb.Dataset()
	for i := range d.Y {
		d.Y[i] = min(d.Y[i], 1)
	}
	d.Classes = []string{"no", "yes"}
	method, _ := aer.Method("logreg")
	m, err := aer.Fit(ctx, tb, nil, &aer.Settings{Env: aer.Env{Seed: 1}}, method)
	if err != nil {
		t.Fatal(err)
	}
	if m.NumClasses() > 2 {
		t.Fatal("a binary table made a multi-class model")
	}
	ex, err := m.Explain(ctx, tb, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(ex)
	for _, key := range []string{"decision", "classes", "probabilities", "class_attributions"} {
		if strings.Contains(string(b), `"`+key+`"`) {
			t.Errorf("binary explanation has %q: %s", key, b)
		}
	}
	if ex.Attributions == nil {
		t.Errorf("binary explanation without attributions: %s", b)
	}
}

// TestServeExplainMultiClass: aer serve's "explain" on a multi-class
// model answers each row with every class's attributions, those Explain
// gives; a one-vs-one model's answer is a 400 that says why.
func TestServeExplainMultiClass(t *testing.T) {
	ctx := context.Background()
	train, test := multiTable(t, 300, 0), multiTable(t, 5, 0.9)
	for _, mc := range []string{aer.Native, aer.OneVsOne} {
		method, _ := aer.Method("logreg")
		m, err := aer.Fit(ctx, train, nil, &aer.Settings{Spec: aer.Spec{Decomposition: mc}, Env: aer.Env{Seed: 1}}, method)
		if err != nil {
			t.Fatal(err)
		}
		h, err := serve.Handler("m", m, nil)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		// The rows without their label column (the last).
		var body strings.Builder
		for _, line := range strings.SplitAfter(csvOf(t, test), "\n") {
			if i := strings.LastIndex(line, ","); i >= 0 {
				body.WriteString(line[:i] + "\n")
			}
		}
		resp, err := http.Post(srv.URL+"/v1/predict?explain=true", "text/csv", strings.NewReader(body.String()))
		if err != nil {
			t.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		srv.Close()
		if mc == aer.OneVsOne {
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(answer), "one-vs-one") {
				t.Errorf("one-vs-one: status %d: %s", resp.StatusCode, answer)
			}
			continue
		}
		var pr serve.PredictResponse
		if err := json.Unmarshal(answer, &pr); err != nil || resp.StatusCode != 200 || len(pr.Rows) != 5 {
			t.Fatalf("status %d, %v: %s", resp.StatusCode, err, answer)
		}
		for i, row := range pr.Rows {
			ex, err := m.Explain(ctx, test, i)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(row.ClassFeatures)
			want, _ := json.Marshal(ex.ClassAttributions)
			if len(row.ClassFeatures) != 3 || string(got) != string(want) {
				t.Errorf("row %d: served %s\nExplain %s", i, got, want)
			}
		}
	}
}

package predfile

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzReadMultiPredictions feeds arbitrary text to the multi-class
// predictions reader: it returns an error that names the file, or
// predictions whose columns agree in length, whose classes index the
// class list, whose probabilities are finite, and which write and read
// back unchanged.
func FuzzReadMultiPredictions(f *testing.F) {
	for _, s := range []string{
		"label,pred,score_a,score_b,score_c\na,a,0.7,0.2,0.1\nc,b,0.1,0.5,0.4\n",
		"pred,score_x,score_y\ny,0.4,0.6\n",
		"row,repeat,fold,label,pred,score_1,score_2,score_3\n1,1,2,3,3,0.1,0.2,0.7\n", // aer cv --oof
		"label,score_a,score_b,weight\nb,0.3,0.7,2\na,0.9,0.1,0\n",
		"label,pred,\"score_a b\",score_c\n\"a b\",c,0.2,0.8\n",
		"label,pred,score_a,score_a\na,a,1,0\n",
		"label,pred,score_a,score_b\nz,a,0.5,0.5\n",
		"label,pred,score_a,score_b\na,a,NaN,0.5\n",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ReadMultiPredictions(strings.NewReader(text), "fuzz.csv")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.csv") {
				t.Fatalf("error without the file's name: %v", err)
			}
			return
		}
		k, n := len(p.Classes), len(p.Pred)
		if k < 2 || len(p.Proba) != n*k || (p.Label != nil && len(p.Label) != n) || (p.Weight != nil && len(p.Weight) != n) {
			t.Fatalf("%d classes, %d predictions, %d probabilities, %d labels", k, n, len(p.Proba), len(p.Label))
		}
		for i := range n {
			if p.Pred[i] < 0 || p.Pred[i] >= k || p.Label != nil && (p.Label[i] < 0 || p.Label[i] >= k) {
				t.Fatalf("row %d: class out of range", i)
			}
		}
		for _, v := range p.Proba {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("probability %v", v)
			}
		}
		if p.Weight != nil || slices.ContainsFunc(p.Classes, func(c string) bool { return strings.TrimSpace(c) != c || c == "" }) {
			return // the writer writes no weights; padded names are trimmed on reading
		}
		var b bytes.Buffer
		if err := WriteMultiPredictions(&b, p, "", nil); err != nil {
			t.Fatal(err)
		}
		q, err := ReadMultiPredictions(&b, "again.csv")
		if err != nil {
			t.Fatalf("written predictions do not read back: %v\n%s", err, b.String())
		}
		if !slices.Equal(q.Classes, p.Classes) || !slices.Equal(q.Pred, p.Pred) || !slices.Equal(q.Label, p.Label) || !slices.Equal(q.Proba, p.Proba) {
			t.Fatalf("round trip changed the predictions:\n%s", b.String())
		}
	})
}

// TestReadMultiPredictions reads what a multi-class model writes, and
// refuses what it does not.
func TestReadMultiPredictions(t *testing.T) {
	src := "id,label,pred,score_a,score_b,score_c\nr1,a,a,0.7,0.2,0.1\nr2,c,b,0.1,0.5,0.4\n"
	if !IsMultiPredictions(strings.Split(strings.SplitN(src, "\n", 2)[0], ",")) || IsMultiPredictions([]string{"label", "score", "score_a"}) {
		t.Error("IsMultiPredictions")
	}
	p, err := ReadMultiPredictions(strings.NewReader(src), "p.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Classes, []string{"a", "b", "c"}) || !slices.Equal(p.Label, []int{0, 2}) || !slices.Equal(p.Pred, []int{0, 1}) || len(p.Proba) != 6 {
		t.Errorf("%+v", p)
	}
	for _, bad := range []string{
		"label,score_a,score_b\nz,0.5,0.5\n",
		"label,score_a,score_b\na,1.5,0.5\n",
		"label,score_a\na,1\n",
		"label,score_a,score_b\n",
	} {
		if _, err := ReadMultiPredictions(strings.NewReader(bad), "p.csv"); !errors.Is(err, ErrMultiPredictions) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestMultiPredictionsHostileNames: class names holding a comma, a quote,
// a tab or a line break are written quoted and read back, the header
// included (IsMultiPredictionsFile read it as a line, and a class name
// holding a line break made aer eval take aer predict's own file for a
// binary one); names a file cannot keep are refused by the writers.
func TestMultiPredictionsHostileNames(t *testing.T) {
	p := &MultiPredictions{
		Classes: []string{"a,b", "b\nee", `say "hi"`, "tab\there", "x\ry"},
		Label:   []int{1, 0, 4, 2, 3},
		Pred:    []int{1, 0, 3, 2, 3},
	}
	for i := range p.Pred {
		row := make([]float64, 5)
		row[p.Pred[i]] = 1
		p.Proba = append(p.Proba, row...)
	}
	path := filepath.Join(t.TempDir(), "p.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteMultiPredictions(f, p, "", nil); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if multi, err := IsMultiPredictionsFile(path); !multi || err != nil {
		t.Fatalf("IsMultiPredictionsFile: %v, %v", multi, err)
	}
	text, _ := os.ReadFile(path)
	q, err := ReadMultiPredictions(bytes.NewReader(text), "p.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(q.Classes, p.Classes) || !slices.Equal(q.Label, p.Label) || !slices.Equal(q.Pred, p.Pred) || !slices.Equal(q.Proba, p.Proba) {
		t.Errorf("read back %+v\nfrom\n%s", q, text)
	}
	if _, err := IsMultiPredictionsFile(filepath.Join(t.TempDir(), "none.csv")); err == nil {
		t.Error("a missing file is a multi-class one or not, without an error")
	}
	for _, bad := range []string{" pad", "pad ", "x\r\ny"} {
		b := &MultiPredictions{Classes: []string{"a", bad}, Pred: []int{0}, Proba: []float64{1, 0}}
		if err := WriteMultiPredictions(&bytes.Buffer{}, b, "", nil); err == nil || !strings.Contains(err.Error(), strconv.Quote(bad)) {
			t.Errorf("class %q: %v", bad, err)
		}
		bp := &Predictions{Score: []float64{0.5}, Pred: []int{1}, Classes: [2]string{"a", bad}}
		if err := WritePredictions(&bytes.Buffer{}, bp); err == nil {
			t.Errorf("binary class %q written", bad)
		}
	}
	// Two classes, one holding a line break: written and read back.
	bp := &Predictions{Label: []int{0, 1}, Score: []float64{0.25, 0.75}, Pred: []int{0, 1}, Classes: [2]string{"b\nee", "x,y"}}
	var buf bytes.Buffer
	if err := WritePredictions(&buf, bp); err != nil {
		t.Fatal(err)
	}
	back, err := ReadPredictionsWith(&buf, "b.csv", PredictionsOptions{Positive: "x,y"})
	if err != nil || back.Classes != bp.Classes || !slices.Equal(back.Label, bp.Label) || !slices.Equal(back.Pred, bp.Pred) {
		t.Errorf("binary read back: %+v, %v", back, err)
	}
}

package predfile

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer/dataset"
)

func TestPredictionsWeightColumn(t *testing.T) {
	p, err := ReadPredictions(strings.NewReader("label,score,weight\n0,0.1,1\n1,0.9,2.5\n0,0.4,0\n1,0.3,-0\n"), "w.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Weight, []float64{1, 2.5, 0, 0}) || math.Signbit(p.Weight[3]) || p.Pred != nil {
		t.Errorf("weights %v, pred %v", p.Weight, p.Pred)
	}
	// Any column order; no weight column: nil.
	p, err = ReadPredictions(strings.NewReader("weight,pred,score,label\n3,1,0.8,1\n0.5,0,0.2,0\n"), "w.csv")
	if err != nil || !slices.Equal(p.Weight, []float64{3, 0.5}) || !slices.Equal(p.Label, []int{1, 0}) {
		t.Errorf("reordered columns: %+v, %v", p, err)
	}
	if p, err = ReadPredictions(strings.NewReader("label,score\n0,0.1\n"), "w.csv"); err != nil || p.Weight != nil {
		t.Errorf("no weight column: %+v, %v", p, err)
	}
}

func TestPredictionsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		sentinel   error
		msg        string
	}{
		{"negative weight", "label,score,weight\n0,0.1,1\n1,0.9,-2\n", ErrWeight,
			`w.csv: line 3, column "weight": "-2": invalid weight (weights must be finite and not negative)`},
		{"empty weight", "label,score,weight\n0,0.1,\n", ErrWeight,
			`w.csv: line 2, column "weight": invalid weight (missing; weights must be finite and not negative)`},
		{"NA weight after a blank line", "label,score,weight\n0,0.1,1\n\n  \n1,0.2,NA\n", ErrWeight,
			`w.csv: line 5, column "weight": "NA": invalid weight (missing; weights must be finite and not negative)`},
		{"weight after a quoted line break", "label,score,note,weight\n0,0.1,\"\n7\",1\n1,0.2,3,-1e-300\n", ErrWeight,
			`w.csv: line 4, column "weight": "-1e-300": invalid weight`},
		{"weight not a number", "label,score,weight\n0,0.1,heavy\n", dataset.ErrNotNumber,
			`w.csv: line 2, column "weight": "heavy": not a number`},
		{"infinite weight", "label,score,weight\n0,0.1,Inf\n", dataset.ErrInfinite,
			`w.csv: line 2, column "weight": "Inf": infinite value`},
		{"missing score", "label,score\n0,0.1\n1,NA\n", dataset.ErrNotNumber,
			`w.csv: line 3, column "score": "NA": not a number (missing score in data row 2)`},
		{"pred not 0 or 1", "label,score,pred\n0,0.5,2\n", ErrPredClass,
			`w.csv: line 2, column "pred": "2": pred is not a class of the file (the labels are 0/1: pred must be 0 or 1, data row 1)`},
		{"pred not a label class", "label,score,pred\nyes,0.5,yes\nno,0.25,no\nno,0.2,maybe\n", ErrPredClass,
			`w.csv: line 4, column "pred": "maybe": pred is not a class of the file (pred must be a class of the label column, "no", "yes", data row 3)`},
		{"three classes", "score,pred\n0.5,a\n0.25,b\n0.2,c\n", ErrPredClass,
			`w.csv: line 4, column "pred": "c": pred is not a class of the file (the label and pred columns name more than two classes: "a", "b", "c", data row 3)`},
		{"missing pred", "label,score,pred\n0,0.5,1\n1,0.25,NA\n", dataset.ErrNotNumber,
			`w.csv: line 3, column "pred": "NA": not a number (missing pred in data row 2)`},
		{"positive unknown", "label,score\nno,0.5\nno,0.25\n", ErrPositive,
			`w.csv: positive class unknown (cannot tell whether "no" is the positive or the negative class: name the positive class)`},
		{"no score column", "label,prob\n0,0.5\n", dataset.ErrColumns, `w.csv: line 1, column "score"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadPredictions(strings.NewReader(tc.text), "w.csv")
			if err == nil || !errors.Is(err, tc.sentinel) || !strings.HasPrefix(err.Error(), tc.msg) {
				t.Errorf("error %v, want %v starting %q", err, tc.sentinel, tc.msg)
			}
			// LoadPredictions reads the file again to name the line.
			path := filepath.Join(t.TempDir(), "w.csv")
			if err := os.WriteFile(path, []byte(tc.text), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := LoadPredictions(path); err == nil || !strings.HasPrefix(err.Error(), tc.msg) {
				t.Errorf("LoadPredictions: %v, want %q", err, tc.msg)
			}
		})
	}
}

func TestPredictionsWeightRoundTrip(t *testing.T) {
	p := &Predictions{Label: []int{0, 1, 1}, Score: []float64{0.1, 0.9, 0.5}, Pred: []int{0, 1, 1}, Weight: []float64{1, 0.30000000000000004, 0}}
	var buf bytes.Buffer
	if err := WritePredictions(&buf, p); err != nil {
		t.Fatal(err)
	}
	if want := "label,score,pred,weight\n0,0.1,0,1\n1,0.9,1,0.30000000000000004\n1,0.5,1,0\n"; buf.String() != want {
		t.Errorf("written:\n%s\nwant:\n%s", buf.String(), want)
	}
	q, err := ReadPredictions(&buf, "p.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(q.Weight, p.Weight) || !slices.Equal(q.Score, p.Score) || !slices.Equal(q.Label, p.Label) {
		t.Errorf("read back %+v, want %+v", q, p)
	}
	for _, bad := range []float64{-1, math.NaN(), math.Inf(1)} {
		p := &Predictions{Score: []float64{0.5}, Weight: []float64{bad}}
		if err := WritePredictions(&bytes.Buffer{}, p); err == nil || !strings.Contains(err.Error(), "row 1: weight") {
			t.Errorf("weight %v written: %v", bad, err)
		}
	}
}

// FuzzReadPredictions feeds arbitrary text to the predictions reader: it
// returns a located error or predictions whose columns agree in length,
// with 0/1 labels and predictions, finite scores and finite non-negative
// weights, which write and read back unchanged.
func FuzzReadPredictions(f *testing.F) {
	for _, s := range []string{
		"label,score\n0,0.1\n1,0.9\n",
		"label,score,pred\n0,0.1,0\n1,0.9,1\n",
		"label,score,pred,weight\n0,0.1,0,1\n1,0.9,1,2.5\n1,0.4,0,0\n",
		"row,repeat,fold,label,score,pred\n1,1,2,0,0.1,0\n2,1,1,1,0.9,1\n", // aer cv --oof
		"score,weight\n0.5,NA\n",
		"label,score,weight\n0,0.1,-1\n",
		"weight,score\n\"1\n\",0.2\n\n3,0.4\n",
		"label,score,weight\nyes,0.3,1e308\nno,0.2,0x1p-3\n",
		"label,score,pred\nyes,0.9,yes\nno,0.2,no\nno,0.6,yes\n",
		"score,pred\n0.9,\"a,b\"\n0.2,c\n",
		"label,score,pred\n1.0,0.9,+1\n0,0.2,0\n",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ReadPredictions(strings.NewReader(text), "fuzz.csv")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.csv") {
				t.Fatalf("error without location: %v", err)
			}
			var de *dataset.Error
			if errors.Is(err, ErrWeight) && (!errors.As(err, &de) || de.Line < 2) {
				t.Fatalf("weight error without its line: %v", err)
			}
			return
		}
		n := len(p.Score)
		if (p.Label != nil && len(p.Label) != n) || (p.Pred != nil && len(p.Pred) != n) || (p.Weight != nil && len(p.Weight) != n) {
			t.Fatalf("columns of different lengths: %+v", p)
		}
		for i := range n {
			if math.IsNaN(p.Score[i]) || math.IsInf(p.Score[i], 0) {
				t.Fatalf("row %d: score %v", i, p.Score[i])
			}
			if p.Label != nil && p.Label[i] != 0 && p.Label[i] != 1 {
				t.Fatalf("row %d: label %d", i, p.Label[i])
			}
			if p.Pred != nil && p.Pred[i] != 0 && p.Pred[i] != 1 {
				t.Fatalf("row %d: pred %d", i, p.Pred[i])
			}
			if p.Weight != nil && (!(p.Weight[i] >= 0) || math.IsInf(p.Weight[i], 0)) {
				t.Fatalf("row %d: weight %v", i, p.Weight[i])
			}
		}
		var buf bytes.Buffer
		if err := WritePredictions(&buf, p); err != nil {
			t.Fatal(err)
		}
		q, err := ReadPredictions(&buf, "again.csv")
		if err != nil {
			t.Fatalf("re-read failed: %v\n%q", err, buf.String())
		}
		if !slices.Equal(q.Score, p.Score) || !slices.Equal(q.Pred, p.Pred) || !slices.Equal(q.Weight, p.Weight) ||
			(p.Label != nil && !slices.Equal(q.Label, p.Label)) {
			t.Fatalf("re-read %+v, want %+v", q, p)
		}
	})
}

// TestPredictionsClassNames: label and pred hold class names, read by the
// rules of LoadPredictionsWith and written back byte for byte.
func TestPredictionsClassNames(t *testing.T) {
	// aer predict on a table labelled yes/no, yes the majority of the
	// labels but the class of the high scores.
	text := "label,score,pred\nyes,0.9,yes\nyes,0.7,yes\nno,0.6,yes\nyes,0.2,no\n"
	for _, tc := range []struct {
		name, text, positive string
		label, pred          []int
		classes              [2]string
	}{
		{"pred scores", text, "", []int{1, 1, 0, 1}, []int{1, 1, 1, 0}, [2]string{"no", "yes"}},
		{"--positive", text, "no", []int{0, 0, 1, 0}, []int{0, 0, 0, 1}, [2]string{"yes", "no"}},
		{"rarer label", "label,score\nyes,0.9\nyes,0.7\nno,0.6\n", "", []int{0, 0, 1}, nil, [2]string{"yes", "no"}},
		{"one pred value: rarer label", "label,score,pred\nyes,0.9,no\nyes,0.7,no\nno,0.6,no\n", "", []int{0, 0, 1}, []int{1, 1, 1}, [2]string{"yes", "no"}},
		{"no labels", "score,pred\n0.25,ok\n0.75,fraud\n", "", nil, []int{0, 1}, [2]string{"ok", "fraud"}},
		{"0/1: 1 positive", "label,score,pred\n1,0.2,1\n1,0.3,1\n0,0.9,0\n", "", []int{1, 1, 0}, []int{1, 1, 0}, [2]string{}},
		{"0/1 --positive 0", "label,score,pred\n1,0.2,1\n0,0.9,0\n", "0", []int{0, 1}, []int{0, 1}, [2]string{"1", "0"}},
		{"lone positive named", "label,score\nyes,0.9\n", "yes", []int{1}, nil, [2]string{"", "yes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ReadPredictionsWith(strings.NewReader(tc.text), "p.csv", PredictionsOptions{Positive: tc.positive})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.Label, tc.label) || !slices.Equal(p.Pred, tc.pred) || p.Classes != tc.classes {
				t.Fatalf("label %v pred %v classes %q; want %v %v %q", p.Label, p.Pred, p.Classes, tc.label, tc.pred, tc.classes)
			}
			var buf bytes.Buffer
			if err := WritePredictions(&buf, p); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tc.text {
				t.Errorf("written back:\n%s\nwant\n%s", buf.String(), tc.text)
			}
		})
	}
	if _, err := ReadPredictionsWith(strings.NewReader(text), "p.csv", PredictionsOptions{Positive: "maybe"}); !errors.Is(err, ErrPositive) {
		t.Errorf("a positive class the file lacks: %v", err)
	}
	// A class without a name is not written as an empty cell.
	p := &Predictions{Label: []int{0}, Score: []float64{0.5}, Classes: [2]string{"", "yes"}}
	if err := WritePredictions(&bytes.Buffer{}, p); err == nil {
		t.Error("label of an unnamed class written")
	}
}

func TestPredictionsRoundTrip(t *testing.T) {
	p := &Predictions{Label: []int{0, 1, 1, 0}, Score: []float64{0.1, 0.9, 0.30000000000000004, 1e-17}, Pred: []int{0, 1, 0, 0}}
	var buf bytes.Buffer
	if err := WritePredictions(&buf, p); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "label,score,pred\n0,0.1,0\n") {
		t.Errorf("format: %q", buf.String())
	}
	q, err := ReadPredictions(&buf, "p.csv")
	if err != nil {
		t.Fatal(err)
	}
	for i := range p.Score {
		if q.Label[i] != p.Label[i] || q.Score[i] != p.Score[i] || q.Pred[i] != p.Pred[i] {
			t.Fatalf("row %d differs: %+v vs %+v", i, q, p)
		}
	}
	// A file of negatives only keeps 0 negative.
	q, err = ReadPredictions(strings.NewReader("label,score\n0,0.9\n0,0.1\n"), "p.csv")
	if err != nil || q.Label[0] != 0 || q.Label[1] != 0 {
		t.Errorf("all-negative labels: %+v %v", q, err)
	}
	// 0/1 labels keep 1 positive even when 1 is the majority.
	q, err = ReadPredictions(strings.NewReader("label,score\n1,0.9\n1,0.8\n0,0.1\n"), "p.csv")
	if err != nil || q.Label[0] != 1 || q.Label[2] != 0 || q.Pred != nil {
		t.Errorf("majority-1 labels: %+v %v", q, err)
	}
	for _, bad := range []string{"label,prob\n0,0.5\n", "label,score\n0,\n", "label,score,pred\n0,0.5,2\n"} {
		if _, err := ReadPredictions(strings.NewReader(bad), "bad.csv"); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
	if err := WritePredictions(&bytes.Buffer{}, &Predictions{Score: []float64{math.NaN()}}); err == nil {
		t.Error("NaN score written silently")
	}
}

// TestPredictionsIDColumn: a predictions file whose first column is an id
// reads with it carried, and writes back byte for byte.
func TestPredictionsIDColumn(t *testing.T) {
	text := "customer,label,score,pred\nc-1,0,0.25,0\n\"c,2\",1,0.75,1\nc-3,1,0.5,1\n"
	p, err := ReadPredictions(strings.NewReader(text), "p.csv")
	if err != nil {
		t.Fatal(err)
	}
	if p.IDColumn != "customer" || strings.Join(p.ID, "|") != "c-1|c,2|c-3" || len(p.Score) != 3 || p.Label[1] != 1 {
		t.Fatalf("read %+v", p)
	}
	var buf bytes.Buffer
	if err := WritePredictions(&buf, p); err != nil {
		t.Fatal(err)
	}
	if buf.String() != text {
		t.Errorf("written back:\n%s", buf.String())
	}
	// Without an id, the first column is label or score as before.
	p, err = ReadPredictions(strings.NewReader("score,label\n0.5,1\n0.25,0\n"), "p.csv")
	if err != nil || p.ID != nil {
		t.Errorf("no id: %v %v", err, p.ID)
	}
}

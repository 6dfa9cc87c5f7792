package dataset

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
		{"weight not a number", "label,score,weight\n0,0.1,heavy\n", ErrNotNumber,
			`w.csv: line 2, column "weight": "heavy": not a number`},
		{"infinite weight", "label,score,weight\n0,0.1,Inf\n", ErrInfinite,
			`w.csv: line 2, column "weight": "Inf": infinite value`},
		{"missing score", "label,score\n0,0.1\n1,NA\n", ErrNotNumber,
			`w.csv: line 3, column "score": "NA": not a number (missing score in data row 2)`},
		{"pred not 0 or 1", "label,score,pred\n0,0.5,2\n", ErrNotNumber,
			`w.csv: line 2, column "pred": "2": not a number (pred must be 0 or 1, data row 1)`},
		{"no score column", "label,prob\n0,0.5\n", ErrColumns, `w.csv: line 1, column "score"`},
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
			var de *Error
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

package predfile

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer/dataset"
)

func TestReadScores(t *testing.T) {
	s, err := ReadScores(strings.NewReader("dataset, svm ,tree\necoli, 0.81,0.7\n abalone ,0.66,1e-3\n"), "s.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Datasets, []string{"ecoli", "abalone"}) || !slices.Equal(s.Methods, []string{"svm", "tree"}) ||
		len(s.Values) != 2 || !slices.Equal(s.Values[0], []float64{0.81, 0.7}) || !slices.Equal(s.Values[1], []float64{0.66, 0.001}) {
		t.Errorf("read %+v", s)
	}
}

// TestReadScoresErrors: every error names the file and, where there is
// one, the line, the column and the value, with the messages aer compare
// has always printed.
func TestReadScoresErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		sentinel   error
		msg        string
	}{
		{"empty", "", dataset.ErrEmpty, "s.csv: empty file: no header row"},
		{"one method", "d,a\nx,1\ny,2\n", dataset.ErrColumns,
			"s.csv: line 1: need a dataset column and at least 2 method columns, got 2 columns"},
		{"empty method name", "d,a, \nx,1,2\n", dataset.ErrEmptyName, "s.csv: line 1, column 3: empty method name"},
		{"duplicate method", "d,a,a\nx,1,2\ny,2,1\n", dataset.ErrDuplicate, `s.csv: line 1: method "a" appears twice`},
		{"ragged row", "d,a,b\nx,1,2\ny,1\n", dataset.ErrRagged, "s.csv: line 3: 2 fields, the header has 3"},
		{"not a number", "dataset,m1,m2,m3\necoli,0.81,0.77,0.70\nabalone,0.66,n/a,0.61\n", dataset.ErrNotNumber,
			`s.csv: line 3, column "m2": "n/a" is not a finite number`},
		{"empty cell", "d,a,b\nx,1,\n", dataset.ErrNotNumber, `s.csv: line 2, column "b": "" is not a finite number`},
		{"NaN", "d,a,b\nx,NaN,1\n", dataset.ErrNotNumber, `s.csv: line 2, column "a": "NaN" is not a finite number`},
		{"infinite", "d,a,b\nx,1,-Inf\n", dataset.ErrInfinite, `s.csv: line 2, column "b": "-Inf" is not a finite number`},
		{"out of range", "d,a,b\nx,1e999,1\n", dataset.ErrInfinite, `s.csv: line 2, column "a": "1e999" is not a finite number`},
		{"line after a quoted line break", "d,a,b\n\"x\ny\",1,2\nz,1,oops\n", dataset.ErrNotNumber,
			`s.csv: line 4, column "b": "oops" is not a finite number`},
		{"one dataset", "d,a,b\nx,1,2\n", dataset.ErrNoRows, "s.csv: need at least 2 datasets (rows), got 1"},
		{"no dataset", "d,a,b\n", dataset.ErrNoRows, "s.csv: need at least 2 datasets (rows), got 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadScores(strings.NewReader(tc.text), "s.csv")
			if err == nil || err.Error() != tc.msg || !errors.Is(err, tc.sentinel) {
				t.Errorf("error %v, want %q wrapping %v", err, tc.msg, tc.sentinel)
			}
		})
	}
	// A CSV syntax error keeps the file name and encoding/csv's message.
	_, err := ReadScores(strings.NewReader("d,a,b\nx,\"1,2\n"), "s.csv")
	if err == nil || !strings.HasPrefix(err.Error(), "s.csv: ") || !strings.Contains(err.Error(), "quote") {
		t.Errorf("CSV syntax error: %v", err)
	}
}

func TestLoadScores(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "scores.csv")
	if err := os.WriteFile(path, []byte("d,a,b\nx,1,2\ny,3,oops\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadScores(path); err == nil || err.Error() != `scores.csv: line 3, column "b": "oops" is not a finite number` {
		t.Errorf("LoadScores: %v", err)
	}
	if _, err := LoadScores(filepath.Join(dir, "missing.csv")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("LoadScores of a missing file: %v", err)
	}
}

// FuzzReadScores feeds arbitrary text to the scores reader: it returns an
// error that names the file, or a complete, finite table, never panics.
// The seed corpus in testdata/fuzz/FuzzReadScores holds aer compare's test
// tables.
func FuzzReadScores(f *testing.F) {
	f.Add([]byte("d,a,b\nx,1,2\n"))
	f.Add([]byte("d,a,a\nx,1,2\ny,2,1\n"))
	f.Add([]byte("\"d,a\nx"))
	f.Add([]byte("d,a,b\nx,1,2\ny,3,4\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadScores(strings.NewReader(string(data)), "fuzz.csv")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.csv: ") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if len(s.Methods) < 2 || len(s.Values) < 2 || len(s.Datasets) != len(s.Values) {
			t.Fatalf("accepted a table with %d methods, %d rows, %d names", len(s.Methods), len(s.Values), len(s.Datasets))
		}
		for _, row := range s.Values {
			if len(row) != len(s.Methods) {
				t.Fatalf("row of %d scores for %d methods", len(row), len(s.Methods))
			}
			for _, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("accepted non-finite score %v", v)
				}
			}
		}
	})
}

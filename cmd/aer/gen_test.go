package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/synth"
)

func genRun(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	err = run(append([]string{"gen"}, args...), &o, &e)
	return o.String(), e.String(), err
}

var genTiny = []string{"--rows", "30", "--ratio", "4", "--clusters", "1", "--features", "5",
	"--informative", "2", "--redundant", "1", "--repeated", "1", "--flip", "0.1", "--seed", "3"}

func TestGenGoldenCSV(t *testing.T) {
	out, _, err := genRun(t, append(genTiny, "--split", "3:1:1", "--out", "-")...)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "gen/tiny.csv", out)
}

func TestGenGoldenJSON(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tiny.csv")
	out, stderr, err := genRun(t, append(genTiny, "--out", path, "--json")...)
	if err != nil {
		t.Fatal(err)
	}
	if stderr != "" {
		t.Errorf("stderr with --json: %q", stderr)
	}
	golden(t, "gen/tiny.json", strings.ReplaceAll(out, dir+string(filepath.Separator), ""))
	// The file is the CSV of the golden test, without the split column.
	csv, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "gen/tiny-nosplit.csv", string(csv))
}

func TestGenDeterminism(t *testing.T) {
	a, _, err := genRun(t, "--rows", "200", "--seed", "5", "--split", "4:1", "--out", "-")
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := genRun(t, "--rows", "200", "--seed", "5", "--split", "4:1", "--out", "-")
	c, _, _ := genRun(t, "--rows", "200", "--seed", "6", "--split", "4:1", "--out", "-")
	if a != b {
		t.Error("same seed gave different files")
	}
	if a == c {
		t.Error("seeds 5 and 6 gave identical files")
	}
}

// The paper's synthetic task, with its exact command line.
func TestGenPaperTask(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gmm.csv")
	_, stderr, err := genRun(t, "--rows", "8000", "--ratio", "79", "--clusters", "10", "--features", "20",
		"--informative", "10", "--seed", "0", "--out", path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "wrote 8000 rows x 20 features") || !strings.Contains(stderr, "7900 label 0, 100 label 1") {
		t.Errorf("stderr %q", stderr)
	}
	d, err := dataset.Load(path, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Rows() != 8000 || d.Cols() != 20 || d.Features[0] != "x0" || d.Features[19] != "x19" || d.Label != "label" {
		t.Fatalf("loaded %d x %d, features %v, label %q", d.Rows(), d.Cols(), d.Features, d.Label)
	}
	// The file holds exactly the generated values.
	want, err := synth.Generate(&synth.Settings{Samples: 8000, Ratio: 79, Clusters: 10, Features: 20, Informative: 10, FlipY: synth.None}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8000 {
		for j := range 20 {
			if g, w := d.X.At(i, j), want.X.At(i, j); math.Float64bits(g) != math.Float64bits(w) {
				t.Fatalf("row %d column %d: file has %v, generated %v", i, j, g, w)
			}
		}
		if d.Y[i] != want.Y[i] {
			t.Fatalf("row %d: file label %d, generated %d", i, d.Y[i], want.Y[i])
		}
	}

	// Without label noise the classes are exactly 7900:100, and a 3:1:1
	// split keeps the ratio in every part (like the shared gmm10 set).
	out, _, err := genRun(t, "--rows", "8000", "--ratio", "79", "--clusters", "10", "--features", "20",
		"--informative", "10", "--flip", "0", "--split", "3:1:1", "--seed", "0", "--out", path, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Neg   int     `json:"negative_rows"`
		Pos   int     `json:"positive_rows"`
		Ratio float64 `json:"imbalance_ratio"`
		Split map[string]struct {
			Rows int
			Pos  int `json:"positive_rows"`
		}
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Neg != 7900 || sum.Pos != 100 || sum.Ratio != 79 {
		t.Errorf("%d negative and %d positive rows, ratio %v; want 7900, 100 and 79", sum.Neg, sum.Pos, sum.Ratio)
	}
	for part, want := range map[string][2]int{"train": {4800, 60}, "valid": {1600, 20}, "test": {1600, 20}} {
		if got := sum.Split[part]; got.Rows != want[0] || got.Pos != want[1] {
			t.Errorf("split %s: %d rows, %d positive; want %d and %d", part, got.Rows, got.Pos, want[0], want[1])
		}
	}
	d, err = dataset.Load(path, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Split == nil || d.Split[0] == "" {
		t.Error("the split column did not load")
	}
}

func TestGenErrors(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		usage bool
		want  string
	}{
		{"no out", []string{"--rows", "10"}, true, "--out is required"},
		{"json to stdout", []string{"--out", "-", "--json"}, true, "--json prints on standard output"},
		{"stray argument", []string{"--out", "x.csv", "extra"}, true, `unexpected argument "extra"`},
		{"bad flag", []string{"--out", "x.csv", "--bogus"}, true, "flag provided but not defined"},
		{"zero rows", []string{"--out", "x.csv", "--rows", "0"}, true, "--rows must be at least 1, got 0"},
		{"zero samples", []string{"--out", "x.csv", "--samples", "0"}, true, "--samples must be at least 1, got 0"},
		{"rows and samples differ", []string{"--out", "x.csv", "--rows", "10", "--samples", "20"}, true,
			"--rows 10 and --samples 20 differ: give --rows alone (--samples is its old name)"},
		{"more clusters than rows", []string{"--out", "x.csv", "--rows", "3"}, true, "exceeds rows (3)"},
		{"negative redundant", []string{"--out", "x.csv", "--redundant", "-1"}, true, "--redundant must be at least 0"},
		{"flip above 1", []string{"--out", "x.csv", "--flip", "2"}, true, "--flip must be in [0, 1]"},
		{"zero class-sep", []string{"--out", "x.csv", "--class-sep", "0"}, true, "--class-sep must be positive"},
		{"shift twice", []string{"--out", "x.csv", "--shift", "1", "--random-shift"}, true, "not both"},
		{"bad split", []string{"--out", "x.csv", "--split", "3:1:1:1"}, true, "want train:test or train:valid:test"},
		{"split not a number", []string{"--out", "x.csv", "--split", "3:a"}, true, `"a" is not a positive number`},
		{"too few vertices", []string{"--out", "x.csv", "--informative", "3", "--clusters", "5"}, true,
			"2 classes x 5 clusters per class = 10 exceeds 2^informative = 8 vertices"},
		{"features too few", []string{"--out", "x.csv", "--features", "3"}, true,
			"informative (2) + redundant (2) + repeated (0) = 4 exceeds features (3)"},
		{"ratio below 1", []string{"--out", "x.csv", "--ratio", "0.5"}, true, "ratio (majority:minority) must be"},
		{"minority empty", []string{"--out", "x.csv", "--rows", "50", "--ratio", "100", "--clusters", "1"}, true, "class 1 gets no rows"},
		{"missing directory", []string{"--out", "no/such/dir/x.csv"}, false, "no/such/dir"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			_, _, err := genRun(t, tt.args...)
			if err == nil {
				t.Fatal("no error")
			}
			var ue *usageError
			if errors.As(err, &ue) != tt.usage {
				t.Errorf("error %q: usage error %v, want %v", err, !tt.usage, tt.usage)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to contain %q", err, tt.want)
			}
			// A failing command leaves nothing behind.
			entries, _ := os.ReadDir(".")
			if len(entries) != 0 {
				t.Errorf("files left behind: %v", entries)
			}
		})
	}
}

func TestGenHelp(t *testing.T) {
	_, stderr, err := genRun(t, "-h")
	if !errors.Is(err, errHelpShown) {
		t.Fatalf("err = %v, want errHelpShown", err)
	}
	for _, want := range []string{"aer gen --out FILE [--rows N]", "-class-sep", "-split", "--ratio is exact",
		"  -rows int\n", "--samples is the old name of --rows: deprecated, still accepted", "deprecated: the old name of --rows"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("help lacks %q:\n%s", want, stderr)
		}
	}
}

// TestGenSamplesAlias: --samples, the old name of --rows, still gives the
// same table, alone or beside an equal --rows.
func TestGenSamplesAlias(t *testing.T) {
	want, _, err := genRun(t, "--rows", "40", "--seed", "2", "--out", "-")
	if err != nil || strings.Count(want, "\n") != 41 {
		t.Fatalf("--rows 40: %v, %d lines", err, strings.Count(want, "\n"))
	}
	for _, args := range [][]string{
		{"--samples", "40"},
		{"--samples", "40", "--rows", "40"},
	} {
		got, _, err := genRun(t, append(args, "--seed", "2", "--out", "-")...)
		if err != nil || got != want {
			t.Errorf("%v: %v, or a table unlike --rows 40's", args, err)
		}
	}
}

func FuzzGenParseSplit(f *testing.F) {
	for _, s := range []string{"3:1:1", "4:1", "", ":", "1:2:3:4", "0:1", "-1:2", "1e309:1", "NaN:1", " 2 : 1 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ratios, err := parseSplit(s)
		if err != nil {
			var ue *usageError
			if !errors.As(err, &ue) {
				t.Fatalf("parseSplit(%q): error %v is not a usage error", s, err)
			}
			return
		}
		if _, ok := splitNames[len(ratios)]; !ok {
			t.Fatalf("parseSplit(%q) = %v: wrong number of parts", s, ratios)
		}
		for _, r := range ratios {
			if !(r > 0) || math.IsInf(r, 0) {
				t.Fatalf("parseSplit(%q) = %v: not all positive and finite", s, ratios)
			}
		}
	})
}

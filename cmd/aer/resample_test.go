package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/resample"
)

const resampleDir = "testdata/resample"

// TestResampleGolden runs every sampler on a small file and compares the
// printed report and the written CSV with goldens.
func TestResampleGolden(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"rus", []string{"--sampler", "rus", "--seed", "1"}},
		{"rus_half", []string{"--sampler", "rus", "--param", "sampling_strategy=0.5", "--json"}},
		{"smote", []string{"--sampler", "smote", "--seed", "2"}},
		{"smote_k3", []string{"--sampler", "smote", "--param", "k_neighbors=3", "--seed", "2", "--json"}},
		{"tomek", []string{"--sampler", "tomek", "--json"}},
		{"tomek_all", []string{"--sampler", "tomek", "--param", "sampling_strategy=all"}},
		{"smote_tomek", []string{"--sampler", "smote-tomek", "--seed", "3", "--json"}},
		{"smote_weighted", []string{"--sampler", "smote", "--seed", "2", "--weight", "w", "--data", "weighted.csv"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, c.name+".csv")
			args := append([]string{"resample", "--data", "small.csv", "--out", out}, c.args...)
			for i, a := range args {
				if strings.HasSuffix(a, ".csv") && !filepath.IsAbs(a) {
					args[i] = filepath.Join(resampleDir, a)
				}
			}
			stdout, stderr, code := aer(t, args...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			ext := ".txt"
			if strings.Contains(stdout, "{") {
				ext = ".json"
			}
			golden(t, "resample/"+c.name+ext, strings.ReplaceAll(stdout, dir+string(filepath.Separator), ""))
			csv, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "resample/"+c.name+".out.csv", string(csv))
		})
	}
}

// The written file is the library's resample of the data read from the
// input, and reads back to it exactly.
func TestResampleMatchesLibrary(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(resampleDir, "weighted.csv")
	out := filepath.Join(dir, "out.csv")
	if _, stderr, code := aer(t, "resample", "--sampler", "smote-tomek", "--data", in, "--out", out, "--weight", "w", "--seed", "9", "--threads", "1"); code != 0 {
		t.Fatal(stderr)
	}
	d, err := dataset.Load(in, dataset.Options{Weight: "w"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := (&resample.SMOTETomek{}).Resample(context.Background(), learnData(d), learn.Env{Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	got, err := dataset.Load(out, dataset.Options{Weight: "w"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Rows() != want.Rows() || !slices.Equal(got.Classes, d.Classes) || got.Features[1] != "x2" {
		t.Fatalf("%d rows, classes %v; want %d rows, classes %v", got.Rows(), got.Classes, want.Rows(), d.Classes)
	}
	for i := range want.Rows() {
		for j := range 2 {
			if math.Float64bits(got.X.At(i, j)) != math.Float64bits(want.X.At(i, j)) {
				t.Fatalf("row %d column %d: %v, library %v", i, j, got.X.At(i, j), want.X.At(i, j))
			}
		}
		if got.Y[i] != want.Y[i] || got.W[i] != want.W[i] {
			t.Fatalf("row %d: label %d weight %v, library %d %v", i, got.Y[i], got.W[i], want.Y[i], want.W[i])
		}
	}
}

func TestResampleErrors(t *testing.T) {
	small := filepath.Join(resampleDir, "small.csv")
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no sampler", []string{"--data", small}, 2, "--sampler is required (rus, smote, smote-tomek, tomek)"},
		{"unknown sampler", []string{"--sampler", "adasyn", "--data", small}, 2, `unknown sampler "adasyn"`},
		{"no data", []string{"--sampler", "rus"}, 2, "--data is required"},
		{"no out", []string{"--sampler", "rus", "--data", small}, 2, "--out is required"},
		{"stray argument", []string{"--sampler", "rus", "--data", small, "extra"}, 2, `unexpected argument "extra"`},
		{"bad param key", []string{"--sampler", "rus", "--data", small, "--param", "k_neighbors=3"}, 2, `"k_neighbors" is unknown (known: sampling_strategy)`},
		{"bad param value", []string{"--sampler", "smote", "--data", small, "--param", "sampling_strategy=2"}, 2, "want a number in (0, 1] or auto"},
		{"param without =", []string{"--sampler", "smote", "--data", small, "--param", "k_neighbors"}, 2, "want key=value"},
		{"negative threads", []string{"--sampler", "smote", "--data", small, "--threads", "-1"}, 2, "--threads must be at least 0"},
		{"missing file", []string{"--sampler", "rus", "--data", "nope.csv"}, 1, "nope.csv"},
		{"split column", []string{"--sampler", "rus", "--data", filepath.Join(resampleDir, "split.csv")}, 1, "has a split column: resample the training rows only"},
		{"too few minority rows", []string{"--sampler", "smote", "--data", filepath.Join(resampleDir, "few.csv")}, 1, "k_neighbors=5 needs at least 6 minority rows, the data has 4"},
		{"ratio too low", []string{"--sampler", "rus", "--data", small, "--param", "sampling_strategy=0.4"}, 1, "asks for 15 majority rows to go with 6 minority rows, and there are only 14"},
		{"missing weight column", []string{"--sampler", "rus", "--data", small, "--weight", "w"}, 1, `"w"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"resample"}, c.args...)
			if c.name != "no out" {
				args = append(args, "--out", filepath.Join(dir, "out.csv"))
			}
			_, stderr, code := aer(t, args...)
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, c.code, c.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("a failed resample left %v", entries)
			}
		})
	}
}

func TestResampleHelp(t *testing.T) {
	stdout, _, code := aer(t, "help", "resample")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	golden(t, "resample/help.txt", stdout)
}

// The JSON document's counts are those of the file written.
func TestResampleJSONCounts(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "o.csv")
	stdout, stderr, code := aer(t, "resample", "--sampler", "smote", "--data", filepath.Join(resampleDir, "small.csv"), "--out", out, "--json", "--param", "sampling_strategy=0.75")
	if code != 0 {
		t.Fatal(stderr)
	}
	var o resampleOutput
	if err := json.Unmarshal([]byte(stdout), &o); err != nil {
		t.Fatal(err)
	}
	d, err := dataset.Load(out, dataset.Options{Positive: "yes"})
	if err != nil {
		t.Fatal(err)
	}
	counts := d.ClassCounts()
	neg, pos := counts[0], counts[1]
	if o.After != (resample.Counts{Rows: d.Rows(), Negative: neg, Positive: pos}) || pos != 10 || o.Params["sampling_strategy"] != "0.75" {
		t.Errorf("report %+v, file %d negative %d positive", o, neg, pos)
	}
}

// aer resample then aer fit --method gbdt, with one seed, scores exactly
// as aer fit --method rus-gbdt (or smote-gbdt without standardising):
// the composition is the sampler then the trees, and the CSV in between
// loses nothing.
func TestResampleThenFitIsTheComposition(t *testing.T) {
	dir := t.TempDir()
	task := filepath.Join(dir, "task.csv")
	if _, stderr, code := aer(t, "gen", "--rows", "600", "--ratio", "9", "--features", "5", "--informative", "3", "--seed", "4", "--out", task); code != 0 {
		t.Fatal(stderr)
	}
	for _, c := range []struct {
		sampler, method string
		extra           []string
	}{
		{"rus", "rus-gbdt", nil},
		{"smote", "smote-gbdt", []string{"--param", "standardize=false"}},
	} {
		resampled := filepath.Join(dir, c.sampler+".csv")
		if _, stderr, code := aer(t, "resample", "--sampler", c.sampler, "--data", task, "--out", resampled, "--seed", "3"); code != 0 {
			t.Fatal(stderr)
		}
		scores := func(method, train string, extra ...string) string {
			model := filepath.Join(dir, method+".aer")
			args := append([]string{"fit", "--method", method, "--cross-fit", "-1", "--train", train, "--out", model, "--seed", "3", "--param", "n_estimators=15", "--param", "subsample=0.8"}, extra...)
			if _, stderr, code := aer(t, args...); code != 0 {
				t.Fatal(stderr)
			}
			preds := filepath.Join(dir, method+".preds.csv")
			if _, stderr, code := aer(t, "predict", "--model", model, "--data", task, "--out", preds); code != 0 {
				t.Fatal(stderr)
			}
			b, _ := os.ReadFile(preds)
			return string(b)
		}
		if scores("gbdt", resampled) != scores(c.method, task, c.extra...) {
			t.Errorf("%s: aer resample then gbdt scores differently from %s", c.sampler, c.method)
		}
	}
}

// TestResampleStrategyLabels: a sampling_strategy's classes are labels
// first, as imbalanced-learn reads them: "1:10" on labels 1 to 4 cuts
// label 1 (it cut label 2, the class of index 1), and on two classes
// labelled 3 and 7 "3," cleans label 3 (it was refused as having no rows).
// The report shows the strategy as given.
func TestResampleStrategyLabels(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("a,b,label\n")
	for c, n := range []int{84, 120, 200, 300} {
		for i := range n {
			fmt.Fprintf(&b, "%d,%d,%d\n", i%17, (i*7+c)%23, c+1)
		}
	}
	multi := filepath.Join(dir, "multi.csv")
	if err := os.WriteFile(multi, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := aer(t, "resample", "--sampler", "rus", "--param", "sampling_strategy=1:10", "--data", multi, "--out", filepath.Join(dir, "rus.csv"), "--json")
	var o resampleOutput
	if err := json.Unmarshal([]byte(stdout), &o); code != 0 || err != nil {
		t.Fatalf("exit %d, %v\n%s", code, err, stderr)
	}
	if !slices.Equal(o.ClassRowsAfter, []int{10, 120, 200, 300}) || o.Params["sampling_strategy"] != "1:10" {
		t.Errorf("1:10 on labels 1 to 4: rows after %v (labels %q), params %v; want label 1 cut to 10", o.ClassRowsAfter, o.Labels, o.Params)
	}
	// 0 names no label, and a number is never an index when the labels are
	// numbers.
	if _, stderr, code := aer(t, "resample", "--sampler", "rus", "--param", "sampling_strategy=0:10", "--data", multi, "--out", filepath.Join(dir, "zero.csv")); code != 2 || !strings.Contains(stderr, `"0" is not one of the classes ["1" "2" "3" "4"]`) {
		t.Errorf("0:10: exit %d\n%s", code, stderr)
	}

	b.Reset()
	b.WriteString("a,b,label\n")
	for i := range 120 {
		label := 7
		if i%4 == 0 {
			label = 3
		}
		fmt.Fprintf(&b, "%d,%d,%d\n", i%5, i%3, label)
	}
	binary := filepath.Join(dir, "binary.csv")
	if err := os.WriteFile(binary, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = aer(t, "resample", "--sampler", "rus", "--param", "sampling_strategy=7:30", "--data", binary, "--out", filepath.Join(dir, "bin.csv"), "--json")
	if err := json.Unmarshal([]byte(stdout), &o); code != 0 || err != nil {
		t.Fatalf("7:30 on labels 3 and 7: exit %d, %v\n%s", code, err, stderr)
	}
	if o.After.Rows != 60 || o.After.Negative != 30 || o.After.Positive != 30 {
		t.Errorf("7:30 on labels 3 and 7 (%q): after %+v, want 30 of each", o.Classes, o.After)
	}
}

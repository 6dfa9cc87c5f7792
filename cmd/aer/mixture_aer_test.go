package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aer-go/aer/dataset"
)

// TestMixtureAsAER: with its defaults aer mixture fits the majority rows
// as AER's mixture stage does: the same covariance, pool and chosen L, and
// the same BIC for the L whose EM restarts converge to one optimum (the
// seeds differ: AER derives its own).
func TestMixtureAsAER(t *testing.T) {
	data := filepath.Join("testdata", "mixture", "blobs.csv")
	fitOut, errOut, code := aer(t, "fit", "--method", "gbdt", "--train", data, "--valid", data, "--method", "aer", "--seed", "1",
		"--out", filepath.Join(t.TempDir(), "m.aer"), "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var fit struct {
		Result struct {
			Covariance string
			Pool       []int
			Mixture    struct {
				Components int
				Candidates []struct {
					Components int
					BIC        float64
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(fitOut), &fit); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := aer(t, "mixture", "--data", data, "--seed", "1", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var rep mixtureReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var pool []int
	for _, c := range rep.Candidates {
		pool = append(pool, c.Components)
	}
	a := fit.Result
	if rep.Covariance != a.Covariance || !reflect.DeepEqual(pool, a.Pool) || rep.Chosen != a.Mixture.Components || !rep.Standardized {
		t.Fatalf("mixture: %s %v L=%d; AER: %s %v L=%d", rep.Covariance, pool, rep.Chosen, a.Covariance, a.Pool, a.Mixture.Components)
	}
	for i, c := range rep.Candidates[:2] { // L = 2, 3
		if w := a.Mixture.Candidates[i].BIC; math.Abs(c.BIC-w) > 1e-9*math.Abs(w) {
			t.Errorf("L=%d: BIC %v, AER's %v", c.Components, c.BIC, w)
		}
	}
	if rep.Warnings != nil || errOut != "" {
		t.Errorf("warnings %v, stderr %q", rep.Warnings, errOut)
	}
}

// TestMixtureMissingAndWarnings: missing cells are imputed with the
// column means as AER does (the same fit as on the imputed file), and the
// warnings name edges of the pool and collapsed components.
func TestMixtureMissingAndWarnings(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join("testdata", "fit", "train.csv")
	d, err := dataset.Load(train, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	filled := dataset.Impute(d.X, dataset.ColumnMeans(d.X))
	imputed := filepath.Join(dir, "imputed.csv")
	f, err := os.Create(imputed)
	if err != nil {
		t.Fatal(err)
	}
	if err := dataset.WriteCSV(f, d); err != nil {
		t.Fatal(err)
	}
	f.Close()
	run := func(args ...string) (mixtureReport, string) {
		t.Helper()
		out, errOut, code := aer(t, append([]string{"mixture", "--seed", "2", "--components", "2-4", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var rep mixtureReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		return rep, errOut
	}
	a, errA := run("--data", train)
	b, errB := run("--data", imputed)
	if filled == 0 || a.ImputedCells != filled || b.ImputedCells != 0 {
		t.Errorf("imputed cells %d and %d, want %d and 0", a.ImputedCells, b.ImputedCells, filled)
	}
	for i := range a.Candidates {
		if a.Candidates[i].BIC != b.Candidates[i].BIC {
			t.Errorf("L=%d: BIC %v with missing cells, %v on the imputed file", a.Candidates[i].Components, a.Candidates[i].BIC, b.Candidates[i].BIC)
		}
	}
	if !strings.Contains(errA, "mixture: warning: 12 missing cells imputed with column means") || strings.Contains(errB, "imputed") {
		t.Errorf("stderr:\n%s\n%s", errA, errB)
	}
	// Column c holds three values: components collapse onto them.
	if !strings.Contains(errA, "of the chosen mixture collapsed: variance 1e-06 of feature 3 is at the covariance ridge") {
		t.Errorf("no collapse warning:\n%s", errA)
	}
	if n := strings.Count(errA, "\n"); n != len(a.Warnings) {
		t.Errorf("%d stderr lines, %d warnings", n, len(a.Warnings))
	}

	// Three blobs: L = 3 at either edge of a pool is named, not inside.
	blobs := filepath.Join("testdata", "mixture", "blobs.csv")
	for _, c := range []struct{ pool, want string }{
		{"1-3", "BIC chose a mixture of L = 3 components, the largest of the pool 1-3"},
		{"3-5", "BIC chose a mixture of L = 3 components, the smallest of the pool 3-5"},
		{"2-5", ""},
	} {
		_, errOut, code := aer(t, "mixture", "--data", blobs, "--components", c.pool, "--seed", "1")
		if code != 0 || (c.want == "") != (errOut == "") || !strings.Contains(errOut, c.want) {
			t.Errorf("--components %s: exit %d, stderr %q, want %q", c.pool, code, errOut, c.want)
		}
	}
	// L too large for the rows is left out, with a warning.
	_, errOut, code := aer(t, "mixture", "--data", blobs, "--class", "minority", "--components", "2,3,4", "--seed", "1")
	if code != 0 || !strings.Contains(errOut, "L = 4 left out: 10 rows are too few (full covariance needs 3 rows per component)") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// TestFitWarnings: aer fit --method aer prints the warnings of its mixture
// stage on stderr and lists them under "warnings" in --json, in the words
// aer mixture uses for the same data and pool (three blobs, L = 3 the
// largest of 2-3); a fit with nothing to say has no "warnings" key, and
// the model file does not hold them.
func TestFitWarnings(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join("testdata", "mixture", "blobs.csv")
	fit := func(out string, args ...string) (map[string]json.RawMessage, string) {
		t.Helper()
		stdout, stderr, code := aer(t, append([]string{"fit", "--method", "gbdt", "--train", data, "--valid", data, "--method", "aer", "--seed", "1",
			"--out", filepath.Join(dir, out), "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var doc map[string]json.RawMessage
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		return doc, stderr
	}
	doc, stderr := fit("edge.aer", "--param", "components=2-3")
	mixOut, mixErr, code := aer(t, "mixture", "--data", data, "--components", "2-3", "--seed", "1", "--json")
	if code != 0 {
		t.Fatal(mixErr)
	}
	var rep mixtureReport
	if err := json.Unmarshal([]byte(mixOut), &rep); err != nil {
		t.Fatal(err)
	}
	want := "BIC chose a mixture of L = 3 components, the largest of the pool 2-3: more may fit better"
	if !reflect.DeepEqual(rep.Warnings, []string{want}) {
		t.Fatalf("aer mixture warns %q, want %q", rep.Warnings, want)
	}
	var warnings []string
	if err := json.Unmarshal(doc["warnings"], &warnings); err != nil || !reflect.DeepEqual(warnings, rep.Warnings) {
		t.Errorf("--json warnings %s (%v), aer mixture's %q", doc["warnings"], err, rep.Warnings)
	}
	if !strings.Contains(stderr, "fit: warning: "+want+"\n") || strings.Count(stderr, "warning") != 1 {
		t.Errorf("stderr %q, want the one warning %q", stderr, want)
	}
	// The default pool holds L = 3 inside it: nothing to say.
	doc, stderr = fit("quiet.aer")
	if _, ok := doc["warnings"]; ok || strings.Contains(stderr, "warning") {
		t.Errorf("a fit without warnings: --json warnings %s, stderr %q", doc["warnings"], stderr)
	}
	// Warnings are not saved: the model file (plain JSON inside) holds
	// its mixture but not a word of them.
	b, err := os.ReadFile(filepath.Join(dir, "edge.aer"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"covariances"`)) || bytes.Contains(b, []byte("warning")) || bytes.Contains(b, []byte("largest of the pool")) {
		t.Error("the model file holds the warnings, or no readable mixture")
	}
}

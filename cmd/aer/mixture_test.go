package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/aer-go/aer/mixture"
)

// timings blanks wall-clock numbers so outputs can be compared with goldens.
var timings = regexp.MustCompile(`("(?:seconds|fit_seconds|em_iterations_per_second)": )[0-9.e+-]+|fit [0-9.]+ s, (\d+) EM iterations \([0-9]+ per second\)`)

// longFloat matches numbers printed with more digits than the goldens keep.
var longFloat = regexp.MustCompile(`-?[0-9]+\.[0-9]{9,}(e[+-]?[0-9]+)?`)

// normaliseTimings blanks timings and rounds long floats to 9 significant
// digits, so goldens do not depend on the last bits of SIMD arithmetic.
func normaliseTimings(s string) string {
	s = timings.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(m, "fit ") {
			return timings.ReplaceAllString(m, "fit T s, $2 EM iterations (R per second)")
		}
		return timings.ReplaceAllString(m, "${1}0")
	})
	return longFloat.ReplaceAllStringFunc(s, func(m string) string {
		v, err := strconv.ParseFloat(m, 64)
		if err != nil {
			return m
		}
		return strconv.FormatFloat(v, 'g', 9, 64)
	})
}

func TestMixtureCommand(t *testing.T) {
	data := "testdata/mixture/blobs.csv"
	out, errOut, code := aer(t, "mixture", "--data", data, "--components", "1-5", "--seed", "1")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	golden(t, "mixture/blobs.txt", normaliseTimings(out))
	if !strings.Contains(out, "chosen L = 3") {
		t.Errorf("three blobs should give L = 3:\n%s", out)
	}

	out, errOut, code = aer(t, "mixture", "--data", data, "--components", "2,3", "--covariance", "diag",
		"--standardize", "--params", "--json")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	golden(t, "mixture/blobs_diag.json", normaliseTimings(out))
	var rep mixtureReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 90 || rep.Chosen != 3 || len(rep.Candidates) != 2 || rep.Params == nil {
		t.Errorf("report: %+v", rep)
	}

	// Same seed, same output, whatever the number of workers.
	a, _, _ := aer(t, "mixture", "--data", data, "--components", "2-4", "--json", "--workers", "1")
	b, _, _ := aer(t, "mixture", "--data", data, "--components", "2-4", "--json", "--workers", "2")
	if normaliseTimings(a) != normaliseTimings(b) {
		t.Error("output depends on --workers")
	}

	// --save writes a model that loads back.
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	if _, errOut, code := aer(t, "mixture", "--data", data, "--class", "all", "--components", "2", "--save", path); code != 0 {
		t.Fatal(errOut)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m mixture.Model
	if err := json.Unmarshal(raw, &m); err != nil || m.K() != 2 {
		t.Errorf("saved model: K %d, %v", m.K(), err)
	}

	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--data", data, "--components", "0"}, 2, "--components"},
		{[]string{"--data", data, "--components", "5-2"}, 2, "--components"},
		{[]string{"--data", data, "--covariance", "round"}, 2, "--covariance"},
		{[]string{"--data", data, "--class", "neither"}, 2, "--class"},
		{[]string{"--components", "2"}, 2, "--data is required"},
		{[]string{"--data", data, "--class", "minority", "--components", "20"}, 1, "10 minority rows are too few for any L in 20 (full covariance needs 3 rows per component)"},
	} {
		_, errOut, code := aer(t, append([]string{"mixture"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: code %d, stderr %q; want code %d mentioning %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
}

// TestMixtureUnlabelled fits --class all to a file without a label column
// and to a file of one class: a mixture needs no labels.
func TestMixtureUnlabelled(t *testing.T) {
	// unlabelled.csv is blobs.csv without its label column, oneclass.csv
	// its label-0 rows.
	out, errOut, code := aer(t, "mixture", "--data", "testdata/mixture/unlabelled.csv", "--class", "all",
		"--components", "1-5", "--seed", "1")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	golden(t, "mixture/unlabelled.txt", normaliseTimings(out))
	if !strings.Contains(out, "100 rows x 2 features (no label column)") {
		t.Errorf("unlabelled: want all 100 rows and both columns as features:\n%s", out)
	}

	// Raw values: standardising would use the other class's rows too.
	out, errOut, code = aer(t, "mixture", "--data", "testdata/mixture/oneclass.csv", "--class", "all",
		"--components", "1-5", "--seed", "1", "--json", "--standardize=false")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	golden(t, "mixture/oneclass.json", normaliseTimings(out))
	// The same rows as the majority class of blobs.csv: the same fit.
	maj, errOut, code := aer(t, "mixture", "--data", "testdata/mixture/blobs.csv", "--class", "majority",
		"--components", "1-5", "--seed", "1", "--json", "--standardize=false")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	var one, blobs mixtureReport
	if err := json.Unmarshal([]byte(out), &one); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(maj), &blobs); err != nil {
		t.Fatal(err)
	}
	if one.Rows != 90 || one.Features != 2 || one.Unlabelled || one.Chosen != blobs.Chosen ||
		len(one.Candidates) != len(blobs.Candidates) {
		t.Fatalf("one class: %+v\nblobs majority: %+v", one, blobs)
	}
	for i, c := range one.Candidates {
		if b := blobs.Candidates[i]; c.BIC != b.BIC || c.MeanLogLik != b.MeanLogLik {
			t.Errorf("L=%d: one-class BIC %v loglik %v, blobs majority %v %v", c.Components, c.BIC, c.MeanLogLik, b.BIC, b.MeanLogLik)
		}
	}

	// Without labels, the split column is still not a feature.
	dir := t.TempDir()
	path := filepath.Join(dir, "split.csv")
	if err := os.WriteFile(path, []byte("a,split,b\n1,train,2\n2,test,1\n3,train,5\n4,test,3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = aer(t, "mixture", "--data", path, "--class", "all", "--components", "1", "--json")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	var rep mixtureReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Rows != 4 || rep.Features != 2 || !rep.Unlabelled {
		t.Errorf("split column: %+v, %v", rep, err)
	}

	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--data", "testdata/mixture/unlabelled.csv"}, `--class majority needs labels`},
		{[]string{"--data", "testdata/mixture/unlabelled.csv", "--class", "minority"}, `use --class all for unlabelled data`},
		{[]string{"--data", "testdata/mixture/unlabelled.csv", "--class", "all", "--label", "y"}, `column "y": label column not found`},
		{[]string{"--data", "testdata/mixture/oneclass.csv", "--class", "minority"}, `--class minority needs two classes`},
	} {
		_, errOut, code := aer(t, append([]string{"mixture", "--components", "2"}, tc.args...)...)
		if code != 1 || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: code %d, stderr %q; want code 1 mentioning %q", tc.args, code, errOut, tc.msg)
		}
	}
}

// TestMixtureSharedData runs the command on a real dataset when ../shared
// is present.
func TestMixtureSharedData(t *testing.T) {
	path := filepath.Join(sharedDir(t, "datasets"), "ecoli.csv")
	out, errOut, code := aer(t, "mixture", "--data", path, "--standardize", "--components", "2-3", "--json")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	var rep mixtureReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 301 || rep.Features != 7 || len(rep.Candidates) != 2 {
		t.Errorf("ecoli majority: %+v", rep)
	}
	for _, c := range rep.Candidates {
		if !c.Converged {
			t.Errorf("L=%d did not converge", c.Components)
		}
	}
}

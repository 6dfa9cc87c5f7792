package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aer-go/aer/mixture"
)

// timings blanks wall-clock numbers so outputs can be compared with goldens.
var timings = regexp.MustCompile(`("(?:seconds|fit_seconds|em_iterations_per_second)": )[0-9.e+-]+|fit [0-9.]+ s, (\d+) EM iterations \([0-9]+ per second\)`)

func normaliseTimings(s string) string {
	return timings.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(m, "fit ") {
			return timings.ReplaceAllString(m, "fit T s, $2 EM iterations (R per second)")
		}
		return timings.ReplaceAllString(m, "${1}0")
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
		{[]string{"--data", "testdata/mixture/nan.csv", "--components", "1"}, 1, `line 3, column "v": missing value`},
		{[]string{"--data", data, "--class", "minority", "--components", "20"}, 1, "need at least 20 rows"},
	} {
		_, errOut, code := aer(t, append([]string{"mixture"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: code %d, stderr %q; want code %d mentioning %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
}

func TestParseComponents(t *testing.T) {
	for in, want := range map[string]string{"3": "[3]", "2-8": "[2 3 4 5 6 7 8]", "2,4,6": "[2 4 6]", "6,2-3,3": "[2 3 6]"} {
		got, err := parseComponents(in)
		if err != nil || strings.Trim(strings.ReplaceAll(strings.Trim(jsonString(got), "[]"), ",", " "), " ") != strings.Trim(want, "[]") {
			t.Errorf("parseComponents(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "x", "0", "3-", "-2", "4-2"} {
		if _, err := parseComponents(bad); err == nil {
			t.Errorf("parseComponents(%q) accepted", bad)
		}
	}
}

func jsonString(v any) string { b, _ := json.Marshal(v); return string(b) }

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

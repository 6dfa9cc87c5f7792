package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// untimed replaces timings and memory figures, which vary run to run or
// with the machine, and the temporary directory, so outputs can be
// compared with golden files.
func untimed(s, dir string) string {
	s = regexp.MustCompile(`("fit_seconds": )[0-9.e+-]+`).ReplaceAllString(s, `${1}0`)
	s = regexp.MustCompile(`(fit time +)[0-9.]+ s`).ReplaceAllString(s, `${1}X s`)
	s = regexp.MustCompile(`("peak_rss_bytes": )[0-9]+`).ReplaceAllString(s, `${1}0`)
	s = regexp.MustCompile(`("memory_limit_bytes": )[0-9]+`).ReplaceAllString(s, `${1}0`)
	return strings.ReplaceAll(s, dir, "TMP")
}

func TestFit(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.aer")
	for _, c := range []struct {
		name string
		args []string
	}{
		{"basic.json", []string{"--train", "testdata/fit/train.csv", "--param", "n_estimators=5", "--param", "max_depth=2", "--out", model, "--json"}},
		{"valid.json", []string{"--train", "testdata/fit/train.csv", "--valid", "testdata/fit/valid.csv",
			"--param", "eta=0.5", "--param", "n_estimators=50", "--param", "early_stopping_rounds=5", "--param", "eval_metric=auc", "--out", model, "--json"}},
		{"focal.txt", []string{"--train", "testdata/fit/train.csv", "--valid", "testdata/fit/valid.csv",
			"--param", "objective=focal", "--param", "focal_gamma=2", "--param", "n_estimators=10", "--param", "subsample=0.8", "--seed", "3", "--out", model}},
	} {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := aer(t, append([]string{"fit", "--method", "gbdt"}, c.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			golden(t, "fit/"+c.name, untimed(stdout, dir))
			if _, err := os.Stat(model); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestFitErrors(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.aer")
	for _, c := range []struct {
		name string
		code int
		args []string
	}{
		{"unknown_param", 2, []string{"--train", "testdata/fit/train.csv", "--param", "etaa=1", "--out", model}},
		{"bad_value", 2, []string{"--train", "testdata/fit/train.csv", "--param", "max_depth=deep", "--out", model}},
		{"bad_range", 2, []string{"--train", "testdata/fit/train.csv", "--param", "subsample=2", "--out", model}},
		{"no_equals", 2, []string{"--train", "testdata/fit/train.csv", "--param", "eta", "--out", model}},
		{"unknown_method", 2, []string{"--method", "svm9", "--train", "testdata/fit/train.csv", "--out", model}},
		{"no_out", 2, []string{"--train", "testdata/fit/train.csv"}},
		{"valid_columns", 1, []string{"--train", "testdata/fit/train.csv", "--valid", "testdata/predict/wrongcols.csv", "--out", model}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := aer(t, append([]string{"fit", "--method", "gbdt"}, c.args...)...)
			if code != c.code {
				t.Errorf("exit %d, want %d: %s", code, c.code, stderr)
			}
			if c.name == "unknown_method" {
				// The list of known methods grows with the registry.
				if !strings.Contains(stderr, `aer: fit: unknown method "svm9" (did you mean svm?) (known: aer, `) || !strings.Contains(stderr, ", gbdt, ") {
					t.Errorf("unknown method: %s", stderr)
				}
			} else if c.code == 2 || c.name == "valid_columns" {
				// Only the message line: usage text follows for flag errors.
				golden(t, "fit/"+c.name+".stderr", untimed(firstLine(stderr), dir))
			}
			if _, err := os.Stat(model); err == nil {
				t.Error("a failed fit left a model file")
			}
		})
	}
}

// TestFitMemoryCheck checks that aer fit refuses, before it starts and
// writing nothing, a fit the method estimates needs more memory than is
// available, naming both, and tries anyway with --memory-check=false.
func TestFitMemoryCheck(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	dir := t.TempDir()
	model := filepath.Join(dir, "m.aer")
	saved := availableMemory
	t.Cleanup(func() { availableMemory = saved })
	availableMemory = func() (int64, bool) { return 10 << 20, true }
	args := []string{"fit", "--method", "gbdt", "--train", "testdata/fit/train.csv", "--param", "n_estimators=5", "--out", model}
	_, stderr, code := aer(t, args...)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	golden(t, "fit/memory.stderr", firstLine(stderr))
	if _, err := os.Stat(model); err == nil {
		t.Error("a refused fit left a model file")
	}
	if _, stderr, code = aer(t, append(args, "--memory-check=false")...); code != 0 {
		t.Fatalf("--memory-check=false: exit %d: %s", code, stderr)
	}
	// With the memory there, the fit runs and reports its estimate and
	// the process's peak.
	availableMemory = func() (int64, bool) { return 8 << 30, true }
	stdout, stderr, code := aer(t, "fit", "--method", "gbdt", "--train", "testdata/fit/train.csv", "--param", "n_estimators=5", "--out", filepath.Join(dir, "m2.aer"), "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var o fitOutput
	if err := json.Unmarshal([]byte(stdout), &o); err != nil {
		t.Fatal(err)
	}
	if o.MemoryEstimate < 16<<20 || (runtime.GOOS == "linux" && o.PeakRSS <= 0) {
		t.Errorf("memory_estimate_bytes %d, peak_rss_bytes %d", o.MemoryEstimate, o.PeakRSS)
	}
	// The fit's plan (a few MB here) set the soft limit to its floor.
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set && o.MemoryLimit != fitLimitFloor {
		t.Errorf("memory_limit_bytes %d, want %d", o.MemoryLimit, fitLimitFloor)
	}
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "aer: ") {
			return l + "\n"
		}
	}
	return s
}

// TestFitContinuousLabel: a label that looks like a quantity is fitted
// as classes, with a warning on stderr and in --json's warnings.
func TestFitContinuousLabel(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("a,y\n")
	for i := range 60 {
		fmt.Fprintf(&b, "%d,%.2f\n", i, float64(i%6)+0.25)
	}
	data := filepath.Join(dir, "q.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := aer(t, "fit", "--method", "gbdt", "--train", data, "--method", "logreg", "--out", filepath.Join(dir, "m.aer"), "--json")
	if code != 0 || !strings.Contains(errOut, "fit: warning: label y looks continuous") || !strings.Contains(out, "looks continuous") {
		t.Fatalf("exit %d, stderr %q, stdout %s", code, errOut, out)
	}
}

// TestFitSuggests: a mistyped method or flag is told the name it was
// probably meant to be, as one line; a name near none gets no hint.
func TestFitSuggests(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.aer")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--method", "gdbt", "--train", "testdata/fit/train.csv", "--out", out},
			`aer: fit: unknown method "gdbt" (did you mean gbdt?) (known: aer, balanced-bagging, `},
		{[]string{"--trian", "testdata/fit/train.csv", "--out", out},
			"aer: fit: flag provided but not defined: -trian (did you mean --train?) (see aer help fit)\n"},
		{[]string{"--train", "testdata/fit/train.csv", "-outt", out},
			"aer: fit: flag provided but not defined: -outt (did you mean --out?) (see aer help fit)\n"},
		{[]string{"--method", "nope", "--train", "testdata/fit/train.csv", "--out", out},
			`aer: fit: unknown method "nope" (known: aer, `},
		{[]string{"--bogus", "--train", "testdata/fit/train.csv", "--out", out},
			"aer: fit: flag provided but not defined: -bogus (see aer help fit)\n"},
	} {
		_, stderr, code := aer(t, append([]string{"fit", "--method", "gbdt"}, c.args...)...)
		if code != 2 || !strings.HasPrefix(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

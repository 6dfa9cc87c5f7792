package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/aer-go/aer/internal/sharedtest"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// aer runs the command line in-process and returns stdout, stderr, the
// error and the exit status main would use.
func aer(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errw bytes.Buffer
	err := run(args, &out, &errw)
	code = exitCode(err, &errw)
	return out.String(), errw.String(), code
}

// golden compares got with testdata/<name>, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		os.WriteFile(path+".got", []byte(got), 0o644)
		t.Errorf("output differs from %s (see %s.got):\n%s", path, path, got)
	}
}

func sharedDir(t testing.TB, sub string) string { return sharedtest.Path(t, sub) }

func TestHelpAndUsage(t *testing.T) {
	out, _, code := aer(t, "help")
	if code != 0 || !strings.Contains(out, "Commands:") {
		t.Errorf("help: code %d\n%s", code, out)
	}
	for name := range commands {
		out, _, code := aer(t, "help", name)
		if code != 0 || !strings.Contains(out, "Flags:") && !strings.Contains(out, "Usage") {
			t.Errorf("help %s: code %d\n%s", name, code, out)
		}
	}
	if _, errOut, code := aer(t, "no-such-command"); code != 2 || !strings.Contains(errOut, `unknown command "no-such-command"`) {
		t.Errorf("unknown command: code %d, %q", code, errOut)
	}
	if _, _, code := aer(t); code != 2 {
		t.Errorf("no command: code %d", code)
	}
	var ue *usageError
	if err := run([]string{"help", "nope"}, &bytes.Buffer{}, &bytes.Buffer{}); !errors.As(err, &ue) {
		t.Errorf("help of unknown command: %v", err)
	}
}

// A panic is a bug: it exits 3 with one line, not the runtime's 2 (the
// status of a usage error) and a stack trace.
func TestPanicExitsThree(t *testing.T) {
	err := guarded(func() error { panic("index out of range [-1]") })
	var stderr bytes.Buffer
	if code := exitCode(err, &stderr); code != 3 {
		t.Errorf("exit %d, want 3", code)
	}
	if msg := stderr.String(); strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "internal error") || !strings.Contains(msg, "index out of range") {
		t.Errorf("stderr %q", msg)
	}
	if err := guarded(func() error { return nil }); err != nil {
		t.Errorf("no panic: %v", err)
	}
}

// runAsAerEnv, set to 1 in the environment, makes the test binary run
// as aer itself (TestMain calls main), so tests can signal a real
// process.
const runAsAerEnv = "AER_TEST_RUN_AS_AER"

func TestMain(m *testing.M) {
	if os.Getenv(runAsAerEnv) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// failWriter fails every write, like stdout on a full disk.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// pipeWriter takes n bytes, then fails every write with EPIPE, as
// stdout does once its reader went away (aer ... | head -1).
type pipeWriter struct{ n int }

func (w *pipeWriter) Write(p []byte) (int, error) {
	if len(p) <= w.n {
		w.n -= len(p)
		return len(p), nil
	}
	k := w.n
	w.n = 0
	return k, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE}
}

// TestHelpFlagsFirst: every command's help opens with its synopsis and
// summary and lists its flags within its first lines, before any
// paragraph of prose longer than 3 lines; the prose follows the flags
// under "Details:". aer help fit --method aer lists the method's
// parameters between the flags and the details.
func TestHelpFlagsFirst(t *testing.T) {
	const within = 12 // lines before the first flag line, at most
	for name := range commands {
		out, _, code := aer(t, "help", name)
		if code != 0 {
			t.Errorf("help %s: exit %d", name, code)
			continue
		}
		lines := strings.Split(out, "\n")
		firstFlag, lastFlag, flagsHeading := -1, -1, -1
		// The flags: the lines "  -name" of the block "Flags:" heads.
		for i, l := range lines {
			if l == "Flags:" && flagsHeading < 0 {
				flagsHeading = i
				continue
			}
			if flagsHeading >= 0 && l == "" {
				break
			}
			if flagsHeading >= 0 && strings.HasPrefix(l, "  -") {
				if firstFlag < 0 {
					firstFlag = i
				}
				lastFlag = i
			}
		}
		if firstFlag < 0 || firstFlag > within {
			t.Errorf("help %s: first flag on line %d, want within the first %d:\n%s", name, firstFlag+1, within, out)
			continue
		}
		// The first paragraph of more than 3 lines (the synopsis aside,
		// which may take 3) starts after the first flag.
		start := 0
		for i := 0; i <= len(lines); i++ {
			if i < len(lines) && lines[i] != "" {
				continue
			}
			if i-start > 3 && start < flagsHeading {
				t.Errorf("help %s: a %d-line paragraph on line %d comes before the flags (line %d)", name, i-start, start+1, firstFlag+1)
			}
			start = i + 1
		}
		if d := slices.Index(lines, "Details:"); d >= 0 && d < lastFlag {
			t.Errorf("help %s: Details on line %d, before the last flag (line %d)", name, d+1, lastFlag+1)
		}
	}
	out, _, code := aer(t, "help", "fit", "--method", "aer")
	params := strings.Index(out, "Parameters (--param key=value):")
	details := strings.Index(out, "\nDetails:\n")
	if code != 0 || params < 0 || !strings.Contains(out, "  components ") || details < params || !strings.Contains(out[details:], "--grid") {
		t.Errorf("help fit --method aer: exit %d, parameters at %d, details at %d:\n%s", code, params, details, out)
	}
}

// TestClosedPipeQuiet: a command whose stdout reader goes away after a
// few bytes exits 0 and writes nothing on stderr (it said "broken pipe",
// exit 1), whether the command checks its writes (gen, predict) or not
// (help), and whatever it had written before.
func TestClosedPipeQuiet(t *testing.T) {
	model := fitModel(t, t.TempDir())
	for _, args := range [][]string{
		{"help", "explain"},
		{"help", "fit", "--method", "gbdt"},
		{"gen", "--rows", "5000", "--features", "4", "--informative", "2", "--redundant", "0", "--out", "-"},
		{"predict", "--model", model, "--data", "testdata/predict/test.csv", "--out", "-"},
		{"version"},
	} {
		for _, n := range []int{0, 1, 60} {
			var errw bytes.Buffer
			err := run(args, &pipeWriter{n: n}, &errw)
			if code := exitCode(err, &errw); code != 0 || errw.Len() != 0 {
				t.Errorf("%v after %d bytes: exit %d (%v), stderr %q; want 0 and nothing", args, n, code, err, errw.String())
			}
		}
	}
	// A command that fails for another reason still says so.
	var errw bytes.Buffer
	err := run([]string{"gen", "--samples", "0", "--out", "-"}, &pipeWriter{}, &errw)
	if code := exitCode(err, &errw); code != 2 || !strings.Contains(errw.String(), "--samples") {
		t.Errorf("bad flag with a closed pipe: exit %d, stderr %q", code, errw.String())
	}
}

// TestLostOutputFails: a command or help text whose stdout cannot be
// written exits 1 naming the write error, never 0.
func TestLostOutputFails(t *testing.T) {
	for _, args := range [][]string{
		{"info", "--data", filepath.Join("testdata", "fit", "train.csv")},
		{"help", "fit"},
		{"help", "fit", "--method", "gbdt"},
		{"gen", "--rows", "50", "--features", "4", "--informative", "2", "--redundant", "0", "--out", "-"},
		{"version"},
	} {
		var errw bytes.Buffer
		err := run(args, failWriter{}, &errw)
		if code := exitCode(err, &errw); code != 1 {
			t.Errorf("%v: exit %d, want 1", args, code)
		}
		if got := errw.String(); !strings.Contains(got, "no space left on device") || strings.Count(got, "\n") != 1 {
			t.Errorf("%v: stderr %q, want one line naming the write error", args, got)
		}
	}
}

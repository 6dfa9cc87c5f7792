//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aer-go/aer/learn"
)

// TestOutNamedPipe: every command's output flag, pointed at a named pipe
// (as at /dev/null or /dev/stdout), writes through it and leaves it a
// pipe; renaming a temporary file over it replaced the device node
// itself (aer predict --out /dev/null, run as root, replaced the
// machine's /dev/null).
func TestOutNamedPipe(t *testing.T) {
	dir := t.TempDir()
	hostileFixtures(t, dir)
	train, clean := filepath.Join(dir, "train.csv"), filepath.Join(dir, "clean.csv")
	cases := []struct {
		name string
		args []string // {out} is the pipe
		want string   // a prefix of what comes through
	}{
		{"predict", []string{"predict", "--model", filepath.Join(dir, "tree.aer"), "--data", train, "--out", "{out}"}, "label,score,pred"},
		{"fit", []string{"fit", "--method", "gbdt", "--train", train, "--method", "tree", "--out", "{out}"}, ""},
		{"gen", []string{"gen", "--rows", "50", "--features", "3", "--informative", "2", "--redundant", "0", "--out", "{out}"}, "x0,x1,x2,label"},
		{"resample", []string{"resample", "--data", clean, "--sampler", "rus", "--out", "{out}"}, "x0,"},
		{"cv-oof", []string{"cv", "--data", clean, "--method", "tree", "--folds", "3", "--oof", "{out}"}, "row,"},
		{"eval-sweep", []string{"eval", "--data", filepath.Join(dir, "preds.csv"), "--sweep-out", "{out}"}, "threshold,"},
		{"mixture", []string{"mixture", "--data", clean, "--components", "2", "--save", "{out}"}, "{"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "out")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skipf("no named pipes here: %v", err)
			}
			got := make(chan string, 1)
			go func() {
				f, err := os.Open(fifo)
				if err != nil {
					got <- err.Error()
					return
				}
				b, _ := io.ReadAll(f)
				f.Close()
				got <- string(b)
			}()
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = strings.ReplaceAll(a, "{out}", fifo)
			}
			_, errOut, code := aer(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			select {
			case s := <-got:
				if s == "" || !strings.HasPrefix(s, c.want) {
					t.Errorf("through the pipe: %.60q", s)
				}
			case <-time.After(10 * time.Second):
				if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
				t.Error("nothing came through the pipe")
			}
			if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
				t.Errorf("the pipe was replaced: %v %v", fi.Mode(), err)
			}
		})
	}
}

// TestSplitOwnInput: a part's name that is a link to the input file is
// refused (it overwrote the data with the train part, exit 0), and a part
// that cannot be written (a directory in the way) replaces no earlier
// part; the output folder is made when missing.
func TestSplitOwnInput(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "x.csv")
	src, err := os.ReadFile(filepath.Join("testdata", "fit", "train.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(data, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("x.csv", filepath.Join(dir, "x.train.csv")); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := aer(t, "split", "--data", data, "--out-dir", dir)
	if code != 2 || !strings.Contains(errOut, "refusing to overwrite an input") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(data); string(b) != string(src) {
		t.Fatal("the input was overwritten")
	}
	other := filepath.Join(dir, "other")
	if err := os.MkdirAll(filepath.Join(other, "x.test.csv"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "x.train.csv"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = aer(t, "split", "--data", data, "--out-dir", other)
	if code != 1 || !strings.Contains(errOut, "x.test.csv: is a directory") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(other, "x.train.csv")); string(b) != "old\n" {
		t.Error("an earlier part was replaced before the failing one")
	}
	fresh := filepath.Join(dir, "new", "parts")
	if _, errOut, code := aer(t, "split", "--data", data, "--out-dir", fresh); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(fresh, "x.valid.csv")); err != nil {
		t.Error(err)
	}
}

// TestPredictEndlessLine: a data file with no line end (/dev/zero) fails
// at the line limit with its reason, and leaves nothing beside --out
// (it exhausted memory and left the temporary file).
func TestPredictEndlessLine(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	dir := t.TempDir()
	hostileFixtures(t, dir)
	outDir := t.TempDir()
	_, errOut, code := aer(t, "predict", "--model", filepath.Join(dir, "tree.aer"), "--data", "/dev/zero", "--out", filepath.Join(outDir, "p.csv"))
	if code != 1 || !strings.Contains(errOut, "line 1: line too long") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if ents, _ := os.ReadDir(outDir); len(ents) != 0 {
		t.Errorf("left beside --out: %v", ents)
	}
}

// TestFitNoClassWeight: every registered method refuses training rows
// whose weights leave a label with no weight (all zero, or zero on
// every positive row), where the boosted trees and the bagging
// ensembles wrote a constant model and exited 0, and weights whose sum
// overflows.
func TestFitNoClassWeight(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "fit", "train.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(src), "\n"), "\n")
	dir := t.TempDir()
	write := func(name string, weight func(label string) string) string {
		var b strings.Builder
		b.WriteString(lines[0] + ",w\n")
		for _, l := range lines[1:] {
			b.WriteString(l + "," + weight(l[strings.LastIndexByte(l, ',')+1:]) + "\n")
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// The positive class is the minority one.
	count := map[string]int{}
	for _, l := range lines[1:] {
		count[l[strings.LastIndexByte(l, ',')+1:]]++
	}
	pos := ""
	for label, n := range count {
		if pos == "" || n < count[pos] || n == count[pos] && label < pos {
			pos = label
		}
	}
	zeroPos := write("zeropos.csv", func(label string) string {
		if label == pos {
			return "0"
		}
		return "1"
	})
	allZero := write("allzero.csv", func(string) string { return "0" })
	// Weights at the float64 limit: their sums overflowed into a NaN
	// model ("json: unsupported value: NaN").
	huge := write("huge.csv", func(string) string { return "1e308" })
	for _, name := range learn.Names() {
		for _, data := range []string{zeroPos, allZero, huge} {
			want := "needs rows of both labels with positive weight"
			if data == huge {
				want = "divide them by a constant"
			}
			_, errOut, code := aer(t, "fit", "--method", name, "--train", data, "--weight", "w", "--out", filepath.Join(dir, "m.aer"))
			if code != 1 || !strings.Contains(errOut, want) {
				t.Errorf("%s on %s: exit %d: %s", name, filepath.Base(data), code, errOut)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "m.aer")); err == nil {
		t.Error("a model was written")
	}
}

// TestBenchOutIsDatasets: bench refuses to write its results into the
// folder it reads datasets from (a resume then read runs.csv as a
// dataset).
func TestBenchOutIsDatasets(t *testing.T) {
	dir := t.TempDir()
	hostileFixtures(t, dir)
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "clean.csv"), filepath.Join(data, "clean.csv")); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := aer(t, "bench", "--datasets", data, "--out", data+"/.", "--methods", "tree", "--seeds", "0")
	if code != 2 || !strings.Contains(errOut, "is the --datasets folder") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if ents, _ := os.ReadDir(data); len(ents) != 1 {
		t.Errorf("written into the datasets folder: %v", ents)
	}
}

// TestInfoOneClass: info describes a file of one class (it refused it),
// in text and in JSON (an infinite imbalance ratio broke the encoding).
func TestInfoOneClass(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "fit", "train.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(src), "\n"), "\n")
	keep := []string{lines[0]}
	for _, l := range lines[1:] {
		if strings.HasSuffix(l, ",healthy") {
			keep = append(keep, l)
		}
	}
	p := filepath.Join(t.TempDir(), "one.csv")
	if err := os.WriteFile(p, []byte(strings.Join(keep, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := aer(t, "info", "--data", p)
	if code != 0 || !strings.Contains(out, "one class") {
		t.Errorf("exit %d: %s%s", code, out, errOut)
	}
	out, errOut, code = aer(t, "info", "--data", p, "--json")
	if code != 0 || !strings.Contains(out, `"imbalance_ratio": 0`) {
		t.Errorf("json: exit %d: %s%s", code, out, errOut)
	}
}

// TestClosedStdout: a reader that goes away (aer ... | head -1) ends aer
// quietly, with exit status 0 and nothing on stderr: neither killed by
// SIGPIPE (141) nor reporting the broken pipe as a failure.
func TestClosedStdout(t *testing.T) {
	cmd := exec.Command(os.Args[0], "gen", "--rows", "200000", "--features", "5", "--out", "-")
	cmd.Env = append(os.Environ(), runAsAerEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 100)
	io.ReadFull(out, buf)
	out.Close()
	err = cmd.Wait()
	if err != nil || stderr.Len() != 0 {
		t.Errorf("exit %v, stderr %q; want 0 and nothing", err, stderr.String())
	}
}

// TestFitWarnsSuspects: fit warns about a feature that gives the label
// away and about weights read as a feature (it trained on them silently).
func TestFitWarnsSuspects(t *testing.T) {
	var b strings.Builder
	b.WriteString("x,score,weight,label\n")
	for i := range 100 {
		y := min(1, i%5)
		fmt.Fprintf(&b, "%d,%d,2,%d\n", i%9, 10*y, 1-y)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "leak.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := aer(t, "fit", "--method", "tree", "--train", p, "--out", filepath.Join(dir, "m.aer"))
	if code != 0 || !strings.Contains(errOut, `warning: `+p+`: feature "score": a threshold on it separates the classes`) ||
		!strings.Contains(errOut, `feature "weight": named like row weights`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

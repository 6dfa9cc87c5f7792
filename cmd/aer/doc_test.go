package main

import (
	"bytes"
	"context"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// docExample is one "$ aer ..." line of the package documentation.
var docExample = regexp.MustCompile(`(?m)^\t\$ aer (.*)$`)

// servingAddr finds the address aer serve logs once it listens.
var servingAddr = regexp.MustCompile(`msg=serving addr=(\S+)`)

// packageDoc returns the text of the package documentation in doc.go.
func packageDoc(t *testing.T) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if f.Doc == nil {
		t.Fatal("doc.go has no package documentation")
	}
	return f.Doc.Text()
}

// lockedBuffer is a bytes.Buffer safe for a command writing in one
// goroutine while the test reads in another.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestDoc runs every "$ aer ..." example of the package documentation, in
// order, in one empty folder, through the in-process entry point, and
// checks each exits with status 0 (as benchstat's TestDoc keeps its
// documentation honest). An example ending in " &" (aer serve) runs in the
// background until the others are done; the address it documents is
// replaced by a free port in it and in the examples after it. It also
// checks that every registered command has its section and an example.
func TestDoc(t *testing.T) {
	doc := packageDoc(t)
	var names []string
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !regexp.MustCompile(`(?m)^# aer ` + regexp.QuoteMeta(name) + `$`).MatchString(doc) {
			t.Errorf("the package documentation has no section \"# aer %s\"", name)
		}
		if !regexp.MustCompile(`(?m)^\t\$ aer ` + regexp.QuoteMeta(name) + `( |$)`).MatchString(doc) {
			t.Errorf("the package documentation has no example of aer %s", name)
		}
	}
	examples := docExample.FindAllStringSubmatch(doc, -1)
	if len(examples) < len(names) {
		t.Fatalf("found %d examples in the package documentation, fewer than the %d commands", len(examples), len(names))
	}

	// aer serve sets the collector's target for a server; give the other
	// tests of the package theirs back.
	gc := debug.SetGCPercent(100)
	debug.SetGCPercent(gc)
	t.Cleanup(func() { debug.SetGCPercent(gc) })

	// The inputs aer cannot make: models XGBoost and LightGBM trained,
	// with their data, for import, and a table of scores for compare
	// --friedman.
	xgbModel, err := os.ReadFile("../../interop/xgboost/testdata/plain.json")
	if err != nil {
		t.Fatal(err)
	}
	xgbData, err := os.ReadFile("../../interop/xgboost/testdata/plain.csv")
	if err != nil {
		t.Fatal(err)
	}
	lgbModel, err := os.ReadFile("../../interop/lightgbm/testdata/lg_dart_breast_cancer.model")
	if err != nil {
		t.Fatal(err)
	}
	lgbData, err := os.ReadFile("../../interop/lightgbm/testdata/breast_cancer_test.csv")
	if err != nil {
		t.Fatal(err)
	}
	multiModel, err := os.ReadFile("../../interop/xgboost/testdata/multi.json")
	if err != nil {
		t.Fatal(err)
	}
	multiData, err := os.ReadFile("../../interop/xgboost/testdata/multi.csv")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	if err := os.WriteFile("xgb.json", xgbModel, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("xgb.csv", xgbData, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string][]byte{"lgb.txt": lgbModel, "lgb.csv": lgbData, "multi.json": multiModel, "multi.csv": multiData} {
		if err := os.WriteFile(name, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	scores := "dataset,aer,gbdt,logreg\na,0.80,0.70,0.75\nb,0.90,0.85,0.80\nc,0.70,0.72,0.60\nd,0.85,0.80,0.70\n"
	if err := os.WriteFile("scores.csv", []byte(scores), 0o644); err != nil {
		t.Fatal(err)
	}

	replace := map[string]string{} // documented address -> the one in use
	type background struct {
		line   string
		cancel context.CancelFunc
		done   chan error
		stderr *lockedBuffer
	}
	var bg []background
	defer func() {
		for _, b := range bg {
			b.cancel()
			if err := <-b.done; err != nil {
				t.Errorf("$ aer %s: after cancellation: %v\n%s", b.line, err, b.stderr)
			}
		}
	}()

	for _, m := range examples {
		line := m[1]
		if strings.ContainsAny(line, "|<>;`'\"\\") {
			t.Errorf("$ aer %s: an example must be one command without shell syntax", line)
			continue
		}
		for from, to := range replace {
			line = strings.ReplaceAll(line, from, to)
		}
		args := strings.Fields(line)
		if args[len(args)-1] == "&" {
			args = args[:len(args)-1]
			documented := ""
			for i, a := range args {
				if a == "--addr" && i+1 < len(args) {
					documented, args[i+1] = args[i+1], "127.0.0.1:0"
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			b := background{line: line, cancel: cancel, done: make(chan error, 1), stderr: &lockedBuffer{}}
			go func() { b.done <- runContext(ctx, args, &lockedBuffer{}, b.stderr) }()
			bg = append(bg, b)
			addr := ""
			for deadline := time.Now().Add(20 * time.Second); addr == "" && time.Now().Before(deadline); {
				select {
				case err := <-b.done:
					cancel()
					bg = bg[:len(bg)-1]
					t.Fatalf("$ aer %s: stopped before serving: %v\n%s", line, err, b.stderr)
				case <-time.After(10 * time.Millisecond):
				}
				if m := servingAddr.FindStringSubmatch(b.stderr.String()); m != nil {
					addr = m[1]
				}
			}
			if addr == "" {
				t.Fatalf("$ aer %s: not serving after 20 s\n%s", line, b.stderr)
			}
			if documented != "" {
				replace[documented] = addr
			}
			continue
		}
		start := time.Now()
		var stdout, stderr bytes.Buffer
		err := run(args, &stdout, &stderr)
		if code := exitCode(err, &stderr); code != 0 {
			t.Errorf("$ aer %s: exit status %d\nstdout:\n%s\nstderr:\n%s", line, code, stdout.String(), stderr.String())
			continue
		}
		if stdout.Len() == 0 && stderr.Len() == 0 {
			t.Errorf("$ aer %s: printed nothing", line)
		}
		t.Logf("$ aer %s: %.2f s", line, time.Since(start).Seconds())
	}
}

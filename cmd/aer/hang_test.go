package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aer-go/aer/internal/sharedtest"
)

// TestTinyStepEnds: aer with step_scale=1e-320 on ecoli's split looped
// forever in the static weights' descent (the step's floor underflowed
// to 0 and the min-max projection kept moving w), ignoring the first
// SIGTERM; now every halving loop has a bound.
func TestTinyStepEnds(t *testing.T) {
	data := sharedtest.Path(t, "datasets", "ecoli.csv")
	dir := t.TempDir()
	if _, errOut, code := aer(t, "split", "--data", data, "--protocol", "sklearn", "--out-dir", dir); code != 0 {
		t.Fatal(errOut)
	}
	done := make(chan string, 1)
	go func() {
		_, errOut, code := aer(t, "fit", "--method", "aer", "--param", "step_scale=1e-320",
			"--train", filepath.Join(dir, "ecoli.train.csv"), "--valid", filepath.Join(dir, "ecoli.valid.csv"), "--out", filepath.Join(dir, "m.aer"))
		if code != 0 {
			done <- errOut
		}
		done <- ""
	}()
	select {
	case e := <-done:
		if e != "" && !strings.Contains(e, "step_scale") {
			t.Errorf("fit failed: %s", e)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the fit did not end")
	}
}

// TestCancelledReads: info, eval and compare stop reading when the
// context is cancelled (Ctrl-C, SIGTERM), exit non-zero and print no
// report; they read to the end and exited 0.
func TestCancelledReads(t *testing.T) {
	dir := t.TempDir()
	hostileFixtures(t, dir)
	preds := filepath.Join(dir, "preds.csv")
	scores := filepath.Join("testdata", "compare", "friedman.csv")
	for _, args := range [][]string{
		{"info", "--data", filepath.Join(dir, "train.csv")},
		{"eval", "--data", preds},
		{"compare", preds, preds},
		{"compare", "--friedman", scores},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var out, errw bytes.Buffer
		err := runContext(ctx, args, &out, &errw)
		if code := exitCode(err, &errw); code != 1 || !strings.Contains(err.Error(), "interrupted") || out.Len() > 0 {
			t.Errorf("%v: exit %d, error %v, %d bytes of report", args, code, err, out.Len())
		}
	}
}

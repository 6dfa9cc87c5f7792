//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSizesFromUserNumbers: sizes that follow from a flag or parameter
// are bounded or go through the memory check before anything is
// allocated: each case runs as aer under a 4 GB address-space cap
// (ulimit -v), where every one of them died with "fatal error: out of
// memory", and must fail cleanly, naming what to change.
func TestSizesFromUserNumbers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs aer under a memory cap")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no shell")
	}
	dir := t.TempDir()
	hostileFixtures(t, dir)
	clean, model := filepath.Join(dir, "clean.csv"), filepath.Join(dir, "tree.aer")
	out := filepath.Join(dir, "out")
	// 60,000 rows of a text column with as many values: one-hot encoded,
	// 27 GB.
	var b strings.Builder
	b.WriteString("c,x,label\n")
	for i := range 60000 {
		fmt.Fprintf(&b, "v%d,%d,%d\n", i, i%7, min(1, i%20))
	}
	cats := filepath.Join(dir, "cats.csv")
	if err := os.WriteFile(cats, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// 60 rows of 20,000 features: full covariances are 3.2 GB each.
	b.Reset()
	for j := range 20000 {
		fmt.Fprintf(&b, "f%d,", j)
	}
	b.WriteString("label\n")
	for i := range 60 {
		for j := range 20000 {
			fmt.Fprintf(&b, "%d,", (i*j)%7)
		}
		fmt.Fprintf(&b, "%d\n", min(1, i%6))
	}
	wide := filepath.Join(dir, "wide.csv")
	if err := os.WriteFile(wide, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"fit", "--method", "gbdt", "--train", clean, "--param", "n_estimators=2147483648", "--out", out}, "n_estimators"},
		{[]string{"fit", "--method", "gbdt", "--train", clean, "--param", "n_estimators=1000000", "--out", out}, "at most 100000"},
		{[]string{"fit", "--method", "aer", "--train", clean, "--param", "member.n_estimators=100000", "--out", out}, "lower member.n_estimators=100000"},
		{[]string{"fit", "--method", "gbdt", "--train", cats, "--max-categories", "65536", "--out", out}, "lower --max-categories"},
		{[]string{"fit", "--method", "aer", "--train", wide, "--param", "covariance=full", "--out", out}, "not enough memory"},
		{[]string{"cv", "--data", clean, "--method", "tree", "--repeats", "1000000000"}, "--repeats"},
		{[]string{"gen", "--rows", "100", "--features", "10000000", "--out", out}, "--features"},
		{[]string{"mixture", "--data", clean, "--n-init", "2000000000"}, "--n-init"},
		{[]string{"explain", "--model", model, "--data", clean, "--global", "--repeats", "2000000000"}, "--repeats"},
		{[]string{"fit", "--method", "gbdt-tuned", "--train", clean, "--valid", clean, "--param", "threshold_step=1e-8", "--out", out}, "threshold_step"},
		{[]string{"fit", "--method", "aer", "--train", clean, "--valid", clean, "--param", "delta_step=1e-8", "--out", out}, "delta_step"},
	}
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cmd := exec.CommandContext(ctx, "sh", append([]string{"-c", `ulimit -v 4000000 && exec "$0" "$@"`, os.Args[0]}, c.args...)...)
		cmd.Env = append(os.Environ(), runAsAerEnv+"=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		cancel()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		msg := stderr.String()
		if (code != 1 && code != 2) || strings.Contains(msg, "fatal error") || strings.Contains(msg, "goroutine ") || !strings.Contains(msg, c.want) {
			t.Errorf("%v: exit %d: %.300s", c.args[:2], code, msg)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v wrote %s", c.args[:2], out)
			os.Remove(out)
		}
	}
}

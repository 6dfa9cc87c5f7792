//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sighup sends SIGHUP to this process (aer serve reloads its models).
func sighup(t *testing.T) bool {
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	return true
}

// TestSignalDuringWrite runs aer gen as a child process (this test binary
// re-executed as aer, see TestMain) and sends SIGTERM once the temporary
// output file exists: the child must exit 1 saying it was interrupted and
// leave neither the output nor the temporary file.
func TestSignalDuringWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a large file; skipped in -short mode")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "big.csv")
	cmd := exec.Command(os.Args[0], "gen", "--samples", "400000", "--features", "12", "--seed", "1", "--out", out)
	cmd.Env = append(os.Environ(), runAsAerEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		ents, _ := os.ReadDir(dir)
		if len(ents) > 0 {
			if !strings.HasPrefix(ents[0].Name(), ".big.csv.tmp") {
				t.Fatalf("first file in the directory is %q, not a temporary", ents[0].Name())
			}
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no temporary file appeared within 60 s")
		}
		time.Sleep(time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v, want status 1; stderr %q", err, stderr.String())
	}
	if got := stderr.String(); got != "aer: gen: interrupted\n" {
		t.Errorf("stderr %q", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

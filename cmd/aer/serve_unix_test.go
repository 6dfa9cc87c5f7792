//go:build unix

package main

import (
	"os"
	"syscall"
	"testing"
)

// sighup sends SIGHUP to this process (aer serve reloads its models).
func sighup(t *testing.T) bool {
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	return true
}

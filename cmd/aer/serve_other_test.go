//go:build !unix

package main

import "testing"

// sighup reports that this system cannot send SIGHUP.
func sighup(t *testing.T) bool { return false }

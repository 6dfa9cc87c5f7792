//go:build unix

package cputime

import "testing"

// TestSecondsGrows: busy work adds CPU time.
func TestSecondsGrows(t *testing.T) {
	before := Seconds()
	x := 1.0
	for i := 0; Seconds()-before < 0.02 && i < 1e9; i++ {
		x = x*1.0000001 + 1e-9
	}
	if after := Seconds(); !(after > before) {
		t.Fatalf("CPU time %v then %v after busy work (%v)", before, after, x)
	}
}

package svm

import (
	"testing"

	"github.com/aer-go/aer/learn"
)

// TestFitMemory: small fits need little (the cache holds every column in
// fewer bytes than cache_size), large ones the cache's budget plus a few
// copies of the rows, and cache_size moves the estimate by its megabytes.
func TestFitMemory(t *testing.T) {
	m := &Method{}
	small := m.FitMemory(learn.Shape{Rows: 500, Features: 10})
	// 500 columns of 504 float32s, the rows, the state: about 2 MB.
	if small < 1<<20+500*504*4 || small > 3<<20 {
		t.Errorf("500 x 10: %d bytes", small)
	}
	big := m.FitMemory(learn.Shape{Rows: 1_000_000, Features: 20})
	rows := int64(1_000_000) * 20 * 8
	if big < 200<<20+rows || big > 200<<20+rows+200<<20 {
		t.Errorf("1M x 20: %d bytes, want the 200 MB cache and the rows' %d", big, rows)
	}
	if err := m.Set("cache_size", "50"); err != nil {
		t.Fatal(err)
	}
	less := m.FitMemory(learn.Shape{Rows: 1_000_000, Features: 20})
	if d := big - less; d < 140<<20 || d > 160<<20 { // whole 4 MB columns
		t.Errorf("cache_size 200 -> 50 lowered the estimate by %d bytes, want about 150 MB", d)
	}
	// The registered method (standardising first) estimates too.
	if _, ok := learn.FitMemory(NewStandardized(), learn.Shape{Rows: 100, Features: 3}); !ok {
		t.Error("the registered svm gives no estimate")
	}
}

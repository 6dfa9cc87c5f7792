package learn

import (
	"sync"
	"sync/atomic"
	"testing"
)

// TestShared: one make per key however many goroutines ask at once, every
// caller gets that value, keys are apart, and a nil Shared memoises nothing.
func TestShared(t *testing.T) {
	var s Shared
	var calls [2]atomic.Int32
	var wg sync.WaitGroup
	got := make([]any, 16)
	for i := range got {
		wg.Go(func() {
			key := []string{"a", "b"}[i%2]
			got[i] = s.Get(key, func() any { calls[i%2].Add(1); return key + "!" })
		})
	}
	wg.Wait()
	for i, v := range got {
		if want := []string{"a!", "b!"}[i%2]; v != want {
			t.Errorf("caller %d got %v, want %v", i, v, want)
		}
	}
	if calls[0].Load() != 1 || calls[1].Load() != 1 {
		t.Errorf("makes per key: %d, %d", calls[0].Load(), calls[1].Load())
	}
	var none *Shared
	n := 0
	none.Get("a", func() any { n++; return nil })
	none.Get("a", func() any { n++; return nil })
	if n != 2 {
		t.Errorf("a nil Shared made %d values for two calls", n)
	}
}

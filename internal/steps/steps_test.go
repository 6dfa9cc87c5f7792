package steps

import (
	"sync"
	"testing"
)

// Counter reports 0 of total first, then every count once, in order,
// however many goroutines count; nil counts nothing.
func TestCounter(t *testing.T) {
	var seen []int
	step := Counter(func(done, total int) {
		if total != 40 {
			t.Errorf("total %d", total)
		}
		seen = append(seen, done)
	}, 40)
	var wg sync.WaitGroup
	for range 40 {
		wg.Add(1)
		go func() { defer wg.Done(); step() }()
	}
	wg.Wait()
	if len(seen) != 41 {
		t.Fatalf("%d reports, want 41", len(seen))
	}
	for i, d := range seen {
		if d != i {
			t.Fatalf("report %d says %d done", i, d)
		}
	}
	Counter(nil, 3)() // no callback: nothing to report, no panic
}

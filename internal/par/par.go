package par

import (
	"sync"
	"sync/atomic"
)

// For calls f(0), ..., f(n-1), each once, on up to workers goroutines
// that take the next task as they finish one; with workers <= 1 or
// n <= 1 it calls them in order in the calling goroutine. It returns when
// every call has.
func For(workers, n int, f func(task int)) {
	if workers <= 1 || n <= 1 {
		for t := range n {
			f(t)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for t := int(next.Add(1) - 1); t < n; t = int(next.Add(1) - 1) {
				f(t)
			}
		})
	}
	wg.Wait()
}

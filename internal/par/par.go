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
	ForWorker(workers, n, func(_, task int) { f(task) })
}

// ForWorker is For that also tells f which goroutine runs the task: worker
// is in [0, min(workers, n)), and no two calls with the same worker run at
// once, so f may keep scratch or state per worker. Serially every task
// runs as worker 0.
func ForWorker(workers, n int, f func(worker, task int)) {
	if workers <= 1 || n <= 1 {
		for t := range n {
			f(0, t)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range min(workers, n) {
		wg.Go(func() {
			for t := int(next.Add(1) - 1); t < n; t = int(next.Add(1) - 1) {
				f(w, t)
			}
		})
	}
	wg.Wait()
}

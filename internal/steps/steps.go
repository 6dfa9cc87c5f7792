package steps

import "sync"

// Counter reports to f that none of total steps is done and returns the
// call that counts one more done, serialised, so that workers may call
// it at once; a nil f counts nothing.
func Counter(f func(done, total int), total int) func() {
	if f == nil {
		return func() {}
	}
	var (
		mu   sync.Mutex
		done int
	)
	f(0, total)
	return func() {
		mu.Lock()
		defer mu.Unlock()
		done++
		f(done, total)
	}
}

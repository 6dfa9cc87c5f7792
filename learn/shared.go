package learn

import "sync"

// Shared memoises work derived from a Data's X and W alone, which several
// fits on the same rows can reuse: the feature bins of boosted trees, for
// example, depend on the rows, the weights and the number of bins, not on
// the learning rate or the depth. A caller fitting several settings on the
// same rows (a grid, an ensemble's members) sets the same Shared on each
// Data it passes; a method looks its work up with Get under a key that
// names everything the work depends on besides X and W. A Shared must not
// outlive changes to X or W, nor be set on a Data with other X or W. The
// zero value is ready to use; a nil *Shared memoises nothing.
type Shared struct {
	mu sync.Mutex
	m  map[string]*sharedEntry
}

type sharedEntry struct {
	once sync.Once
	v    any
}

// Get returns the value stored under key, calling make to compute it the
// first time. Concurrent calls with one key wait for a single make. On a
// nil Shared it returns make().
func (s *Shared) Get(key string, make func() any) any {
	if s == nil {
		return make()
	}
	s.mu.Lock()
	if s.m == nil {
		s.m = map[string]*sharedEntry{}
	}
	e := s.m[key]
	if e == nil {
		e = &sharedEntry{}
		s.m[key] = e
	}
	s.mu.Unlock()
	e.once.Do(func() { e.v = make() })
	return e.v
}

package learn

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/aer-go/aer/internal/suggest"
)

// ErrUnknownMethod is returned (wrapped) by New for a name nobody
// registered.
var ErrUnknownMethod = errors.New("unknown method")

var (
	regMu    sync.RWMutex
	registry = map[string]func() Method{}
)

// Register makes a method available by the name its constructor's Method
// reports. It is meant to be called once per method at start-up (package
// methods of this module does it for every method); registering a name
// twice panics, as database/sql.Register does.
func Register(newMethod func() Method) {
	name := newMethod().Name()
	regMu.Lock()
	defer regMu.Unlock()
	if name == "" {
		panic("learn: Register of a method with no name")
	}
	if _, dup := registry[name]; dup {
		panic("learn: Register called twice for method " + name)
	}
	registry[name] = newMethod
}

// New returns a fresh Method, with default parameters, registered as name.
// For a name nobody registered, its error names the registered methods,
// after the nearest ones when name looks like a typo of them
// (`unknown method "gdbt" (did you mean gbdt?) (known: ...)`).
func New(name string) (Method, error) {
	regMu.RLock()
	f, ok := registry[name]
	regMu.RUnlock()
	if !ok {
		names := Names()
		return nil, fmt.Errorf("%w %q%s (known: %s)", ErrUnknownMethod, name, suggest.Hint(name, names, ""), strings.Join(names, ", "))
	}
	return f(), nil
}

// Registered tells whether a method is registered as name.
func Registered(name string) bool {
	regMu.RLock()
	defer regMu.RUnlock()
	_, ok := registry[name]
	return ok
}

// Names returns the registered method names, sorted.
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Describe returns m's description, or "" when it has none.
func Describe(m Method) string {
	if d, ok := m.(Describer); ok {
		return d.Describe()
	}
	return ""
}

// Clone returns a fresh copy of m from the registry: the method
// registered under m.Name() with every parameter m sets away from its
// default set the same. m must be registered (ErrUnknownMethod).
func Clone(m Method) (Method, error) {
	c, err := New(m.Name())
	if err != nil {
		return nil, err
	}
	for _, p := range m.Params() {
		if p.Value != p.Default {
			if err := c.Set(p.Key, p.Value); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

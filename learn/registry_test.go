package learn_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer/learn"
)

// named is a method that only has a name (and a description when it
// has one).
type named struct{ name, describe string }

func (m named) Name() string { return m.name }
func (m named) Set(key, value string) error {
	return fmt.Errorf("%w: %q is unknown", learn.ErrParam, key)
}
func (m named) Params() []learn.Param             { return nil }
func (m named) Load([]byte) (learn.Scorer, error) { return nil, errors.New("nothing to load") }
func (m named) Fit(context.Context, *learn.Data, *learn.Data, learn.Env) (learn.Scorer, error) {
	return newLogit(1), nil
}

type described struct{ named }

func (m described) Describe() string { return m.describe }

// register registers a named method once, so that the tests also pass
// when run again in the same process (go test -count=2).
func register(name string) {
	if !learn.Registered(name) {
		learn.Register(func() learn.Method { return described{named{name, "the method " + name}} })
	}
}

func TestRegistry(t *testing.T) {
	for _, n := range []string{"test-zeta", "test-alpha", "test-mid"} {
		register(n)
	}
	names := learn.Names()
	if !slices.IsSorted(names) {
		t.Errorf("Names are not sorted: %v", names)
	}
	for _, n := range []string{"test-alpha", "test-mid", "test-zeta"} {
		if !slices.Contains(names, n) || !learn.Registered(n) {
			t.Errorf("%s is not registered: %v", n, names)
		}
		m, err := learn.New(n)
		if err != nil {
			t.Fatalf("New(%q): %v", n, err)
		}
		if m.Name() != n || learn.Describe(m) != "the method "+n {
			t.Errorf("New(%q) gave %q, %q", n, m.Name(), learn.Describe(m))
		}
	}
	if learn.Registered("test-unknown") || learn.Registered("") {
		t.Error("Registered says yes to a name nobody registered")
	}
	if d := learn.Describe(named{name: "x"}); d != "" {
		t.Errorf("Describe of a method without a description = %q", d)
	}
}

func TestNewUnknown(t *testing.T) {
	register("test-alpha")
	m, err := learn.New("test-nope")
	if m != nil || !errors.Is(err, learn.ErrUnknownMethod) {
		t.Fatalf("New of an unknown name: %v, %v; want ErrUnknownMethod", m, err)
	}
	want := fmt.Sprintf(`"test-nope" (known: %s)`, strings.Join(learn.Names(), ", "))
	if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "test-alpha") {
		t.Errorf("New: %q, want it to say %q", err, want)
	}
}

// TestNewSuggests: an unknown name a typo away from a registered one is
// told the nearest name, before the list of all.
func TestNewSuggests(t *testing.T) {
	register("test-alpha")
	_, err := learn.New("test-aplha")
	want := fmt.Sprintf(`unknown method "test-aplha" (did you mean test-alpha?) (known: %s)`, strings.Join(learn.Names(), ", "))
	if !errors.Is(err, learn.ErrUnknownMethod) || err == nil || err.Error() != want {
		t.Errorf("New: %v, want %q", err, want)
	}
	if _, err := learn.New("test-nope"); err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("New of a name near none: %v, want no suggestion", err)
	}
}

// TestNewIsFresh: each New returns a new Method, so setting a parameter
// of one does not reach another.
func TestNewIsFresh(t *testing.T) {
	const name = "test-fresh"
	if !learn.Registered(name) {
		learn.Register(func() learn.Method { return &counter{} })
	}
	a, _ := learn.New(name)
	b, _ := learn.New(name)
	if err := a.Set("n", "5"); err != nil {
		t.Fatal(err)
	}
	if a.Params()[0].Value != "5" || b.Params()[0].Value != "0" {
		t.Errorf("after a.Set: a has n=%s, b n=%s", a.Params()[0].Value, b.Params()[0].Value)
	}
}

type counter struct {
	named
	n int
}

var counterParams = learn.ParamTable[counter]{
	learn.Int("n", "a count", 0, 1000, func(c *counter) *int { return &c.n }),
}

func (c *counter) Name() string                { return "test-fresh" }
func (c *counter) Set(key, value string) error { return counterParams.Set(c, key, value) }
func (c *counter) Params() []learn.Param       { return counterParams.List(c, &counter{}) }

func TestRegisterPanics(t *testing.T) {
	register("test-dup")
	for _, tc := range []struct {
		name, want string
		method     learn.Method
	}{
		{"duplicate", "twice for method test-dup", named{name: "test-dup"}},
		{"no name", "no name", named{}},
	} {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, tc.want) {
					t.Errorf("%s: Register panicked with %v, want %q", tc.name, r, tc.want)
				}
			}()
			learn.Register(func() learn.Method { return tc.method })
		}()
	}
	// The first registration stands.
	if m, err := learn.New("test-dup"); err != nil || learn.Describe(m) != "the method test-dup" {
		t.Errorf("after the panics New(test-dup) = %v, %v", m, err)
	}
}

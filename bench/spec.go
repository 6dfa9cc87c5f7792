package bench

import (
	"fmt"
	"strings"

	"github.com/aer-go/aer/learn"
)

// Spec is one method to benchmark: a registered method name and parameters
// set on it, written NAME or NAME:key=value:key=value ("aer:preset=paper").
type Spec struct {
	Name   string
	Params []Param
}

// Param is one key=value parameter of a Spec.
type Param struct{ Key, Value string }

// ParseSpec reads a spec written NAME or NAME:key=value:key=value. The name
// must be registered; the parameters are checked by New.
func ParseSpec(s string) (Spec, error) {
	parts := strings.Split(strings.TrimSpace(s), ":")
	sp := Spec{Name: strings.TrimSpace(parts[0])}
	if sp.Name == "" {
		return Spec{}, fmt.Errorf("method spec %q: no method name (want NAME or NAME:key=value)", s)
	}
	for _, kv := range parts[1:] {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return Spec{}, fmt.Errorf("method spec %q: %q is not key=value", s, kv)
		}
		sp.Params = append(sp.Params, Param{k, strings.TrimSpace(v)})
	}
	if _, err := sp.New(); err != nil {
		return Spec{}, fmt.Errorf("method spec %q: %w", s, err)
	}
	return sp, nil
}

// String writes the spec as ParseSpec reads it.
func (s Spec) String() string {
	var b strings.Builder
	b.WriteString(s.Name)
	for _, p := range s.Params {
		b.WriteString(":" + p.Key + "=" + p.Value)
	}
	return b.String()
}

// New returns a fresh method of the registry with the spec's parameters set.
func (s Spec) New() (learn.Method, error) {
	m, err := learn.New(s.Name)
	if err != nil {
		return nil, err
	}
	for _, p := range s.Params {
		if err := m.Set(p.Key, p.Value); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// dir is the spec as a directory name: characters other than letters,
// digits and ._=- become _, ':' included ("aer_preset=paper").
func (s Spec) dir() string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '=', r == '-':
			return r
		}
		return '_'
	}, s.String())
}

// paramText is the spec's parameters as space-separated key=value.
func (s Spec) paramText() string {
	kv := make([]string, len(s.Params))
	for i, p := range s.Params {
		kv[i] = p.Key + "=" + p.Value
	}
	return strings.Join(kv, " ")
}

// PaperPreset is the spec of AER configured as the paper describes it,
// in the default list when the aer method accepts it.
var PaperPreset = Spec{Name: "aer", Params: []Param{{"preset", "paper"}}}

// DefaultSpecs returns every registered method with its defaults, in name
// order, and after aer its paper preset (aer:preset=paper) when the aer
// method accepts that parameter.
func DefaultSpecs() []Spec {
	var out []Spec
	for _, n := range learn.Names() {
		out = append(out, Spec{Name: n})
		if n == PaperPreset.Name {
			if _, err := PaperPreset.New(); err == nil {
				out = append(out, PaperPreset)
			}
		}
	}
	return out
}

// ParseSpecs reads a comma-separated list of specs; "" gives DefaultSpecs.
func ParseSpecs(list string) ([]Spec, error) {
	if strings.TrimSpace(list) == "" {
		return DefaultSpecs(), nil
	}
	var out []Spec
	for _, s := range strings.Split(list, ",") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		sp, err := ParseSpec(s)
		if err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, nil
}

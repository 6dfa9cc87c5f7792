package adaptive

import (
	"fmt"
	"strings"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/svm"
)

// DefaultMember returns the method the members are trained with when
// Config.Member is nil: boosted trees with XGBoost's defaults, which the
// plus preset sets to 60 trees of depth 4 (the paper preset keeps them).
// It is the one place that names AER's default member.
func DefaultMember() learn.Method { return boost.NewMethod() }

// builtin are the methods AER reaches by name even when nothing
// registered them: its default member and the plus preset's peers, so
// that the presets fit, and their models load, without package methods.
var builtin = map[string]func() learn.Method{
	DefaultMember().Name(): DefaultMember,
	logreg.MethodName:      logreg.NewStandardized,
	svm.MethodName:         svm.NewStandardized,
}

// methodByName returns a fresh method, with its defaults, registered as
// name (learn.New), or one of the builtin methods.
func methodByName(name string) (learn.Method, error) {
	if !learn.Registered(name) {
		if f, ok := builtin[name]; ok {
			return f(), nil
		}
	}
	m, err := learn.New(name)
	if err != nil {
		return nil, fmt.Errorf("aer: %w", err)
	}
	return m, nil
}

// settingsOf returns m's parameters whose values differ from their
// defaults, as key=value in m's order: what a fresh method of the same
// name needs to be set to equal m.
func settingsOf(m learn.Method) []string {
	var out []string
	for _, p := range m.Params() {
		if p.Value != p.Default {
			out = append(out, p.Key+"="+p.Value)
		}
	}
	return out
}

// configured returns a fresh method registered as name with settings
// ("key=value") applied in order.
func configured(name string, settings ...[]string) (learn.Method, error) {
	m, err := methodByName(name)
	if err != nil {
		return nil, err
	}
	for _, list := range settings {
		if err := apply(m, list); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// apply sets every "key=value" of settings on m, in order.
func apply(m learn.Method, settings []string) error {
	for _, kv := range settings {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("aer: %s parameter %q: want key=value", m.Name(), kv)
		}
		if err := m.Set(k, v); err != nil {
			return fmt.Errorf("aer: %s: %w", m.Name(), err)
		}
	}
	return nil
}

// cloneMethod returns a copy of m that can be set without changing m: a
// fresh method of m's name set to m's settings.
func cloneMethod(m learn.Method) (learn.Method, error) {
	return configured(m.Name(), settingsOf(m))
}

// methodNames returns the names of ms.
func methodNames(ms []learn.Method) []string {
	if ms == nil {
		return nil
	}
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name()
	}
	return names
}

// methodsByName returns fresh methods registered as names (nil for nil).
func methodsByName(names []string) ([]learn.Method, error) {
	if names == nil {
		return nil, nil
	}
	ms := make([]learn.Method, len(names))
	for i, name := range names {
		m, err := methodByName(name)
		if err != nil {
			return nil, err
		}
		ms[i] = m
	}
	return ms, nil
}

// peerSettings returns the peers' settings as "NAME.key=value", the form
// of the configuration's peer_params.
func peerSettings(peers []learn.Method) []string {
	var out []string
	for _, p := range peers {
		for _, kv := range settingsOf(p) {
			out = append(out, p.Name()+"."+kv)
		}
	}
	return out
}

// findPeer returns the index of the peer named name, or -1.
func findPeer(peers []learn.Method, name string) int {
	for i, p := range peers {
		if p.Name() == name {
			return i
		}
	}
	return -1
}

package methods_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/aer-go/aer/learn"
)

// TestIntegerParamsBounded walks the registry: every integer parameter of
// every method (one that takes its default back but refuses 2.5) refuses
// counts no machine holds, 2^31 and 2^40, with learn.ErrParam, and leaves
// the method as it was.
func TestIntegerParamsBounded(t *testing.T) {
	checked := map[string]bool{}
	for _, name := range learn.Names() {
		m, err := learn.New(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m.Params() {
			fresh := func() learn.Method {
				m, err := learn.New(name)
				if err != nil {
					t.Fatal(err)
				}
				return m
			}
			if _, err := strconv.Atoi(p.Default); err != nil || fresh().Set(p.Key, "2.5") == nil {
				continue // not an integer parameter
			}
			if err := fresh().Set(p.Key, p.Default); err != nil {
				t.Errorf("%s %s: its default %s is refused: %v", name, p.Key, p.Default, err)
			}
			checked[name+" "+p.Key] = true
			for _, v := range []string{"2147483648", strconv.Itoa(1 << 40), "99999999999999999999"} {
				m := fresh()
				err := m.Set(p.Key, v)
				if !errors.Is(err, learn.ErrParam) {
					t.Errorf("%s %s=%s: got %v, want an error wrapping learn.ErrParam", name, p.Key, v, err)
					continue
				}
				for _, q := range m.Params() {
					if q.Key == p.Key && q.Value != p.Default {
						t.Errorf("%s %s=%s: refused but left the value %s (default %s)", name, p.Key, v, q.Value, p.Default)
					}
				}
			}
		}
	}
	// The walk must have reached the counts that allocate or loop.
	for _, want := range []string{
		"balanced-rf n_estimators", "balanced-bagging n_estimators", "rusboost n_estimators",
		"easy-ensemble n_estimators", "easy-ensemble rounds", "gbdt n_estimators", "gbdt max_depth",
		"logreg max_iter", "svm max_iter", "svm degree", "mlp-focal max_epochs", "mlp-focal hidden1",
		"smote-gbdt k_neighbors", "aer n_init", "aer member.n_estimators", "aer peer.logreg.max_iter",
		"tree max_depth", "tree min_samples_leaf",
	} {
		if !checked[want] {
			t.Errorf("%s was not checked as an integer parameter", want)
		}
	}
	if len(checked) < 50 {
		t.Errorf("only %d integer parameters checked", len(checked))
	}
}

package adaboost_test

import (
	"testing"

	"github.com/aer-go/aer/adaboost"
	"github.com/aer-go/aer/decompose"
	"github.com/aer-go/aer/learn"
)

// TestDefaultStrategy: the boosted ensembles fit multi-class labels
// one-vs-rest unless native is asked for, which they have.
func TestDefaultStrategy(t *testing.T) {
	for _, m := range []learn.Method{adaboost.NewRUSBoost(), adaboost.NewEasyEnsemble(), adaboost.NewAdaBoost()} {
		if s := decompose.DefaultStrategy(m); s != decompose.OneVsRest {
			t.Errorf("%s: default %q", m.Name(), s)
		}
		if _, ok := m.(learn.ClassFitter); !ok {
			t.Errorf("%s is not a learn.ClassFitter", m.Name())
		}
	}
}

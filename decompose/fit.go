package decompose

import (
	"github.com/aer-go/aer/learn"
)

// Native is the strategy of a method's own multi-class model
// (learn.ClassFitter: softmax boosted trees, multinomial logistic
// regression), beside OneVsRest and OneVsOne.
const Native = "native"

// Decomposer is implemented by a learn.ClassFitter whose own
// multi-class model is not its default: PreferDecomposition returns the
// strategy (OneVsRest or OneVsOne) DefaultStrategy gives it, its native
// model reachable by asking for Native.
type Decomposer interface {
	PreferDecomposition() string
}

// DefaultStrategy is the strategy of method when none is asked for:
// Native for a learn.ClassFitter (unless it is a Decomposer), else
// OneVsRest.
func DefaultStrategy(method learn.Method) string {
	if d, ok := method.(Decomposer); ok {
		if s := d.PreferDecomposition(); s != "" {
			return s
		}
	}
	if _, ok := method.(learn.ClassFitter); ok {
		return Native
	}
	return OneVsRest
}

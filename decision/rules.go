package decision

import (
	"fmt"
	"slices"
	"sync"
)

// RuleData is what a registered rule fits class weights on: the labels
// (0..Classes-1) and optional weights of the training rows, and, when
// there are validation rows, their labels and the model's probabilities
// of them (row-major, Classes per row; nil without validation rows).
// Start holds the Bayes weights (1 over each class's training share),
// a rule's usual starting point; the rule may keep or change the slice.
type RuleData struct {
	Classes int
	TrainY  []int
	TrainW  []float64
	ValidY  []int
	Proba   []float64
	Start   []float64
}

// RuleFunc fits the class weights of a layer: one positive, finite
// weight per class. The layer predicts the class of largest weight times
// probability.
type RuleFunc func(d RuleData) ([]float64, error)

var (
	rulesMu sync.RWMutex
	rules   = map[string]RuleFunc{}
)

// builtin names the rules of this package, which RegisterRule refuses.
var builtin = []string{RuleArgmax, RuleBayes, RuleCost, RuleTuned}

// RegisterRule adds a decision rule of three or more classes under name,
// for Options.Rule (aer fit --threshold-rule NAME): the one place a new
// rule is added. A model file keeps the rule's name and the weights it
// fitted, so a file of a registered rule loads where the rule is
// registered. It panics, as a programming error, on an empty name, a nil
// func, a built-in name or one registered before.
func RegisterRule(name string, fit RuleFunc) {
	rulesMu.Lock()
	defer rulesMu.Unlock()
	if name == "" || fit == nil {
		panic("decision: RegisterRule needs a name and a func")
	}
	if slices.Contains(builtin, name) {
		panic(fmt.Sprintf("decision: rule %q is built in", name))
	}
	if _, dup := rules[name]; dup {
		panic(fmt.Sprintf("decision: rule %q registered twice", name))
	}
	rules[name] = fit
}

func lookupRule(name string) (RuleFunc, bool) {
	rulesMu.RLock()
	defer rulesMu.RUnlock()
	r, ok := rules[name]
	return r, ok
}

// RuleNames lists every rule, built in and registered, sorted.
func RuleNames() []string {
	rulesMu.RLock()
	defer rulesMu.RUnlock()
	out := slices.Clone(builtin)
	for name := range rules {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

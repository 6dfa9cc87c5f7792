package ensemble

import "fmt"

// OutputKind says what the base outputs are.
type OutputKind int

const (
	// Probabilities: each output is P(y = 1 | x) in [0, 1] (the default).
	Probabilities OutputKind = iota
	// Labels: each output is a 0/1 class prediction, as the paper's text
	// says. w.f is then often exactly 0 or 1, where the cross-entropy is
	// infinite; the eps clipping keeps the loss finite.
	Labels
)

// Projection chooses how a gradient step is mapped back to the simplex.
type Projection int

const (
	// Euclidean is the Euclidean projection onto the simplex (ProjectSimplex).
	Euclidean Projection = iota
	// MinMax is the paper's Eq. 14 (ProjectMinMax).
	MinMax
)

// Schedule chooses the step size eta_t = c_t/||g_t|| of FitStatic, where g_t
// is the gradient and c = StaticSettings.StepScale < 1.
type Schedule int

const (
	// Backtracking starts with c_t = c; a step that does not lower the
	// loss is rejected and retried with c_t halved; after an accepted step
	// c_t grows by 1.5 up to c again. The loss never increases.
	Backtracking Schedule = iota
	// Constant uses c_t = c at every step (the Python reference used
	// c = 0.5). The loss may go up; the best iterate is kept.
	Constant
	// InvSqrt uses c_t = c/sqrt(t) for step t = 1, 2, ... (the classical
	// normalised subgradient schedule, which converges without a loss
	// evaluation per step).
	InvSqrt
)

// InitRule chooses the starting weights of FitStatic.
type InitRule int

const (
	// InitAuto is InitInfo when StaticSettings.Leaves is given and
	// InitUniform otherwise.
	InitAuto InitRule = iota
	// InitInfo is the AIC/BIC initialisation of Eqs. 15-17 (InfoInit).
	InitInfo
	// InitUniform starts from 1/M for each of the M members.
	InitUniform
)

// Rule chooses how per-component log-densities become dynamic weights.
type Rule int

const (
	// Exp is N_l/sum_j N_j, the softmax of the log-densities (Eq. 18,
	// "exp-likelihood"), computed with log-sum-exp.
	Exp Rule = iota
	// Log is the literal log N_l / sum_j log N_j (Eq. 18,
	// "log-likelihood"); a row where any ratio leaves [0, 1] falls back to
	// Exp and is counted in DynamicDiag.
	Log
	// Tempered is softmax(log N_l / T): T = 1 is Exp, T -> infinity
	// approaches Uniform and T -> 0 selects the single nearest component.
	Tempered
	// Uniform gives every component 1/L (the T -> infinity limit).
	Uniform
)

var (
	// The names are those of aer's configuration and --param, so a
	// setting reads the same everywhere.
	outputNames     = []string{"proba", "binary"}
	projectionNames = []string{"simplex", "minmax"}
	scheduleNames   = []string{"backtracking", "constant", "invsqrt"}
	initNames       = []string{"auto", "info", "uniform"}
	ruleNames       = []string{"exp", "log", "tempered", "uniform"}
)

func name(names []string, i int, kind string) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%s(%d)", kind, i)
}

// formerNames are earlier names still read.
var formerNames = map[string]string{"probabilities": "proba", "labels": "binary", "euclidean": "simplex"}

// parse sets *dst to the index of the name b (or its former name) in
// names; an unknown name sets it to 0 and is an error.
func parse[T ~int](dst *T, names []string, b []byte, kind string) error {
	for i, n := range names {
		if string(b) == n || formerNames[string(b)] == n {
			*dst = T(i)
			return nil
		}
	}
	*dst = 0
	return fmt.Errorf("ensemble: unknown %s %q (want one of %v)", kind, b, names)
}

// String returns the kind's name ("proba", "binary"), or "OutputKind(N)"
// for a value out of range.
func (k OutputKind) String() string { return name(outputNames, int(k), "OutputKind") }

// String returns the projection's name, or "Projection(N)" for a value out
// of range.
func (p Projection) String() string { return name(projectionNames, int(p), "Projection") }

// String returns the schedule's name, or "Schedule(N)" for a value out of
// range.
func (s Schedule) String() string { return name(scheduleNames, int(s), "Schedule") }

// String returns the rule's name, or "InitRule(N)" for a value out of
// range.
func (r InitRule) String() string { return name(initNames, int(r), "InitRule") }

// String returns the rule's name ("exp", "log", "tempered", "uniform"), or
// "Rule(N)" for a value out of range.
func (r Rule) String() string { return name(ruleNames, int(r), "Rule") }

// MarshalText encodes k by name.
func (k OutputKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// MarshalText encodes p by name.
func (p Projection) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// MarshalText encodes s by name.
func (s Schedule) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// MarshalText encodes r by name.
func (r InitRule) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// MarshalText encodes r by name ("exp", "log", "tempered", "uniform").
func (r Rule) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText decodes a name written by MarshalText.
func (k *OutputKind) UnmarshalText(b []byte) error { return parse(k, outputNames, b, "output kind") }

// UnmarshalText decodes a name written by MarshalText.
func (p *Projection) UnmarshalText(b []byte) error { return parse(p, projectionNames, b, "projection") }

// UnmarshalText decodes a name written by MarshalText.
func (s *Schedule) UnmarshalText(b []byte) error { return parse(s, scheduleNames, b, "schedule") }

// UnmarshalText decodes a name written by MarshalText.
func (r *InitRule) UnmarshalText(b []byte) error { return parse(r, initNames, b, "init rule") }

// UnmarshalText decodes a name written by MarshalText.
func (r *Rule) UnmarshalText(b []byte) error { return parse(r, ruleNames, b, "rule") }

package learn

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/par"
)

// ErrNoAttribution is wrapped by the error of a model that offers no
// feature attributions (a method without them, or a wrapper around one).
var ErrNoAttribution = errors.New("the model offers no feature attributions")

// Space names the scale of the output an Attribution decomposes.
type Space string

const (
	// Logit: the output is the log-odds (the raw margin of boosted trees,
	// w.x + b of logistic regression); the probability is its sigmoid.
	Logit Space = "logit"
	// Probability: the output is the probability itself (a tree's leaf
	// share, the mean of a forest's trees).
	Probability Space = "probability"
)

// Attributor is a Model that attributes its output for a row to the row's
// features: Base[i] + sum_j Phi[i][j] equals the output of row i in Space.
// Attribute finds it through wrappers that change neither rows nor
// scores; a wrapper that transforms the rows feature by feature (as
// preprocessing does) implements it on the transformed rows with
// AttributeInner, which wraps ErrNoAttribution when what it wraps has
// none. Use Attribute.
type Attributor interface {
	// Attribute returns the attributions of every row of x (raw features
	// in training order, NaN = missing), on one goroutine.
	Attribute(x *mat.Dense) (*Attribution, error)
}

// Attribution holds the feature attributions of rows: row i's output in
// Space is Base[i] plus the sum of row i of Phi.
type Attribution struct {
	Space Space
	// Method says in one line what the values are ("exact TreeSHAP of
	// the margin", ...), for people reading them.
	Method string
	// Base is each row's base value (a constant, the expected output, for
	// most models; per row for a mixture of experts such as AER).
	Base []float64
	// Phi holds one attribution per row and feature.
	Phi *mat.Dense
}

// Output returns row i's output: Base[i] + sum_j Phi[i][j].
func (a *Attribution) Output(i int) float64 {
	s := a.Base[i]
	for _, v := range a.Phi.RawRowView(i) {
		s += v
	}
	return s
}

// Attribute returns m's attributions of the rows of x, rows spread over
// workers goroutines (0: GOMAXPROCS) in fixed blocks, so the result does
// not depend on workers. The attributions are those of m or of a model it
// wraps on the same rows and scores (Find with InputChanged|ScoreChanged);
// without one, the error wraps ErrNoAttribution. A NaN attribution is an
// error naming its row.
func Attribute(ctx context.Context, m Scorer, x *mat.Dense, workers int) (*Attribution, error) {
	at, ok := Find[Attributor](m, InputChanged|ScoreChanged)
	if !ok {
		return nil, ErrNoAttribution
	}
	out, err := attributeRows(ctx, m, x, workers, 0, func(x *mat.Dense) ([]*Attribution, error) {
		a, err := at.Attribute(x)
		return []*Attribution{a}, err
	})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// ClassAttributor is a Model that attributes each class's output for a
// row to the row's features: for every class c, Base[i] + sum_j
// Phi[i][j] of the c-th Attribution equals class c's output of row i in
// that Attribution's Space (the class's margin for softmax boosted
// trees, its linear score for multinomial logistic regression, the
// class's one-vs-rest member's log-odds for a decomposition). The
// outputs are not the class probabilities: how they make them is the
// model's (a softmax, a normalisation), and the Attributions' Method says
// it. A model that offers none (one-vs-one, members without
// attributions) returns an error wrapping ErrNoAttribution that says
// why. Use AttributeClasses.
type ClassAttributor interface {
	// AttributeClasses returns one Attribution per class, in class
	// order, of every row of x (raw features in training order, NaN =
	// missing), on one goroutine.
	AttributeClasses(x *mat.Dense) ([]*Attribution, error)
}

// AttributeClasses returns m's per-class attributions of the rows of x
// (ClassAttributor), rows spread over workers goroutines (0: GOMAXPROCS)
// in fixed blocks, so the result does not depend on workers. A model
// that is not a ClassAttributor gives an error wrapping ErrNoAttribution;
// a NaN attribution is an error naming its class and row.
func AttributeClasses(ctx context.Context, m Model, x *mat.Dense, workers int) ([]*Attribution, error) {
	at, ok := m.(ClassAttributor)
	if !ok {
		return nil, fmt.Errorf("%w: the multi-class model attributes no class's output", ErrNoAttribution)
	}
	return attributeRows(ctx, m, x, workers, m.NumClasses(), at.AttributeClasses)
}

// attributeRows runs attr on blocks of the rows of x, spread over
// workers goroutines, checks what it gives and joins the blocks: k
// attributions per block for k classes, one for k = 0 (a Scorer's, whose
// errors name no class).
func attributeRows(ctx context.Context, m interface{ NumFeatures() int }, x *mat.Dense, workers, k int, attr func(*mat.Dense) ([]*Attribution, error)) ([]*Attribution, error) {
	if x == nil || x.IsEmpty() {
		return nil, fmt.Errorf("%w: no rows to attribute", ErrData)
	}
	n, p := x.Dims()
	if p != m.NumFeatures() {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", ErrData, p, m.NumFeatures())
	}
	classes := max(k, 1)
	const block = 256
	blocks := (n + block - 1) / block
	parts := make([][]*Attribution, blocks)
	errs := make([]error, blocks)
	par.For(Env{Workers: workers}.Threads(), blocks, func(b int) {
		if errs[b] = Interrupted(ctx); errs[b] != nil {
			return
		}
		r0, r1 := b*block, min(n, (b+1)*block)
		parts[b], errs[b] = attr(x.Slice(r0, r1, 0, p).(*mat.Dense))
		if errs[b] == nil {
			errs[b] = checkShapes(parts[b], k, r1-r0, p)
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	out := parts[0]
	if blocks > 1 {
		out = make([]*Attribution, classes)
		for c := range out {
			a := &Attribution{Space: parts[0][c].Space, Method: parts[0][c].Method, Base: make([]float64, 0, n), Phi: mat.NewDense(n, p, nil)}
			for b, part := range parts {
				if part[c].Space != a.Space {
					return nil, fmt.Errorf("the model gave%s attributions in %s and %s space", ofClass(" class %d", c, k), a.Space, part[c].Space)
				}
				a.Base = append(a.Base, part[c].Base...)
				a.Phi.Slice(b*block, b*block+len(part[c].Base), 0, p).(*mat.Dense).Copy(part[c].Phi)
			}
			out[c] = a
		}
	}
	for c, a := range out {
		if err := check(a); err != nil {
			if k == 0 {
				return nil, err
			}
			return nil, fmt.Errorf("class %d: %w", c, err)
		}
	}
	return out, nil
}

func check(a *Attribution) error {
	for i, b := range a.Base {
		if math.IsNaN(b) {
			return fmt.Errorf("the base value of row %d is NaN", i+1)
		}
		for _, v := range a.Phi.RawRowView(i) {
			if math.IsNaN(v) {
				return fmt.Errorf("an attribution of row %d is NaN", i+1)
			}
		}
	}
	return nil
}

// ofClass is format with class c for k classes, "" for k = 0.
func ofClass(format string, c, k int) string {
	if k == 0 {
		return ""
	}
	return fmt.Sprintf(format, c)
}

// checkShapes checks that a holds k attributions (one for k = 0) of r
// rows and p features.
func checkShapes(a []*Attribution, k, r, p int) error {
	if len(a) != max(k, 1) {
		return fmt.Errorf("the model gave attributions of %d classes, it has %d", len(a), k)
	}
	for c, at := range a {
		if pr, pc := at.Phi.Dims(); pr != r || pc != p || len(at.Base) != r {
			return fmt.Errorf("the model gave %dx%d attributions%s for %dx%d rows", pr, pc, ofClass(" of class %d", c, k), r, p)
		}
	}
	return nil
}

// AttributeInner is Attribute on one goroutine without its checks, for
// a model that attributes with the models it holds (a preprocessing
// wrapper on its transformed rows, an ensemble's members): an error
// wrapping ErrNoAttribution when inner's chain has no Attributor valid
// for inner's scores.
func AttributeInner(inner Scorer, x *mat.Dense) (*Attribution, error) {
	at, ok := Find[Attributor](inner, InputChanged|ScoreChanged)
	if !ok {
		return nil, ErrNoAttribution
	}
	return at.Attribute(x)
}

// Importancer is a Model with built-in global feature importances (the
// split gains and covers of boosted trees, a tree's impurity decrease).
type Importancer interface {
	// Importances returns one value per feature for each kind it knows.
	Importances() []Importance
}

// Importance is one kind of built-in importance, one value per feature.
type Importance struct {
	Kind   string    `json:"kind"`
	Values []float64 `json:"values"`
}

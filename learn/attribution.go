package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"
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
	if x == nil || x.IsEmpty() {
		return nil, fmt.Errorf("%w: no rows to attribute", ErrData)
	}
	n, c := x.Dims()
	if c != m.NumFeatures() {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", ErrData, c, m.NumFeatures())
	}
	const block = 256
	blocks := (n + block - 1) / block
	parts := make([]*Attribution, blocks)
	errs := make([]error, blocks)
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(Env{Workers: workers}.Threads(), blocks) {
		wg.Go(func() {
			for b := range next {
				if errs[b] = Interrupted(ctx); errs[b] != nil {
					continue
				}
				r0, r1 := b*block, min(n, (b+1)*block)
				parts[b], errs[b] = at.Attribute(x.Slice(r0, r1, 0, c).(*mat.Dense))
				if errs[b] == nil {
					if pr, pc := parts[b].Phi.Dims(); pr != r1-r0 || pc != c || len(parts[b].Base) != pr {
						errs[b] = fmt.Errorf("the model gave %dx%d attributions for %dx%d rows", pr, pc, r1-r0, c)
					}
				}
			}
		})
	}
	for b := range blocks {
		next <- b
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if blocks == 1 {
		if err := check(parts[0]); err != nil {
			return nil, err
		}
		return parts[0], nil
	}
	out := &Attribution{Space: parts[0].Space, Method: parts[0].Method, Base: make([]float64, 0, n), Phi: mat.NewDense(n, c, nil)}
	for b, p := range parts {
		if p.Space != out.Space {
			return nil, fmt.Errorf("the model gave attributions in %s and %s space", out.Space, p.Space)
		}
		out.Base = append(out.Base, p.Base...)
		out.Phi.Slice(b*block, b*block+len(p.Base), 0, c).(*mat.Dense).Copy(p.Phi)
	}
	if err := check(out); err != nil {
		return nil, err
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

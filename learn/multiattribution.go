package learn

import (
	"context"
	"fmt"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// MultiAttributor is a MultiModel that attributes each class's output
// for a row to the row's features: for every class c, Base[i] + sum_j
// Phi[i][j] of the c-th Attribution equals class c's output of row i in
// that Attribution's Space (the class's margin for softmax boosted
// trees, its linear score for multinomial logistic regression, the
// class's one-vs-rest member's log-odds for a decomposition). The
// outputs are not the class probabilities: how they make them is the
// model's (a softmax, a normalisation), and the Attributions' Method says
// it. A model that offers none (one-vs-one, members without
// attributions) returns an error wrapping ErrNoAttribution that says
// why. Use AttributeClasses.
type MultiAttributor interface {
	// AttributeClasses returns one Attribution per class, in class
	// order, of every row of x (raw features in training order, NaN =
	// missing), on one goroutine.
	AttributeClasses(x *mat.Dense) ([]*Attribution, error)
}

// AttributeClasses returns m's per-class attributions of the rows of x
// (MultiAttributor), rows spread over workers goroutines (0: GOMAXPROCS)
// in fixed blocks, so the result does not depend on workers. A model
// that is not a MultiAttributor gives an error wrapping ErrNoAttribution;
// a NaN attribution is an error naming its class and row.
func AttributeClasses(ctx context.Context, m Model, x *mat.Dense, workers int) ([]*Attribution, error) {
	at, ok := m.(MultiAttributor)
	if !ok {
		return nil, fmt.Errorf("%w: the multi-class model attributes no class's output", ErrNoAttribution)
	}
	if x == nil || x.IsEmpty() {
		return nil, fmt.Errorf("%w: no rows to attribute", ErrData)
	}
	n, p := x.Dims()
	if p != m.NumFeatures() {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", ErrData, p, m.NumFeatures())
	}
	k := m.NumClasses()
	const block = 256
	blocks := (n + block - 1) / block
	parts := make([][]*Attribution, blocks)
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
				parts[b], errs[b] = at.AttributeClasses(x.Slice(r0, r1, 0, p).(*mat.Dense))
				if errs[b] == nil {
					errs[b] = checkClassShapes(parts[b], k, r1-r0, p)
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
	out := parts[0]
	if blocks > 1 {
		out = make([]*Attribution, k)
		for c := range out {
			a := &Attribution{Space: parts[0][c].Space, Method: parts[0][c].Method, Base: make([]float64, 0, n), Phi: mat.NewDense(n, p, nil)}
			for b, part := range parts {
				if part[c].Space != a.Space {
					return nil, fmt.Errorf("the model gave class %d attributions in %s and %s space", c, a.Space, part[c].Space)
				}
				a.Base = append(a.Base, part[c].Base...)
				a.Phi.Slice(b*block, b*block+len(part[c].Base), 0, p).(*mat.Dense).Copy(part[c].Phi)
			}
			out[c] = a
		}
	}
	for c, a := range out {
		if err := check(a); err != nil {
			return nil, fmt.Errorf("class %d: %w", c, err)
		}
	}
	return out, nil
}

// checkClassShapes checks that a holds k attributions of r rows and p
// features.
func checkClassShapes(a []*Attribution, k, r, p int) error {
	if len(a) != k {
		return fmt.Errorf("the model gave attributions of %d classes, it has %d", len(a), k)
	}
	for c, at := range a {
		if pr, pc := at.Phi.Dims(); pr != r || pc != p || len(at.Base) != r {
			return fmt.Errorf("the model gave %dx%d attributions of class %d for %dx%d rows", pr, pc, c, r, p)
		}
	}
	return nil
}

package adaptive

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/ensemble"
	"github.com/aer-go/aer/learn"
)

// The combination of the members of AER's model of k classes
// (MultiModel): their class probabilities, the likelihood weights per
// member, and the static weights fitted on the simplex.

// multiOutputs returns every member's class probabilities on x, one
// rows x k block per member (member-major), members scored workers at a
// time.
func multiOutputs(members []MultiMember, x *mat.Dense, k, workers int) ([][]float64, error) {
	out := make([][]float64, len(members))
	_, err := learn.ForEach(context.Background(), workers, len(members), func() func(context.Context, int) error {
		return func(_ context.Context, j int) error {
			p, err := members[j].Model.PredictProba(x, nil)
			if err != nil {
				return fmt.Errorf("aer: member %d (%s): %w", j, members[j].Name, err)
			}
			out[j] = p
			return nil
		}
	}, nil)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// memberDynamic returns the rows x members likelihood weights of rule:
// each component's weight split over its members, none for members of
// no component.
func memberDynamic(logDens *mat.Dense, rule ensemble.DynamicSettings, owner []int) (*mat.Dense, error) {
	comp, _, err := ensemble.ComponentWeights(nil, logDens, rule)
	if err != nil {
		return nil, fmt.Errorf("aer: %w", err)
	}
	d, err := ensemble.MemberWeights(nil, comp, owner)
	if err != nil {
		return nil, fmt.Errorf("aer: %w", err)
	}
	return d, nil
}

// logFloor bounds the members' log-probabilities in logit space.
const logFloor = -34.538776394910684 // log(1e-15)

// multiCombiner mixes the members' class probabilities: per row, the
// member weights lambda d_i + (1 - lambda) static (d_i the row's
// likelihood weights), applied to log-probabilities and normalised by a
// softmax (logit), or to probabilities.
type multiCombiner struct {
	k       int
	logit   bool
	static  []float64
	owner   []int
	lambda  float64
	dynamic ensemble.DynamicSettings
}

// proba writes the combined probabilities of the rows (outs: member-major
// blocks of rows x k) into dst, rows x k, and returns it.
func (c *multiCombiner) proba(dst []float64, outs [][]float64, dyn *mat.Dense) []float64 {
	k := c.k
	rows := len(outs[0]) / k
	if cap(dst) < rows*k {
		dst = make([]float64, rows*k)
	}
	dst = dst[:rows*k]
	w := make([]float64, len(outs))
	for i := range rows {
		c.rowWeights(w, dyn, i)
		c.row(dst[i*k:(i+1)*k], outs, w, i)
	}
	return dst
}

// rowWeights writes row i's member weights into w.
func (c *multiCombiner) rowWeights(w []float64, dyn *mat.Dense, i int) {
	for j := range w {
		w[j] = (1 - c.lambda) * c.static[j]
	}
	if c.lambda > 0 {
		for j := range w {
			w[j] += c.lambda * dyn.At(i, j)
		}
	}
}

// row combines row i of the members' outputs with weights w into p.
func (c *multiCombiner) row(p []float64, outs [][]float64, w []float64, i int) {
	k := c.k
	clear(p)
	for j, o := range outs {
		if w[j] == 0 {
			continue
		}
		for cl, v := range o[i*k : (i+1)*k] {
			if c.logit {
				v = max(math.Log(v), logFloor)
			}
			p[cl] += w[j] * v
		}
	}
	if c.logit {
		hi := p[0]
		for _, v := range p[1:] {
			hi = max(hi, v)
		}
		for cl, v := range p {
			p[cl] = math.Exp(v - hi)
		}
	}
	sum := 0.0
	for _, v := range p {
		sum += v
	}
	if !(sum > 0) {
		for cl := range p {
			p[cl] = 1 / float64(k)
		}
		return
	}
	for cl := range p {
		p[cl] /= sum
	}
}

// loss is the weighted (vw) mean of -log p_y of the combined
// probabilities.
func (c *multiCombiner) loss(outs [][]float64, dyn *mat.Dense, y []int, vw []float64) float64 {
	k := c.k
	p := make([]float64, k)
	w := make([]float64, len(outs))
	s, sw := 0.0, 0.0
	for i, yi := range y {
		c.rowWeights(w, dyn, i)
		c.row(p, outs, w, i)
		s += vw[i] * -max(math.Log(p[yi]), logFloor)
		sw += vw[i]
	}
	return s / sw
}

// fitMultiStatic returns the static weights on the simplex minimising
// the weighted (w) mean log-loss of the members' outputs (outs) combined
// with them, by projected gradient descent from uniform weights: steps
// of stepScale/||g|| halved until the loss falls, at most maxIter, until
// the loss changes by at most tol of itself.
func fitMultiStatic(outs [][]float64, y []int, w []float64, k int, logit bool, stepScale, tol float64, maxIter int) []float64 {
	M := len(outs)
	n := len(y)
	// z[j][i*k+c]: member j's output (log-probability in logit space).
	z := outs
	if logit {
		z = make([][]float64, M)
		for j, o := range outs {
			z[j] = make([]float64, len(o))
			for t, v := range o {
				z[j][t] = max(math.Log(v), logFloor)
			}
		}
	}
	sw := 0.0
	for _, v := range w {
		sw += v
	}
	score := make([]float64, k)
	eval := func(wt []float64, grad []float64) float64 {
		if grad != nil {
			clear(grad)
		}
		loss := 0.0
		for i := range n {
			clear(score)
			for j := range M {
				if wt[j] == 0 && grad == nil {
					continue
				}
				for c := range k {
					score[c] += wt[j] * z[j][i*k+c]
				}
			}
			yi := y[i]
			if logit {
				hi := score[0]
				for _, v := range score[1:] {
					hi = max(hi, v)
				}
				sum := 0.0
				for c := range k {
					score[c] = math.Exp(score[c] - hi)
					sum += score[c]
				}
				for c := range k {
					score[c] /= sum
				}
				loss += w[i] * -max(math.Log(score[yi]), logFloor)
				if grad != nil {
					for j := range M {
						g := -z[j][i*k+yi]
						for c := range k {
							g += score[c] * z[j][i*k+c]
						}
						grad[j] += w[i] * g / sw
					}
				}
			} else {
				py := max(score[yi], 1e-15)
				loss += w[i] * -math.Log(py)
				if grad != nil {
					for j := range M {
						grad[j] -= w[i] * z[j][i*k+yi] / py / sw
					}
				}
			}
		}
		return loss / sw
	}
	wt := uniform(M)
	grad := make([]float64, M)
	cand := make([]float64, M)
	step := make([]float64, M)
	loss := eval(wt, grad)
	for range maxIter {
		norm := 0.0
		for _, g := range grad {
			norm += g * g
		}
		norm = math.Sqrt(norm)
		if !(norm > 0) || math.IsInf(norm, 0) {
			break
		}
		eta := stepScale / norm
		improved := false
		for range 30 {
			for j := range step {
				step[j] = wt[j] - eta*grad[j]
			}
			ensemble.ProjectSimplex(cand, step)
			if l := eval(cand, nil); l < loss {
				improved = true
				break
			}
			eta /= 2
		}
		if !improved {
			break
		}
		copy(wt, cand)
		prev := loss
		loss = eval(wt, grad)
		if tol >= 0 && math.Abs(prev-loss) <= tol*math.Abs(prev) {
			break
		}
	}
	return wt
}

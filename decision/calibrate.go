package decision

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/aer-go/aer/internal/platt"
	"github.com/aer-go/aer/metrics"
)

// Calibration names.
const (
	Sigmoid  = "sigmoid"  // Platt scaling: p = 1/(1 + exp(A f + B))
	Isotonic = "isotonic" // a non-decreasing step map by pool-adjacent-violators
	// None asks for no calibration where a rule would calibrate by
	// default (Options.Calibrate).
	None = "none"
)

// Calibration maps a method's scores to probabilities that mean what they
// say, fitted on validation rows. For Sigmoid, f is the logit of the score
// (clipped to [1e-12, 1 - 1e-12] when applied) when every fitting score
// lies strictly between 0 and 1, else the score itself; for Isotonic, scores are mapped by
// linear interpolation between the fitted points, clipped at both ends
// (scikit-learn's IsotonicRegression with out_of_bounds="clip").
type Calibration struct {
	Method string  `json:"method"`
	Logit  bool    `json:"logit,omitempty"`
	A      float64 `json:"a,omitempty"`
	B      float64 `json:"b,omitempty"`
	// X and Y are the isotonic map's points, X increasing, Y
	// non-decreasing.
	X []float64 `json:"x,omitempty"`
	Y []float64 `json:"y,omitempty"`
}

const logitClip = 1e-12

func logit(p float64) float64 {
	p = min(max(p, logitClip), 1-logitClip)
	return math.Log(p / (1 - p))
}

// Calibrate fits a calibration of the given method on labels y, scores
// and optional row weights w.
func Calibrate(method string, y []int, score, w []float64) (*Calibration, error) {
	if err := metrics.Validate(y, score, nil, w); err != nil {
		return nil, err
	}
	var pos, neg float64
	for i, v := range y {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		if v == 1 {
			pos += wi
		} else {
			neg += wi
		}
	}
	if !(pos > 0 && neg > 0) {
		return nil, errors.New("decision: calibration needs rows of both classes")
	}
	switch method {
	case Sigmoid:
		return fitPlatt(y, score, w, pos, neg), nil
	case Isotonic:
		return isotonic(y, score, w), nil
	}
	return nil, fmt.Errorf("decision: unknown calibration %q (want %s or %s)", method, Sigmoid, Isotonic)
}

// fitPlatt fits A and B by the Newton method with backtracking of Lin, Lin
// and Weng (2007), on Platt's smoothed targets (N+ + 1)/(N+ + 2) and
// 1/(N- + 2), which keep the fit finite on separable scores.
func fitPlatt(y []int, score, w []float64, pos, neg float64) *Calibration {
	c := &Calibration{Method: Sigmoid, Logit: openUnit(score)}
	f := make([]float64, len(score))
	for i, s := range score {
		f[i] = s
		if c.Logit {
			f[i] = logit(s)
		}
	}
	a, b := platt.Fit(f, y, w, pos, neg)
	c.A, c.B = a, b
	return c
}

// openUnit reports whether every score lies strictly between 0 and 1:
// log-odds then exist. Votes and leaf shares (bagging, forests, trees)
// reach 0 and 1 exactly, where the clipped logit of ±27.6 would pull the
// sigmoid flat; those are calibrated on the scores themselves.
func openUnit(score []float64) bool {
	for _, s := range score {
		if !(s > 0 && s < 1) {
			return false
		}
	}
	return true
}

// isotonic fits the non-decreasing map of scores to labels that is
// closest in weighted squared error, by pool-adjacent-violators over the
// distinct scores (rows of equal score are pooled first, as scikit-learn
// does).
func isotonic(y []int, score, w []float64) *Calibration {
	idx := make([]int, len(score))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return score[idx[a]] < score[idx[b]] })
	type block struct{ x, sum, wt float64 }
	var xs []float64
	var blocks []block
	for _, i := range idx {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		if wi == 0 {
			continue
		}
		if n := len(xs); n > 0 && xs[n-1] == score[i] {
			blocks[n-1].sum += wi * float64(y[i])
			blocks[n-1].wt += wi
			continue
		}
		xs = append(xs, score[i])
		blocks = append(blocks, block{score[i], wi * float64(y[i]), wi})
	}
	// PAV: a stack of pooled blocks, each covering a run of distinct scores.
	type pool struct {
		sum, wt float64
		n       int
	}
	var st []pool
	for _, b := range blocks {
		st = append(st, pool{b.sum, b.wt, 1})
		for len(st) > 1 {
			p, q := st[len(st)-2], st[len(st)-1]
			if p.sum/p.wt <= q.sum/q.wt {
				break
			}
			st = append(st[:len(st)-2], pool{p.sum + q.sum, p.wt + q.wt, p.n + q.n})
		}
	}
	c := &Calibration{Method: Isotonic}
	k := 0
	for _, p := range st {
		v := p.sum / p.wt
		for j := 0; j < p.n; j++ {
			// Keep only the ends of each flat run: interpolation between
			// them gives the same map.
			if j == 0 || j == p.n-1 {
				c.X = append(c.X, xs[k])
				c.Y = append(c.Y, v)
			}
			k++
		}
	}
	return c
}

// Apply maps one score.
func (c *Calibration) Apply(s float64) float64 {
	switch c.Method {
	case Sigmoid:
		f := s
		if c.Logit {
			f = logit(s)
		}
		z := c.A*f + c.B
		if z >= 0 {
			return math.Exp(-z) / (1 + math.Exp(-z))
		}
		return 1 / (1 + math.Exp(z))
	case Isotonic:
		n := len(c.X)
		switch {
		case math.IsNaN(s):
			return s
		case s <= c.X[0]:
			return c.Y[0]
		case s >= c.X[n-1]:
			return c.Y[n-1]
		}
		j := sort.SearchFloat64s(c.X, s) // c.X[j-1] < s <= c.X[j]
		if c.X[j] == s {
			return c.Y[j]
		}
		f := (s - c.X[j-1]) / (c.X[j] - c.X[j-1])
		return c.Y[j-1] + f*(c.Y[j]-c.Y[j-1])
	}
	return s
}

// check reports a calibration that cannot be applied (a decoded file).
func (c *Calibration) check() error {
	switch c.Method {
	case Sigmoid:
		if math.IsNaN(c.A) || math.IsInf(c.A, 0) || math.IsNaN(c.B) || math.IsInf(c.B, 0) {
			return fmt.Errorf("decision: sigmoid calibration A=%v, B=%v", c.A, c.B)
		}
		return nil
	case Isotonic:
		if len(c.X) == 0 || len(c.X) != len(c.Y) {
			return errors.New("decision: isotonic calibration has no points or mismatched points")
		}
		for i := range c.X {
			if math.IsNaN(c.X[i]) || math.IsNaN(c.Y[i]) || (i > 0 && (c.X[i] <= c.X[i-1] || c.Y[i] < c.Y[i-1])) {
				return errors.New("decision: isotonic calibration is not increasing")
			}
		}
		return nil
	}
	return fmt.Errorf("decision: unknown calibration %q", c.Method)
}

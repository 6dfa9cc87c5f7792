package ensemble

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/par"
	"github.com/aer-go/aer/internal/rng"
)

// DefaultEps is the default clipping of w.f to [eps, 1-eps].
const DefaultEps = 1e-7

// PaperAICShare is the paper's lambda_A = 0.6 of Eq. 16: the share of AIC in
// the combined criterion 0.6 AIC + 0.4 BIC.
const PaperAICShare = 0.6

// StaticSettings configures FitStatic. The zero value (or nil) means the
// defaults that each field documents.
type StaticSettings struct {
	// Outputs says whether f holds probabilities (default) or 0/1 labels;
	// it only changes the validation of f.
	Outputs OutputKind `json:"outputs"`
	// Space is where the members are combined; default ProbabilitySpace.
	// A Combiner using these weights must have the same Space.
	Space Space `json:"space"`
	// Projection maps each step back to the simplex; default Euclidean.
	Projection Projection `json:"projection"`
	// Schedule chooses the step size; default Backtracking.
	Schedule Schedule `json:"schedule"`
	// StepScale is c in eta_t = c_t/||g_t||; 0 means 0.5. It must lie in
	// (0, 1), the paper's bound eta < 1/||grad||.
	StepScale float64 `json:"step_scale"`
	// Tol stops the descent when the relative change of the loss,
	// |L_prev - L|/|L_prev|, after a pass is <= Tol; 0 means 1e-6, a
	// negative value runs MaxIter passes.
	Tol float64 `json:"tol"`
	// MaxIter bounds the number of passes over the data (one step per pass
	// for full-batch descent); 0 means 1000.
	MaxIter int `json:"max_iter"`
	// BatchSize > 0 takes one step per mini-batch of that many rows, in an
	// order shuffled every pass with Seed; 0 (or >= rows) is full-batch.
	BatchSize int `json:"batch_size,omitempty"`
	// Seed drives the mini-batch shuffling (internal/rng).
	Seed uint64 `json:"seed"`
	// Workers bounds the goroutines that prepare the rows (logit space);
	// 0 or 1 uses the calling one. The weights do not depend on it.
	Workers int `json:"-"`
	// Logits, when it is the logit copy of the outputs at Eps (NewLogits),
	// is used instead of building one (logit space); otherwise ignored.
	Logits *Logits `json:"-"`
	// Eps clips w.f to [Eps, 1-Eps] in the loss and its gradient;
	// 0 means DefaultEps. It must lie in (0, 0.5).
	Eps float64 `json:"eps"`
	// Init chooses the starting weights when Start is nil; default InitAuto.
	Init InitRule `json:"init"`
	// Start, when non-nil, is the starting point (projected onto the
	// simplex first); it overrides Init.
	Start []float64 `json:"start,omitempty"`
	// Leaves holds each member's number of leaves, the k of its AIC and
	// BIC, for InitInfo.
	Leaves []int `json:"leaves,omitempty"`
	// AICShare is lambda_A of Eq. 16 for InitInfo; 0 means PaperAICShare.
	// It must lie in (0, 1].
	AICShare float64 `json:"aic_share,omitempty"`
	// KeepLast returns the last iterate instead of the best one seen
	// (they differ only when the loss went up, i.e. not with Backtracking).
	KeepLast bool `json:"keep_last,omitempty"`
}

// PaperStaticSettings returns the paper-literal static settings: min-max
// rescaling (Eq. 14), constant step 0.5/||g||, AIC/BIC start, 0/1 outputs
// as the text says (use Probabilities to feed probabilities).
func PaperStaticSettings(leaves []int) *StaticSettings {
	return &StaticSettings{
		Outputs:    Labels,
		Projection: MinMax,
		Schedule:   Constant,
		Init:       InitInfo,
		Leaves:     leaves,
	}
}

func (s *StaticSettings) withDefaults() (StaticSettings, error) {
	var r StaticSettings
	if s != nil {
		r = *s
	}
	if r.StepScale == 0 {
		r.StepScale = 0.5
	}
	if !(r.StepScale > 0 && r.StepScale < 1) {
		return r, fmt.Errorf("ensemble: step scale %v is not in (0, 1)", r.StepScale)
	}
	if r.Tol == 0 {
		r.Tol = 1e-6
	}
	if math.IsNaN(r.Tol) {
		return r, errors.New("ensemble: tolerance is NaN")
	}
	if r.MaxIter == 0 {
		r.MaxIter = 1000
	}
	if r.MaxIter < 0 {
		return r, fmt.Errorf("ensemble: max iterations %d is negative", r.MaxIter)
	}
	if r.BatchSize < 0 {
		return r, fmt.Errorf("ensemble: batch size %d is negative", r.BatchSize)
	}
	if r.Eps == 0 {
		r.Eps = DefaultEps
	}
	if !(r.Eps > 0 && r.Eps < 0.5) {
		return r, fmt.Errorf("ensemble: eps %v is not in (0, 0.5)", r.Eps)
	}
	if !r.Space.valid() {
		return r, fmt.Errorf("ensemble: unknown space %d", r.Space)
	}
	if r.AICShare == 0 {
		r.AICShare = PaperAICShare
	}
	if !(r.AICShare > 0 && r.AICShare <= 1) {
		return r, fmt.Errorf("ensemble: AIC share %v is not in (0, 1]", r.AICShare)
	}
	return r, nil
}

// InfoCriteria holds each member's information criteria (Eqs. 15-17).
type InfoCriteria struct {
	// LogLik is the Bernoulli log-likelihood of the member's outputs
	// (clipped to [eps, 1-eps]) on the labels.
	LogLik []float64 `json:"loglik"`
	AIC    []float64 `json:"aic"`
	BIC    []float64 `json:"bic"`
	// Combined is AICShare*AIC + (1-AICShare)*BIC.
	Combined []float64 `json:"combined"`
}

// StaticResult is the outcome of FitStatic; it encodes to JSON as is.
type StaticResult struct {
	// Weights are the returned static weights (on the simplex).
	Weights []float64 `json:"weights"`
	// Start is the starting point, Init how it was chosen ("info",
	// "uniform" or "given") and InitNote why a requested "info" start fell
	// back to "uniform" (empty otherwise).
	Start    []float64     `json:"start"`
	Init     string        `json:"init"`
	InitNote string        `json:"init_note,omitempty"`
	Criteria *InfoCriteria `json:"criteria,omitempty"`
	// Passes is the number of passes over the data, Steps the accepted
	// gradient steps and Rejected the steps Backtracking rejected.
	Passes   int `json:"passes"`
	Steps    int `json:"steps"`
	Rejected int `json:"rejected"`
	// Converged reports a stop before MaxIter; Reason is "tol" (relative
	// change <= Tol), "stationary" (the projected step no longer moves w),
	// "step-underflow" (Backtracking found no decrease down to a step
	// 1e-12 c) or "max-iter".
	Converged bool   `json:"converged"`
	Reason    string `json:"reason"`
	// InitialLoss, FinalLoss and BestLoss are mean cross-entropies over all
	// rows (weighted means with row weights) at the start, the last iterate and the best iterate; BestPass is
	// the pass that reached BestLoss (0 = the start). ReturnedBest reports
	// whether Weights are the best iterate.
	InitialLoss  float64 `json:"initial_loss"`
	FinalLoss    float64 `json:"final_loss"`
	BestLoss     float64 `json:"best_loss"`
	BestPass     int     `json:"best_pass"`
	ReturnedBest bool    `json:"returned_best"`
	// Trace is the loss after each pass, Trace[0] being InitialLoss.
	Trace []float64 `json:"trace"`
	// ClippedRows counts rows whose w.f was clipped at the returned weights
	// (probability space) or with a member output clipped before its logit
	// (logit space); rows of weight zero are not counted.
	ClippedRows int `json:"clipped_rows"`
}

// checkOutputs returns an error naming the first value of f that is not a
// valid output of kind.
func checkOutputs(f *mat.Dense, kind OutputKind) error {
	r, c := f.Dims()
	raw := f.RawMatrix()
	for i := range r {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		for j, v := range row {
			switch kind {
			case Labels:
				if v != 0 && v != 1 {
					return fmt.Errorf("ensemble: base output row %d, member %d: %v is not a 0/1 label", i, j, v)
				}
			default:
				if !(v >= 0 && v <= 1) {
					return fmt.Errorf("ensemble: base output row %d, member %d: %v is not a probability in [0, 1]", i, j, v)
				}
			}
		}
	}
	return nil
}

func checkLabels(y []int, rows int) error {
	if len(y) != rows {
		return fmt.Errorf("ensemble: %d labels for %d rows", len(y), rows)
	}
	for i, v := range y {
		if v != 0 && v != 1 {
			return fmt.Errorf("ensemble: label of row %d is %d, not 0 or 1", i, v)
		}
	}
	return nil
}

func checkWeights(w []float64, members int, what string) error {
	if len(w) != members {
		return fmt.Errorf("ensemble: %d %s for %d members", len(w), what, members)
	}
	for j, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("ensemble: %s of member %d is %v", what, j, v)
		}
	}
	return nil
}

// checkRowWeights returns an error naming the first row weight that is not
// finite and non-negative, or saying that there is not one per row or
// that they sum to zero. nil weights are valid.
func checkRowWeights(w []float64, rows int) error {
	if w == nil {
		return nil
	}
	if len(w) != rows {
		return fmt.Errorf("ensemble: %d row weights for %d rows", len(w), rows)
	}
	var sum float64
	for i, v := range w {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("ensemble: weight of row %d is %v, not a finite non-negative number", i, v)
		}
		sum += v
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		return fmt.Errorf("ensemble: row weights sum to %v, not a positive finite number", sum)
	}
	return nil
}

func clip(p, eps float64) float64 {
	if p < eps {
		return eps
	}
	if p > 1-eps {
		return 1 - eps
	}
	return p
}

// xent is the cross-entropy of one row at the clipped p.
func xent(p float64, y int) float64 {
	if y == 1 {
		return -math.Log(p)
	}
	// 1-p is exact for p >= 0.5 (Sterbenz) and loses under 1.2e-16
	// absolute for smaller p, so log(1-p) is as good as the slower Log1p.
	return -math.Log(1 - p)
}

// logitLossGrad returns softplus(-s) (label 1) or softplus(s) (label 0)
// and sigmoid(s) - y, the same values as those functions give, from one
// exponential: both take exp(-|s|).
func logitLossGrad(s float64, y int) (l, c float64) {
	if s >= 0 {
		e := math.Exp(-s)
		sig := 1 / (1 + e)
		if y == 1 {
			return math.Log1p(e), sig - 1
		}
		if s > 0 {
			return s + math.Log1p(e), sig
		}
		return math.Log1p(e), sig // s is ±0: softplus(0) = log1p(exp(0))
	}
	e := math.Exp(s)
	sig := e / (1 + e)
	if y == 1 {
		return -s + math.Log1p(e), sig - 1
	}
	return math.Log1p(e), sig
}

func dot(a, b []float64) float64 {
	var s float64
	for i, x := range a {
		s += x * b[i]
	}
	return s
}

// problem is the weight-fitting data in raw form.
type problem struct {
	data   []float64
	stride int
	rows   int
	m      int // members
	y      []int
	rw     []float64 // row weights; nil means 1 for every row
	eps    float64
	logit  bool // rows hold logit(f); the model is sigmoid(w.z)
	// workers sum the chunks of lossGrad; results do not depend on it.
	workers int
}

// newProblem wraps f (probabilities) for space: in logit space the rows
// are a transformed copy, lg's when it is f's at eps.
func newProblem(f *mat.Dense, y []int, eps float64, space Space, workers int, lg *Logits) problem {
	z := lg.of(f, eps)
	if z == nil || space != LogitSpace {
		z = combined(f, space, eps, workers)
	}
	raw := z.RawMatrix()
	return problem{data: raw.Data, stride: raw.Stride, rows: raw.Rows, m: raw.Cols, y: y, eps: eps, logit: space == LogitSpace, workers: workers}
}

func (p *problem) row(i int) []float64 { return p.data[i*p.stride : i*p.stride+p.m] }

// lossChunk is the number of rows whose loss and gradient one task sums
// in order; lossGrad adds the chunks' sums in chunk order, so the result
// does not depend on the number of workers, and a problem of at most
// lossChunk rows is summed row by row as one sequence.
const lossChunk = 1 << 16

// lossGrad returns the mean loss over rows idx (all rows when idx is nil)
// and, when g is non-nil, writes the mean gradient there. With row
// weights both are weighted means: each row's loss and gradient term is
// multiplied by its weight and the sums divided by the rows' total weight.
// Chunks of lossChunk rows are summed on p.workers goroutines.
func (p *problem) lossGrad(w, g []float64, idx []int) float64 {
	n := p.rows
	if idx != nil {
		n = len(idx)
	}
	var loss, total float64
	if n <= lossChunk {
		loss, total = p.lossGradRange(w, g, idx, 0, n)
	} else {
		nc := (n + lossChunk - 1) / lossChunk
		type part struct{ loss, total float64 }
		parts := make([]part, nc)
		var gs []float64
		if g != nil {
			gs = make([]float64, nc*p.m)
		}
		par.For(p.workers, nc, func(c int) {
			var gc []float64
			if g != nil {
				gc = gs[c*p.m : (c+1)*p.m]
			}
			l, t := p.lossGradRange(w, gc, idx, c*lossChunk, min(n, (c+1)*lossChunk))
			parts[c] = part{l, t}
		})
		if g != nil {
			clear(g)
		}
		for c, pt := range parts {
			loss += pt.loss
			total += pt.total
			if g != nil {
				for j, v := range gs[c*p.m : (c+1)*p.m] {
					g[j] += v
				}
			}
		}
	}
	if p.rw == nil {
		total = float64(n)
	}
	if total == 0 {
		return 0
	}
	inv := 1 / total
	for j := range g {
		g[j] *= inv
	}
	return loss * inv
}

// lossGradRange returns the summed loss and row weight of rows lo..hi-1
// of idx (of all rows when idx is nil) and, when g is non-nil, writes
// their summed gradient there, each summed in row order.
func (p *problem) lossGradRange(w, g []float64, idx []int, lo, hi int) (loss, total float64) {
	if g != nil {
		clear(g)
	}
	for k := lo; k < hi; k++ {
		i := k
		if idx != nil {
			i = idx[k]
		}
		rw := 1.0
		if p.rw != nil {
			rw = p.rw[i]
			if rw == 0 {
				continue // as if the row were absent
			}
			total += rw
		}
		fi := p.row(i)
		var l, c float64
		if p.logit {
			// -log sigmoid(s) = softplus(-s), -log(1-sigmoid(s)) = softplus(s);
			// the gradient is (sigmoid(s) - y) z.
			s := dot(w, fi)
			if g != nil {
				l, c = logitLossGrad(s, p.y[i])
			} else if p.y[i] == 1 {
				l = softplus(-s)
			} else {
				l = softplus(s)
			}
		} else {
			q := clip(dot(w, fi), p.eps)
			l = xent(q, p.y[i])
			if g != nil {
				// Eq. 12: d/dw of -[y log q + (1-y) log(1-q)] is f/((1-y) - q).
				c = 1 / (float64(1-p.y[i]) - q)
			}
		}
		if p.rw != nil {
			l, c = rw*l, rw*c
		}
		loss += l
		if g != nil {
			for j, v := range fi {
				g[j] += c * v
			}
		}
	}
	return loss, total
}

// Objective says which loss Loss and Gradient compute; nil means the
// defaults.
type Objective struct {
	// Space is ProbabilitySpace (default, F = w.f) or LogitSpace
	// (F = sigmoid(w.logit f)).
	Space Space
	// Eps clips w.f (probability space) or each f (logit space) to
	// [Eps, 1-Eps]; 0 means DefaultEps.
	Eps float64
}

// Loss returns the mean cross-entropy (Eq. 11 divided by the number of rows)
// of F(x) = w.f(x) against y, with w.f clipped to [eps, 1-eps] (or of
// sigmoid(w.logit f) in LogitSpace). f is rows x members, y holds 0/1
// labels.
func Loss(w []float64, f *mat.Dense, y []int, o *Objective) (float64, error) {
	return lossGrad(w, nil, f, y, o)
}

// Gradient writes to g (len members) the gradient of Loss with respect to w
// (Eq. 12 divided by the number of rows) and returns the loss. Where w.f is
// clipped the gradient is Eq. 12 evaluated at the clipped value (not the
// zero derivative of the clipped function), so a row that every weighted
// member gets wrong still pulls w towards members that get it right.
func Gradient(g, w []float64, f *mat.Dense, y []int, o *Objective) (float64, error) {
	if len(g) != len(w) {
		return 0, fmt.Errorf("ensemble: gradient buffer has %d entries for %d weights", len(g), len(w))
	}
	return lossGrad(w, g, f, y, o)
}

func lossGrad(w, g []float64, f *mat.Dense, y []int, o *Objective) (float64, error) {
	var obj Objective
	if o != nil {
		obj = *o
	}
	if obj.Eps == 0 {
		obj.Eps = DefaultEps
	}
	if !(obj.Eps > 0 && obj.Eps < 0.5) {
		return 0, fmt.Errorf("ensemble: eps %v is not in (0, 0.5)", obj.Eps)
	}
	if !obj.Space.valid() {
		return 0, fmt.Errorf("ensemble: unknown space %d", obj.Space)
	}
	r, c := f.Dims()
	if err := checkLabels(y, r); err != nil {
		return 0, err
	}
	if err := checkWeights(w, c, "weights"); err != nil {
		return 0, err
	}
	p := newProblem(f, y, obj.Eps, obj.Space, 1, nil)
	return p.lossGrad(w, g, nil), nil
}

// InfoInit returns the AIC/BIC starting weights of Eqs. 15-17 read as in
// NOTES.md section 4: for member j, with LL_j the Bernoulli log-likelihood
// of its outputs (clipped to [eps, 1-eps]) on y, k_j = leaves[j] and m rows,
// AIC_j = -2 LL_j + 2 k_j, BIC_j = -2 LL_j + k_j log m and
// w_j proportional to 1/(aicShare AIC_j + (1-aicShare) BIC_j). With row
// weights rw (nil = 1 each) LL_j is the weighted sum of the rows'
// log-likelihoods and m the total weight, so that a row of integer weight
// k counts as k copies of it. If any
// combined criterion is not positive and finite the reciprocal does not
// rank, and it returns uniform weights with ok = false; the criteria are
// returned either way. (With the clipping, -2 LL_j >= -2m log(1-eps) > 0,
// so under this reading the fallback is a guard that does not fire; it
// fires for criteria supplied by another reading through Start.)
func InfoInit(f *mat.Dense, y []int, rw []float64, leaves []int, aicShare, eps float64) (w []float64, crit *InfoCriteria, ok bool, err error) {
	return infoInit(f, y, rw, leaves, aicShare, eps, 1)
}

// infoInit is InfoInit with the members' log-likelihoods summed on up to
// workers goroutines, each over every row for its own band of members, in
// row order: the sums do not depend on workers.
func infoInit(f *mat.Dense, y []int, rw []float64, leaves []int, aicShare, eps float64, workers int) (w []float64, crit *InfoCriteria, ok bool, err error) {
	if eps <= 0 {
		eps = DefaultEps
	}
	r, c := f.Dims()
	if err := checkLabels(y, r); err != nil {
		return nil, nil, false, err
	}
	if err := checkRowWeights(rw, r); err != nil {
		return nil, nil, false, err
	}
	if len(leaves) != c {
		return nil, nil, false, fmt.Errorf("ensemble: %d leaf counts for %d members", len(leaves), c)
	}
	for j, k := range leaves {
		if k < 0 {
			return nil, nil, false, fmt.Errorf("ensemble: member %d has %d leaves", j, k)
		}
	}
	if !(aicShare >= 0 && aicShare <= 1) {
		return nil, nil, false, fmt.Errorf("ensemble: AIC share %v is not in [0, 1]", aicShare)
	}
	p := newProblem(f, y, eps, ProbabilitySpace, 1, nil)
	crit = &InfoCriteria{
		LogLik:   make([]float64, c),
		AIC:      make([]float64, c),
		BIC:      make([]float64, c),
		Combined: make([]float64, c),
	}
	m := float64(r)
	if rw != nil {
		m = 0
		for _, v := range rw {
			m += v
		}
	}
	bands := min(max(workers, 1), c)
	par.For(bands, bands, func(b int) {
		lo, hi := b*c/bands, (b+1)*c/bands
		ll := crit.LogLik[lo:hi]
		for i := range r {
			fi := p.row(i)[lo:hi]
			if rw == nil {
				for j, v := range fi {
					ll[j] -= xent(clip(v, eps), y[i])
				}
				continue
			}
			if rw[i] == 0 {
				continue
			}
			for j, v := range fi {
				ll[j] -= rw[i] * xent(clip(v, eps), y[i])
			}
		}
	})
	ok = true
	w = make([]float64, c)
	var sum float64
	for j := range c {
		k := float64(leaves[j])
		crit.AIC[j] = -2*crit.LogLik[j] + 2*k
		crit.BIC[j] = -2*crit.LogLik[j] + k*math.Log(m)
		crit.Combined[j] = aicShare*crit.AIC[j] + (1-aicShare)*crit.BIC[j]
		if !(crit.Combined[j] > 0) || math.IsInf(crit.Combined[j], 0) {
			ok = false
		}
		w[j] = 1 / crit.Combined[j]
		sum += w[j]
	}
	if !ok || !(sum > 0) || math.IsInf(sum, 0) {
		for j := range w {
			w[j] = 1 / float64(c)
		}
		return w, crit, false, nil
	}
	for j := range w {
		w[j] /= sum
	}
	return w, crit, true, nil
}

// FitStatic learns static weights on the simplex for the members whose
// outputs on the weight-fitting rows are f (rows x members), by projected
// gradient descent on the mean cross-entropy (Algorithm 2). y holds 0/1
// labels. rw holds non-negative row weights, nil meaning 1 for every row:
// the loss, its gradient and the AIC/BIC start (InfoInit) are then
// weighted sums, so that with full-batch descent a row of integer weight k
// counts as k copies of it (weight 0: as if absent). s may be nil for the
// defaults.
//
// Each step is w <- P(w - (c_t/||g||) g) with P the chosen map to the
// simplex and c_t from the Schedule. Full-batch descent evaluates the loss
// after every step and stops when its relative change is <= Tol. With
// mini-batches a pass is one shuffled sweep of steps (Backtracking then
// tests each step on its own batch), and the full loss, the tolerance test
// and the best iterate are taken after each pass; the batches are drawn
// from the rows whatever their weights, each row keeping its weight.
func FitStatic(f *mat.Dense, y []int, rw []float64, s *StaticSettings) (*StaticResult, error) {
	return FitStaticContext(context.Background(), f, y, rw, s)
}

// FitStaticContext is FitStatic that stops with ctx's error when ctx is
// done (checked after every pass).
func FitStaticContext(ctx context.Context, f *mat.Dense, y []int, rw []float64, s *StaticSettings) (*StaticResult, error) {
	set, err := s.withDefaults()
	if err != nil {
		return nil, err
	}
	rows, m := f.Dims()
	if rows == 0 || m == 0 {
		return nil, errors.New("ensemble: no rows or no members to fit weights on")
	}
	if err := checkLabels(y, rows); err != nil {
		return nil, err
	}
	if err := checkOutputs(f, set.Outputs); err != nil {
		return nil, err
	}
	if err := checkRowWeights(rw, rows); err != nil {
		return nil, err
	}
	res := &StaticResult{}
	var w []float64
	switch {
	case set.Start != nil:
		if err := checkWeights(set.Start, m, "start weights"); err != nil {
			return nil, err
		}
		w = ProjectSimplex(nil, set.Start)
		res.Init = "given"
	case set.Init == InitInfo || (set.Init == InitAuto && set.Leaves != nil):
		if set.Leaves == nil {
			return nil, errors.New("ensemble: the info initialisation needs each member's number of leaves")
		}
		var ok bool
		w, res.Criteria, ok, err = infoInit(f, y, rw, set.Leaves, set.AICShare, set.Eps, set.Workers)
		if err != nil {
			return nil, err
		}
		res.Init = "info"
		if !ok {
			res.Init = "uniform"
			res.InitNote = "an AIC/BIC criterion was not positive and finite; uniform start used"
		}
	case set.Init == InitUniform || set.Init == InitAuto:
		w = make([]float64, m)
		for j := range w {
			w[j] = 1 / float64(m)
		}
		res.Init = "uniform"
	default:
		return nil, fmt.Errorf("ensemble: unknown init rule %d", set.Init)
	}
	res.Start = append([]float64(nil), w...)

	project := ProjectSimplex
	switch set.Projection {
	case Euclidean:
	case MinMax:
		project = ProjectMinMax
	default:
		return nil, fmt.Errorf("ensemble: unknown projection %d", set.Projection)
	}
	switch set.Schedule {
	case Backtracking, Constant, InvSqrt:
	default:
		return nil, fmt.Errorf("ensemble: unknown schedule %d", set.Schedule)
	}

	p := newProblem(f, y, set.Eps, set.Space, set.Workers, set.Logits)
	p.rw = rw
	g := make([]float64, m)
	trial := make([]float64, m)
	best := append([]float64(nil), w...)

	loss := p.lossGrad(w, g, nil)
	res.InitialLoss, res.BestLoss = loss, loss
	res.Trace = append(res.Trace, loss)

	batch := set.BatchSize
	if batch >= rows {
		batch = 0
	}
	var perm []int
	src := rng.New(set.Seed)
	if batch > 0 {
		perm = make([]int, rows)
		for i := range perm {
			perm[i] = i
		}
	}
	c := set.StepScale
	const minScale = 1e-12
	const maxHalvings = 64 // 2^-64: far below minScale
	res.Reason = "max-iter"

	// step takes one step on rows idx (nil = all) from w; it reports
	// whether w moved and whether the step size underflowed.
	// With idx nil, g must hold the full gradient at w and cur the loss.
	step := func(idx []int, cur float64) (moved, underflow bool) {
		if idx != nil {
			cur = p.lossGrad(w, g, idx)
		}
		norm := math.Sqrt(dot(g, g))
		if !(norm > 0) || math.IsInf(norm, 0) {
			return false, false
		}
		// At most maxHalvings rejected steps in a row: c may be so small
		// (step_scale=1e-320) that minScale*StepScale underflows to 0,
		// and a projection that moves w by itself never stops rejecting.
		for halvings := 0; ; halvings++ {
			if halvings > maxHalvings {
				c = set.StepScale
				return false, true
			}
			ct := c
			if set.Schedule == InvSqrt {
				ct = set.StepScale / math.Sqrt(float64(res.Steps+1))
			}
			eta := ct / norm
			for j := range trial {
				trial[j] = w[j] - eta*g[j]
			}
			project(trial, trial)
			same := true
			for j := range trial {
				if trial[j] != w[j] {
					same = false
					break
				}
			}
			if same {
				return false, false
			}
			if set.Schedule != Backtracking {
				copy(w, trial)
				res.Steps++
				return true, false
			}
			if p.lossGrad(trial, nil, idx) <= cur {
				copy(w, trial)
				res.Steps++
				c = math.Min(set.StepScale, 1.5*c)
				return true, false
			}
			res.Rejected++
			c /= 2
			if c < minScale*set.StepScale {
				// Start the next batch (mini-batch descent) afresh.
				c = set.StepScale
				return false, true
			}
		}
	}

	for pass := 1; pass <= set.MaxIter; pass++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res.Passes = pass
		moved, underflow := false, false
		if batch == 0 {
			moved, underflow = step(nil, loss)
		} else {
			src.Shuffle(rows, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
			for lo := 0; lo < rows; lo += batch {
				mv, uf := step(perm[lo:min(lo+batch, rows)], 0)
				moved = moved || mv
				underflow = underflow || uf
			}
		}
		prev := loss
		if batch == 0 {
			// The gradient at the new w serves the next step.
			loss = p.lossGrad(w, g, nil)
		} else {
			loss = p.lossGrad(w, nil, nil)
		}
		res.Trace = append(res.Trace, loss)
		if loss < res.BestLoss {
			res.BestLoss, res.BestPass = loss, pass
			copy(best, w)
		}
		if !moved {
			if underflow {
				res.Reason = "step-underflow"
			} else {
				res.Reason = "stationary"
			}
			res.Converged = true
			break
		}
		if set.Tol > 0 && math.Abs(prev-loss) <= set.Tol*math.Abs(prev) {
			res.Reason = "tol"
			res.Converged = true
			break
		}
	}
	res.FinalLoss = loss
	if set.KeepLast {
		res.Weights = w
		res.ReturnedBest = loss <= res.BestLoss
	} else {
		res.Weights = best
		res.ReturnedBest = true
	}
	if set.Space == ProbabilitySpace {
		for i := range rows {
			if rw != nil && rw[i] == 0 {
				continue
			}
			q := dot(res.Weights, p.row(i))
			if q < set.Eps || q > 1-set.Eps {
				res.ClippedRows++
			}
		}
	} else {
		raw := f.RawMatrix()
		for i := range rows {
			if rw != nil && rw[i] == 0 {
				continue
			}
			for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+m] {
				if v < set.Eps || v > 1-set.Eps {
					res.ClippedRows++
					break
				}
			}
		}
	}
	return res, nil
}

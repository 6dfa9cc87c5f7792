package ensemble

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/aer-go/aer/internal/steps"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/par"
)

// Metric scores a confusion matrix (minority = positive); larger is better.
// A NaN result counts as worse than any number; +Inf is allowed (and ties
// only with +Inf).
type Metric func(tp, fp, tn, fn int) float64

// TuneSettings configures Tune.
type TuneSettings struct {
	// Metric is maximised; required (balanced accuracy in the paper).
	Metric Metric
	// Candidates are the dynamic rules to choose among, e.g. tempered
	// softmaxes over a temperature grid (TemperedCandidates); nil means
	// {Exp}. Their order is the order of the tie-break.
	Candidates []DynamicSettings
	// Lambdas is the lambda grid (values in [0, 1]); nil means LambdaGrid(),
	// DynamicEnsembleLambdas() gives the Dynamic Ensemble baseline.
	Lambdas []float64
	// Owner, Space and Eps are those of the Combiner (see Combiner); the static
	// weights must have been fitted in the same Space.
	Owner []int
	Space Space
	Eps   float64
	// Deltas is the threshold grid; nil means DeltaGrid().
	Deltas []float64
	// Workers bounds the goroutines that evaluate (rule, lambda) pairs;
	// 0 means runtime.GOMAXPROCS(0). The result does not depend on it.
	// Metric must then be safe for concurrent use (a pure function of the
	// four counts is).
	Workers int
	// Select is what chooses the dynamic rule and lambda: SelectThreshold
	// (default) or SelectAUC. The threshold is chosen by Metric either way.
	Select Select
	// DeltaQuantiles > 1 adds, for each lambda, the quantiles at levels
	// k/DeltaQuantiles (k = 1, ..., DeltaQuantiles-1; linear interpolation
	// between order statistics, NumPy's default) of that lambda's
	// validation scores to the threshold candidates.
	DeltaQuantiles int
	// Logits, when it is the logit copy of the outputs at Eps (NewLogits),
	// is used instead of building one (logit space); otherwise ignored.
	Logits *Logits
	// Progress, when not nil, is called before the work and as each step
	// finishes: done of total steps, a step being a candidate's dynamic
	// scores or a (rule, lambda) pair's threshold sweep. Calls are
	// serialised; they change nothing of the result.
	Progress func(done, total int)
}

// Select is the statistic that chooses the dynamic rule and lambda on the
// validation rows.
type Select int

const (
	// SelectThreshold takes each (rule, lambda) at its best threshold:
	// the metric there decides.
	SelectThreshold Select = iota
	// SelectAUC decides by the validation ROC-AUC of the scores (ties
	// counted half), which averages over every threshold: with a few dozen
	// validation minority rows, the maximum of a metric over hundreds of
	// thresholds and (rule, lambda) pairs is mostly noise. The threshold is
	// then the metric's best for the chosen pair.
	SelectAUC
)

var selectNames = []string{"threshold", "auc"}

// String returns the rule's name ("threshold", "auc"), or "Select(N)" for
// a value out of range.
func (s Select) String() string { return name(selectNames, int(s), "Select") }

// MarshalText encodes s by name ("threshold", "auc").
func (s Select) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText decodes a name written by MarshalText.
func (s *Select) UnmarshalText(b []byte) error { return parse(s, selectNames, b, "select") }

// LambdaGrid returns the paper's lambda grid 0, 0.05, ..., 1 (21 values).
func LambdaGrid() []float64 {
	g := make([]float64, 21)
	for k := range g {
		g[k] = float64(k) / 20
	}
	return g
}

// DeltaGrid returns the threshold grid 0.01, 0.02, ..., 0.99.
func DeltaGrid() []float64 {
	g := make([]float64, 99)
	for k := range g {
		g[k] = float64(k+1) / 100
	}
	return g
}

// DynamicEnsembleLambdas returns {1}: likelihood weights only, the paper's
// "Dynamic Ensemble" baseline (no learned weights).
func DynamicEnsembleLambdas() []float64 { return []float64{1} }

// TemperatureGrid returns perDecade log-spaced temperatures per decade from
// lo to hi inclusive: lo * 10^(k/perDecade) for k = 0, 1, ... while <= hi
// (up to rounding).
func TemperatureGrid(lo, hi float64, perDecade int) []float64 {
	if !(lo > 0) || !(hi >= lo) || perDecade < 1 || math.IsInf(hi, 0) {
		return nil
	}
	var g []float64
	n := int(math.Floor(math.Log10(hi/lo)*float64(perDecade) + 1e-9))
	for k := 0; k <= n; k++ {
		g = append(g, lo*math.Pow(10, float64(k)/float64(perDecade)))
	}
	return g
}

// DefaultTemperatures returns the default temperature grid 0.1 to 1000 at
// two points per decade (0.1, 0.316, 1, 3.16, ..., 1000). Log-densities
// grow with the number of features d, so a grid scaled by d is a
// reasonable alternative.
func DefaultTemperatures() []float64 { return TemperatureGrid(0.1, 1000, 2) }

// TemperedCandidates returns Tempered rules for the temperatures ts
// (sorted ascending), followed by Uniform (the T -> infinity limit) when
// withUniform is set; logPi is shared by all.
func TemperedCandidates(ts []float64, logPi []float64, withUniform bool) []DynamicSettings {
	ts = slices.Clone(ts)
	slices.Sort(ts)
	var c []DynamicSettings
	for _, t := range ts {
		c = append(c, DynamicSettings{Rule: Tempered, T: t, LogPi: logPi})
	}
	if withUniform {
		c = append(c, DynamicSettings{Rule: Uniform, LogPi: logPi})
	}
	return c
}

// Confusion holds confusion counts (minority = positive).
type Confusion struct {
	TP int `json:"tp"`
	FP int `json:"fp"`
	TN int `json:"tn"`
	FN int `json:"fn"`
}

// LambdaPoint is the best metric over delta at one lambda.
type LambdaPoint struct {
	Lambda float64 `json:"lambda"`
	Metric float64 `json:"metric"`
	Delta  float64 `json:"delta"`
	// AUC is the validation ROC-AUC at this lambda (SelectAUC only).
	AUC float64 `json:"auc,omitempty"`
}

// DeltaPoint is the metric at one threshold.
type DeltaPoint struct {
	Delta     float64   `json:"delta"`
	Metric    float64   `json:"metric"`
	Confusion Confusion `json:"confusion"`
}

// CandidatePoint is the best metric over lambda and delta of one rule.
type CandidatePoint struct {
	Dynamic DynamicSettings `json:"dynamic"`
	Metric  float64         `json:"metric"`
	Diag    DynamicDiag     `json:"diag"`
}

// TuneResult is the outcome of Tune; it encodes to JSON as is. Points where
// the metric was NaN or -Inf carry Metric = -math.MaxFloat64, and +Inf is
// written as math.MaxFloat64 (JSON cannot hold an infinity).
type TuneResult struct {
	// Combiner is the chosen rule, lambda and delta with the static
	// weights given to Tune.
	Combiner Combiner `json:"combiner"`
	// Metric is the best validation metric and Confusion its counts.
	Metric    float64   `json:"metric"`
	Confusion Confusion `json:"confusion"`
	// TiedCandidates and TiedLambdas count the rules and lambdas that
	// reach Metric; TiedDeltas counts the thresholds that reach it at the
	// chosen rule and lambda, from TiedDeltaMin to TiedDeltaMax.
	TiedCandidates int     `json:"tied_candidates"`
	TiedLambdas    int     `json:"tied_lambdas"`
	TiedDeltas     int     `json:"tied_deltas"`
	TiedDeltaMin   float64 `json:"tied_delta_min"`
	TiedDeltaMax   float64 `json:"tied_delta_max"`
	// Candidates is the best metric of each rule, in the given order.
	Candidates []CandidatePoint `json:"candidates"`
	// ByLambda is the metric against lambda for the chosen rule (each at
	// its best delta) and ByDelta the metric against delta at the chosen
	// rule and lambda: the paper's figures of metric vs lambda and delta.
	ByLambda []LambdaPoint `json:"by_lambda"`
	ByDelta  []DeltaPoint  `json:"by_delta"`
	// Diag counts special rows of the chosen rule on the validation set.
	Diag DynamicDiag `json:"diag"`
}

// tieTol is the absolute tolerance (scaled by max(1, |best|)) within which
// two metric values count as tied: equal confusion counts reached through
// different rounding must tie.
const tieTol = 1e-12

// isTied reports whether v ties with the best value best (which may be
// +Inf, e.g. a likelihood ratio with no false positive).
func isTied(v, best float64) bool {
	return v == best || v >= best-tieTol*math.Max(1, math.Abs(best))
}

// middle returns the middle of the tied indices: with n ties in ascending
// order t_0..t_{n-1}, t_{(n-1)/2} (the lower middle when n is even).
func middle(tied []int) int { return tied[(len(tied)-1)/2] }

// sweep fills curve (one entry per delta, deltas ascending) for scores
// sorted ascending: one pass, row j is predicted positive iff s_j >= delta.
func sweep(curve []DeltaPoint, pairs []scored, deltas []float64, pos int, metric Metric) {
	neg := len(pairs) - pos
	j, tn, fn := 0, 0, 0
	for k, d := range deltas {
		for j < len(pairs) && pairs[j].s() < d {
			if pairs[j].y() == 1 {
				fn++
			} else {
				tn++
			}
			j++
		}
		c := Confusion{TP: pos - fn, FP: neg - tn, TN: tn, FN: fn}
		v := metric(c.TP, c.FP, c.TN, c.FN)
		if math.IsNaN(v) {
			v = math.Inf(-1)
		}
		curve[k] = DeltaPoint{Delta: d, Metric: v, Confusion: c}
	}
}

// rocAUC is the ROC-AUC of scores sorted ascending (ties count half); NaN
// without both labels.
func rocAUC(pairs []scored, pos int) float64 {
	neg := len(pairs) - pos
	if pos == 0 || neg == 0 {
		return math.NaN()
	}
	// Sum over positives of the negatives below them, tied ones half.
	var below, sum float64
	for i := 0; i < len(pairs); {
		j := i
		var p, n float64
		for ; j < len(pairs) && pairs[j].key() == pairs[i].key(); j++ {
			if pairs[j].y() == 1 {
				p++
			} else {
				n++
			}
		}
		sum += p * (below + n/2)
		below += n
		i = j
	}
	return sum / (float64(pos) * float64(neg))
}

// quantile7 is the level-p quantile of ascending xs by linear
// interpolation between order statistics (Hyndman-Fan type 7).
func quantile7(xs []scored, p float64) float64 {
	h := float64(len(xs)-1) * p
	lo := int(math.Floor(h))
	if lo >= len(xs)-1 {
		return xs[len(xs)-1].s()
	}
	return xs[lo].s() + (h-float64(lo))*(xs[lo+1].s()-xs[lo].s())
}

func sortedUnique(xs []float64) []float64 {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return slices.Compact(xs)
}

// Tune chooses the dynamic rule, lambda and delta that maximise s.Metric on
// validation rows: base outputs f (rows x 2L), labels y, component
// log-densities logDens (rows x L), with the learned static weights.
//
// For every rule and lambda the scores lambda l*.f + (1-lambda) w.f are
// computed once, sorted, and every threshold is evaluated in one pass.
// Ties (values within 1e-12 of the best) are broken toward the middle, one
// level at a time: among the rules reaching the best value, the middle one
// in the given order; for it, among the lambdas (ascending) reaching the
// best value, the middle one; for that lambda, among the thresholds
// (ascending) reaching it, the middle one. "Middle" of n tied values
// v_0 < ... < v_{n-1} is v_{(n-1)/2}, the lower one when n is even.
// A NaN metric value counts as worse than any number.
func Tune(f *mat.Dense, y []int, logDens *mat.Dense, static []float64, s *TuneSettings) (*TuneResult, error) {
	if s == nil || s.Metric == nil {
		return nil, errors.New("ensemble: Tune needs a metric")
	}
	rows, m := f.Dims()
	if rows == 0 {
		return nil, errors.New("ensemble: no validation rows to tune on")
	}
	if err := checkLabels(y, rows); err != nil {
		return nil, err
	}
	if err := checkOutputs(f, Probabilities); err != nil {
		return nil, err
	}
	if err := checkSimplex(static, m); err != nil {
		return nil, err
	}
	cands := s.Candidates
	if cands == nil {
		cands = []DynamicSettings{{Rule: Exp}}
	}
	lambdas := s.Lambdas
	if lambdas == nil {
		lambdas = LambdaGrid()
	}
	lambdas = sortedUnique(lambdas)
	for _, l := range lambdas {
		if !(l >= 0 && l <= 1) {
			return nil, fmt.Errorf("ensemble: lambda %v is not in [0, 1]", l)
		}
	}
	grid := s.Deltas
	if grid == nil {
		grid = DeltaGrid()
	}
	for _, d := range grid {
		if math.IsNaN(d) {
			return nil, errors.New("ensemble: a threshold is NaN")
		}
	}
	if len(lambdas) == 0 || len(grid) == 0 && s.DeltaQuantiles < 2 {
		return nil, errors.New("ensemble: empty lambda or threshold grid")
	}
	pos := 0
	for _, v := range y {
		pos += v
	}
	proto := Combiner{Static: static, Owner: s.Owner, Space: s.Space, Eps: s.Eps}
	_, ly, err := proto.check(f, logDens)
	if err != nil {
		return nil, err
	}
	workers := s.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	p := newProblem(f, y, proto.eps(), s.Space, workers, s.Logits)
	stat := make([]float64, rows)
	for i := range rows {
		stat[i] = dot(static, p.row(i))
	}

	// curves[c][k] is the delta curve of candidate c at lambdas[k], and
	// aucs[c][k] its ROC-AUC (SelectAUC).
	curves := make([][][]DeltaPoint, len(cands))
	aucs := make([][]float64, len(cands))
	bestOf := func(curve []DeltaPoint) float64 {
		b := math.Inf(-1)
		for _, pt := range curve {
			b = math.Max(b, pt.Metric)
		}
		return b
	}
	res := &TuneResult{Candidates: make([]CandidatePoint, len(cands))}
	// The candidates' dynamic scores, each an independent task writing
	// its own slot; errors are reported in candidate order, as one loop
	// would meet them.
	dyns := make([][]float64, len(cands))
	errs := make([]error, len(cands))
	tasks := len(cands) * len(lambdas)
	step := tuneSteps(s.Progress, len(cands)+tasks)
	par.For(min(workers, len(cands)), len(cands), func(ci int) {
		c := proto
		c.Dynamic = cands[ci]
		if _, _, err := c.check(f, logDens); err != nil {
			errs[ci] = fmt.Errorf("ensemble: candidate %d: %w", ci, err)
			return
		}
		var diag DynamicDiag
		dyns[ci], diag, errs[ci] = dynamicScores(&p, logDens, cands[ci], ly)
		res.Candidates[ci] = CandidatePoint{Dynamic: cands[ci], Diag: diag}
		step()
	})
	for ci := range cands {
		if errs[ci] != nil {
			return nil, errs[ci]
		}
		curves[ci] = make([][]DeltaPoint, len(lambdas))
		aucs[ci] = make([]float64, len(lambdas))
	}
	// Every (rule, lambda) pair is an independent task writing its own
	// slot, so the result does not depend on the number of workers.
	taskErr := make([]error, tasks)
	workers = min(workers, tasks)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			pairs, tmp := make([]scored, rows), make([]scored, rows)
			for {
				t := int(next.Add(1) - 1)
				if t >= tasks {
					return
				}
				ci, k := t/len(lambdas), t%len(lambdas)
				dyn, lam := dyns[ci], lambdas[k]
				for i := range rows {
					v := mixScore(s.Space, lam, dyn[i], stat[i])
					var ok bool
					if pairs[i], ok = newScored(v, y[i]); !ok {
						// Not reached: finish maps every score into [0, 1].
						taskErr[t] = fmt.Errorf("ensemble: candidate %d, lambda %v: row %d's score %v is not in [0, 1]", ci, lam, i, v)
						break
					}
				}
				if taskErr[t] != nil {
					continue
				}
				sortScored(pairs, tmp)
				if s.Select == SelectAUC {
					aucs[ci][k] = rocAUC(pairs, pos)
				}
				deltas := grid
				if s.DeltaQuantiles > 1 {
					deltas = slices.Clone(grid)
					for q := 1; q < s.DeltaQuantiles; q++ {
						deltas = append(deltas, quantile7(pairs, float64(q)/float64(s.DeltaQuantiles)))
					}
				}
				deltas = sortedUnique(deltas)
				curve := make([]DeltaPoint, len(deltas))
				sweep(curve, pairs, deltas, pos, s.Metric)
				curves[ci][k] = curve
				step()
			}
		})
	}
	wg.Wait()
	for _, err := range taskErr {
		if err != nil {
			return nil, err
		}
	}
	// selStat is the selection statistic of candidate c at lambdas[k].
	selStat := func(c, k int) float64 { return bestOf(curves[c][k]) }
	if s.Select == SelectAUC {
		selStat = func(c, k int) float64 {
			if v := aucs[c][k]; !math.IsNaN(v) {
				return v
			}
			return math.Inf(-1)
		}
	}
	best := math.Inf(-1)
	for ci := range cands {
		candBest := math.Inf(-1)
		for k := range curves[ci] {
			candBest = math.Max(candBest, selStat(ci, k))
		}
		res.Candidates[ci].Metric = candBest
		best = math.Max(best, candBest)
	}
	if math.IsInf(best, -1) {
		return nil, errors.New("ensemble: the metric is NaN or -Inf at every candidate")
	}
	tied := func(v float64) bool { return isTied(v, best) }

	var tc []int
	for ci, cp := range res.Candidates {
		if tied(cp.Metric) {
			tc = append(tc, ci)
		}
	}
	ci := middle(tc)
	var tl []int
	for k := range curves[ci] {
		if tied(selStat(ci, k)) {
			tl = append(tl, k)
		}
	}
	k := middle(tl)
	pickDelta := func(curve []DeltaPoint, target float64) (int, []int) {
		var td []int
		for j, pt := range curve {
			if isTied(pt.Metric, target) {
				td = append(td, j)
			}
		}
		return middle(td), td
	}
	if s.Select == SelectAUC {
		best = bestOf(curves[ci][k])
		if math.IsInf(best, -1) {
			return nil, errors.New("ensemble: the metric is NaN or -Inf at every threshold of the chosen lambda")
		}
	}
	curve := curves[ci][k]
	j, td := pickDelta(curve, best)

	res.Combiner = Combiner{Static: slices.Clone(static), Dynamic: cands[ci], Lambda: lambdas[k], Delta: curve[j].Delta, Owner: slices.Clone(s.Owner), Space: s.Space, Eps: s.Eps}
	res.Metric = curve[j].Metric
	res.Confusion = curve[j].Confusion
	res.TiedCandidates, res.TiedLambdas, res.TiedDeltas = len(tc), len(tl), len(td)
	res.TiedDeltaMin, res.TiedDeltaMax = curve[td[0]].Delta, curve[td[len(td)-1]].Delta
	res.Diag = res.Candidates[ci].Diag
	for kk, c := range curves[ci] {
		b := bestOf(c)
		pt := LambdaPoint{Lambda: lambdas[kk], Metric: b, Delta: math.NaN()}
		if s.Select == SelectAUC && !math.IsNaN(aucs[ci][kk]) {
			pt.AUC = aucs[ci][kk]
		}
		if !math.IsInf(b, -1) {
			jj, _ := pickDelta(c, b)
			pt.Delta = c[jj].Delta
		}
		res.ByLambda = append(res.ByLambda, pt)
	}
	res.ByDelta = curve
	finite(res)
	return res, nil
}

// finite replaces infinite metrics (NaN or an infinity from the caller's
// metric) by -+math.MaxFloat64 and NaN deltas by 0 so that the result
// encodes to JSON.
func finite(r *TuneResult) {
	fin := func(v float64) float64 { return max(-math.MaxFloat64, min(math.MaxFloat64, v)) }
	r.Metric = fin(r.Metric)
	for i := range r.Candidates {
		r.Candidates[i].Metric = fin(r.Candidates[i].Metric)
	}
	for i := range r.ByLambda {
		if math.IsInf(r.ByLambda[i].Metric, -1) {
			r.ByLambda[i].Delta = 0
		}
		r.ByLambda[i].Metric = fin(r.ByLambda[i].Metric)
	}
	for i := range r.ByDelta {
		r.ByDelta[i].Metric = fin(r.ByDelta[i].Metric)
	}
}

// checkSimplex checks that w holds members non-negative weights summing
// to 1 (within 1e-9).
func checkSimplex(w []float64, members int) error {
	if err := checkWeights(w, members, "static weights"); err != nil {
		return err
	}
	var sum float64
	for j, v := range w {
		if v < 0 {
			return fmt.Errorf("ensemble: static weight of member %d is negative (%v)", j, v)
		}
		sum += v
	}
	if math.Abs(sum-1) > 1e-9 {
		return fmt.Errorf("ensemble: static weights sum to %v, not 1", sum)
	}
	return nil
}

// tuneSteps reports to f (TuneSettings.Progress) that none of total steps
// is done and returns the call that counts one more, serialised; nil f
// counts nothing.
func tuneSteps(f func(done, total int), total int) func() { return steps.Counter(f, total) }

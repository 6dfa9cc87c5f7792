package adaptive

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/platt"
)

// FallbackReport says which member the ensemble fell back on and the
// evidence: the validation rows' class-balanced log-loss, each score
// calibrated by a sigmoid fitted there, of the ensemble and of that
// member, and the paired z of their difference.
type FallbackReport struct {
	Member       string  `json:"member"`
	EnsembleLoss float64 `json:"ensemble_loss"`
	MemberLoss   float64 `json:"member_loss"`
	Z            float64 `json:"z"`
}

// fallback returns the member among the global members and the peers
// (owner -1) whose calibrated, class-balanced log-loss on the validation
// rows y (weights w) is below the ensemble's scores' by more than z paired
// standard errors, the largest such margin; -1 when none is. f holds the
// members' outputs on those rows, eps their clipping before the logit.
func fallback(scores []float64, f *mat.Dense, owner []int, y []int, w []float64, eps, z float64) (int, *FallbackReport) {
	n := len(y)
	bw := make([]float64, n)
	var tot [2]float64
	for i, v := range y {
		bw[i] = 1
		if w != nil {
			bw[i] = w[i]
		}
		tot[v] += bw[i]
	}
	if tot[0] <= 0 || tot[1] <= 0 {
		return -1, nil
	}
	for i, v := range y {
		// Each class weighs half; times n so that the losses' mean is
		// the balanced log-loss.
		bw[i] *= float64(n) / (2 * tot[v])
	}
	logit := func(p float64) float64 {
		p = min(max(p, eps), 1-eps)
		return math.Log(p / (1 - p))
	}
	ens := make([]float64, n)
	for i, s := range scores {
		ens[i] = logit(s)
	}
	base := rowLosses(ens, y, bw)
	best, bestZ := -1, z
	var rep *FallbackReport
	col := make([]float64, n)
	for k, o := range owner {
		if o != -1 {
			continue
		}
		for i := range n {
			col[i] = logit(f.At(i, k))
		}
		l := rowLosses(col, y, bw)
		var mean, mb, ml float64
		for i := range n {
			mean += base[i] - l[i]
			mb += base[i]
			ml += l[i]
		}
		mean /= float64(n)
		var ss float64
		for i := range n {
			d := base[i] - l[i] - mean
			ss += d * d
		}
		se := math.Sqrt(ss/float64(n-1)) / math.Sqrt(float64(n))
		if !(se > 0) {
			continue
		}
		if zk := mean / se; zk > bestZ {
			best, bestZ = k, zk
			rep = &FallbackReport{EnsembleLoss: mb / float64(n), MemberLoss: ml / float64(n), Z: zk}
		}
	}
	return best, rep
}

// rowLosses returns each row's log-loss, times its weight bw, of the
// sigmoid calibration of the scores s fitted on the rows (Platt's targets,
// the weights bw).
func rowLosses(s []float64, y []int, bw []float64) []float64 {
	var pos, neg float64
	for _, v := range y {
		if v == 1 {
			pos++
		} else {
			neg++
		}
	}
	a, b := platt.Fit(s, y, bw, pos, neg)
	out := make([]float64, len(s))
	for i, v := range s {
		t := a*v + b // P(y=1) = 1/(1+exp(t))
		if y[i] == 1 {
			out[i] = bw[i] * softplusAt(t)
		} else {
			out[i] = bw[i] * softplusAt(-t)
		}
	}
	return out
}

// softplusAt is log(1 + e^t) without overflow.
func softplusAt(t float64) float64 {
	if t > 0 {
		return t + math.Log1p(math.Exp(-t))
	}
	return math.Log1p(math.Exp(t))
}

// oneHot returns static weights of 1 on member k of m, 0 elsewhere.
func oneHot(k, m int) []float64 {
	w := make([]float64, m)
	w[k] = 1
	return w
}

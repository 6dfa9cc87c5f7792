package metrics

import (
	"encoding/json"
	"math"
)

// Calibration says how far scores are from being probabilities that mean
// what they say: the Brier score (mean squared error of the score against
// the 0/1 label), the log-loss (scores clipped to [LogLossEps,
// 1-LogLossEps]) and a reliability table. Rows count with their weights.
type Calibration struct {
	Brier   float64 `json:"brier"`
	LogLoss float64 `json:"log_loss"`
	// Bins split [0, 1] into equal-width bins by score (the last bin holds
	// score 1); empty bins are left out.
	Bins []ReliabilityBin `json:"reliability"`
}

// ReliabilityBin is one bin of a reliability table: the rows (their total
// weight) whose score lies in [Lo, Hi), their mean score and the share of
// them that are positive. Well-calibrated scores have MeanScore close to
// Positive in every bin.
type ReliabilityBin struct {
	Lo        float64 `json:"lo"`
	Hi        float64 `json:"hi"`
	Rows      float64 `json:"rows"`
	MeanScore float64 `json:"mean_score"`
	Positive  float64 `json:"positive_share"`
}

// EvaluateCalibration computes the Brier score, log-loss and a reliability
// table with bins bins (10 when bins <= 0) of scores that lie in [0, 1].
// ok is false, and nothing is computed, when a score is outside [0, 1] or
// the total weight is 0: such scores are not probabilities. It panics on
// invalid input (see Validate).
func EvaluateCalibration(y []int, score, w []float64, bins int) (c Calibration, ok bool) {
	mustValidate(y, score, nil, w)
	if bins <= 0 {
		bins = 10
	}
	if !Probabilities(score) {
		return c, false
	}
	type acc struct{ w, s, p float64 }
	b := make([]acc, bins)
	total := 0.0
	ll, _ := ParseRowLoss("log-loss")
	for i, s := range score {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		if wi == 0 {
			continue
		}
		d := float64(y[i]) - s
		c.Brier += wi * d * d
		l, _ := ll.Of(y[i], s)
		c.LogLoss += wi * l
		total += wi
		k := min(int(s*float64(bins)), bins-1)
		b[k].w += wi
		b[k].s += wi * s
		b[k].p += wi * float64(y[i])
	}
	if total == 0 {
		return Calibration{}, false
	}
	c.Brier /= total
	c.LogLoss /= total
	c.Bins = []ReliabilityBin{}
	for k, a := range b {
		if a.w == 0 {
			continue
		}
		c.Bins = append(c.Bins, ReliabilityBin{Lo: float64(k) / float64(bins), Hi: float64(k+1) / float64(bins),
			Rows: a.w, MeanScore: a.s / a.w, Positive: a.p / a.w})
	}
	return c, true
}

// MarshalJSON writes the bounds rounded to 1e-12, so 0.30000000000000004
// reads 0.3.
func (b ReliabilityBin) MarshalJSON() ([]byte, error) {
	type plain ReliabilityBin
	p := plain(b)
	p.Lo, p.Hi = math.Round(p.Lo*1e12)/1e12, math.Round(p.Hi*1e12)/1e12
	return json.Marshal(p)
}

// Probabilities tells whether every score lies in [0, 1] (none NaN), so
// the scores can be judged as probabilities.
func Probabilities(score []float64) bool {
	for _, s := range score {
		if !(s >= 0 && s <= 1) {
			return false
		}
	}
	return true
}

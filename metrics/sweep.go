package metrics

import (
	"bufio"
	"io"
	"math"
	"slices"
	"strconv"
)

// SweepPoint is the confusion matrix of the decisions score >= Threshold.
// Its metrics are the methods of Confusion, or Metric.Of.
type SweepPoint struct {
	Threshold float64
	Confusion
}

// Sweep is a metric-versus-threshold curve: one SweepPoint per threshold,
// in increasing order of threshold. It holds everything a ROC curve, a
// precision-recall curve or a plot of any Metric against the threshold
// needs.
//
// In JSON a Sweep is an array of objects with the keys threshold, n,
// positives, negatives, tp, fp, tn, fn and the metric names, with null for
// NaN and infinite values (see Report for what they mean).
type Sweep []SweepPoint

// SweepThresholds evaluates the decisions score >= t for every t in
// thresholds, which need not be sorted; the Sweep is sorted by threshold,
// duplicates kept. Each row counts with its weight in w, or as 1 when w is
// nil. It sorts the scores once and then takes O(log n) per threshold. It
// panics on invalid input; see Validate.
func SweepThresholds(y []int, score, thresholds, w []float64) Sweep {
	score = nonNil(score)
	mustValidate(y, score, nil, w)
	rk := rank(y, score, w)
	ts := slices.Clone(thresholds)
	slices.Sort(ts)
	s := make(Sweep, len(ts))
	for i, t := range ts {
		s[i] = SweepPoint{Threshold: t, Confusion: rk.atLeast(t)}
	}
	return s
}

// SweepScores evaluates every distinct decision the scores allow: one point
// per distinct score s, at threshold s, plus a last point at +Inf where
// nothing is predicted positive. Each row counts with its weight in w, or
// as 1 when w is nil; rows of weight 0 are left out, so their scores make
// no point. It sorts the scores once and walks them, O(n log n) in all. It
// panics on invalid input; see Validate.
func SweepScores(y []int, score, w []float64) Sweep {
	score = nonNil(score)
	mustValidate(y, score, nil, w)
	rk := rank(y, score, w)
	p, n := rk.posFrom(0), rk.negFrom(0)
	s := make(Sweep, 0, len(rk.pos)+len(rk.neg)+1) // at most one point per row
	s = append(s, SweepPoint{Threshold: math.Inf(1), Confusion: Confusion{FN: p, TN: n}})
	rk.descend(func(t, tp, fp float64) {
		s = append(s, SweepPoint{Threshold: t, Confusion: Confusion{TP: tp, FP: fp, FN: p - tp, TN: n - fp}})
	})
	slices.Reverse(s)
	return s
}

// Grid returns k evenly spaced thresholds from lo to hi inclusive, for
// SweepThresholds; k < 2 gives {lo}. Point i is lo + (hi-lo)*i/(k-1), one
// rounding each, so Grid(0, 1, 101) holds 0.5 and 0.3 exactly as written.
func Grid(lo, hi float64, k int) []float64 {
	if k < 2 {
		return []float64{lo}
	}
	g := make([]float64, k)
	for i := range g {
		g[i] = lo + (hi-lo)*float64(i)/float64(k-1)
	}
	g[k-1] = hi
	return g
}

// Thresholds returns the thresholds of the sweep.
func (s Sweep) Thresholds() []float64 {
	t := make([]float64, len(s))
	for i, p := range s {
		t[i] = p.Threshold
	}
	return t
}

// Values returns metric m at every point of the sweep.
func (s Sweep) Values(m Metric) []float64 {
	v := make([]float64, len(s))
	for i, p := range s {
		v[i] = m.Of(p.Confusion)
	}
	return v
}

// Best returns the index of the point where metric m is largest, -1 for an
// empty sweep or when m is NaN everywhere. Among the points tied at the
// largest value it takes the middle one of the tied run holding the most
// points; equal runs resolve to the lowest. Taking the middle of a plateau
// rather than its edge keeps a tuned threshold away from the nearest change
// of decision.
func (s Sweep) Best(m Metric) int { return BestIndex(s.Values(m)) }

// BestIndex returns the index of the largest value of v, NaN values
// skipped, -1 when there is none. Among the values tied at the largest it
// takes the middle one of the tied run holding the most points; equal
// runs resolve to the lowest.
func BestIndex(v []float64) int {
	best := math.NaN()
	for _, x := range v {
		if !math.IsNaN(x) && (math.IsNaN(best) || x > best) {
			best = x
		}
	}
	if math.IsNaN(best) {
		return -1
	}
	bi, blen := -1, 0
	for i := 0; i < len(v); {
		if v[i] != best {
			i++
			continue
		}
		j := i
		for j < len(v) && v[j] == best {
			j++
		}
		if j-i > blen {
			bi, blen = i+(j-i-1)/2, j-i
		}
		i = j
	}
	return bi
}

// MarshalJSON writes the point as one object (see Sweep).
func (p SweepPoint) MarshalJSON() ([]byte, error) {
	return p.appendJSON(nil), nil
}

func (p SweepPoint) appendJSON(b []byte) []byte {
	o := jsonObject{b: b}
	o.num("threshold", p.Threshold)
	writeConfusion(&o, p.Confusion, func(m Metric) float64 { return m.Of(p.Confusion) })
	return o.bytes()
}

// MarshalJSON writes the sweep as one array (see Sweep) in a single buffer.
func (s Sweep) MarshalJSON() ([]byte, error) {
	if s == nil {
		return []byte("null"), nil
	}
	b := make([]byte, 0, 64+len(s)*400)
	b = append(b, '[')
	for i, p := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = p.appendJSON(b)
	}
	return append(b, ']'), nil
}

// WriteCSV writes the sweep as CSV with the header threshold, tp, fp, tn,
// fn and the metric names; whole counts are written as integers. Non-finite values are written as NaN, +Inf and
// -Inf, which common CSV readers (pandas, R) parse as floats.
func (s Sweep) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("threshold,tp,fp,tn,fn")
	for _, m := range reportMetrics() {
		bw.WriteByte(',')
		bw.WriteString(m.String())
	}
	bw.WriteByte('\n')
	var b []byte
	for _, p := range s {
		b = strconv.AppendFloat(b[:0], p.Threshold, 'g', -1, 64)
		for _, c := range [...]float64{p.TP, p.FP, p.TN, p.FN} {
			b = append(b, ',')
			b = appendCount(b, c)
		}
		for _, m := range reportMetrics() {
			b = append(b, ',')
			b = strconv.AppendFloat(b, m.Of(p.Confusion), 'g', -1, 64)
		}
		b = append(b, '\n')
		bw.Write(b)
	}
	return bw.Flush()
}

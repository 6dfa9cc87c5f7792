package stattest

import (
	"errors"
	"fmt"
	"math"
)

// ZeroMethod says how the Wilcoxon signed-rank test treats pairs whose
// difference is exactly zero.
type ZeroMethod int

const (
	// Wilcox drops zero differences before ranking (the default).
	Wilcox ZeroMethod = iota
	// Pratt ranks the zero differences with the others, then drops their
	// ranks; the normal approximation is adjusted as in Cureton (1967).
	Pratt
	// ZSplit ranks the zero differences with the others and splits their
	// ranks equally between the positive and negative sums.
	ZSplit
)

var zeroMethodNames = [...]string{Wilcox: "wilcox", Pratt: "pratt", ZSplit: "zsplit"}

// String returns the method's name ("wilcox", "pratt", "zsplit"), or
// "ZeroMethod(N)" for a value out of range.
func (z ZeroMethod) String() string {
	if z < 0 || int(z) >= len(zeroMethodNames) {
		return fmt.Sprintf("ZeroMethod(%d)", int(z))
	}
	return zeroMethodNames[z]
}

// MarshalText encodes z by its name, as ParseZeroMethod reads it.
func (z ZeroMethod) MarshalText() ([]byte, error) { return []byte(z.String()), nil }

// ParseZeroMethod reads "wilcox", "pratt" or "zsplit".
func ParseZeroMethod(s string) (ZeroMethod, error) {
	for i, n := range zeroMethodNames {
		if s == n {
			return ZeroMethod(i), nil
		}
	}
	return 0, fmt.Errorf("stattest: unknown zero method %q (want wilcox, pratt or zsplit)", s)
}

// Mode chooses how the p-value of the signed-rank test is computed.
type Mode int

const (
	// Auto uses the exact distribution when there are at most 50 pairs,
	// and the normal approximation otherwise (the default).
	Auto Mode = iota
	// Exact uses the exact null distribution of W+.
	Exact
	// Approx uses the normal approximation with the tie correction.
	Approx
)

var modeNames = [...]string{Auto: "auto", Exact: "exact", Approx: "approx"}

// String returns the mode's name ("auto", "exact", "approx"), or
// "Mode(N)" for a value out of range.
func (m Mode) String() string {
	if m < 0 || int(m) >= len(modeNames) {
		return fmt.Sprintf("Mode(%d)", int(m))
	}
	return modeNames[m]
}

// MarshalText encodes m by its name, as ParseMode reads it.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// ParseMode reads "auto", "exact" or "approx".
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if s == n {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("stattest: unknown mode %q (want auto, exact or approx)", s)
}

// Alternative is the alternative hypothesis of a test on paired differences
// d = x - y.
type Alternative int

const (
	// TwoSided: the distribution of d is not symmetric about zero (the default).
	TwoSided Alternative = iota
	// Greater: d is stochastically greater than a distribution symmetric about zero.
	Greater
	// Less: d is stochastically less than a distribution symmetric about zero.
	Less
)

var alternativeNames = [...]string{TwoSided: "two-sided", Greater: "greater", Less: "less"}

// String returns the alternative's name ("two-sided", "greater", "less"),
// or "Alternative(N)" for a value out of range.
func (a Alternative) String() string {
	if a < 0 || int(a) >= len(alternativeNames) {
		return fmt.Sprintf("Alternative(%d)", int(a))
	}
	return alternativeNames[a]
}

// MarshalText encodes a by its name, as ParseAlternative reads it.
func (a Alternative) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// ParseAlternative reads "two-sided", "greater" or "less".
func ParseAlternative(s string) (Alternative, error) {
	for i, n := range alternativeNames {
		if s == n {
			return Alternative(i), nil
		}
	}
	return 0, fmt.Errorf("stattest: unknown alternative %q (want two-sided, greater or less)", s)
}

// WilcoxonOptions configures the signed-rank test. The zero value (and a nil
// pointer) gives SciPy's defaults: zero method wilcox, mode auto, two-sided,
// no continuity correction.
type WilcoxonOptions struct {
	ZeroMethod  ZeroMethod
	Mode        Mode
	Alternative Alternative
	// Correction applies a continuity correction of 1/2 towards the mean
	// in the normal approximation. It has no effect on the exact p-value.
	Correction bool
}

// WilcoxonResult is the outcome of a Wilcoxon signed-rank test.
type WilcoxonResult struct {
	// Statistic is min(WPlus, WMinus) for the two-sided test and WPlus for
	// a one-sided one, as in SciPy.
	Statistic float64 `json:"statistic"`
	// WPlus and WMinus are the sums of the ranks of |d| over positive and
	// negative differences (with ZSplit, each includes half of the zero ranks).
	WPlus  float64 `json:"w_plus"`
	WMinus float64 `json:"w_minus"`
	// Z is the standardised statistic of the normal approximation (with the
	// tie and zero adjustments and, if asked, the continuity correction). It
	// is reported in both modes; in exact mode P does not come from it.
	Z float64 `json:"z"`
	P float64 `json:"p"`
	// N is the number of differences ranked: the non-zero ones under
	// Wilcox, all of them under Pratt and ZSplit.
	N int `json:"n"`
	// Zeros counts the differences equal to zero.
	Zeros int `json:"zeros"`
	// TiedRanks counts the ranked |d| that share their value with another.
	TiedRanks   int         `json:"tied_ranks"`
	Mode        Mode        `json:"mode"` // Exact or Approx: the mode actually used
	ZeroMethod  ZeroMethod  `json:"zero_method"`
	Alternative Alternative `json:"alternative"`
	// Warnings name choices a reader should know about (a switch from the
	// exact to the normal distribution, an exact p-value computed despite
	// ties, a normal approximation on few pairs).
	Warnings []string `json:"warnings,omitempty"`
}

// maxExactN bounds the exact distribution in Auto mode, as in SciPy.
const maxExactN = 50

// MaxExactN is the largest number of differences for which Exact mode
// computes the exact distribution; its cost grows as n^3/6 (about a second
// at the limit). Beyond it Wilcoxon returns an error.
const MaxExactN = 2000

// Wilcoxon runs the Wilcoxon signed-rank test on the paired samples x and y
// (d = x - y), following scipy.stats.wilcoxon of SciPy 1.10:
//
//   - Auto mode takes the exact distribution when len(x) <= 50, the normal
//     approximation otherwise.
//   - Zero differences always force the normal approximation (the exact
//     distribution assumes none), with a warning.
//   - Ties among |d| do not: as in SciPy 1.10 the exact p-value is then
//     computed at floor(W+), which is only approximate; a warning says so.
//
// Errors: x and y of different lengths, no pairs, NaN differences, and (for
// Wilcox and Pratt) differences that are all zero.
func Wilcoxon(x, y []float64, opt *WilcoxonOptions) (WilcoxonResult, error) {
	if len(x) != len(y) {
		return WilcoxonResult{}, fmt.Errorf("stattest: Wilcoxon: x has %d values but y has %d", len(x), len(y))
	}
	d := make([]float64, len(x))
	for i := range x {
		d[i] = x[i] - y[i]
	}
	return WilcoxonDiff(d, opt)
}

// WilcoxonDiff is Wilcoxon on the differences d directly.
func WilcoxonDiff(d []float64, opt *WilcoxonOptions) (WilcoxonResult, error) {
	var o WilcoxonOptions
	if opt != nil {
		o = *opt
	}
	if o.ZeroMethod < Wilcox || o.ZeroMethod > ZSplit {
		return WilcoxonResult{}, fmt.Errorf("stattest: Wilcoxon: invalid zero method %v", o.ZeroMethod)
	}
	if o.Mode < Auto || o.Mode > Approx {
		return WilcoxonResult{}, fmt.Errorf("stattest: Wilcoxon: invalid mode %v", o.Mode)
	}
	if o.Alternative < TwoSided || o.Alternative > Less {
		return WilcoxonResult{}, fmt.Errorf("stattest: Wilcoxon: invalid alternative %v", o.Alternative)
	}
	if len(d) == 0 {
		return WilcoxonResult{}, errors.New("stattest: Wilcoxon: no pairs")
	}
	zeros := 0
	for i, v := range d {
		if math.IsNaN(v) {
			return WilcoxonResult{}, fmt.Errorf("stattest: Wilcoxon: difference %d (0-based) is NaN", i)
		}
		if v == 0 {
			zeros++
		}
	}
	res := WilcoxonResult{Zeros: zeros, ZeroMethod: o.ZeroMethod, Alternative: o.Alternative}

	mode := o.Mode
	if mode == Auto {
		mode = Approx
		if len(d) <= maxExactN {
			mode = Exact
		}
	}
	if zeros > 0 && mode == Exact {
		mode = Approx
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d zero differences: the exact distribution does not allow zeros, normal approximation used", zeros))
	}
	if zeros == len(d) && o.ZeroMethod != ZSplit {
		return WilcoxonResult{}, fmt.Errorf("stattest: Wilcoxon: all %d differences are zero; zero method %v needs a non-zero one (zsplit does not)", len(d), o.ZeroMethod)
	}
	if o.ZeroMethod == Wilcox && zeros > 0 {
		nz := make([]float64, 0, len(d)-zeros)
		for _, v := range d {
			if v != 0 {
				nz = append(nz, v)
			}
		}
		d = nz
	}
	n := len(d)
	res.N, res.Mode = n, mode
	if mode == Exact && n > MaxExactN {
		return WilcoxonResult{}, fmt.Errorf("stattest: Wilcoxon: exact distribution for %d differences is too costly (limit %d); use the normal approximation", n, MaxExactN)
	}

	abs := make([]float64, n)
	for i, v := range d {
		abs[i] = math.Abs(v)
	}
	r := rankAverage(abs)
	var wPlus, wMinus, wZero float64
	for i, v := range d {
		switch {
		case v > 0:
			wPlus += r[i]
		case v < 0:
			wMinus += r[i]
		default:
			wZero += r[i]
		}
	}
	if o.ZeroMethod == ZSplit {
		wPlus += wZero / 2
		wMinus += wZero / 2
	}
	res.WPlus, res.WMinus = wPlus, wMinus
	t := wPlus
	if o.Alternative == TwoSided {
		t = min(wPlus, wMinus)
	}
	res.Statistic = t

	// Normal approximation: mean and variance of W+ under the null, reduced
	// for Pratt by the ranks 1..zeros of the dropped zeros (Cureton 1967),
	// and for ties by sum t(t^2-1)/48.
	nf := float64(n)
	mean := nf * (nf + 1) / 4
	v24 := nf * (nf + 1) * (2*nf + 1)
	ranked := r
	if o.ZeroMethod == Pratt && zeros > 0 {
		z := float64(zeros)
		mean -= z * (z + 1) / 4
		v24 -= z * (z + 1) * (2*z + 1)
		ranked = make([]float64, 0, n-zeros)
		for i, v := range d {
			if v != 0 {
				ranked = append(ranked, r[i])
			}
		}
	}
	for _, g := range tieGroups(ranked) {
		gf := float64(g)
		v24 -= 0.5 * gf * (gf*gf - 1)
		res.TiedRanks += g
	}
	se := math.Sqrt(v24 / 24)
	cc := 0.0
	if o.Correction {
		switch o.Alternative {
		case TwoSided:
			cc = 0.5 * sign(t-mean)
		case Greater:
			cc = 0.5
		case Less:
			cc = -0.5
		}
	}
	res.Z = (t - mean - cc) / se
	if se == 0 {
		// Only possible when every ranked difference is a zero under ZSplit:
		// W+ equals its mean exactly.
		res.Z = 0
	}

	switch mode {
	case Approx:
		switch o.Alternative {
		case TwoSided:
			res.P = 2 * normalSurvival(math.Abs(res.Z))
		case Greater:
			res.P = normalSurvival(res.Z)
		case Less:
			res.P = normalSurvival(-res.Z)
		}
		if n < 10 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("normal approximation on only %d ranked differences", n))
		}
	case Exact:
		if res.TiedRanks > 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%d tied |differences|: the exact distribution assumes no ties; p-value computed at floor(W+) as SciPy 1.10 does", res.TiedRanks))
		}
		res.P = exactSignedRankP(n, int(math.Floor(wPlus)), o.Alternative)
	}
	res.P = min(max(res.P, 0), 1)
	return res, nil
}

func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// normalSurvival is P(Z > z) for a standard normal Z, through Erfc so that
// small tail probabilities keep their relative precision (1 - Erf loses it).
func normalSurvival(z float64) float64 {
	return 0.5 * math.Erfc(z/math.Sqrt2)
}

// signedRankPMF returns the null distribution of W+ for n untied, non-zero
// differences: pmf[w] = P(W+ = w), w = 0..n(n+1)/2. Each rank i joins W+ with
// probability 1/2 independently, so the pmf is built one rank at a time;
// working in probabilities rather than subset counts avoids overflow of the
// 2^n counts for large n.
func signedRankPMF(n int) []float64 {
	top := n * (n + 1) / 2
	pmf := make([]float64, top+1)
	pmf[0] = 1
	hi := 0
	for i := 1; i <= n; i++ {
		hi += i
		for w := hi; w >= 0; w-- {
			p := pmf[w]
			if w >= i {
				p += pmf[w-i]
			}
			pmf[w] = p / 2
		}
	}
	return pmf
}

// exactSignedRankP is the exact p-value of W+ = w for n differences,
// following SciPy: the two-sided value doubles the smaller tail, and is 1 at
// the centre of the distribution.
func exactSignedRankP(n, w int, alt Alternative) float64 {
	pmf := signedRankPMF(n)
	w = min(max(w, 0), len(pmf)-1)
	lower, upper := 0.0, 0.0
	for i := 0; i <= w; i++ {
		lower += pmf[i]
	}
	for i := w; i < len(pmf); i++ {
		upper += pmf[i]
	}
	switch alt {
	case Greater:
		return upper
	case Less:
		return lower
	}
	if w == (len(pmf)-1)/2 {
		return 1
	}
	return 2 * min(lower, upper)
}

package stattest

import (
	"errors"
	"math"
	"strings"
	"testing"
)

const tol = 1e-12

func TestMcNemarHand(t *testing.T) {
	for _, c := range []struct {
		table            McNemarTable
		chi2, pChi2      float64
		exactStat, exact float64
	}{
		// No discordant pairs: no evidence of a difference.
		{McNemarTable{{7, 0}, {0, 3}}, 0, 1, 0, 1},
		// b=5, c=0: (5-1)^2/5 = 3.2; exact 2 * 2^-5.
		{McNemarTable{{1, 5}, {0, 1}}, 3.2, math.Erfc(math.Sqrt(3.2) / math.Sqrt2), 0, 0.0625},
		// b=c: the continuity correction is not clipped (statsmodels).
		{McNemarTable{{0, 2}, {2, 0}}, 0.25, math.Erfc(math.Sqrt(0.25) / math.Sqrt2), 2, 1},
	} {
		r, err := McNemar(c.table)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.ChiSquare-c.chi2) > tol || math.Abs(r.ChiSquareP-c.pChi2) > 1e-10 ||
			r.ExactStatistic != c.exactStat || math.Abs(r.ExactP-c.exact) > tol {
			t.Errorf("%v: got %+v", c.table, r)
		}
	}
	if _, err := McNemar(McNemarTable{{1, -1}, {0, 0}}); err == nil {
		t.Error("negative count: no error")
	}
}

func TestNewMcNemarTable(t *testing.T) {
	a := []bool{true, true, false, false, true}
	b := []bool{true, false, true, false, false}
	tab, err := NewMcNemarTable(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if want := (McNemarTable{{1, 2}, {1, 1}}); tab != want {
		t.Errorf("table %v, want %v", tab, want)
	}
	if _, err := NewMcNemarTable(a, b[:3]); err == nil {
		t.Error("length mismatch: no error")
	}
	if _, err := NewMcNemarTable(nil, nil); err == nil {
		t.Error("no rows: no error")
	}
}

func TestSignedRankPMF(t *testing.T) {
	// n = 3: subsets of {1,2,3} by sum: 0,1,2,{3,1+2},1+3,2+3,1+2+3.
	want := []float64{1, 1, 1, 2, 1, 1, 1}
	got := signedRankPMF(3)
	for i := range want {
		if math.Abs(got[i]-want[i]/8) > tol {
			t.Errorf("pmf[%d] = %v, want %v", i, got[i], want[i]/8)
		}
	}
	for _, n := range []int{1, 10, 50, 200} {
		pmf := signedRankPMF(n)
		sum := 0.0
		for i, p := range pmf {
			sum += p
			if q := pmf[len(pmf)-1-i]; math.Abs(p-q) > 1e-15 {
				t.Fatalf("n=%d: pmf not symmetric at %d: %v vs %v", n, i, p, q)
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("n=%d: pmf sums to %v", n, sum)
		}
	}
}

func TestWilcoxonHand(t *testing.T) {
	d := []float64{1, 2, 3, 4, 5}
	for _, c := range []struct {
		alt  Alternative
		stat float64
		p    float64
	}{
		{TwoSided, 0, 0.0625},
		{Greater, 15, 1.0 / 32},
		{Less, 15, 1},
	} {
		r, err := WilcoxonDiff(d, &WilcoxonOptions{Alternative: c.alt})
		if err != nil {
			t.Fatal(err)
		}
		if r.Mode != Exact || r.Statistic != c.stat || math.Abs(r.P-c.p) > tol || r.WPlus != 15 || r.WMinus != 0 {
			t.Errorf("%v: got %+v", c.alt, r)
		}
	}

	// Normal approximation, n = 10: W- = 2, mean 27.5, variance 10*11*21/24.
	d = []float64{1, -2, 3, 4, 5, 6, 7, 8, 9, 10}
	r, err := WilcoxonDiff(d, &WilcoxonOptions{Mode: Approx})
	if err != nil {
		t.Fatal(err)
	}
	if r.Statistic != 2 || math.Abs(r.Z-(-2.5992006763318902)) > 1e-12 || math.Abs(r.P-0.009344113002204894) > 1e-12 {
		t.Errorf("approx: got %+v", r)
	}
	// With the continuity correction z moves half a unit towards the mean.
	rc, err := WilcoxonDiff(d, &WilcoxonOptions{Mode: Approx, Correction: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := (2 - 27.5 + 0.5) / math.Sqrt(96.25); math.Abs(rc.Z-want) > tol || rc.P <= r.P {
		t.Errorf("corrected: z %v want %v, p %v (uncorrected %v)", rc.Z, want, rc.P, r.P)
	}

	// Pratt with one zero: d = 0, 1, -2, 3 ranks 1..4; W+ = 6, W- = 3;
	// mean 5 - 0.5, variance (180 - 6)/24 (Cureton's adjustment).
	r, err = WilcoxonDiff([]float64{0, 1, -2, 3}, &WilcoxonOptions{ZeroMethod: Pratt})
	if err != nil {
		t.Fatal(err)
	}
	if r.Mode != Approx || r.WPlus != 6 || r.WMinus != 3 || r.N != 4 || r.Zeros != 1 ||
		math.Abs(r.Z-(-0.5570860145311556)) > 1e-12 || math.Abs(r.P-0.5774686624272997) > 1e-12 {
		t.Errorf("pratt: got %+v", r)
	}
	if len(r.Warnings) == 0 {
		t.Error("pratt: switch to the normal approximation not reported")
	}
	// ZSplit: the zero's rank 1 is split, W+ = 6.5, W- = 3.5.
	r, err = WilcoxonDiff([]float64{0, 1, -2, 3}, &WilcoxonOptions{ZeroMethod: ZSplit})
	if err != nil {
		t.Fatal(err)
	}
	if r.WPlus != 6.5 || r.WMinus != 3.5 || r.Statistic != 3.5 {
		t.Errorf("zsplit: got %+v", r)
	}
	// Wilcox drops the zero: d = 1, -2, 3 with ranks 1..3 (exact would need
	// no zeros, so the approximation is used).
	r, err = WilcoxonDiff([]float64{0, 1, -2, 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.N != 3 || r.WPlus != 4 || r.WMinus != 2 || r.Mode != Approx {
		t.Errorf("wilcox: got %+v", r)
	}
}

func TestWilcoxonSymmetry(t *testing.T) {
	x := []float64{0.3, 1.2, -0.4, 2.2, 0.9, 1.7, -1.1, 0.05, 0.6, 1.4, 0.8, -0.2}
	y := make([]float64, len(x))
	for _, mode := range []Mode{Exact, Approx} {
		a, err := Wilcoxon(x, y, &WilcoxonOptions{Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Wilcoxon(y, x, &WilcoxonOptions{Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		if a.Statistic != b.Statistic || math.Abs(a.P-b.P) > tol || a.WPlus != b.WMinus {
			t.Errorf("%v: swapping x and y changed the two-sided test: %+v vs %+v", mode, a, b)
		}
		g, _ := Wilcoxon(x, y, &WilcoxonOptions{Mode: mode, Alternative: Greater})
		l, _ := Wilcoxon(x, y, &WilcoxonOptions{Mode: mode, Alternative: Less})
		if math.Abs(a.P-2*min(g.P, l.P)) > 1e-12 {
			t.Errorf("%v: two-sided %v != 2 min(%v, %v)", mode, a.P, g.P, l.P)
		}
	}
}

func TestWilcoxonErrors(t *testing.T) {
	for name, c := range map[string]struct {
		x, y []float64
		opt  *WilcoxonOptions
		msg  string
	}{
		"length":      {[]float64{1, 2}, []float64{1}, nil, "2 values but y has 1"},
		"empty":       {nil, nil, nil, "no pairs"},
		"nan":         {[]float64{1, math.NaN()}, []float64{0, 0}, nil, "difference 1"},
		"allzero":     {[]float64{1, 2}, []float64{1, 2}, nil, "all 2 differences are zero"},
		"allzeroprat": {[]float64{1, 2}, []float64{1, 2}, &WilcoxonOptions{ZeroMethod: Pratt}, "zero method pratt"},
		"badmode":     {[]float64{1}, []float64{0}, &WilcoxonOptions{Mode: 7}, "invalid mode"},
	} {
		_, err := Wilcoxon(c.x, c.y, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want one containing %q", name, err, c.msg)
		}
	}
	// ZSplit accepts all-zero differences: no evidence either way.
	r, err := Wilcoxon([]float64{1, 2, 3}, []float64{1, 2, 3}, &WilcoxonOptions{ZeroMethod: ZSplit})
	if err != nil || r.P != 1 || r.Z != 0 {
		t.Errorf("zsplit all zero: %+v, %v", r, err)
	}
}

func TestParseNames(t *testing.T) {
	for _, z := range []ZeroMethod{Wilcox, Pratt, ZSplit} {
		if got, err := ParseZeroMethod(z.String()); err != nil || got != z {
			t.Errorf("ParseZeroMethod(%q) = %v, %v", z, got, err)
		}
	}
	for _, m := range []Mode{Auto, Exact, Approx} {
		if got, err := ParseMode(m.String()); err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v", m, got, err)
		}
	}
	for _, a := range []Alternative{TwoSided, Greater, Less} {
		if got, err := ParseAlternative(a.String()); err != nil || got != a {
			t.Errorf("ParseAlternative(%q) = %v, %v", a, got, err)
		}
	}
	if _, err := ParseZeroMethod("zero"); err == nil {
		t.Error("ParseZeroMethod accepted a bad name")
	}
}

func TestFriedmanHand(t *testing.T) {
	// Method 0 best, 2 worst on all three datasets: chi2 = 6, p = exp(-3);
	// N(k-1) - chi2 = 0, so Iman-Davenport's F is infinite.
	s := [][]float64{{0.9, 0.8, 0.7}, {0.6, 0.5, 0.1}, {3, 2, 1}}
	r, err := Friedman(s, true)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.ChiSquare-6) > tol || math.Abs(r.P-math.Exp(-3)) > tol ||
		!math.IsInf(r.ImanDavenport, 1) || r.ImanDavenportP != 0 {
		t.Errorf("got %+v", r)
	}
	for j, want := range []float64{1, 2, 3} {
		if r.MeanRanks[j] != want {
			t.Errorf("mean rank %d = %v, want %v", j, r.MeanRanks[j], want)
		}
	}
	// Lower is better reverses the ranks and keeps the statistic.
	l, err := Friedman(s, false)
	if err != nil {
		t.Fatal(err)
	}
	for j := range l.MeanRanks {
		if l.MeanRanks[j] != float64(r.K+1)-r.MeanRanks[j] {
			t.Errorf("lower is better: mean rank %d = %v", j, l.MeanRanks[j])
		}
	}
	if math.Abs(l.ChiSquare-r.ChiSquare) > tol {
		t.Errorf("lower is better changed chi2: %v vs %v", l.ChiSquare, r.ChiSquare)
	}

	// Ties within a dataset: ranks 1.5, 1.5, 3 and the tie correction.
	// Sum of ranks: (1.5+1, 1.5+2, 3+3) = (2.5, 3.5, 6); chi2 uncorrected
	// = 12/(2*3*4) * (6.25+12.25+36) - 3*2*4 = 27.25 - 24 = 3.25; the
	// correction divides by 1 - 6/(2*3*8) = 0.875.
	r, err = Friedman([][]float64{{5, 5, 1}, {9, 8, 7}}, true)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.ChiSquare-3.25/0.875) > tol {
		t.Errorf("ties: chi2 %v, want %v", r.ChiSquare, 3.25/0.875)
	}
	// Iman-Davenport: F = (N-1) chi2 / (N(k-1) - chi2) on (k-1, (k-1)(N-1)).
	want := 1 * r.ChiSquare / (2*2 - r.ChiSquare)
	if math.Abs(r.ImanDavenport-want) > tol || r.DF1 != 2 || r.DF2 != 2 {
		t.Errorf("Iman-Davenport %v (df %v, %v), want %v", r.ImanDavenport, r.DF1, r.DF2, want)
	}
	// F(2, 2) survival is 1/(1+F).
	if math.Abs(r.ImanDavenportP-1/(1+want)) > 1e-12 {
		t.Errorf("Iman-Davenport p %v, want %v", r.ImanDavenportP, 1/(1+want))
	}
}

func TestFriedmanErrors(t *testing.T) {
	for name, c := range map[string]struct {
		s   [][]float64
		msg string
	}{
		"onedataset": {[][]float64{{1, 2}}, "at least 2 datasets"},
		"onemethod":  {[][]float64{{1}, {2}}, "at least 2 methods"},
		"ragged":     {[][]float64{{1, 2}, {1}}, "dataset 1 has 1 scores"},
		"nan":        {[][]float64{{1, 2}, {1, math.NaN()}}, "method 1 on dataset 1 is NaN"},
		"allties":    {[][]float64{{1, 1}, {2, 2}}, "ties all methods"},
	} {
		_, err := Friedman(c.s, true)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want one containing %q", name, err, c.msg)
		}
	}
}

func TestStudentizedRangeMatchesDemsar(t *testing.T) {
	// For k = 2 the range of two normals over sqrt 2 is |N(0,1)|.
	if q := StudentizedRangeQuantile(0.95, 2) / math.Sqrt2; math.Abs(q-1.959963984540054) > 1e-8 {
		t.Errorf("k=2: q = %.12f, want 1.959963984540", q)
	}
	for alpha, tab := range demsarQ {
		for i, want := range tab {
			k := i + 2
			got := StudentizedRangeQuantile(1-alpha, k) / math.Sqrt2
			// Demsar's three decimals are not all rounded to nearest
			// (k=3: 2.34370 is printed 2.343), hence 1e-3 rather than 5e-4.
			if math.Abs(got-want) > 1e-3 {
				t.Errorf("alpha %v k %d: computed q %.5f, Demsar %.3f", alpha, k, got, want)
			}
		}
	}
	// Outside the table NemenyiQ computes the value.
	q, err := NemenyiQ(12, 0.05)
	if err != nil || !(q > 3.164 && q < 3.4) {
		t.Errorf("NemenyiQ(12, 0.05) = %v, %v", q, err)
	}
	if _, err := NemenyiQ(1, 0.05); err == nil {
		t.Error("NemenyiQ(1): no error")
	}
	if _, err := NemenyiQ(3, 1.5); err == nil {
		t.Error("NemenyiQ alpha 1.5: no error")
	}
}

func TestNewNemenyi(t *testing.T) {
	nm, err := NewNemenyi([]float64{1.2, 2.0, 2.8}, 10, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	// CD = 2.343 * sqrt(3*4/60) = 1.0478...
	if want := 2.343 * math.Sqrt(0.2); math.Abs(nm.CD-want) > tol {
		t.Errorf("CD %v, want %v", nm.CD, want)
	}
	if len(nm.Pairs) != 3 {
		t.Fatalf("%d pairs, want 3", len(nm.Pairs))
	}
	sig := []bool{false, true, false} // (0,1) 0.8, (0,2) 1.6, (1,2) 0.8
	for i, p := range nm.Pairs {
		if p.Significant != sig[i] {
			t.Errorf("pair %d-%d (diff %v): significant %v", p.I, p.J, p.RankDiff, p.Significant)
		}
	}
}

func TestWilcoxonExactLimit(t *testing.T) {
	d := make([]float64, MaxExactN+1)
	for i := range d {
		d[i] = float64(i + 1)
	}
	if _, err := WilcoxonDiff(d, &WilcoxonOptions{Mode: Exact}); err == nil || !strings.Contains(err.Error(), "too costly") {
		t.Errorf("exact beyond the limit: error %v", err)
	}
	// Auto mode takes the normal approximation instead.
	r, err := WilcoxonDiff(d, nil)
	if err != nil || r.Mode != Approx {
		t.Errorf("auto with %d differences: %v, %v", len(d), r.Mode, err)
	}
}

// TestSignedRankPMFBruteForce enumerates all 2^n sign patterns.
func TestSignedRankPMFBruteForce(t *testing.T) {
	const n = 12
	counts := make([]float64, n*(n+1)/2+1)
	for mask := 0; mask < 1<<n; mask++ {
		w := 0
		for i := 0; i < n; i++ {
			if mask&(1<<i) != 0 {
				w += i + 1
			}
		}
		counts[w]++
	}
	pmf := signedRankPMF(n)
	for w := range counts {
		if want := counts[w] / (1 << n); math.Abs(pmf[w]-want) > 1e-15 {
			t.Errorf("pmf[%d] = %v, want %v", w, pmf[w], want)
		}
	}
	// The textbook critical value: for n = 10, P(W+ <= 8) = 25/1024.
	if p := exactSignedRankP(10, 8, Less); math.Abs(p-25.0/1024) > 1e-15 {
		t.Errorf("P(W+ <= 8 | n=10) = %v, want 25/1024", p)
	}
	if p := exactSignedRankP(10, 8, TwoSided); math.Abs(p-50.0/1024) > 1e-15 {
		t.Errorf("two-sided p = %v, want 50/1024", p)
	}
}

func TestComparePaired(t *testing.T) {
	ca := []bool{true, true, false, true, false, true}
	cb := []bool{false, true, false, false, true, true}
	qa := []float64{0.1, 0.2, 0.9, 0.3, 0.6, 0.2}
	qb := []float64{0.7, 0.2, 0.8, 0.6, 0.4, 0.5}
	p, err := ComparePaired(ca, cb, qa, qb, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.McNemar.B != 2 || p.McNemar.C != 1 || p.ALower != 3 || p.BLower != 2 || p.Equal != 1 {
		t.Errorf("counts: %+v", p)
	}
	w, _ := Wilcoxon(qa, qb, nil)
	if p.Wilcoxon.Statistic != w.Statistic || p.Wilcoxon.P != w.P {
		t.Errorf("Wilcoxon %+v, want %+v", p.Wilcoxon, w)
	}
	if _, err := ComparePaired(ca, cb, qa, qa, nil); !errors.Is(err, ErrNoDifference) {
		t.Errorf("equal quantities: %v, want ErrNoDifference", err)
	}
	if p, err := ComparePaired(ca, cb, qa, qa, &WilcoxonOptions{ZeroMethod: ZSplit}); err != nil || p.Wilcoxon.P != 1 {
		t.Errorf("zsplit on equal quantities: %v, %v", p, err)
	}
	if _, err := ComparePaired(ca, cb[:3], qa, qb, nil); err == nil {
		t.Error("lengths differ: no error")
	}
}

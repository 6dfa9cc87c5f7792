package adaptive

import (
	"bytes"
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// TestOOD fits on a synthetic task, then checks that ordinary test rows
// are flagged out of distribution at about OODAlpha, that the same rows
// moved far from the training data are all flagged and score above every
// ordinary row, that the threshold and the scores survive a save, and
// that a model file without a threshold (written before it existed) has
// no OOD scorer.
func TestOOD(t *testing.T) {
	tr, va, te := task(t, 4000, 3)
	m, _, err := Fit(context.Background(), ld(tr), ld(va), smallConfig(), learn.Env{})
	if err != nil {
		t.Fatal(err)
	}
	o, ok := learn.OODOf(m)
	if !ok {
		t.Fatal("a fitted AER model has no OOD scorer")
	}
	thr, _ := o.OODThreshold()
	if m.ood.Alpha != OODAlpha || m.ood.Rows != len(va.Y) {
		t.Fatalf("threshold set at alpha %v on %d rows, want %v on %d", m.ood.Alpha, m.ood.Rows, OODAlpha, len(va.Y))
	}
	// On the validation rows that set it, at most alpha lie above it.
	sv, err := m.OODScore(va.X, nil)
	if err != nil {
		t.Fatal(err)
	}
	if above := countAbove(sv, thr); float64(above) > OODAlpha*float64(len(sv)) || above == 0 && len(sv) >= 200 {
		t.Fatalf("%d of %d validation rows above the threshold %v (alpha %v)", above, len(sv), thr, OODAlpha)
	}
	s, err := m.OODScore(te.X, nil)
	if err != nil {
		t.Fatal(err)
	}
	rate := float64(countAbove(s, thr)) / float64(len(s))
	t.Logf("threshold %.3f, ordinary test rows flagged %.4f (%d rows)", thr, rate, len(s))
	if math.Abs(rate-OODAlpha) > 0.02 {
		t.Fatalf("ordinary test rows flagged at %.4f, set for %v", rate, OODAlpha)
	}
	// Moved 10 standard deviations away on every feature.
	r, c := te.X.Dims()
	far := mat.DenseCopyOf(te.X)
	for j := range c {
		sd := math.Sqrt(variance(mat.Col(nil, j, tr.X)))
		for i := range r {
			far.Set(i, j, far.At(i, j)+10*sd)
		}
	}
	sf, err := m.OODScore(far, nil)
	if err != nil {
		t.Fatal(err)
	}
	maxOrdinary := math.Inf(-1)
	for _, v := range s {
		maxOrdinary = max(maxOrdinary, v)
	}
	for i, v := range sf {
		if !(v > thr) || !(v > maxOrdinary) {
			t.Fatalf("far row %d scores %v: threshold %v, highest ordinary row %v", i, v, thr, maxOrdinary)
		}
	}
	// Saved and loaded: the same threshold and scores, bit for bit.
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Load(b)
	if err != nil {
		t.Fatal(err)
	}
	thr2, ok := back.OODThreshold()
	s2, err := back.OODScore(te.X, nil)
	if err != nil || !ok || math.Float64bits(thr2) != math.Float64bits(thr) {
		t.Fatalf("loaded: threshold %v %v (%v), want %v", thr2, ok, err, thr)
	}
	for i := range s {
		if math.Float64bits(s[i]) != math.Float64bits(s2[i]) {
			t.Fatalf("row %d: OOD score %v before saving, %v after", i, s[i], s2[i])
		}
	}
	// A file without the threshold: no scorer, and it saves as it was.
	old := bytes.Replace(b, []byte(`,"ood":{`), []byte(`,"x":{`), 1)
	if bytes.Equal(old, b) {
		t.Fatal("the saved model has no ood field")
	}
	m.ood = nil
	legacy, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(legacy, []byte(`"ood"`)) {
		t.Fatal("a model without a threshold writes an ood field")
	}
	lm, err := Load(legacy)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := learn.OODOf(lm); ok {
		t.Fatal("a model file without a threshold has an OOD scorer")
	}
	again, err := lm.MarshalBinary()
	if err != nil || !bytes.Equal(again, legacy) {
		t.Fatalf("a model without a threshold does not save as it was read (%v)", err)
	}
}

func countAbove(s []float64, thr float64) int {
	n := 0
	for _, v := range s {
		if v > thr {
			n++
		}
	}
	return n
}

func variance(v []float64) float64 {
	var mean, ss float64
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	return ss / float64(len(v))
}

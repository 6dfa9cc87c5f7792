package density_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/density"
	"github.com/aer-go/aer/learn"
)

// blobs returns n rows of d features from two Gaussian clusters (at 0
// and at 6 on every feature, unit variance), a tenth of the cells of the
// first feature missing when missing is set.
func blobs(n, d int, seed uint64, missing bool) *mat.Dense {
	r := rand.New(rand.NewPCG(seed, 7))
	x := mat.NewDense(n, d, nil)
	for i := range n {
		c := float64(6 * (i % 2))
		for j := range d {
			x.Set(i, j, c+r.NormFloat64())
		}
		if missing && r.IntN(10) == 0 {
			x.Set(i, 0, math.NaN())
		}
	}
	return x
}

// flaggedShare is the share of x's rows scored above m's threshold.
func flaggedShare(t *testing.T, m *density.Model, x *mat.Dense) float64 {
	t.Helper()
	s, err := m.OODScore(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	for _, v := range s {
		if v > m.Threshold {
			k++
		}
	}
	return float64(k) / float64(len(s))
}

// TestFitFlags fits on two clusters: about 1% of fresh rows from them
// are flagged (validation threshold, and held-out training rows without
// validation), a row between or far from them is flagged, the chosen
// mixture has at least two components, and a NaN cell is imputed.
func TestFitFlags(t *testing.T) {
	ctx := context.Background()
	train, valid, test := blobs(6000, 4, 1, true), blobs(3000, 4, 2, true), blobs(20000, 4, 3, true)
	for _, tc := range []struct {
		valid *mat.Dense
		on    string
		rows  int
	}{{valid, density.OnValidation, 3000}, {nil, density.OnTraining, 1500}} {
		m, err := density.Fit(ctx, train, tc.valid, &density.Settings{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		if m.ThresholdOn != tc.on || m.ThresholdRows != tc.rows || m.FitRows != density.DefaultRows {
			t.Fatalf("threshold on %s (%d rows), fitted on %d; want %s (%d), %d", m.ThresholdOn, m.ThresholdRows, m.FitRows, tc.on, tc.rows, density.DefaultRows)
		}
		if k := m.Mixture.K(); k < 2 {
			t.Errorf("%d components for two clusters", k)
		}
		if f := flaggedShare(t, m, test); f < 0.005 || f > 0.016 {
			t.Errorf("threshold on %s: %.4f of ordinary rows flagged, set for %v", tc.on, f, density.Alpha)
		}
		far := mat.NewDense(3, 4, []float64{3, 3, 3, 3, 40, 0, 0, 0, 0, math.NaN(), -30, 0})
		s, err := m.OODScore(far, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range s {
			if !(v > m.Threshold) {
				t.Errorf("far row %d: score %v, threshold %v", i, v, m.Threshold)
			}
		}
	}
}

// TestDeterministicAndRoundTrip: the same seed gives the same density,
// bit for bit, whatever the workers; its encoding decodes to a density
// scoring the same bits; another seed draws other rows.
func TestDeterministicAndRoundTrip(t *testing.T) {
	ctx := context.Background()
	train, test := blobs(9000, 3, 1, true), blobs(500, 3, 9, true)
	a, err := density.Fit(ctx, train, nil, &density.Settings{Seed: 3, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := density.Fit(ctx, train, nil, &density.Settings{Seed: 3, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	ea, _ := a.Encode()
	eb, _ := b.Encode()
	if string(ea) != string(eb) {
		t.Fatal("same seed, different densities")
	}
	c, err := density.Decode(ea)
	if err != nil {
		t.Fatal(err)
	}
	sa, _ := a.OODScore(test, nil)
	sc, _ := c.OODScore(test, nil)
	for i := range sa {
		if math.Float64bits(sa[i]) != math.Float64bits(sc[i]) {
			t.Fatalf("row %d: %v before the round trip, %v after", i, sa[i], sc[i])
		}
	}
	if c.Threshold != a.Threshold {
		t.Fatalf("threshold %v, decoded %v", a.Threshold, c.Threshold)
	}
	o, _ := density.Fit(ctx, train, nil, &density.Settings{Seed: 4})
	if eo, _ := o.Encode(); string(eo) == string(ea) {
		t.Fatal("seeds 3 and 4 gave the same density")
	}
}

// TestHostileRows: a value beyond float64's range after standardising
// scores +Inf (flagged); a row of the wrong width is an error; a tiny
// training set still fits.
func TestHostileRows(t *testing.T) {
	ctx := context.Background()
	train := blobs(400, 2, 1, false)
	m, err := density.Fit(ctx, train, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(2, 2, []float64{math.Inf(1), 0, 1.7e308, -1.7e308})
	s, err := m.OODScore(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range s {
		if !math.IsInf(v, 1) {
			t.Errorf("row %d: score %v, want +Inf", i, v)
		}
	}
	if _, err := m.OODScore(mat.NewDense(1, 3, nil), nil); !errors.Is(err, learn.ErrData) {
		t.Errorf("3 features for 2: %v", err)
	}
	one, err := density.Fit(ctx, mat.NewDense(1, 2, []float64{1, 2}), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if one.FitRows != 1 || one.ThresholdOn != density.OnTraining {
		t.Errorf("one row: fitted on %d, threshold on %s", one.FitRows, one.ThresholdOn)
	}
}

// TestDecodeRefuses corrupt densities with ErrCorrupt.
func TestDecodeRefuses(t *testing.T) {
	m, err := density.Fit(context.Background(), blobs(300, 2, 1, false), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	good, _ := m.Encode()
	for name, edit := range map[string]func(*density.Model){
		"version":   func(m *density.Model) { m.Version = 2 },
		"means":     func(m *density.Model) { m.Means = m.Means[:1] },
		"scale":     func(m *density.Model) { m.Scaler.Scale[0] = 0 },
		"alpha":     func(m *density.Model) { m.Alpha = 1 },
		"rows":      func(m *density.Model) { m.ThresholdRows = 0 },
		"on":        func(m *density.Model) { m.ThresholdOn = "test" },
		"no scaler": func(m *density.Model) { m.Scaler = nil },
	} {
		c, _ := density.Decode(good)
		edit(c)
		b, err := jsonOf(c)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := density.Decode(b); !errors.Is(err, density.ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", name, err)
		}
	}
	for _, b := range []string{"", "null", "{}", `{"version":1,"extra":1}`, string(good[:len(good)/2])} {
		if _, err := density.Decode([]byte(b)); !errors.Is(err, density.ErrCorrupt) {
			t.Errorf("%q: %v, want ErrCorrupt", b, err)
		}
	}
}

// FuzzDecode: whatever the bytes, Decode returns a density that scores
// a row, or an error; never a panic.
func FuzzDecode(f *testing.F) {
	m, err := density.Fit(context.Background(), blobs(300, 2, 1, false), nil, nil)
	if err != nil {
		f.Fatal(err)
	}
	good, _ := m.Encode()
	f.Add(good)
	f.Add([]byte(`{"version":1,"means":[0],"scaler":{"mean":[0],"scale":[1]},"mixture":{"covariance":"diag","weights":[1],"means":[[0]],"covariances":[[1]]},"fit_rows":1,"alpha":0.01,"threshold":3,"threshold_rows":1,"threshold_on":"training"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := density.Decode(b)
		if err != nil {
			return
		}
		x := mat.NewDense(1, d.Dim(), nil)
		s, err := d.OODScore(x, nil)
		if err == nil && math.IsNaN(s[0]) {
			t.Fatal("NaN score")
		}
		if _, err := d.Encode(); err != nil {
			t.Fatalf("a decoded density does not encode: %v", err)
		}
	})
}

func jsonOf(m *density.Model) ([]byte, error) { return json.Marshal(m) }

package adaptive

import (
	"bytes"
	"context"
	"testing"

	"github.com/aer-go/aer/learn"
	"gonum.org/v1/gonum/mat"
)

// TestSelectRows: the presets' subsample sizes, the parameter, and a fit
// whose majority rows exceed select_rows comparing the pool on a subsample
// of that size.
func TestSelectRows(t *testing.T) {
	for _, c := range []struct {
		preset Preset
		set    string
		want   int
	}{{"", "", DefaultSelectRows}, {PresetPaper, "", -1}, {"", "500", 500}, {PresetPaper, "-1", -1}} {
		cfg := &Config{Preset: c.preset}
		if c.set != "" {
			if err := cfg.Set("select_rows", c.set); err != nil {
				t.Fatal(err)
			}
		}
		r, err := cfg.resolve()
		if err != nil {
			t.Fatal(err)
		}
		if r.SelectRows != c.want {
			t.Errorf("preset %q, select_rows %q: %d rows, want %d", c.preset, c.set, r.SelectRows, c.want)
		}
	}
	if err := (&Config{}).Set("select_rows", "-2"); err == nil {
		t.Error("select_rows -2 accepted")
	}
	tr, va, _ := task(t, 1000, 12)
	for _, rows := range []int{0, 300} {
		cfg := plusConfig()
		cfg.SelectRows = rows
		_, rep, err := Fit(context.Background(), ld(tr), ld(va), cfg, learn.Env{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		if want := min(rows, 300); rep.Mixture.SampleRows != want {
			t.Errorf("select_rows %d: candidates fitted on %d rows, want %d", rows, rep.Mixture.SampleRows, want)
		}
	}
}

// TestMixtureRows: the presets' choice, the parameter, and a fit whose
// majority rows exceed mixture_rows: the mixture is fitted on that many of
// them, the same ones for the same seed, while every majority row is still
// ranked (the global subsets still hold floor(m_n / L) of them).
func TestMixtureRows(t *testing.T) {
	for _, c := range []struct {
		preset Preset
		set    string
		want   int
	}{{"", "", DefaultMixtureRows}, {PresetPaper, "", -1}, {"", "400", 400}, {"", "-1", -1}} {
		cfg := &Config{Preset: c.preset}
		if c.set != "" {
			if err := cfg.Set("mixture_rows", c.set); err != nil {
				t.Fatal(err)
			}
		}
		r, err := cfg.resolve()
		if err != nil {
			t.Fatal(err)
		}
		if r.MixtureRows != c.want {
			t.Errorf("preset %q, mixture_rows %q: %d rows, want %d", c.preset, c.set, r.MixtureRows, c.want)
		}
	}
	if _, err := (&Config{MixtureRows: -2}).resolve(); err == nil {
		t.Error("mixture_rows -2 accepted")
	}
	tr, va, _ := task(t, 1000, 12)
	majority := 0
	for _, v := range tr.Y {
		if v == 0 {
			majority++
		}
	}
	fit := func(rows int, seed uint64) *Report {
		cfg := plusConfig()
		cfg.MixtureRows = rows
		_, rep, err := Fit(context.Background(), ld(tr), ld(va), cfg, learn.Env{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	all, sub, sub2 := fit(-1, 5), fit(400, 5), fit(400, 5)
	if all.MixtureRows != 0 || sub.MixtureRows != 400 {
		t.Fatalf("mixture fitted on %d and %d rows, want all and 400", all.MixtureRows, sub.MixtureRows)
	}
	if sub.Mixture.SampleRows != 0 && sub.Mixture.SampleRows > 400 {
		t.Errorf("BIC compared on %d rows of a 400-row mixture sample", sub.Mixture.SampleRows)
	}
	L := sub.Mixture.Components
	for _, s := range sub.Subsets {
		if s.Kind == "global" && s.Majority+s.TomekRemoved != majority/L {
			t.Errorf("global subset %d: %d + %d majority rows, want floor(%d / %d)", s.Component, s.Majority, s.TomekRemoved, majority, L)
		}
	}
	if sub.Mixture.Model.Means[0][0] == all.Mixture.Model.Means[0][0] {
		t.Error("the 400-row mixture equals the all-rows one")
	}
	if sub2.Mixture.Model.Means[0][0] != sub.Mixture.Model.Means[0][0] {
		t.Error("two fits with one seed drew different mixture rows")
	}
}

// TestConsumeTrain: with env.ConsumeTrain the fit may work on the
// caller's features in place and gives the model bit for bit; without it
// the features are left as they were.
func TestConsumeTrain(t *testing.T) {
	tr, va, _ := task(t, 600, 3)
	before := mat.DenseCopyOf(tr.X)
	m1, _, err := Fit(context.Background(), ld(tr), ld(va), plusConfig(), learn.Env{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(tr.X, before) {
		t.Fatal("the fit changed the caller's features")
	}
	m2, _, err := Fit(context.Background(), ld(tr), ld(va), plusConfig(), learn.Env{Seed: 2, ConsumeTrain: true})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := m1.MarshalBinary()
	b, _ := m2.MarshalBinary()
	if !bytes.Equal(a, b) {
		t.Error("ConsumeTrain changed the model")
	}
	if mat.Equal(tr.X, before) {
		t.Error("ConsumeTrain: the features were copied, not standardised in place")
	}
}

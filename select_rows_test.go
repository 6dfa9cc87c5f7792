package aer

import (
	"context"
	"testing"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/mixture"
)

// TestSelectRows: the presets' subsample sizes, the parameter, and a fit
// whose majority rows exceed select_rows comparing the pool on a subsample
// of that size.
func TestSelectRows(t *testing.T) {
	for _, c := range []struct {
		preset string
		set    string
		want   int
	}{{"", "", mixture.DefaultSelectRows}, {PresetPaper, "", -1}, {"", "500", 500}, {PresetPaper, "-1", -1}} {
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

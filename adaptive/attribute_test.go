package adaptive

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/aer-go/aer/ensemble"
	"github.com/aer-go/aer/learn"
)

// TestAttributeSumsToOutput: under both presets, every test row's base +
// sum of attributions is the AER output (the logit of the score in logit
// space, the score in probability space), and a member without
// attributions is an error naming it.
func TestAttributeSumsToOutput(t *testing.T) {
	tr, va, te := task(t, 1000, 4)
	for _, preset := range []string{string(PresetPlus), string(PresetPaper)} {
		t.Run(preset, func(t *testing.T) {
			c := plusConfig()
			if err := c.Set("preset", preset); err != nil {
				t.Fatal(err)
			}
			m, _, err := Fit(context.Background(), ld(tr), ld(va), c, learn.Env{Seed: 2})
			if err != nil {
				t.Fatal(err)
			}
			score, _, err := m.Score(te.X, 1)
			if err != nil {
				t.Fatal(err)
			}
			a, err := learn.Attribute(context.Background(), m, te.X, 2)
			if err != nil {
				t.Fatal(err)
			}
			want := learn.Probability
			if m.combiner.Space == ensemble.LogitSpace {
				want = learn.Logit
			}
			if a.Space != want || (Preset(preset) == PresetPlus) != (want == learn.Logit) {
				t.Fatalf("space %s for combiner space %s", a.Space, m.combiner.Space)
			}
			worst := 0.0
			for i, s := range score {
				out := a.Output(i)
				if a.Space == learn.Logit {
					// The exact combined value, logit(score), is the sum
					// of the breakdown's contributions.
					e, err := m.Breakdown(te.X.RawRowView(i))
					if err != nil {
						t.Fatal(err)
					}
					s = 0
					for _, v := range e.Contribution {
						s += v
					}
				}
				worst = math.Max(worst, math.Abs(out-s))
			}
			if worst > 1e-9 {
				t.Errorf("max |base + sum(phi) - output| = %.3g over %d rows, want <= 1e-9", worst, len(score))
			}
			// The base moves with the mixed weights.
			if a.Base[0] == a.Base[1] && a.Base[1] == a.Base[2] {
				t.Errorf("bases %v: the same for three rows", a.Base[:3])
			}
		})
	}
	c := smallConfig()
	if err := c.Set("member", "centroid-test"); err != nil {
		t.Fatal(err)
	}
	c.MemberParams = nil
	m, _, err := Fit(context.Background(), ld(tr), ld(va), c, learn.Env{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Attribute(te.X); !errors.Is(err, learn.ErrNoAttribution) || !strings.Contains(err.Error(), "centroid-test") {
		t.Errorf("centroid members: %v, want ErrNoAttribution naming the method", err)
	}
}

package bench

import (
	"context"
	"math"
	"testing"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	_ "github.com/aer-go/aer/methods"
	"github.com/aer-go/aer/synth"
)

// TestStandardiseTwice checks that the bench's standardisation does not
// change what a method that standardises again predicts: fitted on the raw
// split and on the standardised one, its test scores agree to rounding.
func TestStandardiseTwice(t *testing.T) {
	g, err := synth.Generate(&synth.Settings{Samples: 400, Features: 6, Informative: 3, Ratio: 5, Shift: 3, Scale: 7}, 3)
	if err != nil {
		t.Fatal(err)
	}
	d := g.Dataset("task")
	std, err := splitData(d, ProtocolSklearn, 0)
	if err != nil {
		t.Fatal(err)
	}
	tr, va, te, err := dataset.AnchorSplit(d.Y, 0)
	if err != nil {
		t.Fatal(err)
	}
	part := func(rows []int) *learn.Data {
		s := d.Subset(rows)
		return &learn.Data{X: s.X, Y: s.Y, Features: s.Features}
	}
	for _, name := range []string{"logreg", "svm"} {
		m, err := learn.New(name)
		if err != nil {
			t.Fatal(err)
		}
		a, err := m.Fit(context.Background(), std.train, std.valid, learn.Env{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		b, err := m.Fit(context.Background(), part(tr), part(va), learn.Env{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		sa, _ := learn.Predict(context.Background(), a, std.test.X, 1)
		sb, _ := learn.Predict(context.Background(), b, part(te).X, 1)
		worst := 0.0
		for i := range sa {
			worst = max(worst, math.Abs(sa[i]-sb[i]))
		}
		if worst > 1e-6 {
			t.Errorf("%s: scores differ by up to %g after standardising twice", name, worst)
		}
	}
}

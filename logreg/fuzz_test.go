package logreg_test

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/logreg"
)

// FuzzParseClassWeight: no panic, and what parses prints to a form that
// parses to the same weights.
func FuzzParseClassWeight(f *testing.F) {
	for _, s := range []string{"balanced", "none", "0:1,1:5", "1:2.5", " 0 : 3 ", "0:1,1:1,0:2", "1:-1", "1:1e309", ":", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cw, err := logreg.ParseClassWeight(s)
		if err != nil {
			return
		}
		again, err := logreg.ParseClassWeight(cw.String())
		if err != nil || again != cw {
			t.Fatalf("%q parses to %v, whose form %q parses to %v, %v", s, cw, cw.String(), again, err)
		}
	})
}

// FuzzLoad: a model payload never makes Load or PositiveProba panic.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{`{"coef":[1,-2],"intercept":0.5,"fit_intercept":true}`, `{"coef":[1]}`, `{"coef":[]}`, `{`, `null`,
		`{"coef":[1,2],"fit":{"features":["a","b"],"iterations":3}}`} {
		f.Add([]byte(s))
	}
	x := mat.NewDense(2, 2, []float64{1, 2, -3, 4})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := logreg.NewMethod().Load(b)
		if err != nil {
			return
		}
		p, err := m.PositiveProba(x, nil)
		if err == nil {
			for _, v := range p {
				if !(v >= 0 && v <= 1) {
					t.Fatalf("probability %v", v)
				}
			}
		}
		if _, err := m.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
		_ = m.(*logreg.Model).Summary()
	})
}

package mixture

import "fmt"

// Collapse is a component of a fitted mixture that has degenerated: one
// that holds less than a row's worth of weight, or whose spread along some
// feature shrank to the covariance ridge, so that it sits on a few
// (near-)identical rows and its density is spuriously high.
type Collapse struct {
	Component int     `json:"component"` // from 0
	Weight    float64 `json:"weight"`
	Reason    string  `json:"reason"`
}

// Collapsed returns the collapsed components of m fitted on n rows with
// ridge regCovar (as in Settings: 0 means DefaultRegCovar, negative
// none): a weight below 1/n, or a variance (a diagonal entry of its
// covariance) at most 10 times the ridge (1e-10 without one). A tied
// covariance is shared, so only weights are judged.
func (m *Model) Collapsed(n int, regCovar float64) []Collapse {
	switch {
	case regCovar == 0:
		regCovar = DefaultRegCovar
	case regCovar < 0:
		regCovar = 0
	}
	floor := 10 * regCovar
	if floor == 0 {
		floor = 1e-10
	}
	d := m.Dim()
	var out []Collapse
	for l, w := range m.Weights {
		if n > 0 && w*float64(n) < 1 {
			out = append(out, Collapse{l, w, fmt.Sprintf("weight %.3g is less than one row's worth (%.3g of %d rows)", w, w*float64(n), n)})
			continue
		}
		if m.Covariance == Tied || l >= len(m.Covariances) {
			continue
		}
		c := m.Covariances[l]
		for j := range d {
			var v float64
			switch m.Covariance {
			case Full:
				v = c[j*d+j]
			case Diag:
				v = c[j]
			case Spherical:
				v = c[0]
			}
			if v <= floor {
				out = append(out, Collapse{l, w, fmt.Sprintf("variance %.3g of feature %d is at the covariance ridge (%.3g)", v, j+1, regCovar)})
				break
			}
		}
	}
	return out
}

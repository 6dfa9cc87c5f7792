package mixture

import "testing"

func TestCollapsed(t *testing.T) {
	m := &Model{Covariance: Full, Weights: []float64{0.6, 0.399, 0.001},
		Means:       [][]float64{{0, 0}, {1, 1}, {2, 2}},
		Covariances: [][]float64{{1, 0, 0, 1}, {2e-6, 0, 0, 1}, {1, 0, 0, 1}}}
	got := m.Collapsed(100, 0)
	if len(got) != 2 || got[0].Component != 1 || got[1].Component != 2 {
		t.Fatalf("%+v", got)
	}
	if got[0].Reason != "variance 2e-06 of feature 1 is at the covariance ridge (1e-06)" ||
		got[1].Reason != "weight 0.001 is less than one row's worth (0.1 of 100 rows)" {
		t.Errorf("%+v", got)
	}
	// A larger ridge floor, or more rows, changes the verdict.
	if got := m.Collapsed(10000, 1e-8); len(got) != 0 {
		t.Errorf("%+v", got)
	}
	d := &Model{Covariance: Diag, Weights: []float64{0.5, 0.5}, Means: [][]float64{{0}, {1}}, Covariances: [][]float64{{1}, {1e-11}}}
	if got := d.Collapsed(10, -1); len(got) != 1 || got[0].Component != 1 {
		t.Errorf("diag, no ridge: %+v", got)
	}
	s := &Model{Covariance: Tied, Weights: []float64{0.5, 0.5}, Means: [][]float64{{0}, {1}}, Covariances: [][]float64{{1e-9}}}
	if got := s.Collapsed(10, 0); len(got) != 0 {
		t.Errorf("tied: %+v", got)
	}
}

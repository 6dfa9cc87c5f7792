package decision

import (
	"math"
	"testing"
)

// FuzzParseCostMatrix: the cost matrix parser returns an error or a
// square matrix of three or more classes of finite non-negative costs,
// which a layer of that many classes accepts unless it costs nothing.
func FuzzParseCostMatrix(f *testing.F) {
	for _, s := range []string{"0,1,4;1,0,4;9,9,0", " 0 , 1 ,1; 1,0,1 ;1,1,0", "0,1;1,0", "0,1,1;1,0", "0,1,1;1,0,x;1,1,0", "0,0,0;0,0,0;0,0,0", "1e308,1,1;1,0,1;1,1,0", ";;", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseCostMatrix(s)
		if err != nil {
			return
		}
		k := len(m)
		total := 0.0
		for _, row := range m {
			if len(row) != k {
				t.Fatalf("%d x %d matrix from %q", k, len(row), s)
			}
			for _, v := range row {
				if !(v >= 0) || math.IsInf(v, 0) {
					t.Fatalf("cost %v from %q", v, s)
				}
				total += v
			}
		}
		if k < 3 {
			t.Fatalf("%d classes from %q", k, s)
		}
		_, err = FitWeights(Options{Rule: RuleCost, Objective: &Objective{Matrix: m}}, k, make([]int, k), nil, nil, nil)
		if (err == nil) != (total > 0) {
			t.Fatalf("cost matrix %v: layer error %v", m, err)
		}
	})
}

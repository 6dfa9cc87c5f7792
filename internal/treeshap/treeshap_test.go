package treeshap

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomTree grows a random tree of the given depth over nf features,
// with random covers (children summing to their parent) and leaf values.
func randomTree(r *rand.Rand, depth, nf int, lessEqual bool) Nodes {
	n := Nodes{LessEqual: lessEqual}
	var add func(d int, cover float64) int32
	add = func(d int, cover float64) int32 {
		id := int32(len(n.Feature))
		n.Feature = append(n.Feature, -1)
		n.Left = append(n.Left, -1)
		n.Right = append(n.Right, -1)
		n.Threshold = append(n.Threshold, 0)
		n.DefaultLeft = append(n.DefaultLeft, r.IntN(2) == 0)
		n.Cover = append(n.Cover, cover)
		n.Value = append(n.Value, r.NormFloat64())
		if d == depth || (d > 1 && r.IntN(4) == 0) {
			return id
		}
		n.Feature[id] = int32(r.IntN(nf))
		n.Threshold[id] = float64(r.IntN(3))
		share := 0.1 + 0.8*r.Float64()
		l := add(d+1, cover*share)
		rt := add(d+1, cover*(1-share))
		n.Left[id], n.Right[id] = l, rt
		return id
	}
	add(0, 100)
	return n
}

// expectation is the output of t when only the features in s are known:
// unknown features follow both children by cover.
func expectation(n Nodes, t *Tree, row []float64, s uint) float64 {
	var walk func(i int32) float64
	walk = func(i int32) float64 {
		if n.Feature[i] < 0 {
			return n.Value[i]
		}
		if s&(1<<n.Feature[i]) != 0 {
			h, _ := t.hot(i, row)
			return walk(h)
		}
		l, r := n.Left[i], n.Right[i]
		return t.zero[l]*walk(l) + t.zero[r]*walk(r)
	}
	return walk(0)
}

// TestBruteForce checks TreeSHAP against the Shapley values computed from
// their definition over every subset of features.
func TestBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const nf = 5
	var w Workspace
	for trial := range 200 {
		n := randomTree(r, 1+trial%6, nf, trial%2 == 0)
		tr, err := New(n)
		if err != nil {
			t.Fatal(err)
		}
		row := make([]float64, nf)
		for j := range row {
			row[j] = float64(r.IntN(4)) - 0.5 + float64(r.IntN(2))*0.5
			if r.IntN(6) == 0 {
				row[j] = math.NaN()
			}
		}
		phi := make([]float64, nf)
		tr.Add(phi, row, 1, &w)
		fact := []float64{1, 1, 2, 6, 24, 120}
		for j := range nf {
			want := 0.0
			for s := uint(0); s < 1<<nf; s++ {
				if s&(1<<j) != 0 {
					continue
				}
				k := 0
				for b := range nf {
					if s&(1<<b) != 0 {
						k++
					}
				}
				wgt := fact[k] * fact[nf-k-1] / fact[nf]
				want += wgt * (expectation(n, tr, row, s|1<<j) - expectation(n, tr, row, s))
			}
			if math.Abs(phi[j]-want) > 1e-12 {
				t.Fatalf("trial %d feature %d: TreeSHAP %v, brute force %v", trial, j, phi[j], want)
			}
		}
		sum := tr.Expected()
		for _, v := range phi {
			sum += v
		}
		if out := expectation(n, tr, row, 1<<nf-1); math.Abs(sum-out) > 1e-12 {
			t.Fatalf("trial %d: base + sum(phi) = %v, output %v", trial, sum, out)
		}
	}
}

func TestNewRefusesBadTrees(t *testing.T) {
	if _, err := New(Nodes{}); err == nil {
		t.Error("empty tree accepted")
	}
	n := Nodes{Feature: []int32{0, -1, -1}, Left: []int32{0, -1, -1}, Right: []int32{2, -1, -1},
		Threshold: make([]float64, 3), DefaultLeft: make([]bool, 3), Cover: []float64{2, 1, 1}, Value: make([]float64, 3)}
	if _, err := New(n); err == nil {
		t.Error("a node that is its own child accepted")
	}
}

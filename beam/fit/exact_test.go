package fit

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestExactSum checks the exact sum against math/big on values of every
// magnitude, in two orders and split into parts merged in two orders.
func TestExactSum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var vals []float64
	for range 5000 {
		v := math.Ldexp(r.Float64()-0.5, r.IntN(200)-100)
		vals = append(vals, v)
	}
	vals = append(vals, 1e300, -1e300, 5e-324, -5e-324, math.MaxFloat64, -math.MaxFloat64, 1, 1e-16, 0, math.SmallestNonzeroFloat64)
	want := new(big.Float).SetPrec(8192)
	for _, v := range vals {
		want.Add(want, new(big.Float).SetFloat64(v))
	}
	wf, _ := want.Float64()
	sum := func(order []int, parts int) float64 {
		total := newExactSum()
		per := (len(order) + parts - 1) / parts
		for lo := 0; lo < len(order); lo += per {
			p := newExactSum()
			for _, i := range order[lo:min(lo+per, len(order))] {
				p.add(vals[i])
			}
			total.merge(p)
		}
		return total.value()
	}
	order := make([]int, len(vals))
	for i := range order {
		order[i] = i
	}
	for _, parts := range []int{1, 3, 17} {
		if got := sum(order, parts); got != wf {
			t.Fatalf("%d parts: sum %v, want %v", parts, got, wf)
		}
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		if got := sum(order, parts); got != wf {
			t.Fatalf("%d parts, shuffled: sum %v, want %v", parts, got, wf)
		}
	}
	// A naive float sum of the same values differs: the test can tell.
	naive := 0.0
	for _, v := range vals {
		naive += v
	}
	if naive == wf {
		t.Log("naive sum happens to be exact")
	}
	// Non-finite values.
	s := newExactSum()
	s.add(math.Inf(1))
	if !math.IsInf(s.value(), 1) {
		t.Errorf("+Inf: %v", s.value())
	}
	s.add(math.Inf(-1))
	if !math.IsNaN(s.value()) {
		t.Errorf("+Inf-Inf: %v", s.value())
	}
}

// TestExactSumMany checks the carries: 3 * 2^30 values of 2^52+... summed
// in place would overflow the limbs without normalizing.
func TestExactSumCarries(t *testing.T) {
	s := newExactSum()
	s.Adds = 1<<30 - 2 // force the normalization path soon
	v := math.Float64frombits(0x7fefffffffffffff)
	for range 10 {
		s.add(v)
	}
	want := new(big.Float).SetPrec(8192).SetFloat64(v)
	want.Mul(want, big.NewFloat(10))
	if got := s.big(); got.Cmp(want) != 0 {
		t.Fatalf("10 * MaxFloat64: %v, want %v", got, want)
	}
}

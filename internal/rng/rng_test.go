package rng

import "testing"

func TestStreams(t *testing.T) {
	a, b := New(1), New(1)
	for range 100 {
		if a.Uint64() != b.Uint64() {
			t.Fatal("same seed, different numbers")
		}
	}
	if New(1).Uint64() == New(2).Uint64() {
		t.Error("seeds 1 and 2 start alike")
	}
	seen := map[uint64]uint64{}
	for s := uint64(0); s < 64; s++ {
		v := Derive(7, s).Uint64()
		if prev, dup := seen[v]; dup {
			t.Fatalf("streams %d and %d start alike", prev, s)
		}
		seen[v] = s
		if Derive(7, s).Uint64() != v {
			t.Fatal("Derive is not deterministic")
		}
	}
	if DeriveSeed(3, 0) == DeriveSeed(3, 1) || DeriveSeed(3, 0) == DeriveSeed(4, 0) || DeriveSeed(3, 5) != DeriveSeed(3, 5) {
		t.Error("DeriveSeed does not separate or repeat streams")
	}
}

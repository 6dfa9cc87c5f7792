package synth

import "math/rand/v2"

// hypercube returns n distinct vertices of the d-dimensional unit
// hypercube, as 0/1 coordinates, in random order. As make_classification
// does, the last (up to) 30 coordinates are the bits of n distinct integers
// drawn uniformly without replacement, and any coordinates before them are
// independent random bits drawn first.
func hypercube(n, d int, r *rand.Rand) [][]uint8 {
	out := make([][]uint8, n)
	for k := range out {
		out[k] = make([]uint8, d)
	}
	lead := max(d-30, 0)
	for k := range n {
		for j := range lead {
			out[k][j] = uint8(r.IntN(2))
		}
	}
	low := d - lead
	for k, v := range distinct(n, uint64(1)<<low, r) {
		for j := range low {
			// Most significant bit first, like numpy's unpackbits.
			out[k][lead+j] = uint8(v >> (low - 1 - j) & 1)
		}
	}
	return out
}

// distinct returns n distinct integers drawn uniformly from [0, pop) in
// random order (every ordered selection is equally likely); n <= pop.
func distinct(n int, pop uint64, r *rand.Rand) []uint64 {
	out := make([]uint64, n)
	if pop <= 4*uint64(n) {
		// Dense: a partial Fisher-Yates shuffle of the whole population.
		all := make([]uint64, pop)
		for i := range all {
			all[i] = uint64(i)
		}
		for i := range n {
			j := i + int(r.Uint64N(pop-uint64(i)))
			all[i], all[j] = all[j], all[i]
		}
		copy(out, all[:n])
		return out
	}
	// Sparse: rejection of repeats, fewer than 4/3 draws per value.
	seen := make(map[uint64]bool, n)
	for i := 0; i < n; {
		v := r.Uint64N(pop)
		if !seen[v] {
			seen[v] = true
			out[i] = v
			i++
		}
	}
	return out
}

package synth

import "math/rand/v2"

// hypercube returns n distinct vertices of the d-dimensional unit
// hypercube as 0/1 coordinates. As make_classification does, the last (up
// to) 30 coordinates are the bits of n distinct integers drawn without
// replacement (see distinct for their order), and any coordinates before
// them are independent random bits drawn first.
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

// distinct returns n distinct integers from [0, pop) chosen as
// scikit-learn's sample_without_replacement chooses them, because the
// order matters: value k becomes the vertex of cluster k, and clusters
// alternate between the classes. Its automatic method depends on the
// fraction n/pop:
//   - above 0.01 and below 0.99: the first n of a random permutation;
//   - at most 0.01: repeated draws, rejecting repeats;
//   - at least 0.99: reservoir sampling, whose order is not random (when
//     n == pop it is 0, 1, ..., pop-1, so with 2 informative features and
//     2 clusters per class, label 1 takes the vertices whose last
//     coordinate is +1).
//
// The first two give every ordered selection the same probability, as the
// two branches below do.
func distinct(n int, pop uint64, r *rand.Rand) []uint64 {
	out := make([]uint64, n)
	ratio := float64(n) / float64(pop)
	switch {
	case ratio >= 0.99:
		for i := range out {
			out[i] = uint64(i)
		}
		for i := uint64(n); i < pop; i++ {
			if j := r.Uint64N(i + 1); j < uint64(n) {
				out[j] = i
			}
		}
	case ratio > 0.01 && pop <= 1<<24:
		// A partial Fisher-Yates shuffle of the whole population.
		all := make([]uint64, pop)
		for i := range all {
			all[i] = uint64(i)
		}
		for i := range n {
			j := i + int(r.Uint64N(pop-uint64(i)))
			all[i], all[j] = all[j], all[i]
		}
		copy(out, all[:n])
	default:
		// Rejection of repeats: fewer than 100 draws per value as n < 0.99*pop,
		// and about one when n is small beside pop (the usual case).
		seen := make(map[uint64]bool, n)
		for i := 0; i < n; {
			v := r.Uint64N(pop)
			if !seen[v] {
				seen[v] = true
				out[i] = v
				i++
			}
		}
	}
	return out
}

package stattest

import "sort"

// rankAverage returns the ranks (1-based) of v, ties receiving the average of
// the ranks they span, as scipy.stats.rankdata(method="average") does.
// v must hold no NaN.
func rankAverage(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && v[idx[j]] == v[idx[i]] {
			j++
		}
		// Positions i..j-1 (0-based) share ranks i+1..j.
		avg := float64(i+1+j) / 2
		for k := i; k < j; k++ {
			r[idx[k]] = avg
		}
		i = j
	}
	return r
}

// tieGroups returns the sizes of the groups of equal values in v that hold
// more than one element, the t of the usual tie corrections.
func tieGroups(v []float64) []int {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	var groups []int
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j] == s[i] {
			j++
		}
		if j-i > 1 {
			groups = append(groups, j-i)
		}
		i = j
	}
	return groups
}

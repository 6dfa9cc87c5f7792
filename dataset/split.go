package dataset

import (
	"fmt"
	"math"
	"slices"

	"github.com/aer-go/aer/internal/rng"
)

// StratifiedSplit partitions the rows 0..len(y)-1 into len(ratios) parts
// whose sizes follow ratios (3:1:1 gives train, valid, test) within each
// class, so every part keeps the class balance. Each class is shuffled with
// seed and cut by the largest-remainder rule (a tied remainder goes to the
// later part). Indices in each part are ascending.
func StratifiedSplit(y []int, ratios []float64, seed uint64) ([][]int, error) {
	if len(ratios) < 2 {
		return nil, fmt.Errorf("stratified split: need at least 2 ratios, got %d", len(ratios))
	}
	total := 0.0
	for _, r := range ratios {
		if !(r > 0) || math.IsInf(r, 0) {
			return nil, fmt.Errorf("stratified split: ratio %v is not a positive number", r)
		}
		total += r
	}
	if math.IsInf(total, 0) {
		return nil, fmt.Errorf("stratified split: ratios %v are too large (their sum overflows)", ratios)
	}
	parts := make([][]int, len(ratios))
	src := rng.New(seed)
	// Every class in turn, 0 and 1 first: a binary split draws exactly as
	// before classes beyond 1 were split.
	top := 1
	for _, v := range y {
		top = max(top, v)
	}
	for class := 0; class <= top; class++ {
		var idx []int
		for i, v := range y {
			if v == class {
				idx = append(idx, i)
			}
		}
		src.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		counts := apportion(len(idx), ratios, total)
		at := 0
		for k, n := range counts {
			parts[k] = append(parts[k], idx[at:at+n]...)
			at += n
		}
	}
	for _, p := range parts {
		slices.Sort(p)
	}
	return parts, nil
}

// apportion splits n items by ratios with the largest-remainder rule.
func apportion(n int, ratios []float64, total float64) []int {
	counts := make([]int, len(ratios))
	rem := make([]float64, len(ratios))
	used := 0
	for k, r := range ratios {
		exact := float64(n) * (r / total) // r/total first: n*r may overflow
		counts[k] = int(math.Floor(exact))
		rem[k] = exact - float64(counts[k])
		used += counts[k]
	}
	for ; used < n; used++ {
		best := 0
		for k := range rem {
			if rem[k] >= rem[best] {
				best = k
			}
		}
		counts[best]++
		rem[best] = -1
	}
	return counts
}

// StratifiedKFold partitions the rows into k folds that each hold about 1/k
// of every class (sizes differ by at most one), shuffled with seed. It
// returns the rows of each fold, ascending; fold i is the test part of
// round i. Every fold must get a positive row, so k may not exceed the
// number of positive rows.
func StratifiedKFold(y []int, k int, seed uint64) ([][]int, error) {
	if k < 2 {
		return nil, fmt.Errorf("stratified k-fold: k = %d, need at least 2", k)
	}
	pos := 0
	for _, v := range y {
		pos += v
	}
	if k > pos {
		return nil, fmt.Errorf("stratified k-fold: k = %d folds but only %d positive rows", k, pos)
	}
	src := rng.New(seed)
	folds := make([][]int, k)
	at := 0
	// Deal the shuffled positives first, then the negatives continuing the
	// round-robin, so fold sizes stay within one of each other.
	// Classes 1 and 0 first, as binary folds always drew, then any others
	// (multi-class labels).
	order := []int{1, 0}
	top := 1
	for _, v := range y {
		top = max(top, v)
	}
	for c := 2; c <= top; c++ {
		order = append(order, c)
	}
	for _, class := range order {
		var idx []int
		for i, v := range y {
			if v == class {
				idx = append(idx, i)
			}
		}
		src.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		for _, i := range idx {
			folds[at%k] = append(folds[at%k], i)
			at++
		}
	}
	for _, f := range folds {
		slices.Sort(f)
	}
	return folds, nil
}

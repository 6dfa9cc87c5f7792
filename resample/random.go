package resample

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/aer-go/aer/internal/rng"
)

// Sample returns n distinct elements of rows drawn uniformly at random
// without replacement by src (a partial Fisher-Yates shuffle of a copy), in
// the order drawn. rows is not modified.
func Sample(rows []int, n int, src *rand.Rand) ([]int, error) {
	if n < 0 || n > len(rows) {
		return nil, fmt.Errorf("resample: cannot draw %d of %d rows without replacement", n, len(rows))
	}
	pool := slices.Clone(rows)
	for i := range n {
		j := i + src.IntN(len(pool)-i)
		pool[i], pool[j] = pool[j], pool[i]
	}
	return pool[:n:n], nil
}

// ClassRows returns the row numbers of the majority (label 0) and the
// minority (label 1) rows, each increasing.
func ClassRows(y []int) (majority, minority []int, err error) {
	for i, v := range y {
		switch v {
		case 0:
			majority = append(majority, i)
		case 1:
			minority = append(minority, i)
		default:
			return nil, nil, fmt.Errorf("resample: row %d: label %d is not 0 or 1", i, v)
		}
	}
	return majority, minority, nil
}

// UnderSample returns every minority row (label 1) and nMajority majority
// rows (label 0) drawn at random without replacement, seeded by seed, as
// row numbers in increasing order.
func UnderSample(y []int, nMajority int, seed uint64) ([]int, error) {
	maj, mino, err := ClassRows(y)
	if err != nil {
		return nil, err
	}
	drawn, err := Sample(maj, nMajority, rng.New(seed))
	if err != nil {
		return nil, err
	}
	out := append(drawn, mino...)
	slices.Sort(out)
	return out, nil
}

package dataset

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// This file reproduces, index for index and in the same order, the splits
// that scikit-learn 1.2.1 (with numpy 1.24) draws in
//
//	train_test_split(X, y, test_size=t, stratify=y, random_state=seed)
//
// so that Go models can be compared with the Python anchors
// (../shared/anchors) on the very same rows. It needs numpy's legacy
// np.random.RandomState: MT19937 seeded by init_genrand, and the legacy
// Fisher-Yates shuffle whose bounded draws are masked rejection samples of
// 32-bit (or, past 2^32, 64-bit) outputs. Go's math/rand cannot stand in for
// it: any other generator or bounded-draw rule gives another permutation.

// mtN and mtM are the MT19937 state length and shift.
const (
	mtN = 624
	mtM = 397
)

// legacyRandomState is numpy's np.random.RandomState(seed) for an integer
// seed, reduced to the calls scikit-learn's stratified split makes.
type legacyRandomState struct {
	key [mtN]uint32
	pos int
}

// newLegacyRandomState seeds like numpy's _legacy_seeding for an int seed
// (mt19937_seed, Matsumoto and Nishimura's init_genrand).
func newLegacyRandomState(seed uint32) *legacyRandomState {
	r := &legacyRandomState{}
	s := seed
	for i := 0; i < mtN; i++ {
		r.key[i] = s
		s = 1812433253*(s^(s>>30)) + uint32(i) + 1
	}
	r.pos = mtN
	return r
}

// reload regenerates the state block (numpy's mt19937_gen).
func (r *legacyRandomState) reload() {
	const upper, lower, matrixA = 0x80000000, 0x7fffffff, 0x9908b0df
	k := &r.key
	var i int
	for i = 0; i < mtN-mtM; i++ {
		y := (k[i] & upper) | (k[i+1] & lower)
		k[i] = k[i+mtM] ^ (y >> 1) ^ (-(y & 1) & matrixA)
	}
	for ; i < mtN-1; i++ {
		y := (k[i] & upper) | (k[i+1] & lower)
		k[i] = k[i+mtM-mtN] ^ (y >> 1) ^ (-(y & 1) & matrixA)
	}
	y := (k[mtN-1] & upper) | (k[0] & lower)
	k[mtN-1] = k[mtM-1] ^ (y >> 1) ^ (-(y & 1) & matrixA)
	r.pos = 0
}

// uint32 is numpy's next_uint32 (mt19937_next32, tempered).
func (r *legacyRandomState) uint32() uint32 {
	if r.pos == mtN {
		r.reload()
	}
	y := r.key[r.pos]
	r.pos++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// uint64 is numpy's mt19937_next64: the first 32-bit output is the high half.
func (r *legacyRandomState) uint64() uint64 {
	hi := uint64(r.uint32())
	return hi<<32 | uint64(r.uint32())
}

// interval draws uniformly from [0, max] as numpy's random_interval does:
// outputs masked to the smallest all-ones mask >= max, rejected while > max;
// 32-bit outputs when max fits in 32 bits, 64-bit ones otherwise.
func (r *legacyRandomState) interval(max uint64) uint64 {
	if max == 0 {
		return 0
	}
	mask := max
	mask |= mask >> 1
	mask |= mask >> 2
	mask |= mask >> 4
	mask |= mask >> 8
	mask |= mask >> 16
	mask |= mask >> 32
	if max <= math.MaxUint32 {
		for {
			if v := uint64(r.uint32()) & mask; v <= max {
				return v
			}
		}
	}
	for {
		if v := r.uint64() & mask; v <= max {
			return v
		}
	}
}

// shuffle is RandomState.shuffle on a 1-d array: Fisher-Yates from the end.
func (r *legacyRandomState) shuffle(x []int) {
	for i := len(x) - 1; i >= 1; i-- {
		j := r.interval(uint64(i))
		x[i], x[j] = x[j], x[i]
	}
}

// permutation is RandomState.permutation(n): a shuffled 0..n-1.
func (r *legacyRandomState) permutation(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	r.shuffle(p)
	return p
}

// approximateMode is scikit-learn's _approximate_mode: how many of nDraws
// rows each class gets, floor of the proportional share plus one for the
// largest remainders. Tied remainders are broken by
// rng.choice(inds, add_now, replace=False), which in the legacy RandomState
// is permutation(len(inds))[:add_now]; it draws even when every tied class
// is taken, and so must this.
func approximateMode(counts []int, nDraws int, r *legacyRandomState) []int {
	total := 0
	for _, c := range counts {
		total += c
	}
	floored := make([]int, len(counts))
	remainder := make([]float64, len(counts))
	need := nDraws
	for i, c := range counts {
		// The explicit conversions keep the compiler from fusing operations:
		// numpy rounds (c / total) and then (... * nDraws), and ties between
		// remainders are detected by exact equality.
		cont := float64(float64(c) / float64(total) * float64(nDraws))
		f := math.Floor(cont)
		floored[i] = int(f)
		remainder[i] = float64(cont - f)
		need -= floored[i]
	}
	if need <= 0 {
		return floored
	}
	values := slices.Clone(remainder)
	slices.Sort(values)
	values = slices.Compact(values)
	for k := len(values) - 1; k >= 0 && need > 0; k-- {
		var inds []int
		for i, rem := range remainder {
			if rem == values[k] {
				inds = append(inds, i)
			}
		}
		addNow := min(len(inds), need)
		for _, p := range r.permutation(len(inds))[:addNow] {
			floored[inds[p]]++
		}
		need -= addNow
	}
	return floored
}

// ErrSklearnSplit reports labels or sizes that scikit-learn's stratified
// train_test_split rejects; the wrapping error says which.
var ErrSklearnSplit = errors.New("sklearn stratified split")

// SklearnTrainTestSplit returns the row indices that scikit-learn 1.2.1
// train_test_split(X, y, test_size=testSize, stratify=y, random_state=seed)
// puts in the train and test parts, in the order scikit-learn returns them
// (the rows of X_train and X_test, in that order). The test part has
// ceil(testSize*n) rows. Each class of y (any distinct integers) is cut by
// scikit-learn's _approximate_mode and shuffled with numpy's legacy
// RandomState(seed), as StratifiedShuffleSplit does.
//
// It fails as scikit-learn does: testSize outside (0, 1), an empty train
// part, a class with fewer than 2 rows, or a part smaller than the number of
// classes.
func SklearnTrainTestSplit(y []int, testSize float64, seed uint32) (train, test []int, err error) {
	n := len(y)
	if !(testSize > 0 && testSize < 1) {
		return nil, nil, fmt.Errorf("%w: test size %v is not in (0, 1)", ErrSklearnSplit, testSize)
	}
	nTest := int(math.Ceil(testSize * float64(n)))
	nTrain := n - nTest
	if nTrain <= 0 {
		return nil, nil, fmt.Errorf("%w: %d rows with test size %v leave the train part empty", ErrSklearnSplit, n, testSize)
	}

	// np.unique(y, return_inverse=True) and a stable argsort of the class
	// numbers: each class's rows in ascending order, classes in value order.
	classes := slices.Clone(y)
	slices.Sort(classes)
	classes = slices.Compact(classes)
	classRows := make([][]int, len(classes))
	for i, v := range y {
		c, _ := slices.BinarySearch(classes, v)
		classRows[c] = append(classRows[c], i)
	}
	counts := make([]int, len(classes))
	for c, rows := range classRows {
		counts[c] = len(rows)
		if len(rows) < 2 {
			return nil, nil, fmt.Errorf("%w: class %d has %d row(s), need at least 2", ErrSklearnSplit, classes[c], len(rows))
		}
	}
	if nTrain < len(classes) {
		return nil, nil, fmt.Errorf("%w: train part of %d rows is smaller than the %d classes", ErrSklearnSplit, nTrain, len(classes))
	}
	if nTest < len(classes) {
		return nil, nil, fmt.Errorf("%w: test part of %d rows is smaller than the %d classes", ErrSklearnSplit, nTest, len(classes))
	}

	r := newLegacyRandomState(seed)
	nI := approximateMode(counts, nTrain, r)
	remaining := make([]int, len(counts))
	for c := range counts {
		remaining[c] = counts[c] - nI[c]
	}
	tI := approximateMode(remaining, nTest, r)

	train = make([]int, 0, nTrain)
	test = make([]int, 0, nTest)
	for c, rows := range classRows {
		perm := r.permutation(len(rows))
		for k, p := range perm[:nI[c]+tI[c]] {
			if k < nI[c] {
				train = append(train, rows[p])
			} else {
				test = append(test, rows[p])
			}
		}
	}
	r.shuffle(train)
	r.shuffle(test)
	return train, test, nil
}

// AnchorSplit returns the train, valid and test rows (3:1:1) of the Python
// anchors' protocol for one seed: SklearnTrainTestSplit(y, 0.4, seed), then
// the 40% halved by SklearnTrainTestSplit on its own labels with the same
// seed, valid being that second call's train part. Indices refer to y and
// follow scikit-learn's order, so X[train] is the anchors' X_train row for row.
func AnchorSplit(y []int, seed uint32) (train, valid, test []int, err error) {
	train, rest, err := SklearnTrainTestSplit(y, 0.4, seed)
	if err != nil {
		return nil, nil, nil, err
	}
	yRest := make([]int, len(rest))
	for k, i := range rest {
		yRest[k] = y[i]
	}
	v, t, err := SklearnTrainTestSplit(yRest, 0.5, seed)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("halving the 40%% part: %w", err)
	}
	valid = make([]int, len(v))
	for k, i := range v {
		valid[k] = rest[i]
	}
	test = make([]int, len(t))
	for k, i := range t {
		test[k] = rest[i]
	}
	return train, valid, test, nil
}

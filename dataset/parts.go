package dataset

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Split protocols of a Partition.
const (
	// ProtocolAER is aer's own stratified split (StratifiedSplit,
	// StratifiedKFold).
	ProtocolAER = "aer"
	// ProtocolSklearn is the Python anchors' 3:1:1 split (AnchorSplit).
	ProtocolSklearn = "sklearn"
)

// Partition says how to deal the rows of a table into parts: Folds
// stratified folds when Folds >= 2, else a split by Ratios (2 or 3
// parts: train and test, or train, valid and test), by Protocol
// (ProtocolAER when empty), drawn from Seed.
type Partition struct {
	Ratios   []float64
	Folds    int
	Protocol string
	Seed     uint64
}

// Part is one part of a Partition: its name (train, valid, test, or
// foldI.train and foldI.test) and its rows, in order.
type Part struct {
	Name string
	Rows []int
}

// ErrPartition marks a Partition that is not valid (wrapped with the
// reason).
var ErrPartition = errors.New("invalid partition")

// ParseRatio reads part sizes written train:valid:test or train:test
// (3:1:1): 2 or 3 positive numbers of finite sum.
func ParseRatio(s string) ([]float64, error) {
	var ratios []float64
	sum := 0.0
	for _, f := range strings.Split(s, ":") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(v > 0) {
			return nil, fmt.Errorf("%w: ratio %q: want positive numbers like 3:1:1", ErrPartition, s)
		}
		ratios = append(ratios, v)
		sum += v
	}
	if len(ratios) < 2 || len(ratios) > 3 {
		return nil, fmt.Errorf("%w: ratio %q: want 2 or 3 parts", ErrPartition, s)
	}
	if math.IsInf(sum, 0) {
		return nil, fmt.Errorf("%w: ratio %q: numbers too large (their sum overflows)", ErrPartition, s)
	}
	return ratios, nil
}

// Check reports what is wrong with p, wrapping ErrPartition.
func (p *Partition) Check() error {
	switch {
	case p.Folds < 0 || p.Folds == 1:
		return fmt.Errorf("%w: folds must be at least 2, not %d", ErrPartition, p.Folds)
	case p.Folds == 0 && (len(p.Ratios) < 2 || len(p.Ratios) > 3):
		return fmt.Errorf("%w: want 2 or 3 ratios, not %d", ErrPartition, len(p.Ratios))
	}
	switch p.Protocol {
	case "", ProtocolAER:
	case ProtocolSklearn:
		r := p.Ratios
		if p.Folds != 0 {
			return fmt.Errorf("%w: protocol sklearn makes a 3:1:1 split, not folds", ErrPartition)
		}
		if len(r) != 3 || r[0] != 3*r[2] || r[1] != r[2] {
			return fmt.Errorf("%w: protocol sklearn makes a 3:1:1 split, not %v", ErrPartition, r)
		}
		if p.Seed > math.MaxUint32 {
			return fmt.Errorf("%w: protocol sklearn: seed %d is above numpy's limit 2^32-1", ErrPartition, p.Seed)
		}
	default:
		return fmt.Errorf("%w: protocol %q: want aer or sklearn", ErrPartition, p.Protocol)
	}
	return nil
}

// Parts deals the rows of labels y (1 = positive) into the parts of p,
// every part stratified by class.
func (p *Partition) Parts(y []int) ([]Part, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	var out []Part
	switch {
	case p.Folds > 0:
		fl, err := StratifiedKFold(y, p.Folds, p.Seed)
		if err != nil {
			return nil, err
		}
		for k, test := range fl {
			var train []int
			for m, f := range fl {
				if m != k {
					train = append(train, f...)
				}
			}
			slices.Sort(train)
			out = append(out, Part{fmt.Sprintf("fold%d.train", k+1), train}, Part{fmt.Sprintf("fold%d.test", k+1), test})
		}
	case p.Protocol == ProtocolSklearn:
		if slices.Max(append([]int{0}, y...)) > 1 {
			return nil, fmt.Errorf("the sklearn protocol replays the anchors' binary split: use the aer protocol for multi-class labels")
		}
		train, valid, test, err := AnchorSplit(y, uint32(p.Seed))
		if err != nil {
			return nil, err
		}
		out = append(out, Part{"train", train}, Part{"valid", valid}, Part{"test", test})
	default:
		parts, err := StratifiedSplit(y, p.Ratios, p.Seed)
		if err != nil {
			return nil, err
		}
		names := []string{"train", "valid", "test"}
		if len(parts) == 2 {
			names = []string{"train", "test"}
		}
		for k, rows := range parts {
			out = append(out, Part{names[k], rows})
		}
	}
	return out, nil
}

// SplitColumn returns the split column of parts for a table of n rows:
// the name of each row's part ("" for a row in none).
func SplitColumn(parts []Part, n int) []string {
	split := make([]string, n)
	for _, p := range parts {
		for _, i := range p.Rows {
			split[i] = p.Name
		}
	}
	return split
}

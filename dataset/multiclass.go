package dataset

import (
	"fmt"
	"slices"
	"strconv"
)

// countDistinct returns the number of distinct labels, counting up to
// limit at most.
func countDistinct(labels []string, limit int) int {
	seen := map[string]bool{}
	for _, s := range labels {
		if !seen[s] {
			seen[s] = true
			if len(seen) >= limit {
				break
			}
		}
	}
	return len(seen)
}

// SortLabels sorts label values as a multi-class table orders them:
// numbers by value first, then text in byte order.
func SortLabels(labels []string) {
	slices.SortFunc(labels, compareLabels)
}

func compareLabels(a, b string) int {
	fa, ea := strconv.ParseFloat(a, 64)
	fb, eb := strconv.ParseFloat(b, 64)
	switch {
	case ea == nil && eb == nil:
		switch {
		case fa < fb:
			return -1
		case fa > fb:
			return 1
		}
	case ea == nil:
		return -1
	case eb == nil:
		return 1
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// setMultiLabels reads labels as a multi-class label column: fixed, the
// classes of a fitted model (any other value an error), else every
// distinct value, sorted by SortLabels.
func (d *Dataset) setMultiLabels(labels []string, line func(int) int, fixed []string, name, col string) error {
	var classes []string
	if fixed != nil {
		for _, c := range fixed {
			classes = append(classes, CanonicalLabel(c))
		}
	} else {
		seen := map[string]bool{}
		for _, s := range labels {
			if !seen[s] {
				seen[s] = true
				classes = append(classes, s)
			}
		}
		SortLabels(classes)
	}
	index := make(map[string]int, len(classes))
	for k, c := range classes {
		index[c] = k
	}
	d.Y = make([]int, len(labels))
	for i, s := range labels {
		k, ok := index[s]
		if !ok {
			return &Error{File: name, Line: line(i), Column: col, Value: s, Err: ErrUnknownClass,
				Detail: fmt.Sprintf("the model knows %s", quoteList(classes))}
		}
		d.Y[i] = k
	}
	d.Classes = classes
	return nil
}

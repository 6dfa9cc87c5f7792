package dataset

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// ErrMajorityPositive is wrapped by the error of a positive class that
// holds more rows than the negative one.
var ErrMajorityPositive = errors.New("the positive class is the majority")

// CheckMinorityPositive returns an error wrapping ErrMajorityPositive when
// d's positive class (Classes[1]) has more rows than its negative class,
// naming both classes and their row counts; name (the file) prefixes the
// message. Methods built for imbalance treat the positive class as the
// minority (AER models the negative, majority class with its mixture), so
// a positive class chosen by hand that is the majority is most likely a
// mistake. Unlabelled data, equal counts and
// tables of more than two classes pass.
func (d *Dataset) CheckMinorityPositive(name string) error {
	if d.Y == nil {
		return nil
	}
	if d.NumClasses() != 2 {
		return nil
	}
	n := d.ClassCounts()
	neg, pos := n[0], n[1]
	if pos <= neg {
		return nil
	}
	return fmt.Errorf("%s: %w: %q has %d rows, %q only %d", name, ErrMajorityPositive, d.Classes[1], pos, d.Classes[0], neg)
}

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

// ContinuousLabel says, in words, when d's label looks like a quantity
// rather than a class: three or more classes, every one a number, and
// some of them fractional or most of more than 20 held by one row each
// (a regression target read as a label gives one class per value). It
// returns "" for a label that looks like classes.
func (d *Dataset) ContinuousLabel() string {
	k := len(d.Classes)
	if k < 3 || d.Y == nil {
		return ""
	}
	fractional := 0
	for _, c := range d.Classes {
		v, err := strconv.ParseFloat(c, 64)
		if err != nil {
			return ""
		}
		if v != math.Trunc(v) {
			fractional++
		}
	}
	single := 0
	for _, n := range d.ClassCounts() {
		if n == 1 {
			single++
		}
	}
	if fractional == 0 && (k <= 20 || 2*single < k) {
		return ""
	}
	return fmt.Sprintf("label %s looks continuous: %d distinct numbers (%d fractional, %d held by one row) read as %d classes; aer classifies, so each value is a class (is it a quantity to bin or a regression target?)",
		d.Label, k, fractional, single, k)
}

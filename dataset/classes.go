package dataset

import (
	"errors"
	"fmt"
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

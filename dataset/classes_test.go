package dataset

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckMinorityPositive(t *testing.T) {
	const csv = "x,y\n1,a\n2,a\n3,a\n4,b\n5,b\n"
	d, err := Read(strings.NewReader(csv), "t.csv", Options{Positive: "a"})
	if err != nil {
		t.Fatal(err)
	}
	err = d.CheckMinorityPositive("t.csv")
	if !errors.Is(err, ErrMajorityPositive) || err.Error() != `t.csv: the positive class is the majority: "a" has 3 rows, "b" only 2` {
		t.Errorf("majority positive: %v", err)
	}
	for _, pos := range []string{"b", ""} {
		d, err := Read(strings.NewReader(csv), "t.csv", Options{Positive: pos})
		if err != nil {
			t.Fatal(err)
		}
		if err := d.CheckMinorityPositive("t.csv"); err != nil {
			t.Errorf("positive %q: %v", pos, err)
		}
	}
	// Equal counts pass.
	d, err = Read(strings.NewReader("x,y\n1,a\n2,a\n4,b\n5,b\n"), "t.csv", Options{Positive: "a"})
	if err != nil || d.CheckMinorityPositive("t.csv") != nil {
		t.Errorf("tie: %v", err)
	}
}

package dataset

import (
	"fmt"
	"strings"
	"testing"
)

// TestSuspects: a feature a threshold separates the classes on (a copy
// of the label, here reversed, and a one-hot feature of a text column)
// and a feature named like weights are suspects; ordinary features and
// tables with fewer than 10 rows of a class are not.
func TestSuspects(t *testing.T) {
	table := func(rows int) string {
		var b strings.Builder
		b.WriteString("x,copy,Weight,kind,label\n")
		for i := range rows {
			y := 0
			if i%4 == 0 {
				y = 1
			}
			kind := []string{"a", "b"}[i%2]
			if y == 1 {
				kind = "c"
			}
			fmt.Fprintf(&b, "%d,%d,%d,%s,%d\n", i%7, 5-3*y, 1+i%3, kind, y)
		}
		return b.String()
	}
	d, err := Decode(strings.NewReader(table(80)), "t.csv", Options{AutoCategorical: true})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range d.Suspects() {
		got[s.Column] = s.Reason
	}
	if len(got) != 3 || !strings.Contains(got["copy"], "separates the classes") || !strings.Contains(got["Weight"], "--weight Weight") ||
		!strings.Contains(got["kind=c"], "--drop kind ") {
		t.Errorf("suspects %v", got)
	}
	d, err = Decode(strings.NewReader(table(80)), "t.csv", Options{AutoCategorical: true, Weight: "Weight"})
	if err != nil {
		t.Fatal(err)
	}
	if s := d.Suspects(); len(s) != 2 {
		t.Errorf("with --weight: %v", s)
	}
	d, err = Decode(strings.NewReader(table(30)), "t.csv", Options{AutoCategorical: true, Drop: []string{"Weight"}})
	if err != nil {
		t.Fatal(err)
	}
	if s := d.Suspects(); len(s) != 0 {
		t.Errorf("8 positive rows: %v", s)
	}
}

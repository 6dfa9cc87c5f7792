package dataset

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestMultiClassRead reads a label of three values with MultiClass: the
// values sorted (numbers by value, before text), Y their indices, the
// schema's Labels; written back by WriteCSV as read; read again with the
// schema's labels fixed, an unknown value refused.
func TestMultiClassRead(t *testing.T) {
	src := "x,label\n1,b\n2,10\n3,a\n4,9\n5,b\n6,9\n"
	d, err := Read(strings.NewReader(src), "t.csv", Options{MultiClass: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"9", "10", "a", "b"}; !slices.Equal(d.Labels, want) {
		t.Fatalf("labels %q, want %q", d.Labels, want)
	}
	if want := []int{3, 1, 2, 0, 3, 0}; !slices.Equal(d.Y, want) {
		t.Errorf("y %v, want %v", d.Y, want)
	}
	if d.Classes != [2]string{} || d.NumClasses() != 4 || !slices.Equal(d.CountClasses(), []int{2, 1, 1, 2}) {
		t.Errorf("classes %q, %d classes, counts %v", d.Classes, d.NumClasses(), d.CountClasses())
	}
	var out bytes.Buffer
	if err := WriteCSV(&out, d); err != nil {
		t.Fatal(err)
	}
	if out.String() != src {
		t.Errorf("written back:\n%s\nwant:\n%s", out.String(), src)
	}
	s := d.Schema()
	if !slices.Equal(s.Labels, d.Labels) || s.NumClasses() != 4 {
		t.Errorf("schema labels %q", s.Labels)
	}
	// Scoring data: the model's labels, in its order, whatever the file
	// holds; a value the model lacks is refused.
	e, err := Read(strings.NewReader("x,label\n1,a\n2,9\n"), "s.csv", s.ReadOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(e.Labels, d.Labels) || !slices.Equal(e.Y, []int{2, 0}) {
		t.Errorf("scoring data: labels %q, y %v", e.Labels, e.Y)
	}
	enc, err := e.Encode(&s)
	if err != nil || !slices.Equal(enc.Y, []int{2, 0}) {
		t.Errorf("encoded labels %v (%v)", enc.Y, err)
	}
	if _, err := Read(strings.NewReader("x,label\n1,c\n"), "s.csv", s.ReadOptions()); !errors.Is(err, ErrUnknownClass) {
		t.Errorf("unknown class: %v", err)
	}
}

// TestMultiClassBinaryUnchanged checks that MultiClass leaves a binary
// table as it reads without it, and that a binary schema's JSON has no
// labels.
func TestMultiClassBinaryUnchanged(t *testing.T) {
	src := "x,label\n1,0\n2,1\n3,0\n4,1\n5,0\n"
	a, err := Read(strings.NewReader(src), "t.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Read(strings.NewReader(src), "t.csv", Options{MultiClass: true})
	if err != nil {
		t.Fatal(err)
	}
	if a.Classes != b.Classes || !slices.Equal(a.Y, b.Y) || b.Labels != nil {
		t.Errorf("binary with MultiClass: %q %v %q, without %q %v", b.Classes, b.Y, b.Labels, a.Classes, a.Y)
	}
	j, _ := json.Marshal(b.Schema())
	if strings.Contains(string(j), "labels") {
		t.Errorf("binary schema JSON %s mentions labels", j)
	}
	// Without MultiClass a third value is still refused.
	if _, err := Read(strings.NewReader("x,label\n1,a\n2,b\n3,c\n"), "t.csv", Options{}); !errors.Is(err, ErrThirdClass) {
		t.Errorf("third class without MultiClass: %v", err)
	}
}

// TestStratifiedSplitMultiClass checks that every class, not only 0 and
// 1, is split by the ratios.
func TestStratifiedSplitMultiClass(t *testing.T) {
	var y []int
	for c, n := range []int{50, 30, 10, 5} {
		for range n {
			y = append(y, c)
		}
	}
	parts, err := StratifiedSplit(y, []float64{3, 1, 1}, 7)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int{{30, 18, 6, 3}, {10, 6, 2, 1}, {10, 6, 2, 1}}
	for k, p := range parts {
		n := make([]int, 4)
		for _, i := range p {
			n[y[i]]++
		}
		if !slices.Equal(n, want[k]) {
			t.Errorf("part %d: class counts %v, want %v", k, n, want[k])
		}
	}
}

// TestReadMultiPredictions reads what a multi-class model writes, and
// refuses what it does not.
func TestReadMultiPredictions(t *testing.T) {
	src := "id,label,pred,score_a,score_b,score_c\nr1,a,a,0.7,0.2,0.1\nr2,c,b,0.1,0.5,0.4\n"
	if !IsMultiPredictions(strings.Split(strings.SplitN(src, "\n", 2)[0], ",")) || IsMultiPredictions([]string{"label", "score", "score_a"}) {
		t.Error("IsMultiPredictions")
	}
	p, err := ReadMultiPredictions(strings.NewReader(src), "p.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Classes, []string{"a", "b", "c"}) || !slices.Equal(p.Label, []int{0, 2}) || !slices.Equal(p.Pred, []int{0, 1}) || len(p.Proba) != 6 {
		t.Errorf("%+v", p)
	}
	for _, bad := range []string{
		"label,score_a,score_b\nz,0.5,0.5\n",
		"label,score_a,score_b\na,1.5,0.5\n",
		"label,score_a\na,1\n",
		"label,score_a,score_b\n",
	} {
		if _, err := ReadMultiPredictions(strings.NewReader(bad), "p.csv"); !errors.Is(err, ErrMultiPredictions) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

package dataset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestMultiClassRead reads a label of three values with MultiClass: the
// values sorted (numbers by value, before text), Y their indices, the
// schema's classes; written back by WriteCSV as read; read again with the
// schema's labels fixed, an unknown value refused.
func TestMultiClassRead(t *testing.T) {
	src := "x,label\n1,b\n2,10\n3,a\n4,9\n5,b\n6,9\n"
	d, err := Read(strings.NewReader(src), "t.csv", Options{MultiClass: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"9", "10", "a", "b"}; !slices.Equal(d.Classes, want) {
		t.Fatalf("classes %q, want %q", d.Classes, want)
	}
	if want := []int{3, 1, 2, 0, 3, 0}; !slices.Equal(d.Y, want) {
		t.Errorf("y %v, want %v", d.Y, want)
	}
	if d.NumClasses() != 4 || !slices.Equal(d.ClassCounts(), []int{2, 1, 1, 2}) {
		t.Errorf("%d classes, counts %v", d.NumClasses(), d.ClassCounts())
	}
	var out bytes.Buffer
	if err := WriteCSV(&out, d); err != nil {
		t.Fatal(err)
	}
	if out.String() != src {
		t.Errorf("written back:\n%s\nwant:\n%s", out.String(), src)
	}
	s := d.Schema()
	if !slices.Equal(s.Classes, d.Classes) || s.NumClasses() != 4 {
		t.Errorf("schema classes %q", s.Classes)
	}
	// In JSON, as model files hold it: "labels" beside two empty
	// "classes"; read back to the same schema.
	j, err := json.Marshal(s)
	if err != nil || !strings.Contains(string(j), `"classes":["",""],"labels":["9","10","a","b"]`) {
		t.Errorf("schema JSON %s (%v)", j, err)
	}
	var back Schema
	if err := json.Unmarshal(j, &back); err != nil || !slices.Equal(back.Classes, s.Classes) {
		t.Errorf("schema read back: classes %q (%v)", back.Classes, err)
	}
	// Scoring data: the model's labels, in its order, whatever the file
	// holds; a value the model lacks is refused.
	e, err := Read(strings.NewReader("x,label\n1,a\n2,9\n"), "s.csv", s.ReadOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(e.Classes, d.Classes) || !slices.Equal(e.Y, []int{2, 0}) {
		t.Errorf("scoring data: classes %q, y %v", e.Classes, e.Y)
	}
	enc, err := e.Encode(&s)
	if err != nil || !slices.Equal(enc.Y, []int{2, 0}) {
		t.Errorf("encoded labels %v (%v)", enc.Y, err)
	}
	// The error names the model's classes, all four, and never says "two".
	_, err = Read(strings.NewReader("x,label\n1,c\n"), "s.csv", s.ReadOptions())
	if !errors.Is(err, ErrUnknownClass) || !strings.Contains(err.Error(), `"c": label is not one of the classes (the model knows "9", "10", "a", "b")`) || strings.Contains(err.Error(), "two") {
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
	if !slices.Equal(a.Classes, b.Classes) || !slices.Equal(a.Y, b.Y) || len(b.Classes) != 2 {
		t.Errorf("binary with MultiClass: %q %v, without %q %v", b.Classes, b.Y, a.Classes, a.Y)
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

// TestContinuousLabel: a label of fractional numbers, or of more than 20
// numbers most held by one row, is said to look continuous; a few
// integer classes (wine quality 3-9), text classes and two classes are
// not.
func TestContinuousLabel(t *testing.T) {
	table := func(labels ...string) *Dataset {
		var b strings.Builder
		b.WriteString("x,label\n")
		for i, l := range labels {
			fmt.Fprintf(&b, "%d,%s\n", i, l)
		}
		d, err := Read(strings.NewReader(b.String()), "t.csv", Options{MultiClass: true})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	var many []string
	for i := range 30 {
		many = append(many, strconv.Itoa(i*7))
	}
	for _, c := range []struct {
		labels []string
		want   bool
	}{
		{[]string{"0.5", "1.25", "2.75", "0.5"}, true},
		{many, true},
		{[]string{"3", "4", "5", "6", "7", "8", "9", "5", "6"}, false},
		{[]string{"a", "b", "c", "a"}, false},
		{[]string{"0", "1", "0", "1"}, false},
	} {
		if got := table(c.labels...).ContinuousLabel(); (got != "") != c.want {
			t.Errorf("%v: %q, want a warning %v", c.labels, got, c.want)
		}
	}
}

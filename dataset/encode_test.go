package dataset

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func readText(t *testing.T, text string, opt Options) *Dataset {
	t.Helper()
	opt.AllowOneClass = true // small tables: one positive row
	d, err := Read(strings.NewReader(text), "t.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestEncodeByName: a table read on its own maps onto a model's schema by
// column name: reordered columns, an extra column, a category value the
// schema lacks, categories read as numbers, and labels in other classes.
func TestEncodeByName(t *testing.T) {
	train := readText(t, "a,color,zip,b,label\n1,red,10,5,yes\n2,blue,20,6,no\n3,red,10,7,no\n4,green,30,8,no\n",
		Options{AutoCategorical: true, Categorical: []string{"zip"}})
	s := train.Schema()
	if want := []string{"a", "color=blue", "color=green", "color=red", "zip=10", "zip=20", "zip=30", "b"}; !reflect.DeepEqual(s.Features, want) {
		t.Fatalf("features %v, want %v", s.Features, want)
	}
	// Another order, an extra text column, zip read as numbers, a color
	// the model did not see, a missing color, and a label whose rarer
	// class is the other one.
	test := readText(t, "label,note,b,zip,color,a\nno,x,5,20,purple,1.5\nyes,y,6,10,,2.5\nyes,z,7,99,blue,3.5\n",
		Options{AutoCategorical: true})
	e, err := test.Encode(&s)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{
		{1.5, 0, 0, 0, 0, 1, 0, 5},
		{2.5, 0, 0, 0, 1, 0, 0, 6},
		{3.5, 1, 0, 0, 0, 0, 0, 7},
	}
	for i, row := range want {
		if got := e.X.RawRowView(i); !reflect.DeepEqual(got, row) {
			t.Errorf("row %d: %v, want %v", i, got, row)
		}
	}
	if !reflect.DeepEqual(e.Unseen, []int{1, 1}) {
		t.Errorf("unseen %v, want [1 1] (purple, zip 99)", e.Unseen)
	}
	if !reflect.DeepEqual(e.Ignored, []string{"note"}) {
		t.Errorf("ignored %v, want [note]", e.Ignored)
	}
	// train's positive class is yes (the rarer); test's rarer is no.
	if !slices.Equal(train.Classes, []string{"no", "yes"}) || !slices.Equal(test.Classes, []string{"yes", "no"}) {
		t.Errorf("classes %v and %v, want the rarer class positive in each", train.Classes, test.Classes)
	}
	if !reflect.DeepEqual(e.Y, []int{0, 1, 1}) {
		t.Errorf("labels %v, want [0 1 1] in the schema's classes", e.Y)
	}
}

// TestEncodeErrors: a missing column is named; so is a numeric feature
// that the table holds as text.
func TestEncodeErrors(t *testing.T) {
	s := Schema{Features: []string{"a", "c=x", "c=y", "b"}, Classes: []string{"0", "1"},
		Categories: []Category{{Column: "c", Values: []string{"x", "y"}}}}
	d := readText(t, "a,label\n1,0\n2,1\n", Options{})
	_, err := d.Encode(&s)
	if !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), `"b"`) || !strings.Contains(err.Error(), `"c"`) {
		t.Errorf("missing b and c: %v", err)
	}
	d = readText(t, "a,b,c,label\n1,hello,x,0\n2,3,y,1\n", Options{AutoCategorical: true})
	if _, err := d.Encode(&s); !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), `"b"`) {
		t.Errorf("b as text: %v", err)
	}
}

// TestKeep: Options.Keep reads only the named feature columns; the rest,
// text or not, is ignored.
func TestKeep(t *testing.T) {
	d := readText(t, "note,a,b,label\nhello,1,2,0\nworld,3,4,1\n", Options{Keep: []string{"b", "a"}})
	if !reflect.DeepEqual(d.Features, []string{"a", "b"}) || !reflect.DeepEqual(d.Ignored, []string{"note"}) {
		t.Errorf("features %v, ignored %v", d.Features, d.Ignored)
	}
}

// TestFromRecords reads records as the same CSV text reads.
func TestFromRecords(t *testing.T) {
	text := "x,c,label\n1.5,a,0\n,b,1\n2.25,a,0\n"
	want := readText(t, text, Options{AutoCategorical: true})
	got, err := FromRecords("t.csv", []string{"x", "c", "label"}, [][]string{{"1.5", "a", "0"}, {"", "b", "1"}, {"2.25", "a", "0"}}, Options{AutoCategorical: true, AllowOneClass: true})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Features, want.Features) || !reflect.DeepEqual(got.Y, want.Y) || !reflect.DeepEqual(got.Categories, want.Categories) {
		t.Fatalf("records %+v, csv %+v", got, want)
	}
	for i := range want.Rows() {
		for j := range want.Cols() {
			a, b := got.X.At(i, j), want.X.At(i, j)
			if a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
				t.Errorf("cell %d,%d: %v, want %v", i, j, a, b)
			}
		}
	}
	_, err = FromRecords("t", []string{"x", "label"}, [][]string{{"oops", "0"}, {"1", "1"}}, Options{})
	if err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "oops") {
		t.Errorf("a bad cell: %v, want its line and value", err)
	}
}

// TestEncodeEmptyCategory: a categorical column whose every cell is
// missing (no one-hot feature) encodes to all zeros.
func TestEncodeEmptyCategory(t *testing.T) {
	s := Schema{Features: []string{"a", "c=x", "c=y"}, Classes: []string{"0", "1"},
		Categories: []Category{{Column: "c", Values: []string{"x", "y"}}}}
	d := readText(t, "a,c,label\n1,,0\n2,,1\n", Options{Categorical: []string{"c"}})
	e, err := d.Encode(&s)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if got := e.X.RawRowView(i)[1:]; got[0] != 0 || got[1] != 0 {
			t.Errorf("row %d: %v, want zeros", i, got)
		}
	}
}

// FuzzEncode maps any table onto the schema of any other: an error or a
// matrix of the schema's width, never a panic.
func FuzzEncode(f *testing.F) {
	f.Add("a,color,zip,b,label\n1,red,10,5,yes\n2,blue,20,6,no\n3,red,10,7,no\n", "label,note,b,zip,color,a\nno,x,5,20,purple,1.5\nyes,y,6,10,,2.5\n")
	f.Add("a,c,label\n1,,0\n2,,1\n", "c,a,label\nx,1,0\n,2,1\n")
	f.Add("x,label\n1,0\n2,1\n", "x\nhello\n")
	f.Fuzz(func(t *testing.T, train, test string) {
		opt := Options{AutoCategorical: true, AllowOneClass: true, LabelOptional: true}
		a, err := Read(strings.NewReader(train), "train", opt)
		if err != nil {
			return
		}
		b, err := Read(strings.NewReader(test), "test", opt)
		if err != nil {
			return
		}
		s := a.Schema()
		e, err := b.Encode(&s)
		if err != nil {
			return
		}
		if r, c := e.X.Dims(); r != b.Rows() || c != len(s.Features) {
			t.Fatalf("encoded %dx%d, want %dx%d", r, c, b.Rows(), len(s.Features))
		}
	})
}

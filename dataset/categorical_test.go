package dataset

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

func rowsOf(d *Dataset) [][]float64 {
	var out [][]float64
	for i := range d.Rows() {
		out = append(out, slices.Clone(d.X.RawRowView(i)))
	}
	return out
}

func TestCategoricalAuto(t *testing.T) {
	text := "a,color,size,label\n1,red,1,0\n2,blue,2,1\n3,,1.0,1\n4,green,x,0\n5,red,+1,0\n"
	d, err := Read(strings.NewReader(text), "t.csv", Options{AutoCategorical: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "a,color=blue,color=green,color=red,size=1,size=2,size=x"
	if got := strings.Join(d.Features, ","); got != want {
		t.Fatalf("features %s, want %s", got, want)
	}
	wantRows := [][]float64{
		{1, 0, 0, 1, 1, 0, 0},
		{2, 1, 0, 0, 0, 1, 0},
		{3, 0, 0, 0, 1, 0, 0}, // a missing color is all zeros; 1.0 is 1
		{4, 0, 1, 0, 0, 0, 1},
		{5, 0, 0, 1, 1, 0, 0},
	}
	for i, r := range rowsOf(d) {
		if !slices.Equal(r, wantRows[i]) {
			t.Errorf("row %d: %v, want %v", i+1, r, wantRows[i])
		}
	}
	if len(d.Categories) != 2 || strings.Join(d.Categories[1].Values, ",") != "1,2,x" {
		t.Errorf("categories %+v", d.Categories)
	}
	if len(d.Mixed) != 1 || d.Mixed[0] != (MixedColumn{Column: "size", Value: "x", Line: 5, Numbers: 4}) {
		t.Errorf("mixed %+v", d.Mixed)
	}
	// Without AutoCategorical the string cell is an error, as ever.
	if _, err := Read(strings.NewReader(text), "t.csv", Options{}); !errors.Is(err, ErrNotNumber) {
		t.Errorf("without auto: %v", err)
	}
	// A forced column of numeric codes.
	d, err = Read(strings.NewReader("a,zip,label\n1,75001,0\n2,10115,1\n3,75001,1\n4,NA,0\n"), "t.csv", Options{Categorical: []string{"zip"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(d.Features, ",") != "a,zip=10115,zip=75001" || d.X.At(3, 1) != 0 || d.X.At(3, 2) != 0 || d.X.At(0, 2) != 1 {
		t.Errorf("forced: %v %v", d.Features, rowsOf(d))
	}
}

func TestCategoricalErrors(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("a,city,label\n")
	for i := range 70 {
		fmt.Fprintf(&sb, "%d,c%02d,%d\n", i, i, i%2)
	}
	_, err := Read(strings.NewReader(sb.String()), "t.csv", Options{AutoCategorical: true})
	want := `t.csv: line 66, column "city": "c64": too many categories (more than 64 distinct values in a categorical column; raise the cap with --max-categories, or leave the column out with --drop city or --id city)`
	if !errors.Is(err, ErrTooManyCategories) || err.Error() != want {
		t.Errorf("cap:\n%v\nwant\n%s", err, want)
	}
	if _, err := Read(strings.NewReader(sb.String()), "t.csv", Options{AutoCategorical: true, MaxCategories: 70}); err != nil {
		t.Errorf("cap raised: %v", err)
	}
	// A numeric column with a typo: the message says where the text is.
	sb.Reset()
	sb.WriteString("a,amount,label\n")
	for i := range 70 {
		v := fmt.Sprint(i * 3)
		if i == 4 {
			v = "12,5"
		}
		fmt.Fprintf(&sb, "%d,%q,%d\n", i, v, i%2)
	}
	_, err = Read(strings.NewReader(sb.String()), "t.csv", Options{AutoCategorical: true})
	if !errors.Is(err, ErrTooManyCategories) || !strings.Contains(err.Error(), `column "amount"`) ||
		!strings.Contains(err.Error(), `its cells are numbers but for "12,5" at line 6: a typo, or a missing-value token (--na)?`) {
		t.Errorf("mixed column: %v", err)
	}
	// A column named as a one-hot feature of another.
	_, err = Read(strings.NewReader("c,c=x,label\nx,1,0\ny,2,1\nx,3,1\n"), "t.csv", Options{AutoCategorical: true})
	if !errors.Is(err, ErrDuplicate) || !strings.Contains(err.Error(), `column "c=x"`) {
		t.Errorf("name clash: %v", err)
	}
}

// TestCategoricalFixed: with a model's category lists, an unseen value and
// a missing cell encode to zeros, the unseen ones are counted, and a stream
// encodes exactly as a whole read.
func TestCategoricalFixed(t *testing.T) {
	text := "color,a,label\nred,1,0\npurple,2,1\n,3,1\nblue,4,0\npurple,5,0\n"
	opt := Options{Categories: []Category{{Column: "color", Values: []string{"blue", "red"}}}, Classes: []string{"0", "1"}, AllowOneClass: true}
	d, err := Read(strings.NewReader(text), "t.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(d.Features, ",") != "color=blue,color=red,a" || !slices.Equal(d.Unseen, []int{2}) {
		t.Fatalf("features %v unseen %v", d.Features, d.Unseen)
	}
	want := [][]float64{{0, 1, 1}, {0, 0, 2}, {0, 0, 3}, {1, 0, 4}, {0, 0, 5}}
	got := rowsOf(d)
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("row %d: %v, want %v", i+1, got[i], want[i])
		}
	}
	s, err := NewStream(strings.NewReader(text), "t.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(s.Features(), ",") != "color=blue,color=red,a" {
		t.Errorf("stream features %v", s.Features())
	}
	i := 0
	for {
		b, err := s.Next(2)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rowsOf(b) {
			if !slices.Equal(r, want[i]) {
				t.Errorf("stream row %d: %v", i+1, r)
			}
			i++
		}
	}
	if !slices.Equal(s.Unseen(), []int{2}) {
		t.Errorf("stream unseen %v", s.Unseen())
	}
	// A numeric column keeps refusing text.
	_, err = Read(strings.NewReader("color,a,label\nred,x,0\n"), "t.csv", opt)
	if !errors.Is(err, ErrNotNumber) {
		t.Errorf("text in a numeric column: %v", err)
	}
}

package dataset_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"

	"github.com/aer-go/aer/dataset"
)

// Rows read a batch at a time: memory is bounded by the batch, not the
// file. The label values are fixed in advance (a model's classes).
func ExampleNewStream() {
	csv := "id,a,color,label\nr1,1,red,0\nr2,2,blue,1\nr3,NA,green,0\n"
	opt := dataset.Options{
		ID:         "id",
		Classes:    []string{"0", "1"},
		Categories: []dataset.Category{{Column: "color", Values: []string{"blue", "red"}}},
	}
	s, err := dataset.NewStream(strings.NewReader(csv), "rows.csv", opt)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("features:", s.Features())
	for {
		d, err := s.Next(2)
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		for i := range d.Rows() {
			fmt.Println(d.IDs[i], d.X.RawRowView(i), d.Y[i])
		}
	}
	fmt.Println("unseen colors:", s.Unseen()[0])
	// Output:
	// features: [a color=blue color=red]
	// r1 [1 0 1] 0
	// r2 [2 1 0] 1
	// r3 [NaN 0 0] 0
	// unseen colors: 1
}

// A text column becomes categorical with AutoCategorical: one feature per
// value, values sorted.
func ExampleCategory() {
	csv := "size,color,label\n1,red,0\n2,blue,1\n3,red,1\n4,,0\n"
	d, err := dataset.Read(strings.NewReader(csv), "t.csv", dataset.Options{AutoCategorical: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Features)
	fmt.Println(d.Categories[0].Values)
	row := make([]float64, 2)
	fmt.Println(d.Categories[0].Encode("red", row), row)
	fmt.Println(d.Categories[0].Encode("mauve", row), row)
	// Output:
	// [size color=blue color=red]
	// [blue red]
	// true [0 1]
	// false [0 0]
}

func ExampleDecodeProfile() {
	csv := "id,x,flag,leak,label\na,1,0,yes,0\nb,2,0,no,1\nc,3,0,yes,0\nd,4,0,no,1\ne,5,0,yes,0\n"
	_, cols, err := dataset.DecodeProfile(strings.NewReader(csv), "t.csv", dataset.Options{ID: "id", AutoCategorical: true}, 100)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range cols {
		fmt.Printf("%-5s %-11s distinct %d constant %v label-like %v\n", c.Name, c.Type, c.Distinct, c.Constant, c.LabelLike)
	}
	// Output:
	// id    id          distinct 5 constant false label-like false
	// x     numeric     distinct 5 constant false label-like false
	// flag  numeric     distinct 1 constant true label-like false
	// leak  categorical distinct 2 constant false label-like true
	// label label       distinct 2 constant false label-like false
}

func ExampleLabelLike() {
	fmt.Println(dataset.LabelLike("Fraud", "fraud"), dataset.LabelLike("target", "fraud"), dataset.LabelLike("amount", "fraud"))
	// Output: true true false
}

// Decode tells the format by the first bytes: here gzip-compressed CSV.
func ExampleDecode() {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte("a,label\n1,0\n2,1\n3,1\n4,0\n"))
	zw.Close()
	d, err := dataset.Decode(&buf, "t.csv.gz", dataset.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Rows(), d.Features, dataset.Stem("data/t.csv.gz"))
	// Output: 4 [a] t
}

func ExampleMatchColumns() {
	err := dataset.MatchColumns("new", []string{"b", "a", "c"}, []string{"a", "b", "d"})
	fmt.Println(err)
	// Output: new: columns do not match (missing "d"; unexpected "c")
}

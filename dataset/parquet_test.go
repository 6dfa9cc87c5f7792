package dataset

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

type pqRow struct {
	A     float32  `parquet:"a"`
	B     *float64 `parquet:"b,optional"`
	Flag  bool     `parquet:"flag"`
	Color string   `parquet:"color"`
	Label int32    `parquet:"label"`
}

func parquetBytes(t *testing.T, rows []pqRow) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[pqRow](&buf)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestParquetValues: Parquet values read as the text a CSV export holds:
// a float32 as its shortest decimal, a null as missing, a boolean as 1/0,
// strings as categories.
func TestParquetValues(t *testing.T) {
	half := 0.5
	b := parquetBytes(t, []pqRow{
		{A: 0.1, B: &half, Flag: true, Color: "red", Label: 0},
		{A: 2, B: nil, Flag: false, Color: "blue", Label: 1},
		{A: -3.25, B: &half, Flag: true, Color: "red", Label: 1},
	})
	d, err := Decode(bytes.NewReader(b), "t.parquet", Options{AutoCategorical: true, AllowOneClass: true})
	if err != nil {
		t.Fatal(err)
	}
	csv, err := Read(strings.NewReader("a,b,flag,color,label\n0.1,0.5,1,red,0\n2,,0,blue,1\n-3.25,0.5,1,red,1\n"), "t.csv", Options{AutoCategorical: true, AllowOneClass: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(d.Features, ",") != strings.Join(csv.Features, ",") || d.Classes != csv.Classes {
		t.Fatalf("features %v classes %v, want %v %v", d.Features, d.Classes, csv.Features, csv.Classes)
	}
	for i := range 3 {
		for j := range d.Cols() {
			x, y := d.X.At(i, j), csv.X.At(i, j)
			if math.Float64bits(x) != math.Float64bits(y) && !(x != x && y != y) {
				t.Errorf("row %d col %s: %v, want %v", i, d.Features[j], x, y)
			}
		}
	}
	// A stream reads Parquet too.
	s, err := NewStream(bytes.NewReader(b), "t.parquet", Options{Classes: d.Classes, Categories: d.Categories})
	if err != nil {
		t.Fatal(err)
	}
	if bd, err := s.Next(10); err != nil || bd.Rows() != 3 {
		t.Errorf("stream: %v", err)
	}
}

func TestParquetHostile(t *testing.T) {
	b := parquetBytes(t, []pqRow{{A: 1, Color: "x"}, {A: 2, Color: "y", Label: 1}})
	for name, data := range map[string][]byte{
		"truncated":  b[:len(b)/2],
		"magic only": []byte("PAR1"),
		"no footer":  append([]byte("PAR1"), make([]byte, 64)...),
	} {
		_, err := Decode(bytes.NewReader(data), "bad.parquet", Options{})
		if !errors.Is(err, ErrUnsupported) || !strings.HasPrefix(err.Error(), "bad.parquet: ") {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Read (CSV only) still names Parquet as such.
	if _, err := Read(bytes.NewReader(b), "t.parquet", Options{}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Read of Parquet: %v", err)
	}
}

// FuzzDecodeParquet: any bytes after Parquet's magic give a Dataset or an
// error naming the file, never a panic.
func FuzzDecodeParquet(f *testing.F) {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[pqRow](&buf)
	w.Write([]pqRow{{A: 1, Color: "x"}, {A: 2, Color: "y", Label: 1}, {A: 3, Color: "y", Label: 1}})
	w.Close()
	f.Add(buf.Bytes())
	f.Add([]byte("PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Decode(bytes.NewReader(data), "fuzz.parquet", Options{AutoCategorical: true, AllowOneClass: true})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.parquet") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if d.Rows() < 1 {
			t.Fatal("accepted an empty table")
		}
	})
}

package dataset

import (
	"bytes"
	"errors"
	"io"
	"math"
	"slices"
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
	if strings.Join(d.Features, ",") != strings.Join(csv.Features, ",") || !slices.Equal(d.Classes, csv.Classes) {
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

type pqLogical struct {
	U32   uint32  `parquet:"u32"`
	U64   uint64  `parquet:"u64"`
	D32   int32   `parquet:"d32,decimal(2:9)"`
	D64   int64   `parquet:"d64,decimal(3:18)"`
	DFix  [8]byte `parquet:"dfix,decimal(2:18)"`
	Label int32   `parquet:"label"`
}

type pqDate struct {
	Day   int32 `parquet:"day,date"`
	Label int32 `parquet:"label"`
}

// TestParquetLogicalTypes: unsigned integers read as unsigned (UINT_32
// and UINT_64 read as -1 before), decimals with their scale (0.56, not
// 56), and a date is refused by name rather than read as its day count.
func TestParquetLogicalTypes(t *testing.T) {
	be := func(v int64) (b [8]byte) {
		for i := range 8 {
			b[7-i] = byte(v >> (8 * i))
		}
		return b
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[pqLogical](&buf)
	rows := []pqLogical{
		{U32: 4294967295, U64: 18446744073709551615, D32: 56, D64: -1234, DFix: be(-5), Label: 0},
		{U32: 7, U64: 9, D32: -100000, D64: 5, DFix: be(123456), Label: 1},
		{U32: 8, U64: 10, D32: 1, D64: 0, DFix: be(0), Label: 1},
		{Label: 0}, {Label: 0},
	}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	d, err := Decode(bytes.NewReader(buf.Bytes()), "t.parquet", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{
		{4294967295, 18446744073709551615, 0.56, -1.234, -0.05},
		{7, 9, -1000, 0.005, 1234.56},
		{8, 10, 0.01, 0, 0},
	}
	for i, row := range want {
		for j, v := range row {
			if got := d.X.At(i, j); got != v {
				t.Errorf("row %d, %s: %v, want %v", i, d.Features[j], got, v)
			}
		}
	}
	if got := scaled("-5", 3); got != "-0.005" {
		t.Errorf("scaled(-5, 3) = %s", got)
	}
	buf.Reset()
	wd := parquet.NewGenericWriter[pqDate](&buf)
	wd.Write([]pqDate{{Day: 19000, Label: 0}, {Day: 19001, Label: 1}, {Day: 19002, Label: 1}, {Day: 3}, {Day: 4}})
	wd.Close()
	_, err = Decode(bytes.NewReader(buf.Bytes()), "t.parquet", Options{})
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), `column "day"`) || !strings.Contains(err.Error(), "DATE") {
		t.Errorf("a date column: %v", err)
	}
}

// TestParquetStreamBounded: a Parquet stream (standard input) is read
// into memory only up to the limit (half the memory available); past it,
// an error says to give the path (it was read whole, whatever its size).
func TestParquetStreamBounded(t *testing.T) {
	b := parquetBytes(t, []pqRow{{A: 1, Color: "x"}, {A: 2, Color: "y", Label: 1}, {A: 3, Color: "y", Label: 1}, {A: 4}, {A: 5}})
	old := parquetStreamLimit
	defer func() { parquetStreamLimit = old }()
	parquetStreamLimit = func() int64 { return int64(len(b)) - 1 }
	_, err := Decode(io.MultiReader(bytes.NewReader(b)), "stdin", Options{AutoCategorical: true})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "give the file's path") {
		t.Errorf("error %v", err)
	}
	parquetStreamLimit = func() int64 { return int64(len(b)) }
	if _, err := Decode(io.MultiReader(bytes.NewReader(b)), "stdin", Options{AutoCategorical: true}); err != nil {
		t.Errorf("at the limit: %v", err)
	}
}

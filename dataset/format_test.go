package dataset

import (
	"compress/gzip"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDelimiterSniffed(t *testing.T) {
	for _, c := range []struct{ name, text string }{
		{"comma", "a,b,label\n1.5,2,0\n3,4,1\n5,6,0\n7,8,1\n"},
		{"semicolon", "a;b;label\n1.5;2;0\n3;4;1\n5;6;0\n7;8;1\n"},
		{"tab", "a\tb\tlabel\n1.5\t2\t0\n3\t4\t1\n5\t6\t0\n7\t8\t1\n"},
		// A comma inside a quoted header name does not count.
		{"semicolon, quoted comma", "\"a,x\";b;label\n1.5;2;0\n3;4;1\n5;6;0\n7;8;1\n"},
	} {
		d, err := Read(strings.NewReader(c.text), c.name, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r, k := d.X.Dims(); r != 4 || k != 2 || d.X.At(0, 0) != 1.5 {
			t.Errorf("%s: %d x %d, first cell %v", c.name, r, k, d.X.At(0, 0))
		}
	}
	// Forced: a semicolon file read with commas has one column.
	if _, err := Read(strings.NewReader("a;b;label\n1;2;0\n3;4;1\n5;6;1\n"), "f", Options{Delimiter: ','}); err == nil {
		t.Error("a semicolon file read with --delimiter , parsed")
	}
}

func TestMissingTokens(t *testing.T) {
	text := "a,b,label\nnull,1,0\n<NA>,2,1\n#N/A,3,0\nNULL,4,1\n-,5,0\n2,6,1\n"
	if _, err := Read(strings.NewReader(text), "f", Options{}); !errors.Is(err, ErrNotNumber) {
		t.Fatalf("without --na -: %v, want not a number at the - cell", err)
	}
	d, err := Read(strings.NewReader(text), "f", Options{NA: []string{"-"}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if !math.IsNaN(d.X.At(i, 0)) {
			t.Errorf("row %d: %v, want missing", i+1, d.X.At(i, 0))
		}
	}
	if d.X.At(5, 0) != 2 {
		t.Errorf("row 6: %v", d.X.At(5, 0))
	}
}

func TestLoadGzipAndUnsupported(t *testing.T) {
	dir := t.TempDir()
	text := "a,b,label\n1,2,0\n3,4,1\n5,6,0\n7,8,1\n"
	gz := filepath.Join(dir, "t.csv.gz")
	f, err := os.Create(gz)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	zw.Write([]byte(text))
	zw.Close()
	f.Close()
	d, err := Load(gz, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "t" || d.Rows() != 4 {
		t.Errorf("name %q, %d rows", d.Name, d.Rows())
	}
	for _, c := range []struct{ name, head string }{
		{"p.parquet", "PAR1\x00\x01"}, {"x.xlsx", "PK\x03\x04rest"}, {"old.xls", "\xd0\xcf\x11\xe0\xa1"},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.head), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(p, Options{})
		if !errors.Is(err, ErrUnsupported) || strings.Contains(err.Error(), "line") {
			t.Errorf("%s: %v, want unsupported format", c.name, err)
		}
	}
}

func TestHostileHeaderAndCells(t *testing.T) {
	// A Latin-1 column name is refused with its line, not read as garbage.
	_, err := Read(strings.NewReader("caf\xe9,label\n1,0\n2,1\n3,1\n"), "latin1.csv", Options{})
	if !errors.Is(err, ErrEncoding) || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("Latin-1 header: %v", err)
	}
	// A huge bad cell is quoted in part, with its length.
	cell := strings.Repeat("x", 5<<20)
	_, err = Read(strings.NewReader("a,label\n"+cell+",0\n2,1\n3,1\n"), "big.csv", Options{})
	if !errors.Is(err, ErrNotNumber) || len(err.Error()) > 300 || !strings.Contains(err.Error(), "(5242880 bytes)") {
		t.Errorf("5 MB cell: message of %d bytes: %.200s", len(err.Error()), err)
	}
	// A header of a million columns and no rows reads without allocating
	// a billion floats first.
	var wide strings.Builder
	for j := range 1 << 20 {
		fmt.Fprintf(&wide, "c%d,", j)
	}
	wide.WriteString("label\n")
	if _, err := Read(strings.NewReader(wide.String()), "wide.csv", Options{}); !errors.Is(err, ErrNoRows) {
		t.Errorf("wide header: %v", err)
	}
}

func TestDrop(t *testing.T) {
	text := "id,a,outcome,label\nr1,1,0,0\nr2,2,1,1\nr3,3,1,1\nr4,4,0,0\n"
	if _, err := Read(strings.NewReader(text), "f", Options{}); !errors.Is(err, ErrNotNumber) {
		t.Fatalf("without --drop: %v, want the id column not a number", err)
	}
	d, err := Read(strings.NewReader(text), "f", Options{Drop: []string{"outcome", "id", "absent"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(d.Features, ",") != "a" || strings.Join(d.Dropped, ",") != "id,outcome" {
		t.Errorf("features %v, dropped %v", d.Features, d.Dropped)
	}
	if _, err := Read(strings.NewReader(text), "f", Options{Drop: []string{"label"}}); !errors.Is(err, ErrDropLabel) {
		t.Errorf("dropping the label: %v", err)
	}
}

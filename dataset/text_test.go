package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// textTable is a table with an id column (all values distinct), a text
// column of three values and a numeric feature; n rows.
func textTable(n int) string {
	var b strings.Builder
	b.WriteString("id,x,clinic,label\n")
	clinics := []string{"east", "west", "north"}
	for i := range n {
		fmt.Fprintf(&b, "r%04d,%g,%s,%d\n", i+1, float64(i)/4, clinics[i%3], min(i%5, 1)^1)
	}
	return b.String()
}

// AutoText reads a column with too many distinct values as text (kept,
// not a feature) from a file, a reader and by Read; the text cells come
// back in order and WriteCSV writes the table in its file order.
func TestAutoText(t *testing.T) {
	text := textTable(2000) // past chunkFrom: the parallel reader too
	path := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	opt := Options{AutoCategorical: true, AutoText: true}
	_, err := Read(strings.NewReader(text), "t.csv", Options{AutoCategorical: true})
	if !errors.Is(err, ErrTooManyCategories) {
		t.Fatalf("without AutoText: %v", err)
	}
	fromFile, err := Load(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	fromReader, err := Decode(bytes.NewBufferString(text), "t.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	fromRead, err := Read(strings.NewReader(text), "t.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []*Dataset{fromFile, fromReader, fromRead} {
		if want := []string{"x", "clinic=east", "clinic=north", "clinic=west"}; !slices.Equal(d.Features, want) {
			t.Fatalf("features %q, want %q", d.Features, want)
		}
		if len(d.Text) != 1 || d.Text[0].Name != "id" || !d.Text[0].Auto || d.Text[0].Dropped || len(d.Text[0].Cells) != 2000 ||
			d.Text[0].Cells[0] != "r0001" || d.Text[0].Cells[1999] != "r2000" {
			t.Fatalf("text columns %+v", d.Text[0].Name)
		}
		var buf bytes.Buffer
		if err := WriteCSV(&buf, d); err != nil {
			t.Fatal(err)
		}
		if buf.String() != text {
			t.Errorf("written back differs from the file: starts %q", buf.String()[:60])
		}
	}
	// A reader longer than the copy kept to read it again: the error
	// stands.
	defer func(n int) { rereadCopy = n }(rereadCopy)
	rereadCopy = 1000
	if _, err := Decode(bytes.NewBufferString(text), "t.csv", opt); !errors.Is(err, ErrTooManyCategories) {
		t.Errorf("past the copy: %v", err)
	}
	if _, err := Load(path, opt); err != nil {
		t.Errorf("a file is read again whatever its size: %v", err)
	}
	rereadCopy = len(text)
	if _, err := Decode(bytes.NewBufferString(text), "t.csv", opt); err != nil {
		t.Errorf("within the copy: %v", err)
	}
	// A column of numbers with a text cell (a typo) still fails.
	typo := "a,b,label\n1,1,0\n2,2,1\nabc,3,1\n4,4,0\n5,5,0\n"
	if _, err := Read(strings.NewReader(typo), "t.csv", Options{AutoCategorical: true, AutoText: true, MaxCategories: 1}); !errors.Is(err, ErrTooManyCategories) {
		t.Errorf("typo: %v", err)
	}
	// A column named categorical still fails.
	opt.Categorical = []string{"id"}
	if _, err := Load(path, opt); !errors.Is(err, ErrTooManyCategories) {
		t.Errorf("--categorical id: %v", err)
	}
}

// Text and KeepDropped keep columns as text; Subset carries them, and
// the label cannot be text.
func TestTextColumns(t *testing.T) {
	text := "a,note,b,memo,label\n1,x y,2,m1,0\n3,\"p,q\",4,m2,1\n5,,6,m3,1\n7,z,8,m4,0\n"
	d, err := Read(strings.NewReader(text), "t.csv", Options{Text: []string{"note"}, Drop: []string{"memo"}, KeepDropped: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Features, []string{"a", "b"}) || !slices.Equal(d.Dropped, []string{"memo"}) || len(d.Text) != 2 ||
		d.Text[0].Name != "note" || d.Text[0].Dropped || !d.Text[1].Dropped || d.Text[1].Cells[3] != "m4" {
		t.Fatalf("features %q, dropped %q, text %+v", d.Features, d.Dropped, d.Text)
	}
	s := d.Subset([]int{2, 1})
	var buf bytes.Buffer
	if err := WriteCSV(&buf, s); err != nil {
		t.Fatal(err)
	}
	if want := "a,note,b,memo,label\n5,,6,m3,1\n3,\"p,q\",4,m2,1\n"; buf.String() != want {
		t.Errorf("subset written\n%s\nwant\n%s", buf.String(), want)
	}
	// A split column the file lacks goes before the label.
	s.Split = []string{"train", "test"}
	buf.Reset()
	WriteCSV(&buf, s)
	if want := "a,note,b,memo,split,label\n5,,6,m3,train,1\n"; !strings.HasPrefix(buf.String(), want) {
		t.Errorf("with a split column:\n%s\nwant\n%s", buf.String(), want)
	}
	// Without KeepDropped a dropped column is not kept.
	d, err = Read(strings.NewReader(text), "t.csv", Options{Drop: []string{"memo", "note"}})
	if err != nil || len(d.Text) != 0 {
		t.Errorf("dropped, not kept: %v %+v", err, d.Text)
	}
	if _, err := Read(strings.NewReader(text), "t.csv", Options{Text: []string{"label"}}); !errors.Is(err, ErrDropLabel) {
		t.Errorf("label as text: %v", err)
	}
}

// The profile types an AutoText column "text" and flags likely ids: by
// name, or a text or categorical column of all-distinct values.
func TestProfileLikelyID(t *testing.T) {
	text := strings.Replace(textTable(200), "id,x,", "id,x_id,", 1)
	d, cols, err := DecodeProfile(strings.NewReader(text), "t.csv", Options{AutoCategorical: true, AutoText: true}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]ColumnProfile{}
	for _, c := range cols {
		got[c.Name] = c
	}
	if c := got["id"]; c.Type != "text" || !c.LikelyID || c.Distinct != 200 {
		t.Errorf("id: %+v", c)
	}
	if c := got["x_id"]; c.Type != "numeric" || !c.LikelyID {
		t.Errorf("x_id (named like an id): %+v", c)
	}
	if c := got["clinic"]; c.Type != "categorical" || c.LikelyID {
		t.Errorf("clinic: %+v", c)
	}
	if c := got["label"]; c.LikelyID {
		t.Errorf("label: %+v", c)
	}
	if d.Rows() != 200 || len(d.Text) != 1 {
		t.Errorf("%d rows, text %d", d.Rows(), len(d.Text))
	}
	// A tiny table's all-distinct text column is not flagged.
	_, cols, err = DecodeProfile(strings.NewReader("name,x,label\nann,1,0\nbob,2,1\ncy,3,1\ndi,4,0\n"), "t.csv", Options{AutoCategorical: true, AutoText: true}, 1000)
	if err != nil || len(cols) == 0 || cols[0].LikelyID {
		t.Errorf("4 distinct names: %v %+v", err, cols)
	}
	// Read as the id, it is not flagged.
	_, cols, err = DecodeProfile(strings.NewReader(text), "t.csv", Options{AutoCategorical: true, AutoText: true, ID: "id"}, 1000)
	if err != nil || cols[0].Type != "id" || cols[0].LikelyID {
		t.Errorf("--id id: %v %+v", err, cols[0])
	}
}

func TestIDLike(t *testing.T) {
	for name, want := range map[string]bool{
		"id": true, "ID": true, "uuid": true, "patient_id": true, "patientID": true, "PatientId": true, "key": true, "id_code": true,
		"idle": false, "valid": false, "width": false, "paid": false, "grid": false, "x": false, "ID2": false,
	} {
		if IDLike(name) != want {
			t.Errorf("IDLike(%q) = %v, want %v", name, !want, want)
		}
	}
}

// FuzzTextRoundTrip: a table read with text columns (AutoText at a small
// category cap) and written back reads again to the same table.
func FuzzTextRoundTrip(f *testing.F) {
	f.Add("id,a,c,label\nr1,1,x,0\nr2,2,y,1\nr3,3,z,1\nr4,,x,0\n", uint8(2))
	f.Add("a,note,label\n1,\"p,q\",0\n2, s ,1\n3,t,1\n", uint8(1))
	f.Add(textTable(40), uint8(3))
	f.Fuzz(func(t *testing.T, text string, maxCat uint8) {
		opt := Options{AutoCategorical: true, AutoText: true, MaxCategories: 1 + int(maxCat%8)}
		d, err := Read(strings.NewReader(text), "fuzz.csv", opt)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteCSV(&buf, d); err != nil {
			t.Fatal(err)
		}
		opt.Text = nil
		for _, c := range d.Text {
			opt.Text = append(opt.Text, c.Name)
		}
		d2, err := Read(bytes.NewReader(buf.Bytes()), "again.csv", opt)
		if err != nil {
			t.Fatalf("written table does not read: %v\n%s", err, buf.String())
		}
		if !slices.Equal(d.Features, d2.Features) || !slices.Equal(d.Y, d2.Y) || len(d.Text) != len(d2.Text) {
			t.Fatalf("features %q / %q, text %d / %d", d.Features, d2.Features, len(d.Text), len(d2.Text))
		}
		for k := range d.Text {
			if !slices.Equal(d.Text[k].Cells, d2.Text[k].Cells) {
				t.Fatalf("text column %q: %q / %q", d.Text[k].Name, d.Text[k].Cells, d2.Text[k].Cells)
			}
		}
	})
}

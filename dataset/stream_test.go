package dataset

import (
	"errors"
	"io"
	"math"
	"strings"
	"testing"
)

// TestStreamMatchesRead: the batches of a Stream, put together, are the
// Dataset Read gives, whatever the batch size.
func TestStreamMatchesRead(t *testing.T) {
	text := "a,b,w,split,note,label\n1,2,1,train,x,no\n\n3,NA,2,test,y,yes\n5,?,0.5,valid,z,no\n7,,1,train,x,no\n9,1e3,3,test,y,yes\n"
	opt := Options{Weight: "w", Drop: []string{"note"}, Classes: []string{"no", "yes"}, AllowOneClass: true}
	whole, err := Read(strings.NewReader(text), "t.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 4, 100} {
		s, err := NewStream(strings.NewReader(text), "t.csv", opt)
		if err != nil {
			t.Fatal(err)
		}
		if !s.Labelled() || strings.Join(s.Features(), ",") != "a,b" {
			t.Fatalf("labelled %v, features %v", s.Labelled(), s.Features())
		}
		i := 0
		for {
			d, err := s.Next(n)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.Rows() > n {
				t.Fatalf("batch of %d rows, asked for %d", d.Rows(), n)
			}
			for k := range d.Rows() {
				for j := range 2 {
					a, b := d.X.At(k, j), whole.X.At(i, j)
					if math.Float64bits(a) != math.Float64bits(b) && !(a != a && b != b) {
						t.Fatalf("n=%d row %d col %d: %v, want %v", n, i, j, a, b)
					}
				}
				if d.Y[k] != whole.Y[i] || d.W[k] != whole.W[i] || d.Split[k] != whole.Split[i] {
					t.Fatalf("n=%d row %d: label, weight or split differ", n, i)
				}
				i++
			}
		}
		if i != whole.Rows() || s.Rows() != i {
			t.Fatalf("n=%d: %d rows streamed (%d counted), want %d", n, i, s.Rows(), whole.Rows())
		}
		if _, err := s.Next(n); err != io.EOF {
			t.Errorf("after the end: %v", err)
		}
	}
}

func TestStreamErrors(t *testing.T) {
	if _, err := NewStream(strings.NewReader("a,label\n1,0\n"), "t.csv", Options{}); err == nil || !strings.Contains(err.Error(), "Options.Classes") {
		t.Errorf("labelled stream without classes: %v", err)
	}
	s, err := NewStream(strings.NewReader("a,label\n"), "t.csv", Options{Classes: []string{"0", "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Next(10); !errors.Is(err, ErrNoRows) {
		t.Errorf("no rows: %v", err)
	}
	s, err = NewStream(strings.NewReader("a,label\n1,0\n2,1\n3,x\n"), "t.csv", Options{Classes: []string{"0", "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Next(2); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Next(2); !errors.Is(err, ErrUnknownClass) || !strings.Contains(err.Error(), "line 4") {
		t.Errorf("unknown class in the second batch: %v", err)
	}
	_, err = NewStream(strings.NewReader("PAR1\x00"), "p.parquet", Options{Unlabeled: true})
	if !errors.Is(err, ErrUnsupported) {
		t.Errorf("parquet magic: %v", err)
	}
}

// TestParseRowAllocs: parsing a row of numbers, missing cells, a label and
// a split value allocates nothing once the buffers have grown.
func TestParseRowAllocs(t *testing.T) {
	p, err := newParser("t.csv", []string{"a", "b", "c", "split", "label"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := []string{"1.5", " -2e-3 ", "NA", "train", "1.0"}
	var b rows
	for range 4 {
		p.parse(rec, 2, &b)
	}
	allocs := testing.AllocsPerRun(1000, func() {
		b.reset()
		for range 4 {
			if err := p.parse(rec, 2, &b); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per 4 rows", allocs)
	}
	if b.labels[0] != "1" || b.x[1] != -2e-3 || b.x[2] == b.x[2] {
		t.Errorf("parsed %v %v", b.labels, b.x)
	}
}

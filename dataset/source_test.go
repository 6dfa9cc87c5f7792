package dataset

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// csvRecords reads input with encoding/csv alone, as the reader did
// before its fast path: the header, then each record with its line, and
// the error that ended it.
func csvRecords(input string, comma rune) (head []string, recs [][]string, lines []int, err error) {
	cr := csv.NewReader(strings.NewReader(input))
	cr.Comma = comma
	cr.FieldsPerRecord = -1
	head, err = cr.Read()
	if err != nil {
		return nil, nil, nil, err
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return head, recs, lines, nil
		}
		if err != nil {
			return head, recs, lines, err
		}
		line, _ := cr.FieldPos(0)
		recs = append(recs, rec)
		lines = append(lines, line)
	}
}

// sourceRecords reads input with csvSource, with a small buffer so that
// long lines cross it.
func sourceRecords(input string, comma rune) (head []string, recs [][]string, lines []int, err error) {
	src, err := newCSVSource(bufio.NewReaderSize(strings.NewReader(input), 4096), "t.csv", &Options{Delimiter: comma})
	if err != nil {
		return nil, nil, nil, err
	}
	head = src.Header()
	for {
		rec, line, err := src.Next()
		if err == io.EOF {
			return head, recs, lines, nil
		}
		if err != nil {
			return head, recs, lines, err
		}
		recs = append(recs, append([]string(nil), rec...))
		lines = append(lines, line)
	}
}

// sameAsCSV checks that csvSource reads input exactly as encoding/csv.
func sameAsCSV(t *testing.T, input string, comma rune) {
	t.Helper()
	h1, r1, l1, e1 := csvRecords(input, comma)
	h2, r2, l2, e2 := sourceRecords(input, comma)
	if len(h1) > 0 {
		h1[0] = strings.TrimPrefix(h1[0], "\ufeff")
	}
	if e1 != nil && h1 == nil {
		return // no header: newCSVSource's own errors
	}
	for _, f := range binaryMagics {
		if strings.HasPrefix(input, f.magic) {
			// A binary format's magic bytes, which the source refuses
			// where encoding/csv would read them as text.
			if h2 != nil || !errors.Is(e2, ErrUnsupported) {
				t.Fatalf("%q: source header %q, error %v; want %s refused", input, h2, e2, f.what)
			}
			return
		}
	}
	if !reflect.DeepEqual(h1, h2) || !reflect.DeepEqual(r1, r2) || !reflect.DeepEqual(l1, l2) {
		t.Fatalf("%q:\ncsv:    %q %q %v\nsource: %q %q %v", input, h1, r1, l1, h2, r2, l2)
	}
	if (e1 == nil) != (e2 == nil) {
		t.Fatalf("%q: csv error %v, source error %v", input, e1, e2)
	}
	if e1 != nil {
		// The same message as the reader gave before the fast path.
		if want := csvError("t.csv", e1).Error(); e2.Error() != want {
			t.Fatalf("%q: error %q, want %q", input, e2, want)
		}
	}
}

func TestCSVSourceMatchesEncodingCSV(t *testing.T) {
	long := strings.Repeat("1.25,", 3000) + "0"
	for _, in := range []string{
		"a,b\n1,2\n3,4\n",
		"a,b\n1,2\n3,4",
		"a,b\r\n1,2\r\n3,4\r\n",
		"a,b\r\n1,2\r\n3,4\r",
		"a,b\n\n1,2\n\n\n3,4\n\n",
		"\n\na,b\n1,2\n",
		"\ufeffa,b\n1,2\n",
		"a,b\n1, 2 \n 3 ,4\n",
		"a,b\n1,2,3\n4\n",
		"a,b\n1,\"2\"\n3,4\n",
		"a,b\n1,2\n\"x\ny\",3\n5,6\n",
		"a,b\n1,2\n3,x\"y\n5,6\n",
		"a,b\n1,2\n\"unterminated,3\n5,6\n",
		"\"a\nb\",c\n1,2\n3,4\n",
		"a,b\n1\r2,3\n",
		"a,b\n" + long + "\n" + long + "\n",
		"a,b\n,\n,,\n",
		"a\n1\n\n2\n",
		"a\n \n2\n",
	} {
		sameAsCSV(t, in, ',')
		sameAsCSV(t, strings.ReplaceAll(in, ",", ";"), ';')
		sameAsCSV(t, strings.ReplaceAll(in, ",", "\t"), '\t')
	}
	// Random tables from a small alphabet that hits every path.
	rnd := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"1", "2.5", "-3e2", ",", ",", ",", "\n", "\r\n", "\r", "\"", " ", "x", "", "NA"}
	for range 3000 {
		var b strings.Builder
		b.WriteString("a,b,c\n")
		for range rnd.IntN(40) {
			b.WriteString(alphabet[rnd.IntN(len(alphabet))])
		}
		sameAsCSV(t, b.String(), ',')
	}
}

func FuzzCSVSource(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "a,b\r\n1,\"2\n3\"\r\n", "a\n\n1\r", "a,b\n1,2\n3,x\"y\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sameAsCSV(t, s, ',')
	})
}

// The fast path's row estimate: within a few percent on a regular table.
func TestEstimateRows(t *testing.T) {
	var b strings.Builder
	b.WriteString("x,y,label\n")
	for i := range 10000 {
		fmt.Fprintf(&b, "%d.5,%d,%d\n", i, i%7, i%2)
	}
	src, err := newCSVSource(bufio.NewReader(strings.NewReader(b.String())), "t.csv", &Options{})
	if err != nil {
		t.Fatal(err)
	}
	src.size = int64(b.Len())
	for range 500 {
		if _, _, err := src.Next(); err != nil {
			t.Fatal(err)
		}
	}
	if n := src.estimateRows(500); n < 9000 || n > 12000 {
		t.Errorf("estimate %d rows, want about 10000", n)
	}
}

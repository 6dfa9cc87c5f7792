package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// withChunks runs f with the parallel reader switched on after from rows
// (-1: off, the sequential reader) in chunks of size bytes.
func withChunks(from, size int, f func()) {
	oldFrom, oldSize := chunkFrom, chunkSize
	chunkFrom, chunkSize = from, size
	defer func() { chunkFrom, chunkSize = oldFrom, oldSize }()
	f()
}

// readResult is what reading a table gave: the dataset and profile, or
// the error.
type readResult struct {
	d    *Dataset
	prof []ColumnProfile
	err  error
}

func readWith(input string, opt Options, profile bool) readResult {
	if profile {
		d, prof, err := DecodeProfile(strings.NewReader(input), "t.csv", opt, 5)
		return readResult{d, prof, err}
	}
	d, err := Read(strings.NewReader(input), "t.csv", opt)
	return readResult{d: d, err: err}
}

// sameResult fails unless a and b are the same table (values bit for
// bit) or the same error.
func sameResult(t *testing.T, what, input string, a, b readResult) {
	t.Helper()
	if (a.err == nil) != (b.err == nil) || a.err != nil && a.err.Error() != b.err.Error() {
		t.Fatalf("%s: error %v, sequential %v\ninput %q", what, b.err, a.err, input)
	}
	if a.err != nil {
		var ea, eb *Error
		if errors.As(a.err, &ea) != errors.As(b.err, &eb) || ea != nil && ea.Err != eb.Err {
			t.Fatalf("%s: error kinds differ: %#v vs %#v", what, a.err, b.err)
		}
		return
	}
	ra, ca := a.d.X.Dims()
	rb, cb := b.d.X.Dims()
	if ra != rb || ca != cb {
		t.Fatalf("%s: %dx%d, sequential %dx%d\ninput %q", what, rb, cb, ra, ca, input)
	}
	for i := range ra {
		for j := range ca {
			if x, y := a.d.X.At(i, j), b.d.X.At(i, j); math.Float64bits(x) != math.Float64bits(y) {
				t.Fatalf("%s: X[%d,%d] = %v, sequential %v\ninput %q", what, i, j, y, x, input)
			}
		}
	}
	da, db := *a.d, *b.d
	da.X, db.X = nil, nil
	if !reflect.DeepEqual(da, db) {
		t.Fatalf("%s: dataset\n%+v\nsequential\n%+v\ninput %q", what, db, da, input)
	}
	if !reflect.DeepEqual(a.prof, b.prof) {
		t.Fatalf("%s: profile\n%+v\nsequential\n%+v\ninput %q", what, b.prof, a.prof, input)
	}
}

// randomTable writes a random table exercising every path of the reader:
// number formats, missing tokens, blank lines, CRLF, a BOM, errors of
// every kind (rarely, so most tables read), quotes and text cells.
func randomTable(r *rand.Rand, rows int) (string, Options) {
	var opt Options
	cols := []string{}
	for k := range 1 + r.IntN(4) {
		cols = append(cols, fmt.Sprintf("x%d", k))
	}
	extra := []string{}
	if r.IntN(5) > 0 {
		extra = append(extra, "label")
	} else {
		opt.Unlabeled = r.IntN(2) == 0
		opt.LabelOptional = !opt.Unlabeled
	}
	if r.IntN(4) == 0 {
		extra = append(extra, "split")
	}
	if r.IntN(4) == 0 {
		extra = append(extra, "w")
		opt.Weight = "w"
	}
	if r.IntN(4) == 0 {
		extra = append(extra, "id")
		opt.ID = "id"
	}
	if r.IntN(5) == 0 {
		extra = append(extra, "drop")
		opt.Drop = []string{"drop"}
	}
	for _, e := range extra {
		k := r.IntN(len(cols) + 1)
		cols = append(cols[:k], append([]string{e}, cols[k:]...)...)
	}
	if r.IntN(3) == 0 {
		opt.AutoCategorical = true
	}
	if r.IntN(8) == 0 {
		opt.Categorical = []string{"x0"}
	}
	if r.IntN(4) == 0 {
		opt.NA = []string{"missing"}
	}
	sep := ","
	switch r.IntN(6) {
	case 0:
		sep = ";"
	case 1:
		sep = "\t"
	}
	eol := "\n"
	if r.IntN(3) == 0 {
		eol = "\r\n"
	}
	errRate := []int{0, 0, 200, 50, 10}[r.IntN(5)] // one bad cell in errRate
	var b strings.Builder
	if r.IntN(6) == 0 {
		b.WriteString("\ufeff")
	}
	b.WriteString(strings.Join(cols, sep))
	b.WriteString(eol)
	bad := func() bool { return errRate > 0 && r.IntN(errRate) == 0 }
	number := func() string {
		v := r.NormFloat64() * math.Pow(10, float64(r.IntN(9)-4))
		switch r.IntN(12) {
		case 0:
			return strconv.Itoa(r.IntN(2000) - 1000)
		case 1:
			return strconv.FormatFloat(v, 'e', r.IntN(18), 64)
		case 2:
			return strconv.FormatFloat(v, 'f', r.IntN(8), 64)
		case 3:
			return []string{"-0", "+0", "0.0", "-0.0e3", ".5", "5.", "+1.5", "1E2", "0x1p-2", "1_0"}[r.IntN(10)]
		case 4:
			return []string{"", "NA", "?", "nan", "null", "N/A", "<NA>", "#n/a", "missing", " NA "}[r.IntN(10)]
		case 5:
			return " " + strconv.FormatFloat(v, 'g', -1, 64) + " "
		case 6:
			return strconv.FormatFloat(v, 'g', 17, 64) + "1" // a long mantissa
		default:
			return strconv.FormatFloat(v, 'g', -1, 64)
		}
	}
	for i := range rows {
		if r.IntN(40) == 0 {
			b.WriteString([]string{"", " ", "  \t"}[r.IntN(3)])
			b.WriteString(eol)
		}
		cells := make([]string, len(cols))
		for j, c := range cols {
			switch c {
			case "label":
				cells[j] = []string{"0", "1", "1.0", "0", "0"}[r.IntN(5)]
				if bad() {
					cells[j] = []string{"NA", "2", ""}[r.IntN(3)]
				}
			case "split":
				cells[j] = []string{"train", "TEST", " valid", "train"}[r.IntN(4)]
			case "w":
				cells[j] = []string{"1", "0.5", "2e0", "3"}[r.IntN(4)]
				if bad() {
					cells[j] = []string{"-1", "x", "inf"}[r.IntN(3)]
				}
			case "id":
				cells[j] = fmt.Sprintf("r%d", i)
			case "drop":
				cells[j] = "zz"
			default:
				cells[j] = number()
				if bad() {
					cells[j] = []string{"abc", "1e999", "-inf", "red", "1.5.2"}[r.IntN(5)]
				}
			}
			if r.IntN(400) == 0 {
				cells[j] = `"` + cells[j] + `"`
			}
		}
		if bad() {
			cells = cells[:len(cells)-1] // ragged
		}
		b.WriteString(strings.Join(cells, sep))
		if i < rows-1 || r.IntN(2) == 0 {
			b.WriteString(eol)
		} else if r.IntN(4) == 0 {
			b.WriteString("\r")
		}
	}
	return b.String(), opt
}

// TestChunkedMatchesSequential reads random tables in parallel chunks of
// many sizes (boundaries falling everywhere) and compares every result
// and every error with the sequential reader's.
func TestChunkedMatchesSequential(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n := 1500
	if testing.Short() {
		n = 300
	}
	for it := range n {
		rows := []int{0, 1, 2, 3, 5, 20, 60, 150}[r.IntN(8)]
		input, opt := randomTable(r, rows)
		profile := it%3 == 0
		var want readResult
		withChunks(-1, chunkSize, func() { want = readWith(input, opt, profile) })
		for _, size := range []int{1, 2, 3, 5, 17, 64, 1 << 20} {
			from := r.IntN(4)
			opt.Workers = 1 + r.IntN(3)
			var got readResult
			withChunks(from, size, func() { got = readWith(input, opt, profile) })
			sameResult(t, fmt.Sprintf("table %d, chunks of %d bytes from row %d, %d workers", it, size, from, opt.Workers), input, want, got)
		}
	}
}

// TestChunkedFirstError: with bad cells in many chunks, the error is the
// first in file order, whichever worker meets its chunk first.
func TestChunkedFirstError(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b,label\n")
	for i := range 5000 {
		switch i {
		case 1200, 3000, 4500:
			fmt.Fprintf(&b, "%d,bad%d,1\n", i, i)
		case 2000:
			b.WriteString("1,2\n")
		default:
			fmt.Fprintf(&b, "%d,%d.5,%d\n", i, i, i%2)
		}
	}
	input := b.String()
	for _, size := range []int{64, 1000, 1 << 20} {
		for _, workers := range []int{1, 2, 4} {
			var err error
			withChunks(0, size, func() {
				_, err = Read(strings.NewReader(input), "t.csv", Options{Workers: workers})
			})
			want := `t.csv: line 1202, column "b": "bad1200": not a number`
			if err == nil || err.Error() != want || !errors.Is(err, ErrNotNumber) {
				t.Fatalf("chunks of %d, %d workers: error %v, want %s", size, workers, err, want)
			}
		}
	}
}

// errAfter reads r, then fails with err.
type errAfter struct {
	r   io.Reader
	err error
}

func (e *errAfter) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		return n, e.err
	}
	return n, err
}

// TestChunkedReadError: a read error part way is met where the
// sequential reader meets it, after the same rows.
func TestChunkedReadError(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	boom := errors.New("disk on fire")
	for range 200 {
		input, opt := randomTable(r, 40)
		cut := r.IntN(len(input) + 1)
		read := func() readResult {
			d, err := Read(&errAfter{strings.NewReader(input[:cut]), boom}, "t.csv", opt)
			return readResult{d: d, err: err}
		}
		var want, got readResult
		withChunks(-1, chunkSize, func() { want = read() })
		withChunks(r.IntN(3), 1+r.IntN(50), func() { got = read() })
		sameResult(t, "read error", input[:cut], want, got)
	}
}

// TestChunkedTruncatedGzip: a gzip stream cut short fails as the
// sequential reader fails on it, never reads as a shorter table.
func TestChunkedTruncatedGzip(t *testing.T) {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(numericCSV(3000, 4, 5)))
	zw.Close()
	for _, cut := range []int{z.Len() / 3, z.Len() / 2, z.Len() - 9} {
		read := func() readResult {
			d, err := Decode(bytes.NewReader(z.Bytes()[:cut]), "t.csv.gz", Options{Workers: 2})
			return readResult{d: d, err: err}
		}
		var want, got readResult
		withChunks(-1, chunkSize, func() { want = read() })
		withChunks(10, 512, func() { got = read() })
		if want.err == nil {
			t.Fatalf("cut at %d: the sequential reader read a truncated gzip stream", cut)
		}
		sameResult(t, fmt.Sprintf("gzip cut at %d", cut), "(gzip)", want, got)
	}
}

// TestChunkedLarge reads a table of many chunks on 1 to 3 workers, with
// a quote and a text cell late in the file (the rest is read
// sequentially from there), as the sequential reader does.
func TestChunkedLarge(t *testing.T) {
	text := numericCSV(20000, 8, 3)
	quoted := strings.Replace(text, "\n1", "\n\"1\"", 1)
	k := strings.LastIndex(text[:len(text)*3/4], "\n")
	textCell := text[:k+1] + "red" + text[k+1+strings.IndexByte(text[k+1:], ','):]
	for _, c := range []struct {
		name  string
		input string
		opt   Options
	}{
		{"numeric", text, Options{}},
		{"quoted", quoted, Options{}},
		{"text cell", textCell, Options{AutoCategorical: true}},
		{"text cell, not categorical", textCell, Options{}},
	} {
		for _, profile := range []bool{false, true} {
			var want readResult
			withChunks(-1, chunkSize, func() { want = readWith(c.input, c.opt, profile) })
			for _, w := range []int{1, 2, 3} {
				opt := c.opt
				opt.Workers = w
				var got readResult
				withChunks(estimateAfter, 4096, func() { got = readWith(c.input, opt, profile) })
				sameResult(t, fmt.Sprintf("%s, %d workers", c.name, w), "(large)", want, got)
			}
		}
	}
}

// numericCSV is a table of rows x cols normal draws in shortest form and
// a 0/1 label, as aer gen writes them.
func numericCSV(rows, cols int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, seed))
	var b bytes.Buffer
	for j := range cols {
		fmt.Fprintf(&b, "x%d,", j)
	}
	b.WriteString("label\n")
	buf := make([]byte, 0, 32)
	for range rows {
		for range cols {
			buf = strconv.AppendFloat(buf[:0], r.NormFloat64()*2, 'g', -1, 64)
			b.Write(buf)
			b.WriteByte(',')
		}
		if r.IntN(10) == 0 {
			b.WriteString("1\n")
		} else {
			b.WriteString("0\n")
		}
	}
	return b.String()
}

// BenchmarkReadNumeric loads a generated numeric table (200k rows x 20
// features and a label, 79 MB, as aer gen writes them) from a file;
// GOMAXPROCS (-cpu) sets the workers.
func BenchmarkReadNumeric(b *testing.B) {
	path := filepath.Join(b.TempDir(), "numeric.csv")
	text := []byte(numericCSV(200000, 20, 1))
	if err := os.WriteFile(path, text, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := Load(path, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzChunked: any input reads in parallel chunks (of the size and
// from the row the fuzzer picks) exactly as sequentially, table,
// profile or error.
func FuzzChunked(f *testing.F) {
	r := rand.New(rand.NewPCG(11, 12))
	for range 20 {
		input, _ := randomTable(r, 1+r.IntN(30))
		f.Add(input, uint8(r.IntN(64)), uint8(r.IntN(4)), r.IntN(2) == 0)
	}
	f.Add("a,b,label\n1,2,0\n3,4,1\n5,6,1\n", uint8(1), uint8(0), false)
	f.Add("a,b,label\r\n1,2,0\r\n3,\"4\",1\r\n5,6,1\r", uint8(3), uint8(1), true)
	f.Fuzz(func(t *testing.T, input string, size, from uint8, auto bool) {
		opt := Options{AutoCategorical: auto, LabelOptional: from%2 == 1, Workers: 2}
		var want readResult
		withChunks(-1, chunkSize, func() { want = readWith(input, opt, auto) })
		var got readResult
		withChunks(int(from%8), 1+int(size), func() { got = readWith(input, opt, auto) })
		sameResult(t, "fuzz", input, want, got)
	})
}

// BenchmarkParseChunk parses one chunk of a generated numeric table (as
// aer gen writes them: 20 features, a label) on one goroutine: the
// reader's work per byte, without the file, the join or the profile.
func BenchmarkParseChunk(b *testing.B) {
	text := numericCSV(700, 20, 1)
	header, body, _ := strings.Cut(text, "\n")
	p, err := newParser("bench", strings.Split(header, ","), Options{})
	if err != nil {
		b.Fatal(err)
	}
	w := p.chunkWorker()
	c := &chunk{buf: []byte(body), line: 1, eof: true}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		w.parseChunk(c, ',')
		if c.err != nil || c.seq || c.rows.n != 700 {
			b.Fatalf("parsed %d rows, err %v, seq %v", c.rows.n, c.err, c.seq)
		}
	}
}

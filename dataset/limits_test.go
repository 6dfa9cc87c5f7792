package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	w := gzip.NewWriter(&out)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestLineTooLong: a line past the limit (one huge line, or no line end
// at all) is an error naming its line, on the plain and the gzip path
// and through the streaming reader, instead of memory growing with it.
func TestLineTooLong(t *testing.T) {
	old := maxLine
	maxLine = 1 << 20
	defer func() { maxLine = old }()
	head := "a,b,label\n1,2,0\n3,4,1\n"
	long := []byte(head + strings.Repeat("7", 3<<20) + ",2,1\n5,6,0\n")
	for name, body := range map[string][]byte{
		"plain":    long,
		"gzip":     gz(t, long),
		"no ends":  bytes.Repeat([]byte{0}, 3<<20),
		"in quote": []byte(head + "\"" + strings.Repeat("x", 3<<20) + "\",1,0\n"),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Decode(bytes.NewReader(body), "t.csv", Options{})
			var de *Error
			if !errors.Is(err, ErrLineTooLong) || !errors.As(err, &de) {
				t.Fatalf("error %v", err)
			}
			want := 4
			if name == "no ends" {
				want = 1
			}
			if de.Line != want {
				t.Errorf("line %d, want %d: %v", de.Line, want, err)
			}
			s, err := NewStream(bytes.NewReader(body), "t.csv", Options{Classes: []string{"0", "1"}})
			if err == nil {
				_, err = s.Next(1000)
				for err == nil {
					_, err = s.Next(1000)
				}
			}
			if !errors.Is(err, ErrLineTooLong) {
				t.Errorf("streaming: %v", err)
			}
		})
	}
	// A line just under the limit reads.
	ok := head + "x" + strings.Repeat("y", 1<<19) + ",2,1\n"
	if _, err := Decode(strings.NewReader(ok), "t.csv", Options{AutoCategorical: true}); errors.Is(err, ErrLineTooLong) {
		t.Errorf("a line of half the limit: %v", err)
	}
}

// TestTruncatedGzip: a gzip stream cut anywhere after its header is a
// truncated file, not a short last line ("wrong number of fields").
func TestTruncatedGzip(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b,c,label\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "%d.%d,%d,%d,%d\n", i, i%7, i*31%1000, i%13, i%5/4)
	}
	z := gz(t, []byte(b.String()))
	for k := 1; k <= 33; k++ {
		cut := len(z) * k / 34
		_, err := Decode(bytes.NewReader(z[:cut]), "t.csv.gz", Options{})
		if !errors.Is(err, ErrTruncated) {
			t.Errorf("cut at %d of %d bytes: %v", cut, len(z), err)
		}
	}
}

// FuzzDecodeGzip: damaged gzip input is an error naming the file, never
// a panic; an intact stream reads as the table it holds.
func FuzzDecodeGzip(f *testing.F) {
	f.Add(gzForFuzz("a,b,label\n1,2,0\n3,4,1\n5,6,1\n"))
	f.Add(gzForFuzz("x;y;label\n1;2;0\n\"3\";4;1\n5;6;1\n"))
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, data []byte) {
		opt := Options{AutoCategorical: true, AllowOneClass: true}
		d, err := Decode(bytes.NewReader(data), "fuzz.csv.gz", opt)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.csv.gz") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
			return // not gzip: another target's input
		}
		zr, zerr := gzip.NewReader(bytes.NewReader(data))
		if zerr != nil {
			t.Fatalf("read a stream gzip refuses: %v", zerr)
		}
		plain, zerr := io.ReadAll(zr)
		if zerr != nil {
			t.Fatalf("read a stream gzip fails on: %v", zerr)
		}
		want, err := Decode(bytes.NewReader(plain), "fuzz.csv.gz", opt)
		if err != nil || want.Rows() != d.Rows() || !slices.Equal(want.Features, d.Features) {
			t.Fatalf("the decompressed text reads differently: %v", err)
		}
	})
}

func gzForFuzz(s string) []byte {
	var out bytes.Buffer
	w := gzip.NewWriter(&out)
	w.Write([]byte(s))
	w.Close()
	return out.Bytes()
}

// TestGzipTwice: a file compressed twice is named as such (the message
// told users to read it through a path ending in .gz, which they did).
func TestGzipTwice(t *testing.T) {
	twice := gz(t, gz(t, []byte("a,b,label\n1,2,0\n3,4,1\n5,6,1\n")))
	_, err := Decode(bytes.NewReader(twice), "t.csv.gz", Options{})
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "compressed twice") {
		t.Errorf("error %v", err)
	}
}

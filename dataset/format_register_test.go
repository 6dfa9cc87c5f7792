package dataset_test

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer/dataset"
)

// pipeRows reads a toy format: lines of cells separated by '|', the
// first line the header, after skip lines (the magic line).
type pipeRows struct {
	sc   *bufio.Scanner
	head []string
	line int
}

func openPipes(skip int) func(in dataset.Input) (dataset.RowSource, error) {
	return func(in dataset.Input) (dataset.RowSource, error) {
		p := &pipeRows{sc: bufio.NewScanner(in.R)}
		for range skip + 1 {
			if !p.sc.Scan() {
				return nil, &dataset.Error{File: in.Name, Err: dataset.ErrEmpty}
			}
		}
		p.head = strings.Split(p.sc.Text(), "|")
		p.line = 1
		return p, nil
	}
}

func (p *pipeRows) Header() []string { return p.head }

func (p *pipeRows) Next() ([]string, int, error) {
	if !p.sc.Scan() {
		if err := p.sc.Err(); err != nil {
			return nil, 0, err
		}
		return nil, 0, io.EOF
	}
	p.line++
	return strings.Split(p.sc.Text(), "|"), p.line, nil
}

func init() {
	// Registered from outside the package: one told by its magic bytes,
	// one by its file names' ending.
	dataset.RegisterFormat(dataset.Format{Name: "pipes", Magic: []byte("#pipes\n"), Open: openPipes(1)})
	dataset.RegisterFormat(dataset.Format{Name: "psv", Extensions: []string{".psv"}, Open: openPipes(0)})
}

// TestRegisteredFormat: a format registered outside the package is read
// by Load (and so by every command) to the same table as the CSV file
// of the same cells, chosen by its magic bytes, by its extension, or by
// name (Options.Format).
func TestRegisteredFormat(t *testing.T) {
	dir := t.TempDir()
	csv := "x,color,label\n1.5,red,a\n2,blue,b\n,red,a\n4,red,b\n5,blue,a\n"
	pipes := strings.ReplaceAll(csv, ",", "|")
	files := map[string]string{"t.csv": csv, "t.pipes": "#pipes\n" + pipes, "t.psv": pipes, "t.txt": pipes}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	opt := dataset.Options{AutoCategorical: true}
	want, err := dataset.Load(filepath.Join(dir, "t.csv"), opt)
	if err != nil {
		t.Fatal(err)
	}
	forced := opt
	forced.Format = "psv"
	for _, c := range []struct {
		file string
		opt  dataset.Options
	}{{"t.pipes", opt}, {"t.psv", opt}, {"t.txt", forced}} {
		got, err := dataset.Load(filepath.Join(dir, c.file), c.opt)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if !slices.Equal(got.Features, want.Features) || !slices.Equal(got.Classes, want.Classes) || !slices.Equal(got.Y, want.Y) ||
			got.Rows() != want.Rows() || got.Missing() != 1 {
			t.Errorf("%s: features %q classes %q y %v, want %q %q %v", c.file, got.Features, got.Classes, got.Y, want.Features, want.Classes, want.Y)
		}
		for i := range got.Rows() {
			for j := range got.Cols() {
				if a, b := got.X.At(i, j), want.X.At(i, j); a != b && !(a != a && b != b) {
					t.Fatalf("%s: cell %d,%d is %v, want %v", c.file, i, j, a, b)
				}
			}
		}
	}
	// Without the format named, a .txt file of pipes is CSV: one column.
	if _, err := dataset.Load(filepath.Join(dir, "t.txt"), opt); err == nil {
		t.Error("a file of pipes named .txt read as a table of three columns")
	}
	if !slices.Contains(dataset.Formats(), "pipes") || !slices.Contains(dataset.Formats(), "parquet") {
		t.Errorf("formats %q", dataset.Formats())
	}
	bad := opt
	bad.Format = "xlsx"
	if _, err := dataset.Load(filepath.Join(dir, "t.csv"), bad); !errors.Is(err, dataset.ErrUnsupported) {
		t.Errorf("an unknown format: %v", err)
	}
}

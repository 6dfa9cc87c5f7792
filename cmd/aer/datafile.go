package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	aerlib "github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/ctxio"
)

// predictBatch is the number of rows aer predict reads, scores and writes
// at a time: memory is bounded by it, not by the size of the file.
var predictBatch = 4096 // a variable for tests

// dataFile is an open data file (see openData).
type dataFile struct {
	r    io.Reader
	name string // base name, for error messages
	stem string // name without extension, as a Dataset is named
	path string
	f    *os.File
}

func (d *dataFile) Close() error {
	if d.f != nil {
		return d.f.Close()
	}
	return nil
}

// stdinKey keys a replacement of the standard input in a context.
type stdinKey struct{}

// withStdin returns ctx carrying r as the standard input of the commands
// run with it (tests feed "-" this way); without it, os.Stdin.
func withStdin(ctx context.Context, r io.Reader) context.Context {
	return context.WithValue(ctx, stdinKey{}, r)
}

// stdinOf returns the standard input of ctx: withStdin's reader, else
// os.Stdin.
func stdinOf(ctx context.Context) io.Reader {
	if r, ok := ctx.Value(stdinKey{}).(io.Reader); ok {
		return r
	}
	return os.Stdin
}

// openData opens the data file at path; "-" is the standard input (named
// stdin in messages).
func openData(ctx context.Context, path string) (*dataFile, error) {
	// Reads stop when ctx is done (Ctrl-C or SIGTERM during a long read).
	if path == "-" {
		return &dataFile{r: ctxio.NewReader(ctx, stdinOf(ctx)), name: "stdin", stem: "stdin", path: path}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &dataFile{r: ctxio.NewFile(ctx, f), name: filepath.Base(path), stem: dataset.Stem(path), path: path, f: f}, nil
}

// loadData reads the whole table at path ("-": the standard input, named
// stdin): CSV, gzip-compressed CSV, Parquet or another registered format,
// named as dataset.Load names it. Reads stop when ctx is done (Ctrl-C
// during a long read), and report their bytes when ctx asks
// (withReadProgress).
func loadData(ctx context.Context, path string, opt dataset.Options) (*dataset.Dataset, error) {
	if path == "-" {
		r := ctxio.NewReader(ctx, stdinOf(ctx))
		var end func()
		r.Progress, end = readProgress(ctx, "stdin", 0)
		d, err := dataset.Decode(r, "stdin", opt)
		if err != nil {
			return nil, err
		}
		end()
		d.Name = "stdin"
		return d, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var size int64
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	r := ctxio.NewFile(ctx, f)
	var end func()
	r.Progress, end = readProgress(ctx, filepath.Base(path), size)
	d, err := dataset.Decode(r, filepath.Base(path), opt)
	if err != nil {
		return nil, err
	}
	end()
	d.Name = dataset.Stem(path)
	return d, nil
}

// readTable is loadData's table, for the library's calls.
func readTable(ctx context.Context, path string, opt dataset.Options) (*aerlib.Table, error) {
	d, err := loadData(ctx, path, opt)
	if err != nil {
		return nil, err
	}
	return aerlib.TableOf(d), nil
}

// oneStdin is a usage error when more than one of the named inputs is
// "-": the standard input can be read once.
func oneStdin(cmd string, inputs ...input) error {
	var named []string
	for _, in := range inputs {
		if in.path == "-" {
			named = append(named, in.flag)
		}
	}
	if len(named) > 1 {
		return usageErrorf("%s: %s are all - (standard input); only one input can be read from it", cmd, strings.Join(named, " and "))
	}
	return nil
}

package dataset

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

// Format is an input format of tables: how a table in it is recognised
// and how its rows are read. Decode, Load, Stream and DecodeProfile (and
// so every command that reads a table) read every registered format; the
// rows a format yields go through the one parser every format shares, so
// a table reads to the same Dataset from any of them. CSV, gzip-compressed
// CSV and Parquet are registered by this package (format_csv.go,
// format_gzip.go, format_parquet.go); RegisterFormat adds one.
type Format struct {
	// Name names the format, as Options.Format names it ("csv",
	// "csv.gz", "parquet"); unique.
	Name string
	// Magic are the bytes a table in the format starts with; a table
	// starting with them is read in this format whatever its name.
	Magic []byte
	// Extensions are the endings of the file names of the format
	// (".parquet"). A format without Magic is chosen by them: a table
	// whose name ends with one of them and whose first bytes match no
	// format's Magic. A format with Magic is chosen by its Magic only.
	Extensions []string
	// Open returns the rows of the table in. It reads in.R from the
	// table's start (the first bytes peeked, not consumed).
	Open func(in Input) (RowSource, error)
}

// Input is the table a Format's Open reads.
type Input struct {
	// R reads the table from its start.
	R *bufio.Reader
	// File is the file R reads, when the table was given as a File (an
	// *os.File read from the table's start), for a format read at
	// offsets; nil for a stream. Its position is past what R buffered.
	File File
	// Name names the table in errors (the file's base name).
	Name string
	// Options are the reader's options (Delimiter, for a text format).
	Options *Options
}

// DefaultFormat is the format of a table that no format's Magic or
// Extensions claim: CSV.
const DefaultFormat = "csv"

var (
	formatsMu sync.RWMutex
	formats   []Format
)

// RegisterFormat adds f to the formats every table reader knows. It is
// meant for init functions and panics, as a programming error, when f
// has no Name or Open, or its Name or Magic is already registered.
func RegisterFormat(f Format) {
	formatsMu.Lock()
	defer formatsMu.Unlock()
	if f.Name == "" || f.Open == nil {
		panic("dataset: RegisterFormat: a format needs a Name and an Open function")
	}
	for _, g := range formats {
		if g.Name == f.Name {
			panic("dataset: RegisterFormat: format " + f.Name + " registered twice")
		}
		if len(f.Magic) > 0 && bytes.Equal(g.Magic, f.Magic) {
			panic(fmt.Sprintf("dataset: RegisterFormat: formats %s and %s have the same magic bytes %q", g.Name, f.Name, f.Magic))
		}
	}
	f.Magic, f.Extensions = slices.Clone(f.Magic), slices.Clone(f.Extensions)
	formats = append(formats, f)
}

// Formats returns the registered formats' names, in registration order.
func Formats() []string {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.Name
	}
	return names
}

// formatOf returns the format of the table named name whose first bytes
// are head: the format named forced (Options.Format) when set, else the format whose Magic head starts
// with, else a format without Magic whose Extensions end name, else
// DefaultFormat.
func formatOf(head []byte, name, forced string) (Format, error) {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	find := func(name string) (Format, bool) {
		for _, f := range formats {
			if f.Name == name {
				return f, true
			}
		}
		return Format{}, false
	}
	if forced != "" {
		f, ok := find(forced)
		if !ok {
			names := make([]string, len(formats))
			for i, f := range formats {
				names[i] = f.Name
			}
			return Format{}, &Error{File: name, Err: ErrUnsupported, Detail: fmt.Sprintf("no format named %q (known: %s)", forced, strings.Join(names, ", "))}
		}
		return f, nil
	}
	for _, f := range formats {
		if len(f.Magic) > 0 && bytes.HasPrefix(head, f.Magic) {
			return f, nil
		}
	}
	lower := strings.ToLower(name)
	for _, f := range formats {
		if len(f.Magic) == 0 && slices.ContainsFunc(f.Extensions, func(ext string) bool { return strings.HasSuffix(lower, strings.ToLower(ext)) }) {
			return f, nil
		}
	}
	f, _ := find(DefaultFormat)
	return f, nil
}

// maxMagic is the most bytes formatOf looks at.
const maxMagic = 64

// openSource returns the row source of the table at the start of r, in
// the format formatOf chooses for it.
func openSource(r io.Reader, name string, opt *Options) (RowSource, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, _ := br.Peek(maxMagic)
	f, err := formatOf(head, name, opt.Format)
	if err != nil {
		return nil, err
	}
	in := Input{R: br, Name: name, Options: opt}
	if file, ok := r.(File); ok {
		in.File = file
	}
	return f.Open(in)
}

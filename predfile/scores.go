package predfile

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/ctxio"
)

// Scores is a table of one score per dataset and method, such as the
// balanced accuracy of several methods across several datasets: the input
// of a Friedman test. Values[i][j] is the score of Methods[j] on
// Datasets[i].
type Scores struct {
	Datasets []string
	Methods  []string
	Values   [][]float64
}

// LoadScores reads a scores table from the file at path. See ReadScores.
func LoadScores(path string) (*Scores, error) {
	return LoadScoresContext(context.Background(), path)
}

// LoadScoresContext is LoadScores whose reading stops with ctx's error
// when ctx is done.
func LoadScoresContext(ctx context.Context, path string) (*Scores, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadScores(bufio.NewReader(ctxio.NewFile(ctx, f)), filepath.Base(path))
}

// scoresError is an error of ReadScores: its message, and the sentinel
// error it wraps for errors.Is.
type scoresError struct {
	msg string
	err error
}

func (e *scoresError) Error() string { return e.msg }
func (e *scoresError) Unwrap() error { return e.err }

// ReadScores reads a scores table from r; name (usually the file name)
// prefixes error messages. The table is CSV with a header row: a first
// column naming the dataset (its header is free), then one column per
// method, named, each cell a finite number. It needs at least 2 methods
// and 2 datasets. Errors name the line, the column and the value, and wrap
// the sentinel errors of package dataset (dataset.ErrEmpty, ErrColumns,
// ErrEmptyName, ErrDuplicate, ErrRagged, ErrNotNumber, ErrInfinite,
// ErrNoRows).
func ReadScores(r io.Reader, name string) (*Scores, error) {
	fail := func(sentinel error, format string, a ...any) error {
		return &scoresError{msg: name + ": " + fmt.Sprintf(format, a...), err: sentinel}
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fail(dataset.ErrEmpty, "empty file: no header row")
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(header) < 3 {
		return nil, fail(dataset.ErrColumns, "line 1: need a dataset column and at least 2 method columns, got %d columns", len(header))
	}
	s := &Scores{Methods: make([]string, len(header)-1)}
	seen := map[string]bool{}
	for j, h := range header[1:] {
		h = strings.TrimSpace(h)
		if h == "" {
			return nil, fail(dataset.ErrEmptyName, "line 1, column %d: empty method name", j+2)
		}
		if seen[h] {
			return nil, fail(dataset.ErrDuplicate, "line 1: method %q appears twice", h)
		}
		seen[h] = true
		s.Methods[j] = h
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			return nil, fail(dataset.ErrRagged, "line %d: %d fields, the header has %d", line, len(rec), len(header))
		}
		row := make([]float64, len(s.Methods))
		for j, cell := range rec[1:] {
			cell = strings.TrimSpace(cell)
			v, perr := strconv.ParseFloat(cell, 64)
			if perr != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				sentinel := dataset.ErrNotNumber
				if math.IsInf(v, 0) {
					sentinel = dataset.ErrInfinite
				}
				return nil, fail(sentinel, "line %d, column %q: %q is not a finite number", line, s.Methods[j], cell)
			}
			row[j] = v
		}
		s.Datasets = append(s.Datasets, strings.TrimSpace(rec[0]))
		s.Values = append(s.Values, row)
	}
	if len(s.Values) < 2 {
		return nil, fail(dataset.ErrNoRows, "need at least 2 datasets (rows), got %d", len(s.Values))
	}
	return s, nil
}

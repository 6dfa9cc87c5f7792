package dataset

import (
	"fmt"
	"io"
)

// Stream reads a table a batch of rows at a time, so a file larger than
// memory can be scored: memory is bounded by the batch size. Each batch is
// parsed exactly as Read parses the whole file (the same cells give the
// same values and the same errors), with two differences: the label
// values must be known in advance (Options.Classes, as a model's schema
// fixes them), and the per-file class checks of Read (a single class,
// fewer than two positive rows) do not apply.
type Stream struct {
	src   RowSource
	p     *parser
	b     rows
	total int
	eof   bool
	// classes are Options.Classes.
	classes []string
}

// NewStream reads the header of the table at the start of r (CSV,
// gzip-compressed CSV or Parquet, as Decode reads them) and returns a
// Stream over its rows; name prefixes error messages. A stream of a
// labelled file needs opt.Classes.
func NewStream(r io.Reader, name string, opt Options) (*Stream, error) {
	src, err := openSource(r, name, &opt)
	if err != nil {
		return nil, err
	}
	return newStream(src, name, opt)
}

func newStream(src RowSource, name string, opt Options) (*Stream, error) {
	opt.AllowOneClass = true
	// Categories read from data need the whole file: a stream encodes
	// only the fixed lists of opt.Categories.
	opt.AutoCategorical, opt.Categorical = false, nil
	p, err := newParser(name, src.Header(), opt)
	if err != nil {
		return nil, err
	}
	if p.labelCol >= 0 && !fixedClasses(opt.Classes) {
		return nil, fmt.Errorf("%s: reading in batches needs the label values fixed in advance (Options.Classes)", name)
	}
	return &Stream{src: src, p: p, classes: opt.Classes}, nil
}

// Features returns the feature names, in file order, a categorical column
// replaced by its one-hot features.
func (s *Stream) Features() []string {
	var names []string
	for k, f := range s.p.features {
		if c := s.p.cats[k]; c != nil {
			names = append(names, Category{Column: f, Values: c.values}.Names()...)
		} else {
			names = append(names, f)
		}
	}
	return names
}

// Unseen returns, per fixed categorical column (Options.Categories in
// file order), the cells so far whose value the list lacks.
func (s *Stream) Unseen() []int { return s.p.unseen() }

// Categories returns the fixed categorical columns the file has, in file
// order.
func (s *Stream) Categories() []Category {
	var cats []Category
	for k, c := range s.p.cats {
		if c != nil {
			cats = append(cats, Category{Column: s.p.features[k], Values: c.values})
		}
	}
	return cats
}

// IDColumn returns the name of the ID column the file has, or "".
func (s *Stream) IDColumn() string {
	if s.p.idCol < 0 {
		return ""
	}
	return s.p.header[s.p.idCol]
}

// Classes returns the label values the stream was given
// (Options.Classes, in class order: [0] negative, [1] positive for two),
// labelled or not, so that what is predicted for its rows can be written
// in them.
func (s *Stream) Classes() []string { return s.classes }

// fixedClasses tells whether classes fix a table's label values: three or
// more, or two not both empty.
func fixedClasses(classes []string) bool {
	return len(classes) > 2 || len(classes) == 2 && (classes[0] != "" || classes[1] != "")
}

// Labelled reports whether the file has a label column.
func (s *Stream) Labelled() bool { return s.p.labelCol >= 0 }

// Next returns the next batch of at most n rows (n >= 1) as a Dataset, or
// io.EOF after the last row. A file with no data rows fails with ErrNoRows
// on the first call. The batch's storage is reused by the next call:
// copy what must outlive it.
func (s *Stream) Next(n int) (*Dataset, error) {
	if s.eof {
		return nil, io.EOF
	}
	n = max(n, 1)
	s.b.reset()
	for s.b.n < n {
		rec, line, err := s.src.Next()
		if err == io.EOF {
			s.eof = true
			break
		}
		if err != nil {
			return nil, err
		}
		if err := s.p.parse(rec, line, &s.b); err != nil {
			return nil, err
		}
	}
	if s.b.n == 0 {
		if s.total == 0 {
			return nil, s.p.fail(0, "", "", ErrNoRows, "")
		}
		return nil, io.EOF
	}
	s.total += s.b.n
	d, err := s.p.dataset(&s.b)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// Rows returns the number of rows the batches so far held.
func (s *Stream) Rows() int { return s.total }

package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/modelfile"
)

// predictBatch is the number of rows aer predict reads, scores and writes
// at a time: memory is bounded by it, not by the size of the file.
var predictBatch = 4096 // a variable for tests

// scoreOptions are the reading options of data scored with a model of
// schema s: its label when present (with the model's classes), its weight
// column and dropped columns ignored.
func scoreOptions(s *modelfile.Schema) dataset.Options {
	return dataset.Options{
		Label: s.Label, Classes: s.Classes, LabelOptional: true, AllowOneClass: true,
		Weight: s.Weight, WeightOptional: true, Drop: s.Drop,
	}
}

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

// openData opens the data file at path.
func openData(path string) (*dataFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &dataFile{r: f, name: filepath.Base(path), stem: dataset.Stem(path), path: path, f: f}, nil
}

// streamFor opens the data at path to score with a model of header h in
// batches, checking its columns against the model first.
func streamFor(path string, h *modelfile.Header, modelPath string) (*dataset.Stream, *dataFile, error) {
	df, err := openData(path)
	if err != nil {
		return nil, nil, err
	}
	s, err := dataset.NewStream(df.r, df.name, scoreOptions(&h.Schema))
	if err != nil {
		df.Close()
		return nil, nil, err
	}
	if err := dataset.MatchColumns(df.stem, s.Features(), h.Schema.Features); err != nil {
		df.Close()
		return nil, nil, fmt.Errorf("%s does not fit model %s: %w", path, modelPath, err)
	}
	return s, df, nil
}

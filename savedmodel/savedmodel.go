package savedmodel

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/modelfile"
)

// Where a model's decision threshold comes from, as Model.ThresholdFrom
// reports it.
const (
	// FromDecisionLayer: chosen on validation rows by aer fit.
	FromDecisionLayer = "decision-layer"
	// FromMethod: tuned by the method itself (a learn.Thresholder, such
	// as AER's delta).
	FromMethod = "method"
	// FromDefault: neither, so 0.5.
	FromDefault = "default"
)

// Model is a loaded model file.
type Model struct {
	// Header is the file's header: method, schema, fit configuration.
	Header *modelfile.Header
	// Model scores rows (features in Header.Schema.Features order),
	// behind the decision layer when there is one.
	Model learn.Model
	// Layer is the decision layer, nil when the file has none.
	Layer *decision.Layer
	// Checksum is the file's SHA-256 checksum (of everything before it),
	// in hexadecimal, as stored at the end of the file and verified.
	Checksum string
}

// Threshold returns the threshold at which a score predicts the positive
// class, and where it comes from: the decision layer's, else the one the
// method tuned, else 0.5 (see FromDecisionLayer, FromMethod, FromDefault).
func (m *Model) Threshold() (t float64, from string) {
	t, tuned := learn.TunedThreshold(m.Model)
	switch {
	case m.Layer != nil:
		from = FromDecisionLayer
	case tuned:
		from = FromMethod
	default:
		from = FromDefault
	}
	if !tuned {
		t = 0.5
	}
	return t, from
}

// Load reads the model file at path; errors name the file.
func Load(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads a model file from r; name (usually the file's path) prefixes
// error messages.
func Read(r io.Reader, name string) (*Model, error) {
	// Check the magic bytes before reading the rest, so that a data file
	// or a device given as a model is refused at once, not read whole.
	head := make([]byte, len(modelfile.Magic))
	n, err := io.ReadFull(r, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if n < len(head) || string(head) != modelfile.Magic {
		_, _, derr := modelfile.Decode(bytes.NewReader(head[:n]))
		return nil, fmt.Errorf("%s: %w", name, derr)
	}
	rest, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	data := append(head, rest...)
	h, payload, err := modelfile.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	m, err := learn.New(h.Method)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	model, err := m.Load(payload)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if model.NumFeatures() != len(h.Schema.Features) {
		return nil, fmt.Errorf("%s: the %s model has %d features, its header names %d", name, h.Method, model.NumFeatures(), len(h.Schema.Features))
	}
	// Decode verified the checksum, so the last bytes are it.
	out := &Model{Header: h, Model: model, Checksum: hex.EncodeToString(data[len(data)-sha256.Size:])}
	if len(h.Decision) > 0 {
		var l decision.Layer
		dec := json.NewDecoder(bytes.NewReader(h.Decision))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			return nil, fmt.Errorf("%s: decision layer: %w", name, err)
		}
		if err := l.Check(); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out.Model, out.Layer = decision.Attach(model, &l), &l
	}
	return out, nil
}

// ReadOptions are the options for reading data to score with a model of
// schema s, the same for aer predict, explain and serve: the label when
// the data has it (with the model's classes, one class allowed), the
// weight, dropped and id columns recognised and left out of the
// features, categorical columns encoded with the model's value lists.
func ReadOptions(s *modelfile.Schema) dataset.Options {
	var cats []dataset.Category
	for _, c := range s.Categories {
		cats = append(cats, dataset.Category{Column: c.Column, Values: c.Values})
	}
	return dataset.Options{
		Label: s.Label, Classes: s.Classes, LabelOptional: true, AllowOneClass: true,
		Weight: s.Weight, WeightOptional: true, Drop: s.Drop, ID: s.ID,
		Categories: cats,
	}
}

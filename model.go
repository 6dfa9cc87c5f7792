package aer

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/modelfile"
	"github.com/aer-go/aer/savedmodel"
	"github.com/aer-go/aer/serve"
)

// Model is a fitted model with its schema: the columns it was fitted on
// (features, categories and their values, label and classes, id, weight
// and dropped columns), its decision threshold and, for a model Fit
// returned, the fit's report. It scores and explains tables by column
// name, and saves to the file aer fit writes (and aer predict, aer serve
// and Load read). A Model is safe for concurrent use.
type Model struct {
	header *modelfile.Header
	model  learn.Model     // behind the decision layer when there is one
	layer  *decision.Layer // nil without one
	sum    string          // the file's checksum, once read or written
	report *FitReport      // nil for a model read from a file
}

// Load reads the model file at path, as aer predict does; errors name the
// file and what is wrong with it.
func Load(path string) (*Model, error) {
	s, err := savedmodel.Load(path)
	if err != nil {
		return nil, err
	}
	return fromSaved(s), nil
}

// ReadModel reads a model file from r; name prefixes error messages.
func ReadModel(r io.Reader, name string) (*Model, error) {
	s, err := savedmodel.Read(r, name)
	if err != nil {
		return nil, err
	}
	return fromSaved(s), nil
}

func fromSaved(s *savedmodel.Model) *Model {
	return &Model{header: s.Header, model: s.Model, layer: s.Layer, sum: s.Checksum}
}

// payload is the method's encoding of the model, without the decision
// layer (kept in the header).
func (m *Model) payload() ([]byte, error) {
	b, err := decision.Detach(m.model).MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("encoding the model: %w", err)
	}
	return b, nil
}

// WriteTo writes the model file (the bytes aer fit writes) to w.
func (m *Model) WriteTo(w io.Writer) (int64, error) {
	p, err := m.payload()
	if err != nil {
		return 0, err
	}
	var buf bytes.Buffer
	if err := modelfile.Encode(&buf, m.header, p); err != nil {
		return 0, err
	}
	return buf.WriteTo(w)
}

// Save writes the model file to path: to a temporary file in the same
// folder first, renamed over path once complete, so a failure leaves an
// existing file untouched. It stops with ctx's error when ctx is
// cancelled before the rename.
func (m *Model) Save(ctx context.Context, path string) error {
	p, err := m.payload()
	if err != nil {
		return err
	}
	return modelfile.SaveContext(ctx, path, m.header, p)
}

// Method is the name of the method that fitted the model.
func (m *Model) Method() string { return m.header.Method }

// Schema is the layout of the data the model was fitted on.
func (m *Model) Schema() dataset.Schema { return m.header.Schema }

// Header is the model file's header: method, schema, fit configuration,
// decision layer, producer.
func (m *Model) Header() *modelfile.Header { return m.header }

// Learned is the fitted learn.Model behind the schema: it scores rows of
// features in Schema().Features order (behind the decision layer when
// there is one).
func (m *Model) Learned() learn.Model { return m.model }

// Layer is the decision layer fitted on validation rows, nil without one.
func (m *Model) Layer() *decision.Layer { return m.layer }

// Report is what the fit found; nil for a model read from a file.
func (m *Model) Report() *FitReport { return m.report }

// Threshold returns the threshold at which a score predicts the positive
// class and where it comes from (savedmodel.FromDecisionLayer,
// FromMethod or FromDefault).
func (m *Model) Threshold() (float64, string) { return m.saved().Threshold() }

// saved returns the model as package savedmodel holds a loaded file.
func (m *Model) saved() *savedmodel.Model {
	return &savedmodel.Model{Header: m.header, Model: m.model, Layer: m.layer, Checksum: m.sum}
}

// Handler returns an http.Handler serving the model under name with aer
// serve's routes (/v1/predict, /v1/models, /healthz, /metrics, ...; see
// package serve), to mount in a program's own server. opt may be nil
// for the defaults.
func (m *Model) Handler(name string, opt *serve.Options) (http.Handler, error) {
	s := m.saved()
	if s.Checksum == "" {
		var buf bytes.Buffer
		if _, err := m.WriteTo(&buf); err != nil {
			return nil, err
		}
		read, err := savedmodel.Read(&buf, name)
		if err != nil {
			return nil, err
		}
		s.Checksum = read.Checksum
	}
	return serve.New([]serve.Spec{{Name: name, Path: name, Model: s}}, opt)
}

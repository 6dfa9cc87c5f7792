package aer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/decompose"
	"github.com/aer-go/aer/density"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/modelfile"
)

// Model is a fitted model with its schema: the columns it was fitted on
// (features, categories and their values, label and classes, id, weight
// and dropped columns), its decision threshold and, for a model Fit
// returned, the fit's report. It scores and explains tables by column
// name, and saves to the file aer fit writes (and aer predict, aer serve
// and Load read). A Model is safe for concurrent use.
type Model struct {
	header *modelfile.Header
	// model is the fitted model: of two classes a learn.Scorer, behind
	// the decision layer when there is one.
	model learn.Model
	// layer is the decision (header.Decision): of two classes the
	// calibration and threshold, nil without them; of three or more the
	// class weights or cost matrix, never nil.
	layer *decision.Layer
	// density is the out-of-distribution density of a model without a
	// score of its own (header.OOD): of two classes also in model's
	// chain (density.Wrap), of three or more here alone; nil without one.
	density *density.Model
	sum     string     // the file's checksum, once read or computed
	once    sync.Once  // computes sum
	report  *FitReport // nil for a model read from a file
}

// Where a model's decision threshold comes from, as Model.Threshold
// reports it.
const (
	// FromDecisionLayer: chosen on validation rows by the fit's decision
	// layer.
	FromDecisionLayer = "decision-layer"
	// FromMethod: tuned by the method itself (a learn.Thresholder, such
	// as AER's delta).
	FromMethod = "method"
	// FromDefault: neither, so 0.5.
	FromDefault = "default"
	// FromArgmax: a multi-class model predicts each row's most probable
	// class; it has no threshold.
	FromArgmax = "argmax"
)

// Load reads the model file at path, as aer predict, aer explain and aer
// serve do; errors name the file and what is wrong with it.
func Load(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadModel(f, path)
}

// ReadModel reads a model file from r; name (usually the file's path)
// prefixes error messages. The container is checked by package modelfile
// (magic, version, checksum), the payload decoded by the method
// registered under the header's method name, and the decision layer, when
// the file has one, attached in front of the model: every program of
// aer reads model files through this one path, so a file scores the same
// everywhere, at the same threshold.
func ReadModel(r io.Reader, name string) (*Model, error) {
	if err := readerGiven(r, name); err != nil {
		return nil, err
	}
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
	method, err := learn.New(h.Method)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	dens, err := readDensity(h)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if h.Multiclass != "" || h.Schema.NumClasses() > 2 {
		mm, err := loadClasses(h, method, payload)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		var l decision.Layer
		dec := json.NewDecoder(bytes.NewReader(h.Decision))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			return nil, fmt.Errorf("%s: multi-class decision: %w", name, err)
		}
		if err := l.Check(); err != nil || l.Weights == nil || len(l.Weights) != mm.NumClasses() {
			return nil, fmt.Errorf("%s: multi-class decision of %d weights for %d classes (%v)", name, len(l.Weights), mm.NumClasses(), err)
		}
		return &Model{header: h, model: mm, layer: &l, density: dens, sum: hex.EncodeToString(data[len(data)-sha256.Size:])}, nil
	}
	model, err := method.Load(payload)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if model.NumFeatures() != len(h.Schema.Features) {
		return nil, fmt.Errorf("%s: the %s model has %d features, its header names %d", name, h.Method, model.NumFeatures(), len(h.Schema.Features))
	}
	if dens != nil {
		model = density.Wrap(model, dens)
	}
	// Decode verified the checksum, so the last bytes are it.
	out := &Model{header: h, model: model, density: dens, sum: hex.EncodeToString(data[len(data)-sha256.Size:])}
	if len(h.Decision) > 0 {
		if bytes.Equal(bytes.TrimSpace(h.Decision), []byte("null")) {
			return nil, fmt.Errorf("%s: decision layer: null (a file without a layer has no \"decision\" key)", name)
		}
		var l decision.Layer
		dec := json.NewDecoder(bytes.NewReader(h.Decision))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			return nil, fmt.Errorf("%s: decision layer: %w", name, err)
		}
		if err := l.Check(); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if l.Weights != nil {
			return nil, fmt.Errorf("%s: decision layer: class weights for a two-class model", name)
		}
		out.model, out.layer = decision.Attach(model, &l), &l
	}
	return out, nil
}

// readDensity returns the out-of-distribution density h holds (nil
// when it has none), checked against h's features.
func readDensity(h *modelfile.Header) (*density.Model, error) {
	if len(h.OOD) == 0 {
		return nil, nil
	}
	d, err := density.Decode(h.OOD)
	if err != nil {
		return nil, err
	}
	if d.Dim() != len(h.Schema.Features) {
		return nil, fmt.Errorf("%w: it reads %d features, the header names %d", density.ErrCorrupt, d.Dim(), len(h.Schema.Features))
	}
	return d, nil
}

// OOD returns what scores the model's rows for being out of
// distribution, with its threshold: the density fitted beside a model
// without a score of its own (a *density.Model), or an AER model's own
// score (its majority mixture); false for a model with neither (a file written
// before they existed, or a fit with Settings.NoOODDensity).
func (m *Model) OOD() (learn.OODScorer, bool) {
	if m.usable() != nil {
		return nil, false
	}
	if m.density != nil {
		return m.density, true
	}
	return learn.OODOf(m.model)
}

// payload is the method's encoding of the model, without the decision
// layer (kept in the header).
func (m *Model) payload() ([]byte, error) {
	s := m.scorer()
	if s == nil {
		return m.model.MarshalBinary()
	}
	b, err := decision.Detach(s).MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("encoding the model: %w", err)
	}
	return b, nil
}

// WriteTo writes the model file (the bytes aer fit writes) to w.
func (m *Model) WriteTo(w io.Writer) (int64, error) {
	if err := m.usable(); err != nil {
		return 0, err
	}
	if err := writerGiven(w, "writing the model"); err != nil {
		return 0, err
	}
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
	if err := m.usable(); err != nil {
		return err
	}
	p, err := m.payload()
	if err != nil {
		return err
	}
	return modelfile.SaveContext(ctx, path, m.header, p)
}

// Method is the name of the method that fitted the model.
func (m *Model) Method() string {
	if m.usable() != nil {
		return ""
	}
	return m.header.Method
}

// Schema is the layout of the data the model was fitted on.
func (m *Model) Schema() dataset.Schema {
	if m.usable() != nil {
		return dataset.Schema{}
	}
	return m.header.Schema
}

// Header is the model file's header: method, schema, fit configuration,
// decision layer, producer.
func (m *Model) Header() *modelfile.Header {
	if m == nil {
		return nil
	}
	return m.header
}

// Learned is the fitted learn.Model behind the schema: it scores rows of
// features in Schema().Features order: of two classes a learn.Scorer,
// behind the decision layer when there is one.
func (m *Model) Learned() learn.Model {
	if m == nil {
		return nil
	}
	return m.model
}

// scorer is a two-class model's learn.Scorer (behind its decision
// layer), nil for a model of three or more classes.
func (m *Model) scorer() learn.Scorer {
	if s, ok := m.model.(learn.Scorer); ok && m.model.NumClasses() == 2 {
		return s
	}
	return nil
}

// NumClasses is the number of classes the model tells apart: 2, or the
// classes of a multi-class label.
func (m *Model) NumClasses() int {
	if m.usable() != nil {
		return 0
	}
	return m.model.NumClasses()
}

// Layer is the model's decision: of two classes the layer fitted on
// validation rows (calibration and threshold), nil without one; of three
// or more the class weights or cost matrix.
func (m *Model) Layer() *decision.Layer {
	if m == nil {
		return nil
	}
	return m.layer
}

// What a model's scores are, as Model.Scores says.
const (
	// ScoresProbability: calibrated probabilities of the positive class
	// (the decision layer's calibration, fitted on validation rows).
	ScoresProbability = "probability"
	// ScoresRaw: the method's own scores, uncalibrated. They rank rows;
	// class weights, resampling and ensembling shift them away from the
	// rate of positives.
	ScoresRaw = "score"
)

// Scores says what the model's scores are: ScoresProbability when its
// decision layer calibrated them, else ScoresRaw.
func (m *Model) Scores() string {
	if m != nil && m.layer != nil && m.layer.Calibration != nil {
		return ScoresProbability
	}
	return ScoresRaw
}

// Report is what the fit found; nil for a model read from a file.
func (m *Model) Report() *FitReport {
	if m == nil {
		return nil
	}
	return m.report
}

// Threshold returns the threshold at which a score predicts the positive
// class and where it comes from: the decision layer's, else the one the
// method tuned, else 0.5 (FromDecisionLayer, FromMethod, FromDefault).
func (m *Model) Threshold() (t float64, from string) {
	if m.usable() != nil {
		return 0, ""
	}
	s := m.scorer()
	if s == nil {
		return 0, FromArgmax
	}
	t, tuned := learn.TunedThreshold(s)
	switch {
	case m.layer != nil:
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

// Checksum is the model file's SHA-256 checksum (of everything before
// it), in hexadecimal: as stored at the end of the file read, or of the
// file Save would write.
func (m *Model) Checksum() string {
	if m.usable() != nil {
		return ""
	}
	m.once.Do(func() {
		if m.sum != "" {
			return
		}
		var buf bytes.Buffer
		if _, err := m.WriteTo(&buf); err == nil && buf.Len() >= sha256.Size {
			b := buf.Bytes()
			m.sum = hex.EncodeToString(b[len(b)-sha256.Size:])
		}
	})
	return m.sum
}

// How a model of three or more classes holds them
// (Settings.Decomposition, modelfile.Header.Multiclass).
const (
	// Native: the method's own model of k classes (softmax boosted
	// trees, multinomial logistic regression, a tree's class shares).
	Native = decompose.Native
	// OneVsRest and OneVsOne: two-class models of the method, one per
	// class or one per pair of classes (package decompose).
	OneVsRest = decompose.OneVsRest
	OneVsOne  = decompose.OneVsOne
)

// Classes returns the model's class names in order: the multi-class
// labels, or the negative and the positive class.
func (m *Model) Classes() []string {
	if m.usable() != nil {
		return nil
	}
	return m.header.Schema.ClassNames()
}

// loadClasses decodes the payload of a model of three or more classes
// (ReadModel): a method's native model (learn.ClassFitter) or a
// decomposition.
func loadClasses(h *modelfile.Header, method learn.Method, payload []byte) (learn.Model, error) {
	k := h.Schema.NumClasses()
	if k < 3 {
		return nil, fmt.Errorf("%w: a %s multi-class model without three or more labels in its schema", modelfile.ErrHeader, h.Multiclass)
	}
	var mm learn.Model
	var err error
	switch h.Multiclass {
	case Native:
		mf, ok := method.(learn.ClassFitter)
		if !ok {
			return nil, fmt.Errorf("%w: method %s has no multi-class model of its own", modelfile.ErrHeader, h.Method)
		}
		mm, err = mf.LoadClasses(payload)
	case OneVsRest, OneVsOne:
		mm, err = decompose.Load(payload, method)
	default:
		return nil, fmt.Errorf("%w: multiclass %q", modelfile.ErrHeader, h.Multiclass)
	}
	if err != nil {
		return nil, err
	}
	if mm.NumClasses() != k || mm.NumFeatures() != len(h.Schema.Features) {
		return nil, fmt.Errorf("%w: the model has %d classes and %d features, its header %d and %d", modelfile.ErrHeader, mm.NumClasses(), mm.NumFeatures(), k, len(h.Schema.Features))
	}
	return mm, nil
}

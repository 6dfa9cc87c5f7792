package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/aer-go/aer/internal/quote"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
)

// Spec names a model file to serve.
type Spec struct {
	// Name is the model's name in URLs (/v1/models/{name}/predict).
	Name string
	// Path is the model file written by aer fit.
	Path string
	// Model, when not nil, is the model to serve, already loaded (a Go
	// program serving a model it fitted or read itself); Path is then
	// only its name in /v1/models, and reloading it is an error.
	Model *aer.Model
}

var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ParseSpec reads a --model argument: "name=path", or a path whose file
// name without its extension is the name ("models/ecoli.aer" is
// "ecoli").
func ParseSpec(arg string) (Spec, error) {
	if name, path, ok := strings.Cut(arg, "="); ok && !strings.ContainsAny(name, `/\`) {
		if !validName.MatchString(name) {
			return Spec{}, fmt.Errorf("model name %s: use letters, digits, '.', '_' and '-', starting with a letter or digit", quote.Name(name))
		}
		if path == "" {
			return Spec{}, fmt.Errorf("model %s: no file after '='", quote.Name(name))
		}
		return Spec{Name: name, Path: path}, nil
	}
	if arg == "" {
		return Spec{}, fmt.Errorf("empty model path")
	}
	base := filepath.Base(arg)
	name := strings.TrimSuffix(base, filepath.Ext(base))
	if !validName.MatchString(name) {
		return Spec{}, fmt.Errorf("model file %s: its name %s cannot be used in a URL; give one as name=%s", quote.Name(arg), quote.Name(name), arg)
	}
	return Spec{Name: name, Path: arg}, nil
}

// loaded is one model as it is served: swapped whole on reload.
type loaded struct {
	saved *aer.Model
	model learn.Scorer // saved.Learned(): what scores the rows
	lay   *layout
	// attributes: the model gives feature attributions (tried on a row
	// of zeros when loaded).
	attributes bool
	threshold  float64
	from       string
	loadedAt   time.Time
	sha256     string // of the model file's bytes, as sha256sum prints it
}

// ErrInMemory is returned (wrapped) when a model given in memory
// (Spec.Model) is asked to reload: it has no file to reload from.
var ErrInMemory = errors.New("the model was given in memory and has no file to reload from")

// load reads the model of sp: its file, or the model it holds.
func load(sp Spec) (*loaded, error) {
	m := sp.Model
	path := sp.Path
	if m == nil {
		// A pipe or a device at the path would block the open (a reload
		// from a FIFO held its request forever).
		if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file (%v): a model is read from a file", path, fi.Mode().Type())
		}
		var err error
		if m, err = aer.Load(path); err != nil {
			return nil, err
		}
	}
	lay, err := newLayout(&m.Header().Schema)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	t, from := m.Threshold()
	attributes := false
	scorer, twoClass := m.Learned().(learn.Scorer)
	twoClass = twoClass && m.NumClasses() == 2
	if nf := len(m.Schema().Features); nf > 0 && twoClass {
		_, err = learn.Attribute(context.Background(), scorer, mat.NewDense(1, nf, nil), 1)
		attributes = err == nil
	} else if nf > 0 {
		_, err = learn.AttributeClasses(context.Background(), m.Learned(), mat.NewDense(1, nf, nil), 1)
		attributes = err == nil
	}
	// The whole file's SHA-256, as sha256sum prints it (the stored
	// checksum covers everything before it, so the two differ).
	h := sha256.New()
	if sp.Model == nil {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	} else if _, err := m.WriteTo(h); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &loaded{saved: m, model: scorer, lay: lay, attributes: attributes, threshold: t, from: from, loadedAt: time.Now().UTC(),
		sha256: hex.EncodeToString(h.Sum(nil))}, nil
}

// slot holds a served model; reloads replace its value atomically, so a
// request scores with one model from start to end.
type slot struct {
	spec Spec
	cur  atomic.Pointer[loaded]
}

// ModelInfo describes a served model (GET /v1/models/{name}).
type ModelInfo struct {
	Name string `json:"name"`
	// File is the model file's base name.
	File   string `json:"file"`
	Method string `json:"method"`
	// Features are the feature names in model order (the order of array
	// rows for a model without categorical columns).
	Features []string `json:"features"`
	// Columns, for a model with categorical columns, are the columns a
	// request sends, in the order of array rows: the numeric features
	// and the categorical columns by their raw names.
	Columns []string `json:"columns,omitempty"`
	// Categories are the categorical columns and their values, each
	// one-hot encoded into the features named column=value.
	Categories []dataset.Category `json:"categories,omitempty"`
	// ID names the row-identifier column (aer fit --id): a request row
	// may carry it, and its answer echoes it.
	ID      string    `json:"id,omitempty"`
	Label   string    `json:"label"`
	Classes [2]string `json:"classes"`
	Weight  string    `json:"weight,omitempty"`
	// Params are the method parameters the model was fitted with, and
	// Seed its seed, when the file records them.
	Params map[string]string `json:"params,omitempty"`
	Seed   *uint64           `json:"seed,omitempty"`
	// Config is the fit configuration as the file stores it.
	Config json.RawMessage `json:"config,omitempty"`
	// Decision is the decision layer fitted on validation rows, if any.
	Decision json.RawMessage `json:"decision,omitempty"`
	Producer string          `json:"producer,omitempty"`
	// Threshold is the score at which a row is predicted positive, and
	// ThresholdFrom where it comes from: "decision-layer", "method" or
	// "default".
	Threshold     float64 `json:"threshold"`
	ThresholdFrom string  `json:"threshold_from"`
	Calibrated    bool    `json:"calibrated"`
	// Scores is "probability" (calibrated on validation rows) or
	// "score" (the method's own, uncalibrated).
	Scores   string `json:"scores"`
	Explains bool   `json:"explains"`
	// Attributions says whether the model gives feature attributions
	// ("explain": true adds them to each row's answer).
	Attributions bool `json:"attributions"`
	// Checksum is the SHA-256 checksum stored at the end of (and
	// verified against) the file, over everything before it; SHA256 is
	// the whole file's, as sha256sum prints it (aer info --model shows
	// both).
	Checksum string    `json:"checksum"`
	SHA256   string    `json:"sha256"`
	LoadedAt time.Time `json:"loaded_at"`
	// Labels are a multi-class model's classes, in the order of each
	// row's probabilities, and Multiclass how it holds them (native,
	// ovr, ovo); omitted for a binary model.
	Labels     []string `json:"labels,omitempty"`
	Multiclass string   `json:"multiclass,omitempty"`
	// Quantized, for a quantised model (aer quantize), states its leaf
	// precision and how far its probabilities may lie from the
	// full-precision model's.
	Quantized *aer.Quantization `json:"quantized,omitempty"`
}

func (s *slot) info() ModelInfo {
	m := s.cur.Load()
	h := m.saved.Header()
	explains := false
	if m.model != nil {
		_, explains = learn.ExplainerOf(m.model)
	}
	attributes := m.attributes
	info := ModelInfo{
		Name: s.spec.Name, File: filepath.Base(s.spec.Path), Method: h.Method,
		Features: h.Schema.Features, Label: h.Schema.Label, Classes: dataset.ClassPair(h.Schema.Classes), Weight: h.Schema.Weight,
		Config: h.Config, Decision: h.Decision, Producer: h.Producer,
		Threshold: m.threshold, ThresholdFrom: m.from, Calibrated: m.saved.Scores() == aer.ScoresProbability, Scores: m.saved.Scores(),
		Categories: h.Schema.Categories, ID: h.Schema.ID,
		Explains: explains, Attributions: attributes, Checksum: m.saved.Checksum(), SHA256: m.sha256, LoadedAt: m.loadedAt,
	}
	if m.lay.categorical {
		info.Columns = m.lay.names
	}
	if q, ok := m.saved.Quantization(); ok {
		info.Quantized = &q
	}
	if m.saved.NumClasses() > 2 {
		info.Labels, info.Multiclass = h.Schema.Classes, h.Multiclass
	}
	// aer fit writes {"seed": ..., "params": {...}}; other producers may
	// write something else, which stays in Config.
	var cfg struct {
		Seed   *uint64           `json:"seed"`
		Params map[string]string `json:"params"`
	}
	if json.Unmarshal(h.Config, &cfg) == nil {
		info.Seed, info.Params = cfg.Seed, cfg.Params
	}
	return info
}

// Handler returns an http.Handler serving one model, already in memory,
// under name with the routes of aer serve (/v1/predict,
// /v1/models/{name}/predict, /v1/models, /healthz, /readyz, /metrics), to
// mount in a program's own server; opt may be nil for the defaults. The
// model cannot be reloaded (it has no file).
func Handler(name string, m *aer.Model, opt *Options) (http.Handler, error) {
	if !validName.MatchString(name) {
		return nil, fmt.Errorf("serve: model name %s: use letters, digits, '.', '_' and '-', starting with a letter or digit", quote.Name(name))
	}
	return New([]Spec{{Name: name, Path: name, Model: m}}, opt)
}

package aer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/internal/ctxio"
	"github.com/aer-go/aer/internal/quote"
	"github.com/aer-go/aer/interop/lightgbm"
	"github.com/aer-go/aer/interop/xgboost"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/modelfile"
)

// Formats Import reads.
const (
	// FromXGBoost: a model XGBoost's Booster.save_model wrote, JSON or
	// UBJSON (package interop/xgboost).
	FromXGBoost = "xgboost"
	// FromLightGBM: a model LightGBM's Booster.save_model wrote, in its
	// text format (package interop/lightgbm).
	FromLightGBM = "lightgbm"
)

// ErrImport is wrapped by the errors of Import about the model and the
// table disagreeing (feature count, feature names, classes, text
// columns); the model file's own errors wrap xgboost.ErrFormat or
// xgboost.ErrUnsupported (lightgbm's for a LightGBM model).
var ErrImport = errors.New("the model does not fit the table")

// Imported describes where an imported model came from; a model file's
// header holds it as its configuration ({"imported": {...}}).
type Imported struct {
	// From is the format: FromXGBoost or FromLightGBM.
	From string `json:"from"`
	// Format is the file's encoding: "json" or "ubjson" (XGBoost),
	// "text" (LightGBM).
	Format string `json:"format"`
	// Version is the version of the program that saved the model
	// (XGBoost), or of its file format ("v2" to "v4", LightGBM).
	Version string `json:"version"`
	// Objective is the model's objective, e.g. "binary:logistic" or
	// "binary sigmoid:1".
	Objective string `json:"objective"`
	// Booster is "gbtree" or "dart" (XGBoost), the boosting parameter
	// (LightGBM: "gbdt", "dart", "goss", "rf"; "" when the file has
	// none).
	Booster string `json:"booster"`
	// Trees is the number of trees.
	Trees int `json:"trees"`
	// BaseScore is the model's base_score as saved (a probability for
	// binary:logistic, a margin for binary:logitraw; 0 for LightGBM,
	// whose first tree holds its initial score).
	BaseScore float64 `json:"base_score"`
	// SHA256 is the hash of the file read, as sha256sum prints it.
	SHA256 string `json:"sha256"`
	// Classes is the number of classes of a multi-class model, absent
	// (0) for a binary one.
	Classes int `json:"num_classes,omitempty"`
	// ClassBaseScores are the base margins of a multi-class XGBoost
	// model that has one per class (XGBoost 3.1 and later), absent
	// otherwise.
	ClassBaseScores []float64 `json:"class_base_scores,omitempty"`
}

// ImportConfig is the configuration a model file's header holds for an
// imported model.
type ImportConfig struct {
	// Imported says where the model came from.
	Imported Imported `json:"imported"`
}

// Import reads a model another library trained and saved (from:
// FromXGBoost or FromLightGBM) from r, and returns it as a Model with
// the schema of table: it scores, explains (TreeSHAP), saves and serves
// as a model aer fit wrote, with the default threshold 0.5 and no
// decision layer. Only the table's header and classes are used: its
// features, in order, are the model's inputs; its label and classes, id,
// weight and dropped columns make the schema (the rows are not read).
//
// The model must read as many features as the table has, and where the
// model names its features, they must be the table's, in the same order
// (LightGBM's default names, Column_0, Column_1, ..., name none).
// Categorical features are read as their integer codes (pandas'
// .cat.codes): the table must hold those numbers, not text. The binary
// objectives score the label 1: a table whose classes are 0 and 1 is
// taken with 1 as the positive class, whichever is rarer; with other
// classes, the table's positive class (ReadOptions.Positive) must be the
// one the model was trained to score as 1. Scores are sigmoid(margin):
// what Booster.predict gives for XGBoost's binary:logistic (and for
// binary:logitraw, whose predict gives the margin itself) and LightGBM's
// binary and cross_entropy (the margin is then sigmoid:S times
// LightGBM's raw score).
//
// A multi-class model (XGBoost's multi:softprob and multi:softmax,
// LightGBM's multiclass) needs a multi-class table (Table.Classes) of as
// many classes: the table's labels, in order, name the model's classes
// 0, 1, ... (dataset.Options.Classes, aer import --labels, fixes their
// order; without it a table's labels are sorted, numbers by value, so
// that labels 0..k-1 are the model's own). The imported model predicts the class
// probabilities the library does (the softmax of the class margins)
// and, with the argmax decision, its most probable class.
//
// Errors about the file wrap xgboost.ErrFormat or ErrUnsupported
// (lightgbm's for a LightGBM model); those about the table ErrImport.
func Import(ctx context.Context, r io.Reader, from string, table *Table) (*Model, error) {
	if from != FromXGBoost && from != FromLightGBM {
		return nil, fmt.Errorf("import: unknown format %q (aer imports: %s, %s)", from, FromXGBoost, FromLightGBM)
	}
	library := map[string]string{FromXGBoost: "XGBoost", FromLightGBM: "LightGBM"}[from]
	if err := readerGiven(r, "import"); err != nil {
		return nil, err
	}
	if table == nil || !table.Labelled() {
		return nil, fmt.Errorf("%w: the table has no label (its label and classes make the model's)", ErrImport)
	}
	schema := table.Schema()
	if len(schema.Categories) > 0 {
		c := schema.Categories[0]
		return nil, fmt.Errorf("%w: column %s holds text; %s reads a categorical feature as its integer codes (pandas' .cat.codes), which the table must hold instead", ErrImport, quote.Name(c.Column), library)
	}
	if slices.Equal(schema.Classes, []string{"1", "0"}) {
		schema.Classes = []string{"0", "1"}
	} // else 0, 1, or named by the caller: ReadOptions.Positive.
	h := sha256.New()
	// Reads and decoding stop once ctx is done (Ctrl-C during a large
	// file).
	f, err := readForeign(ctx, io.TeeReader(ctxio.NewReader(ctx, r), h), from)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	bm, numFeature, names, src := f.bm, f.numFeature, f.names, f.src
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if k := schema.NumClasses(); f.classes != 0 || k > 2 {
		if f.classes == 2 {
			return nil, fmt.Errorf("%w: the %s model (%s) has 2 classes: aer imports a multi-class model of 3 or more classes, and a binary one with a binary objective", ErrImport, library, src.Objective)
		}
		if f.classes != k || k == 2 {
			return nil, fmt.Errorf("%w: the %s model (%s) has %s, the table's label %s has %d classes", ErrImport,
				library, src.Objective, classCount(f.classes), schema.Label, k)
		}
	}
	if numFeature != len(schema.Features) {
		return nil, fmt.Errorf("%w: the %s model reads %d features, the table has %d (%s)", ErrImport,
			library, numFeature, len(schema.Features), quote.List(schema.Features))
	}
	for j, name := range names {
		if name != schema.Features[j] {
			return nil, fmt.Errorf("%w: feature %d is %s in the %s model, %s in the table (the table's features must be the model's, in its order)",
				ErrImport, j+1, quote.Name(name), library, quote.Name(schema.Features[j]))
		}
	}
	if f.mm != nil {
		return importMulti(f, schema, from, h.Sum(nil))
	}
	payload, err := bm.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("import: encoding the model: %w", err)
	}
	// Loaded as every gbdt model file is, so an imported model is the one
	// its saved file gives back.
	method, err := learn.New(boost.MethodName)
	if err != nil {
		return nil, err
	}
	lm, err := method.Load(payload)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	src.From, src.SHA256 = from, hex.EncodeToString(h.Sum(nil))
	cfg, err := json.Marshal(ImportConfig{Imported: src})
	if err != nil {
		return nil, err
	}
	hdr := &modelfile.Header{Method: boost.MethodName, Schema: schema, Config: cfg, Producer: "aer " + Version}
	if err := hdr.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrImport, err)
	}
	return &Model{header: hdr, model: lm}, nil
}

// foreign is a model read from another library's file.
type foreign struct {
	bm         *boost.Model      // a binary model
	mm         *boost.MultiModel // a multi-class one
	classes    int               // mm's classes, 0 for a binary model
	numFeature int
	names      []string // the model's feature names, nil for none
	src        Imported
}

// readForeign reads and converts the model file r from library from.
func readForeign(ctx context.Context, r io.Reader, from string) (*foreign, error) {
	f := &foreign{}
	var err error
	switch from {
	case FromXGBoost:
		xm, err := xgboost.ReadContext(ctx, r)
		if err != nil {
			return nil, err
		}
		if xm.Multi() {
			if f.mm, err = xm.BoostMulti(); err != nil {
				return nil, err
			}
			f.classes = xm.NumClass
		} else if f.bm, err = xm.Boost(); err != nil {
			return nil, err
		}
		v := xm.Version
		f.numFeature, f.names = xm.NumFeature, xm.FeatureNames
		f.src = Imported{Format: xm.Format, Version: fmt.Sprintf("%d.%d.%d", v[0], v[1], v[2]),
			Objective: xm.Objective, Booster: xm.Booster, Trees: len(xm.Trees), BaseScore: float64(xm.BaseScore), Classes: f.classes}
		if xm.ClassBaseScores != nil {
			f.src.ClassBaseScores = xm.ClassBaseMargins()
		}
	case FromLightGBM:
		lm, err := lightgbm.ReadContext(ctx, r)
		if err != nil {
			return nil, err
		}
		if lm.NumClass > 1 {
			if f.mm, err = lm.BoostMulti(); err != nil {
				return nil, err
			}
			f.classes = lm.NumClass
		} else if f.bm, err = lm.Boost(); err != nil {
			return nil, err
		}
		f.numFeature, f.names = lm.NumFeature, lm.FeatureNames
		if defaultNames(f.names) {
			f.names = nil
		}
		f.src = Imported{Format: "text", Version: lm.Version, Objective: lm.Objective, Booster: lm.Boosting, Trees: len(lm.Trees), Classes: f.classes}
	}
	return f, err
}

// classCount says how many classes a model has: "2 classes (binary)"
// for 0.
func classCount(k int) string {
	if k == 0 {
		return "2 classes (a binary objective)"
	}
	return strconv.Itoa(k) + " classes"
}

// importMulti makes the Model of an imported multi-class model: a native
// gbdt multi-class model, loaded from its payload as every model file's
// is, with the argmax decision (the library's predicted class).
func importMulti(f *foreign, schema dataset.Schema, from string, sum []byte) (*Model, error) {
	payload, err := f.mm.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("import: encoding the model: %w", err)
	}
	method, err := learn.New(boost.MethodName)
	if err != nil {
		return nil, err
	}
	mf, ok := method.(learn.ClassFitter)
	if !ok {
		return nil, fmt.Errorf("import: method %s has no multi-class model", boost.MethodName)
	}
	mm, err := mf.LoadClasses(payload)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	layer := &decision.Layer{Rule: decision.RuleArgmax, Weights: make([]float64, f.classes)}
	for c := range layer.Weights {
		layer.Weights[c] = 1
	}
	layerJSON, err := json.Marshal(layer)
	if err != nil {
		return nil, err
	}
	f.src.From, f.src.SHA256 = from, hex.EncodeToString(sum)
	cfg, err := json.Marshal(ImportConfig{Imported: f.src})
	if err != nil {
		return nil, err
	}
	hdr := &modelfile.Header{Method: boost.MethodName, Schema: schema, Config: cfg, Decision: layerJSON,
		Producer: "aer " + Version, Multiclass: Native}
	if err := hdr.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrImport, err)
	}
	return &Model{header: hdr, model: mm, layer: layer}, nil
}

// defaultNames tells whether names are LightGBM's for unnamed features:
// Column_0, Column_1, ...
func defaultNames(names []string) bool {
	for j, name := range names {
		if name != "Column_"+strconv.Itoa(j) {
			return false
		}
	}
	return true
}

// ImportFile is Import of the file at path; errors name the file.
func ImportFile(ctx context.Context, path, from string, table *Table) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := Import(ctx, f, from, table)
	if err != nil && !errors.Is(err, ErrImport) && !errors.Is(err, ctx.Err()) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, err
}

// ImportedFrom returns where the model was imported from, nil for a
// model aer fitted.
func (m *Model) ImportedFrom() *Imported {
	if m.usable() != nil {
		return nil
	}
	var c struct {
		Imported *Imported `json:"imported"`
	}
	if len(m.header.Config) == 0 || json.Unmarshal(m.header.Config, &c) != nil {
		return nil
	}
	return c.Imported
}

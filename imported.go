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
	"strconv"
	"strings"

	"github.com/aer-go/aer/boost"
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
// Errors about the file wrap xgboost.ErrFormat or ErrUnsupported
// (lightgbm's for a LightGBM model); those about the table ErrImport.
func Import(ctx context.Context, r io.Reader, from string, table *Table) (*Model, error) {
	if from != FromXGBoost && from != FromLightGBM {
		return nil, fmt.Errorf("import: unknown format %q (aer imports: %s, %s)", from, FromXGBoost, FromLightGBM)
	}
	library := map[string]string{FromXGBoost: "XGBoost", FromLightGBM: "LightGBM"}[from]
	if table == nil || !table.Labelled() {
		return nil, fmt.Errorf("%w: the table has no label (its label and classes make the model's)", ErrImport)
	}
	schema := table.Schema()
	if len(schema.Categories) > 0 {
		c := schema.Categories[0]
		return nil, fmt.Errorf("%w: column %q holds text; %s reads a categorical feature as its integer codes (pandas' .cat.codes), which the table must hold instead", ErrImport, c.Column, library)
	}
	switch schema.Classes {
	case [2]string{"1", "0"}:
		schema.Classes = [2]string{"0", "1"}
	case [2]string{"0", "1"}:
	default:
		// Named by the caller: ReadOptions.Positive.
	}
	h := sha256.New()
	var (
		bm         *boost.Model
		numFeature int
		names      []string
		src        Imported
	)
	switch from {
	case FromXGBoost:
		xm, err := xgboost.Read(io.TeeReader(r, h))
		if err != nil {
			return nil, err
		}
		if bm, err = xm.Boost(); err != nil {
			return nil, err
		}
		v := xm.Version
		numFeature, names = xm.NumFeature, xm.FeatureNames
		src = Imported{Format: xm.Format, Version: fmt.Sprintf("%d.%d.%d", v[0], v[1], v[2]),
			Objective: xm.Objective, Booster: xm.Booster, Trees: len(xm.Trees), BaseScore: float64(xm.BaseScore)}
	case FromLightGBM:
		lm, err := lightgbm.Read(io.TeeReader(r, h))
		if err != nil {
			return nil, err
		}
		if bm, err = lm.Boost(); err != nil {
			return nil, err
		}
		numFeature, names = lm.NumFeature, lm.FeatureNames
		if defaultNames(names) {
			names = nil
		}
		src = Imported{Format: "text", Version: lm.Version, Objective: lm.Objective, Booster: lm.Boosting, Trees: len(lm.Trees)}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if numFeature != len(schema.Features) {
		return nil, fmt.Errorf("%w: the %s model reads %d features, the table has %d (%s)", ErrImport,
			library, numFeature, len(schema.Features), strings.Join(schema.Features, ", "))
	}
	for j, name := range names {
		if name != schema.Features[j] {
			return nil, fmt.Errorf("%w: feature %d is %q in the %s model, %q in the table (the table's features must be the model's, in its order)",
				ErrImport, j+1, name, library, schema.Features[j])
		}
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
	var c struct {
		Imported *Imported `json:"imported"`
	}
	if len(m.header.Config) == 0 || json.Unmarshal(m.header.Config, &c) != nil {
		return nil
	}
	return c.Imported
}

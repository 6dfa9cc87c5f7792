package aer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	_ "github.com/aer-go/aer/methods" // the registry, for tests only
	"github.com/aer-go/aer/modelfile"
	"github.com/aer-go/aer/synth"
)

// save fits method on synthetic data and saves it at path, behind layer
// when not nil.
func saveModel(path, method string, layer *decision.Layer) error {
	d, err := synth.Generate(&synth.Settings{Samples: 300, Features: 4, Ratio: 3}, 1)
	if err != nil {
		return err
	}
	m, err := learn.New(method)
	if err != nil {
		return err
	}
	model, err := m.Fit(context.Background(), &learn.Data{X: d.X, Y: d.Y, Features: d.Features}, nil, learn.Env{Workers: 1})
	if err != nil {
		return err
	}
	payload, err := model.MarshalBinary()
	if err != nil {
		return err
	}
	h := &modelfile.Header{Method: method, Schema: dataset.Schema{Features: d.Features, Label: "label", Classes: []string{"no", "yes"}}}
	if layer != nil {
		if h.Decision, err = json.Marshal(layer); err != nil {
			return err
		}
	}
	return modelfile.Save(path, h, payload)
}

func ExampleLoad() {
	dir, _ := os.MkdirTemp("", "aer-load")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "m.aer")
	if err := saveModel(path, "logreg", nil); err != nil {
		fmt.Println(err)
		return
	}

	m, err := aer.Load(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	t, from := m.Threshold()
	fmt.Println(m.Header().Method, m.Header().Schema.Features, m.Header().Schema.Classes, t, from, len(m.Checksum()))
	// Output:
	// logreg [x0 x1 x2 x3] [no yes] 0.5 default 64
}

func TestThresholdFrom(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.aer")
	if err := saveModel(path, "logreg", &decision.Layer{Threshold: 0.3, Objective: "f1"}); err != nil {
		t.Fatal(err)
	}
	m, err := aer.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if th, from := m.Threshold(); th != 0.3 || from != aer.FromDecisionLayer || m.Layer() == nil {
		t.Errorf("threshold %v from %q, layer %v; want 0.3 from the decision layer", th, from, m.Layer())
	}
	b, _ := os.ReadFile(path)
	if got := fmt.Sprintf("%x", b[len(b)-32:]); got != m.Checksum() {
		t.Errorf("checksum %s, the file ends with %s", m.Checksum(), got)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.aer")
	if err := saveModel(path, "logreg", nil); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)

	if _, err := aer.ReadModel(bytes.NewReader(b[:len(b)/2]), "half.aer"); !errors.Is(err, modelfile.ErrTruncated) || !strings.HasPrefix(err.Error(), "half.aer: ") {
		t.Errorf("truncated: %v", err)
	}
	if _, err := aer.ReadModel(strings.NewReader("x,y\n1,2\n"), "data.csv"); !errors.Is(err, modelfile.ErrNotModel) {
		t.Errorf("CSV: %v", err)
	}
	// An endless stream that is not a model is refused at its first bytes.
	if _, err := aer.ReadModel(zeros{}, "/dev/zero"); !errors.Is(err, modelfile.ErrNotModel) {
		t.Errorf("endless zeros: %v", err)
	}
	if _, err := aer.ReadModel(strings.NewReader("AERM"), "short"); !errors.Is(err, modelfile.ErrTruncated) {
		t.Errorf("4 bytes of the magic: %v", err)
	}
	if _, err := aer.Load(filepath.Join(dir, "absent.aer")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("absent: %v", err)
	}
	// A header naming a method nobody registered.
	h, payload, _ := modelfile.Decode(bytes.NewReader(b))
	h.Method = "no-such-method"
	var buf bytes.Buffer
	modelfile.Encode(&buf, h, payload)
	if _, err := aer.ReadModel(&buf, "x.aer"); !errors.Is(err, learn.ErrUnknownMethod) {
		t.Errorf("unknown method: %v", err)
	}
	// A header naming more features than the model has.
	h.Method = "logreg"
	h.Schema.Features = append(h.Schema.Features, "extra")
	buf.Reset()
	modelfile.Encode(&buf, h, payload)
	if _, err := aer.ReadModel(&buf, "x.aer"); err == nil || !strings.Contains(err.Error(), "has 4 features, its header names 5") {
		t.Errorf("feature count: %v", err)
	}
	// A decision layer that cannot be applied.
	h.Schema.Features = h.Schema.Features[:4]
	h.Decision = json.RawMessage(`{"threshold": 0.5, "objective": "f1", "valid_value": 0, "bogus": 1}`)
	buf.Reset()
	modelfile.Encode(&buf, h, payload)
	if _, err := aer.ReadModel(&buf, "x.aer"); err == nil || !strings.Contains(err.Error(), "decision layer") {
		t.Errorf("bad layer: %v", err)
	}
	// A null layer (it read as threshold 0) and thresholds no probability
	// can cross (--threshold refuses them on the command line).
	for _, c := range []struct{ layer, want string }{
		{`null`, "decision layer: null"},
		{`{"threshold": 2, "objective": "f1", "valid_value": 0}`, "threshold 2 lies outside [0, 1]"},
		{`{"threshold": -5, "objective": "f1", "valid_value": 0}`, "threshold -5 lies outside [0, 1]"},
	} {
		h.Decision = json.RawMessage(c.layer)
		buf.Reset()
		modelfile.Encode(&buf, h, payload)
		if _, err := aer.ReadModel(&buf, "x.aer"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("layer %s: %v", c.layer, err)
		}
	}
}

// zeros is an endless reader of zero bytes, as /dev/zero.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// ReadOptions carries every column role of the schema and its categories,
// and reads data that lacks the label.
func TestReadOptions(t *testing.T) {
	s := &dataset.Schema{Label: "y", Classes: []string{"no", "yes"}, Weight: "w", Drop: []string{"note"}, ID: "id",
		Categories: []dataset.Category{{Column: "color", Values: []string{"blue", "red"}}}}
	o := s.ReadOptions()
	if o.Label != "y" || !slices.Equal(o.Classes, s.Classes) || !o.LabelOptional || !o.AllowOneClass || o.Weight != "w" || !o.WeightOptional ||
		len(o.Drop) != 1 || o.Drop[0] != "note" || o.ID != "id" || len(o.Categories) != 1 || o.Categories[0].Column != "color" || len(o.Categories[0].Values) != 2 {
		t.Errorf("ReadOptions = %+v", o)
	}
}

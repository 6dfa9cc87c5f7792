package aer_test

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/modelfile"
)

// FuzzReadModel feeds arbitrary bytes to the model-file loader (what aer
// predict, explain and serve read): it returns an error naming the file, or
// a model that scores and explains rows without panicking. The seed corpus
// under testdata/fuzz/FuzzReadModel holds saved logreg and tree models, one with
// a decision layer.
func FuzzReadModel(f *testing.F) {
	dir := f.TempDir()
	for _, method := range []string{"logreg", "tree"} {
		path := filepath.Join(dir, method+".aer")
		if err := saveModel(path, method, &decision.Layer{Threshold: 0.3}); err != nil {
			f.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	for _, c := range []struct{ method, strategy string }{{"logreg", ""}, {"tree", aer.OneVsRest}} {
		b, err := multiModelBytes(c.method, c.strategy)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(modelfile.Magic))
	f.Add([]byte{})
	f.Add([]byte("a,b,label\n1,2,0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := aer.ReadModel(bytes.NewReader(data), "fuzz.aer")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.aer") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if err := m.Header().Validate(); err != nil {
			t.Fatalf("loaded a model with an invalid header: %v", err)
		}
		if m.NumClasses() > 2 {
			if len(m.Classes()) < 3 || m.Layer().Check() != nil || len(m.Layer().Weights) != len(m.Classes()) {
				t.Fatalf("loaded a multi-class model of classes %q, decision %+v", m.Classes(), m.Layer())
			}
			return
		}
		m.Threshold()
		d := m.Learned().NumFeatures()
		if d == 0 || d > 1000 {
			return
		}
		x := mat.NewDense(2, d, nil)
		for j := range d {
			x.Set(1, j, math.NaN())
		}
		m.Learned().PredictProba(x, nil)
		if e, ok := learn.ExplainerOf(m.Learned()); ok {
			e.Explain(x.RawRowView(0))
			e.Explain(x.RawRowView(1))
		}
	})
}

// multiModelBytes is the model file of method fitted to a small table of
// three classes by strategy ("" for its default).
func multiModelBytes(method, strategy string) ([]byte, error) {
	n := 60
	x1, x2, label := make([]float64, n), make([]float64, n), make([]string, n)
	for i := range n {
		x1[i], x2[i] = math.Sin(float64(i)), math.Cos(float64(3*i))
		label[i] = []string{"a", "a", "b", "c"}[i%4]
	}
	t, err := aer.NewTable([]aer.Column{{Name: "x1", Values: x1}, {Name: "x2", Values: x2}, {Name: "label", Values: label}}, nil)
	if err != nil {
		return nil, err
	}
	m, err := aer.Method(method)
	if err != nil {
		return nil, err
	}
	model, err := aer.Fit(context.Background(), t, nil, &aer.Settings{Spec: aer.Spec{Decomposition: strategy}, Env: aer.Env{Seed: 1}}, m)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := model.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

package aer_test

import (
	"bytes"
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

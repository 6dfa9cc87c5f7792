package xgboost

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/boost"
)

// tinyJSON is a model of one tree (a numeric split, then a categorical
// one), small enough for the fuzzer to mutate quickly.
const tinyJSON = `{"learner":{"feature_names":["a","b"],"feature_types":["float","c"],` +
	`"gradient_booster":{"model":{"gbtree_model_param":{"num_parallel_tree":"1","num_trees":"1"},"tree_info":[0],` +
	`"trees":[{"base_weights":[0,0,0,0,0],"categories":[1,3],"categories_nodes":[2],"categories_segments":[0],"categories_sizes":[2],` +
	`"default_left":[1,0,0,0,0],"id":0,"left_children":[1,-1,3,-1,-1],"loss_changes":[2E0,0,1E0,0,0],"parents":[2147483647,0,0,2,2],` +
	`"right_children":[2,-1,4,-1,-1],"split_conditions":[5E-1,-1E-1,NaN,2E-1,3E-1],"split_indices":[0,0,1,0,0],"split_type":[0,0,1,0,0],` +
	`"sum_hessian":[1E1,4E0,6E0,3E0,3E0],"tree_param":{"num_deleted":"0","num_feature":"2","num_nodes":"5","size_leaf_vector":"0"}}]},"name":"gbtree"},` +
	`"learner_model_param":{"base_score":"5E-1","num_class":"0","num_feature":"2","num_target":"1"},` +
	`"objective":{"name":"binary:logistic","reg_loss_param":{"scale_pos_weight":"1"}}},"version":[1,7,4]}`

// fuzzDecode is the property both fuzz targets check: Decode returns a
// model or an error wrapping ErrFormat or ErrUnsupported, never panics;
// and a model it returns converts, saves, loads and explains.
func fuzzDecode(t *testing.T, data []byte) {
	m, err := Decode(data)
	if err != nil {
		if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("error %v wraps neither ErrFormat nor ErrUnsupported", err)
		}
		return
	}
	if m.Multi() {
		fuzzMulti(t, m)
		return
	}
	bm, err := m.Boost()
	if err != nil {
		t.Fatalf("Decode accepted a model Boost refuses: %v", err)
	}
	b, err := bm.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back boost.Model
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatalf("the converted model does not load: %v", err)
	}
	x := mat.NewDense(2, m.NumFeature, nil)
	for j := range m.NumFeature {
		x.Set(1, j, math.NaN())
	}
	for _, v := range back.PredictMargin(x, nil) {
		if math.IsNaN(v) {
			t.Fatal("margin NaN")
		}
	}
	if _, err := back.SHAP(x, nil); err != nil {
		t.Fatalf("SHAP: %v", err)
	}
}

// fuzzMulti: a multi-class model Decode accepts converts, saves and
// loads, and gives probabilities that are numbers summing to 1.
func fuzzMulti(t *testing.T, m *Model) {
	mm, err := m.BoostMulti()
	if err != nil {
		t.Fatalf("Decode accepted a model BoostMulti refuses: %v", err)
	}
	b, err := mm.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back boost.MultiModel
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatalf("the converted model does not load: %v", err)
	}
	x := mat.NewDense(2, m.NumFeature, nil)
	for j := range m.NumFeature {
		x.Set(1, j, math.NaN())
	}
	p, err := back.PredictProba(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		sum := 0.0
		for _, v := range p[i*m.NumClass : (i+1)*m.NumClass] {
			sum += v
		}
		if !(math.Abs(sum-1) < 1e-9) {
			t.Fatalf("row %d: probabilities sum to %v", i, sum)
		}
	}
}

func FuzzDecodeJSON(f *testing.F) {
	f.Add([]byte(tinyJSON))
	// Hostile: an infinite split condition and leaf, shared category
	// segments.
	f.Add([]byte(strings.Replace(tinyJSON, `"split_conditions":[5E-1,-1E-1,`, `"split_conditions":[-Infinity,Infinity,`, 1)))
	f.Add([]byte(strings.Replace(tinyJSON, `"categories_nodes":[2],"categories_segments":[0],"categories_sizes":[2]`,
		`"categories_nodes":[2,0],"categories_segments":[0,0],"categories_sizes":[2,2]`, 1)))
	for _, name := range []string{"plain.json", "categorical.json", "multi.json"} {
		if data, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 0 && data[0] != '{' && data[0] != ' ' {
			data = append([]byte("{"), data...) // keep it JSON
		}
		fuzzDecode(t, data)
	})
}

func FuzzDecodeUBJSON(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("testdata", "missing.ubj")); err == nil {
		f.Add(data)
	}
	f.Add(ubj("{", "i", int8(1), "a", "[$d#i", int8(2), float32(0.5), float32(-1.5), "}"))
	f.Add(ubj("{", "i", int8(7), "version", "[#i", int8(3), "i", int8(1), "i", int8(7), "i", int8(4), "}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecode(t, data)
		// The decoder alone, on what model checks would refuse early.
		if _, err := decodeUBJSON(data); err != nil && !errors.Is(err, ErrFormat) {
			t.Fatalf("error %v does not wrap ErrFormat", err)
		}
	})
}

// TestTinyModel checks the fuzzers' seed model is one (or they would fuzz
// only errors).
func TestTinyModel(t *testing.T) {
	m, err := Decode([]byte(tinyJSON))
	if err != nil {
		t.Fatal(err)
	}
	bm, err := m.Boost()
	if err != nil {
		t.Fatal(err)
	}
	// a < 0.5 (or missing): leaf -0.1; else b in {1, 3} (or missing): 0.3, else 0.2.
	for _, c := range []struct{ a, b, want float64 }{{0, 1, -0.1}, {1, 1, 0.3}, {1, 3.5, 0.3}, {1, 2, 0.2}, {1, math.NaN(), 0.3}, {math.NaN(), 1, -0.1}} {
		if got := bm.PredictRowMargin([]float64{c.a, c.b}); math.Abs(got-c.want) > 1e-7 {
			t.Errorf("a=%v b=%v: margin %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

package xgboost

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeJSONValues(t *testing.T) {
	v, err := decodeJSON([]byte(` {"a": [1, -2.5E-1, NaN, Infinity, -Infinity, 0.1], "b": "x\"\\\u00e9\ud83d\ude00", "c": [true, null, {}], "d": []} `))
	if err != nil {
		t.Fatal(err)
	}
	obj := v.(map[string]any)
	a := obj["a"].([]float64)
	if a[0] != 1 || a[1] != -0.25 || !math.IsNaN(a[2]) || !math.IsInf(a[3], 1) || !math.IsInf(a[4], -1) {
		t.Errorf("a = %v", a)
	}
	if a[5] != float64(float32(0.1)) {
		t.Errorf("0.1 read as %v, want float32's %v", a[5], float64(float32(0.1)))
	}
	if obj["b"] != "x\"\\\u00e9\U0001F600" {
		t.Errorf("b = %q", obj["b"])
	}
	if c := obj["c"].([]any); c[0] != true || c[1] != nil || len(c[2].(map[string]any)) != 0 {
		t.Errorf("c = %v", c)
	}
	if d := obj["d"].([]float64); len(d) != 0 {
		t.Errorf("d = %v", d)
	}
	// A large integer stays exact.
	if v, _ := decodeJSON([]byte(`[2147483647]`)); v.([]float64)[0] != 2147483647 {
		t.Errorf("2147483647 read as %v", v)
	}
}

func TestDecodeJSONErrors(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{``, "end of file"},
		{`{"a": 1`, "end of file in an object"},
		{`{"a": [1, 2`, "end of file in an array"},
		{`{"a": "abc`, "never closed"},
		{`{"a": 1, "a": 2}`, `key "a" appears twice`},
		{`{"a": 01}`, "malformed number"},
		{`{"a": 1.}`, "malformed number"},
		{`{"a": -}`, "malformed number"},
		{`{"a": nan}`, "want null"},
		{`{"a": tru}`, "want true"},
		{`{"a": 1} x`, "after the document"},
		{"{\"a\":\n  [1 2]}", "line 2, column 6"},
		{`{"a": "\x"}`, `unknown escape \x`},
		{"{\"a\": \"\x01\"}", "control character"},
		{"{\"a\": \"\xff\"}", "invalid UTF-8"},
		{strings.Repeat("[", maxDepth+1), "nested more than"},
	} {
		_, err := decodeJSON([]byte(c.doc))
		if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want ErrFormat saying %q", c.doc, err, c.want)
		}
	}
}

// ubj builds UBJSON bytes from markers, strings and numbers.
func ubj(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			b = append(b, p...)
		case byte:
			b = append(b, p)
		case int8:
			b = append(b, byte(p))
		case int32:
			b = binary.BigEndian.AppendUint32(b, uint32(p))
		case int64:
			b = binary.BigEndian.AppendUint64(b, uint64(p))
		case float32:
			b = binary.BigEndian.AppendUint32(b, math.Float32bits(p))
		default:
			panic(p)
		}
	}
	return b
}

func TestDecodeUBJSONValues(t *testing.T) {
	doc := ubj("{",
		"i", int8(1), "a", "[$d#i", int8(2), float32(0.5), float32(-1.5), // typed floats
		"i", int8(1), "b", "[#i", int8(2), "U", byte(200), "l", int32(-7), // counted, untyped
		"i", int8(1), "c", "[", "S", "i", int8(2), "hi", "T", "Z", "N", "]", // mixed, a no-op
		"i", int8(1), "d", "H", "i", int8(4), "1e-1", // high precision
		"i", int8(1), "e", "{#i", int8(1), "i", int8(1), "f", "C", "x", // counted object
		"}")
	v, err := decodeUBJSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"a": []float64{0.5, -1.5}, "b": []float64{200, -7}, "c": []any{"hi", true, nil},
		"d": 0.1, "e": map[string]any{"f": "x"},
	}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("decoded %#v, want %#v", v, want)
	}
}

// TestDecodeUBJSONHostile checks that lengths and counts beyond the bytes
// left, deep nesting and unknown markers are errors, without allocating
// what they claim.
func TestDecodeUBJSONHostile(t *testing.T) {
	for _, c := range []struct {
		name string
		doc  []byte
		want string
	}{
		{"huge count", ubj("[#L", int64(1<<62)), "the file has 0 bytes left"},
		{"huge typed count", ubj("[$d#l", int32(3), float32(1), float32(2)), "count of 3: the file has 8 bytes left"},
		{"negative count", ubj("[#i", int8(-1)), "count of -1"},
		{"huge string", ubj("S", "L", int64(1<<40), "abc"), "length of"},
		{"huge key", ubj("{", "l", int32(1<<30), "ab"), "length of"},
		{"empty values", ubj("[$Z#l", int32(1<<30)), "count of 1073741824"},
		{"deep", bytes.Repeat([]byte("["), maxDepth+1), "nested more than"},
		{"unknown", ubj("[", "X", "]"), "unknown marker 'X'"},
		{"truncated number", ubj("[", "l", byte(0), byte(1)), "ends inside a number"},
		{"truncated array", ubj("[", "i", int8(1)), "ends inside an array"},
		{"type without count", ubj("[$d", float32(1)), "a type but no count"},
		{"float length", ubj("S", "d", float32(1), "a"), "not an integer type"},
		{"duplicate key", ubj("{", "i", int8(1), "a", "Z", "i", int8(1), "a", "Z", "}"), `key "a" appears twice`},
		{"bad utf-8", ubj("S", "i", int8(1), byte(0xff)), "not valid UTF-8"},
		{"trailing", ubj("Z", "Z"), "bytes after the document"},
		{"empty objects", append(ubj("[#l", int32(300000)), bytes.Repeat([]byte("{}"), 300000)...), "16 times its size"},
	} {
		_, err := decodeUBJSON(c.doc)
		if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want ErrFormat saying %q", c.name, err, c.want)
		}
	}
}

// TestJSONAndUBJSON: the two files Booster.save_model wrote of one model
// read to the same model.
func TestJSONAndUBJSON(t *testing.T) {
	a, b := readModel(t, "plain.json"), readModel(t, "plain.ubj")
	if a.Format != "json" || b.Format != "ubjson" {
		t.Errorf("formats %q and %q", a.Format, b.Format)
	}
	b.Format = a.Format
	if !reflect.DeepEqual(a, b) {
		t.Error("plain.json and plain.ubj read to different models")
	}
	if a.Version != [3]int{1, 7, 4} || a.Objective != Logistic || a.Booster != "gbtree" || a.BaseScore != 0.5 ||
		a.NumFeature != 4 || !reflect.DeepEqual(a.FeatureNames, []string{"age", "dose", "score", "ratio"}) {
		t.Errorf("read %v %s %s base %v, %d features %v", a.Version, a.Objective, a.Booster, a.BaseScore, a.NumFeature, a.FeatureNames)
	}
	m := readModel(t, "categorical.json")
	if !m.Categorical(1) || m.Categorical(0) {
		t.Errorf("feature types %v: want the second categorical", m.FeatureTypes)
	}
}

// TestTruncated: every proper prefix of a model file is an error, never a
// model.
func TestTruncated(t *testing.T) {
	for _, name := range []string{"plain.json", "missing.ubj", "categorical.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.TrimRight(data, "\n")
		for n := 0; n < len(data); n++ {
			if n%13 != 0 && n < len(data)-200 {
				continue
			}
			if _, err := Decode(data[:n]); err == nil || !errors.Is(err, ErrFormat) {
				t.Fatalf("%s cut to %d of %d bytes: error %v, want ErrFormat", name, n, len(data), err)
			}
		}
	}
}

// edit reads plain.json (or another fixture without NaN) as a generic
// document, lets f change it, and decodes the result.
func edit(t *testing.T, name string, f func(doc map[string]any)) (*Model, error) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	f(doc)
	if data, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	return Decode(data)
}

// obj returns the object at a path of keys.
func obj(doc map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		doc = doc[k].(map[string]any)
	}
	return doc
}

func firstTree(doc map[string]any) map[string]any {
	return obj(doc, "learner", "gradient_booster", "model")["trees"].([]any)[0].(map[string]any)
}

// TestVersions reads plain.json rewritten as other versions write it: 3.1's
// base_score vector, 1.0's boolean default_left, no categorical fields
// (before 1.5), a model of 2.x with iteration_indptr; each is the same
// model.
func TestVersions(t *testing.T) {
	want := readModel(t, "plain.json")
	for name, f := range map[string]func(map[string]any){
		"3.1 base_score vector": func(d map[string]any) {
			d["version"] = []any{3, 1, 0}
			obj(d, "learner", "learner_model_param")["base_score"] = "[5E-1]"
		},
		"boolean default_left": func(d map[string]any) {
			for _, tr := range obj(d, "learner", "gradient_booster", "model")["trees"].([]any) {
				tr := tr.(map[string]any)
				dl := tr["default_left"].([]any)
				for i, v := range dl {
					dl[i] = v.(float64) == 1
				}
			}
		},
		"no categorical fields": func(d map[string]any) {
			for _, tr := range obj(d, "learner", "gradient_booster", "model")["trees"].([]any) {
				tr := tr.(map[string]any)
				for _, k := range []string{"split_type", "categories", "categories_nodes", "categories_segments", "categories_sizes"} {
					delete(tr, k)
				}
			}
			delete(d["learner"].(map[string]any), "feature_types")
			d["version"] = []any{1, 3, 0}
		},
		"2.x": func(d map[string]any) {
			d["version"] = []any{2, 1, 4}
			obj(d, "learner", "gradient_booster", "model")["iteration_indptr"] = []any{0, 1, 2}
		},
	} {
		m, err := edit(t, "plain.json", f)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		m.Version, m.FeatureTypes = want.Version, want.FeatureTypes
		if !reflect.DeepEqual(m, want) {
			t.Errorf("%s: a different model", name)
		}
	}
}

// TestRefused: unsupported models are refused with ErrUnsupported, and
// malformed ones with ErrFormat, each naming what and where.
func TestRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func(map[string]any)
		is   error
		want string
	}{
		{"objective", func(d map[string]any) { obj(d, "learner", "objective")["name"] = "reg:squarederror" },
			ErrUnsupported, `objective "reg:squarederror" (learner.objective.name)`},
		{"softprob", func(d map[string]any) {
			obj(d, "learner", "objective")["name"] = "multi:softprob"
		}, ErrFormat, "num_class: multi:softprob has 0 classes"},
		{"softprob classes", func(d map[string]any) {
			obj(d, "learner", "objective")["name"] = "multi:softprob"
			obj(d, "learner", "learner_model_param")["num_class"] = "3"
			info := make([]any, 30)
			for i := range info {
				info[i] = i % 4
			}
			obj(d, "learner", "gradient_booster", "model")["tree_info"] = info
		}, ErrFormat, "tree_info[3]: tree of class 3; the model has 3"},
		{"classes", func(d map[string]any) { obj(d, "learner", "learner_model_param")["num_class"] = "3" },
			ErrUnsupported, "learner.learner_model_param.num_class is 3"},
		{"version", func(d map[string]any) { d["version"] = []any{4, 0, 0} }, ErrUnsupported, "XGBoost 4.0.0"},
		{"gblinear", func(d map[string]any) { obj(d, "learner", "gradient_booster")["name"] = "gblinear" },
			ErrUnsupported, `booster "gblinear"`},
		{"vector leaf", func(d map[string]any) { obj(firstTree(d), "tree_param")["size_leaf_vector"] = "2" },
			ErrUnsupported, "trees[0].tree_param.size_leaf_vector is 2"},
		{"tree group", func(d map[string]any) {
			obj(d, "learner", "gradient_booster", "model")["tree_info"].([]any)[3] = 1
		}, ErrUnsupported, "tree_info[3]"},
		{"base score", func(d map[string]any) { obj(d, "learner", "learner_model_param")["base_score"] = "1.5E0" },
			ErrFormat, "not a probability"},
		{"no trees", func(d map[string]any) { delete(obj(d, "learner", "gradient_booster", "model"), "trees") },
			ErrFormat, "learner.gradient_booster.model.trees: missing"},
		{"tree count", func(d map[string]any) {
			m := obj(d, "learner", "gradient_booster", "model")
			m["trees"] = m["trees"].([]any)[:29]
		}, ErrFormat, "num_trees: 30 trees, the model holds 29"},
		{"child", func(d map[string]any) { firstTree(d)["left_children"].([]any)[0] = 99 },
			ErrFormat, "trees[0]: node 0: child 99 is not one of the tree's"},
		{"cycle", func(d map[string]any) { firstTree(d)["left_children"].([]any)[1] = 0 },
			ErrFormat, "node 1: node 0 is reached twice"},
		{"half leaf", func(d map[string]any) {
			tr := firstTree(d)
			leaf := len(tr["left_children"].([]any)) - 1
			tr["left_children"].([]any)[leaf] = 1
		}, ErrFormat, "(a leaf has -1 and -1)"},
		{"feature", func(d map[string]any) { firstTree(d)["split_indices"].([]any)[0] = 4 },
			ErrFormat, "node 0: feature 4; the model has 4"},
		{"lengths", func(d map[string]any) {
			tr := firstTree(d)
			tr["sum_hessian"] = tr["sum_hessian"].([]any)[1:]
		}, ErrFormat, "trees[0].sum_hessian: 14 values for 15 nodes"},
		{"type", func(d map[string]any) { firstTree(d)["split_conditions"] = "1" },
			ErrFormat, "trees[0].split_conditions: want an array of numbers, found a string"},
		{"fraction", func(d map[string]any) { firstTree(d)["split_indices"].([]any)[0] = 1.5 },
			ErrFormat, "split_indices[0]: 1.5 is not a whole number"},
		{"names", func(d map[string]any) { d["learner"].(map[string]any)["feature_names"] = []any{"a"} },
			ErrFormat, "learner.feature_names: 1 names for 4 features"},
		{"not an object", func(d map[string]any) { d["learner"] = []any{} },
			ErrFormat, "learner: want an object, found an array"},
	} {
		_, err := edit(t, "plain.json", c.f)
		if err == nil || !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %v saying %q", c.name, err, c.is, c.want)
		}
	}
}

// TestCategoricalRefused: the category sets of a categorical split are
// checked too.
func TestCategoricalRefused(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "categorical.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The first tree: node 0 numeric, 1 a leaf, 2 and 3 categorical.
	for _, c := range []struct{ from, to, want string }{
		{`"categories_nodes":[2,3]`, `"categories_nodes":[2,0]`, "categories_nodes[1]: node 0 is not a categorical split"},
		{`"categories_nodes":[2,3]`, `"categories_nodes":[2,2]`, "node 2 has two category sets"},
		{`"categories_sizes":[10,32]`, `"categories_sizes":[10,99]`, "categories_sizes[1]: 99 is not a whole number"},
		{`"categories_sizes":[10,32]`, `"categories_sizes":[10,33]`, "categories [10, 43) of 42"},
		{`"categories_nodes":[2,3],"categories_segments":[0,10],"categories_sizes":[10,32]`,
			`"categories_nodes":[2],"categories_segments":[0],"categories_sizes":[10]`, "node 3: categorical split: no categories"},
		{`"split_type":[0,0,1,1,`, `"split_type":[0,0,1,2,`, "split_type[3]: 2 is not a whole number in [0, 1]"},
	} {
		if !bytes.Contains(data, []byte(c.from)) {
			t.Fatalf("categorical.json has no %s", c.from)
		}
		_, err := Decode(bytes.Replace(data, []byte(c.from), []byte(c.to), 1))
		if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want ErrFormat saying %q", c.to, err, c.want)
		}
	}
}

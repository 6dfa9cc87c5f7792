package lightgbm

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/boost"
)

// header is a hand-written model's header: three features, the last
// categorical, the binary objective with sigmoid S.
func header(version, objective string) string {
	return "tree\nversion=" + version + "\nnum_class=1\nnum_tree_per_iteration=1\nlabel_index=0\nmax_feature_idx=2\n" +
		"objective=" + objective + "\nfeature_names=a b c\nfeature_infos=[-5:5] [-5:5] 1:33:64:95\n"
}

// stump is a tree of one split on feature f at threshold thr, of the
// given decision_type, whose left leaf is -1 and right leaf +1 (counts 10
// and 30); cat adds cat_boundaries and cat_threshold lines.
func stump(k, f int, thr string, dt int, cat string) string {
	numCat := 0
	if cat != "" {
		numCat = 1
	}
	return fmt.Sprintf("\nTree=%d\nnum_leaves=2\nnum_cat=%d\nsplit_feature=%d\nsplit_gain=1.5\nthreshold=%s\ndecision_type=%d\n"+
		"left_child=-1\nright_child=-2\nleaf_value=-1 1\nleaf_weight=2.5 7.5\nleaf_count=10 30\ninternal_value=0.5\ninternal_weight=10\n"+
		"internal_count=40\n%sis_linear=0\nshrinkage=0.1\n", k, numCat, f, thr, dt, cat)
}

const tail = "\nend of trees\n\nfeature_importances:\na=1\n\nparameters:\n[boosting: gbdt]\n[objective: binary]\nend of parameters\n\npandas_categorical:null\n"

// decodeOne decodes a model of the given trees and converts it.
func decodeOne(t *testing.T, text string) (*Model, *boost.Model) {
	t.Helper()
	m, err := Decode([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	bm, err := m.Boost()
	if err != nil {
		t.Fatal(err)
	}
	return m, bm
}

// TestDecisionTypes checks each split rule of LightGBM on one stump, with
// the side LightGBM's Tree::NumericalDecision and CategoricalDecision
// (tree.h), and its predictor's reading of |x| <= 1e-35f as 0, send each
// value to (worked out by hand from those rules): -1 left, +1 right.
func TestDecisionTypes(t *testing.T) {
	nan := math.NaN()
	const L, R = -1.0, 1.0
	// 1, 33, 64 and 95: bits 1 of words 0 and 1, bits 0 and 31 of word 2.
	bitset := "cat_boundaries=0 3\ncat_threshold=2 2 2147483649\n"
	type val struct{ x, want float64 }
	for _, c := range []struct {
		name     string
		f        int
		thr      string
		dt       int
		cat      string
		vals     []val
		zeroFlag bool // the converted split needs boost.Tree.ZeroMissing
	}{
		// Missing type None (0): NaN is 0; x <= 0.5 goes left. The default
		// direction bit is ignored.
		{"none", 0, "0.5", 0, "", []val{{0.5, L}, {math.Nextafter(0.5, 1), R}, {-3, L}, {0, L}, {nan, L}, {1e-36, L}, {math.Inf(1), R}, {math.Inf(-1), L}}, false},
		{"none, default left, below zero", 0, "-0.5", 2, "", []val{{-0.5, L}, {-0.6, L}, {-0.4, R}, {0, R}, {nan, R}}, false},
		// Missing type NaN (8): NaN goes the default way, 0 is a value.
		{"nan, default right", 0, "0.5", 8, "", []val{{nan, R}, {0, L}, {0.5, L}, {1, R}}, false},
		{"nan, default left", 0, "0.5", 10, "", []val{{nan, L}, {0, L}, {1, R}, {-1, L}}, false},
		{"nan, default left, below zero", 1, "-0.5", 10, "", []val{{nan, L}, {0, R}, {-1, L}}, false},
		// Missing type Zero (4): 0 (|x| <= 1e-35f) and NaN go the
		// default way, even where the threshold sends 0 elsewhere.
		{"zero, default right", 0, "0.5", 4, "", []val{{0, R}, {nan, R}, {1e-36, R}, {-1e-35, R}, {math.Copysign(0, -1), R}, {2e-35, L}, {0.3, L}, {-3, L}, {1, R}}, true},
		{"zero, default left", 0, "-0.5", 6, "", []val{{0, L}, {nan, L}, {1e-35, L}, {-1, L}, {-0.5, L}, {-0.4, R}, {2, R}}, true},
		{"zero, default left, zero left anyway", 0, "0.5", 6, "", []val{{0, L}, {nan, L}, {0.3, L}, {0.6, R}, {-7, L}}, false},
		{"zero, default right, zero right anyway", 0, "-0.5", 4, "", []val{{0, R}, {nan, R}, {-0.6, L}, {-0.5, L}, {3, R}}, false},
		// Thresholds within 1e-35f of 0 (LightGBM writes
		// 1.0000000180025095e-35): the predictor reads those values as 0.
		{"zero band, above", 0, "1.0000000180025095e-35", 0, "", []val{{1e-35, L}, {5e-36, L}, {-1e-36, L}, {0, L}, {2e-35, R}, {-2e-35, L}, {nan, L}}, false},
		{"zero band, below", 0, "-1.0000000180025095e-35", 2, "", []val{{-1e-36, R}, {0, R}, {-1e-35, R}, {-2e-35, L}, {1, R}, {nan, R}}, false},
		{"zero band, tiny positive", 0, "1e-300", 0, "", []val{{1e-301, L}, {1e-200, L}, {0, L}, {2e-35, R}, {-1, L}}, false},
		{"zero band, tiny negative", 0, "-1e-300", 0, "", []val{{-1e-299, R}, {-1e-200, R}, {0, R}, {-2e-35, L}}, false},
		// Categorical (1): the bitset's codes go left: x truncated toward
		// zero; NaN, negative codes and codes past the bitset go right.
		{"categorical", 2, "0", 1, bitset, []val{{1, L}, {1.9, L}, {33, L}, {33.7, L}, {64, L}, {95, L}, {95.99, L},
			{0, R}, {2, R}, {32, R}, {34, R}, {63, R}, {96, R}, {127, R}, {1e6, R}, {1e10, R}, {math.Inf(1), R},
			{-0.5, R}, {-1, R}, {-33, R}, {nan, R}}, false},
		// Code 0 in the set: (-1, 1) truncates to it; missing type and
		// default direction do not move NaN (decision_type 1|2|8).
		{"categorical, code 0", 2, "0", 11, "cat_boundaries=0 1\ncat_threshold=1\n", []val{{0, L}, {-0.5, L}, {0.99, L}, {-1e-300, L}, {-1, R}, {1, R}, {nan, R}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, bm := decodeOne(t, header("v4", "binary sigmoid:1")+stump(0, c.f, c.thr, c.dt, c.cat)+tail)
			if got := bm.Trees[0].ZeroMissing != nil; got != c.zeroFlag {
				t.Errorf("ZeroMissing set %v, want %v", got, c.zeroFlag)
			}
			x := mat.NewDense(max(len(c.vals), 9), 3, nil) // 8 rows or more: the batch path
			for i, v := range c.vals {
				x.Set(i, c.f, v.x)
				row := []float64{0, 0, 0}
				row[c.f] = v.x
				if got := bm.PredictRowMargin(row); got != v.want {
					t.Errorf("x = %v: margin %v, want %v", v.x, got, v.want)
				}
			}
			got := bm.PredictMargin(x, nil)
			for i, v := range c.vals {
				if got[i] != v.want {
					t.Errorf("x = %v in a batch: margin %v, want %v", v.x, got[i], v.want)
				}
			}
			checkSHAP(t, m, bm, x)
			// A saved and loaded model decides the same.
			b, err := bm.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			var back boost.Model
			if err := back.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			for i, g := range back.PredictMargin(x, nil) {
				if g != got[i] {
					t.Errorf("row %d: %v after a round trip, %v before", i, g, got[i])
				}
			}
		})
	}
}

// TestThreshold: for every value near each threshold, x < Threshold(t)
// exactly when LightGBM sends x left (x, read as 0 when |x| <= 1e-35f, is
// at most t).
func TestThreshold(t *testing.T) {
	z := float64(float32(1e-35))
	lightgbm := func(x, t float64) bool {
		if x >= -z && x <= z {
			x = 0
		}
		return x <= t
	}
	var probes []float64
	for _, base := range []float64{0, z, -z, 1e-300, -1e-300, 0.5, -0.5, 1e300, math.MaxFloat64, -math.MaxFloat64, 5e-324, -5e-324} {
		v := base
		for range 3 {
			v = math.Nextafter(v, math.Inf(-1))
		}
		for range 7 {
			probes = append(probes, v)
			v = math.Nextafter(v, math.Inf(1))
		}
	}
	probes = append(probes, math.Inf(1), math.Inf(-1))
	for _, th := range probes {
		if math.IsInf(th, 0) {
			continue
		}
		u := Threshold(th)
		for _, x := range probes {
			if got, want := x < u, lightgbm(x, th); got != want {
				t.Errorf("threshold %v: x = %v goes left %v, LightGBM %v (u = %v)", th, x, got, want, u)
			}
		}
	}
}

// TestOneLeafAndScale: a tree of one leaf adds its value to every row;
// sigmoid:2 doubles the margin; cross_entropy's is as written;
// average_output divides by the trees (v3).
func TestOneLeafAndScale(t *testing.T) {
	oneLeaf := "\nTree=1\nnum_leaves=1\nnum_cat=0\nsplit_feature=\nsplit_gain=\nthreshold=\ndecision_type=\nleft_child=\nright_child=\n" +
		"leaf_value=0.25\nleaf_weight=\nleaf_count=\ninternal_value=\ninternal_weight=\ninternal_count=\nis_linear=0\nshrinkage=1\n"
	rows := [][]float64{{0.3, 0, 0}, {1, 0, 0}, {math.NaN(), math.NaN(), math.NaN()}}
	for _, c := range []struct {
		objective string
		average   bool
		scale     float64
		want      []float64
	}{
		{"binary sigmoid:1", false, 1, []float64{-0.75, 1.25, -0.75}},
		{"binary sigmoid:2", false, 2, []float64{-1.5, 2.5, -1.5}},
		{"cross_entropy", false, 1, []float64{-0.75, 1.25, -0.75}},
		{"xentropy", false, 1, []float64{-0.75, 1.25, -0.75}},
		{"binary sigmoid:1", true, 0.5, []float64{-0.375, 0.625, -0.375}},
	} {
		h := header("v3", c.objective)
		if c.average {
			h += "average_output\n"
		}
		m, bm := decodeOne(t, h+stump(0, 0, "0.5", 0, "")+oneLeaf+tail)
		if m.Trees[1].NumLeaves != 1 || bm.Trees[1].NumNodes() != 1 || m.Scale() != c.scale {
			t.Fatalf("%s: one-leaf tree read as %d leaves, %d nodes; scale %v", c.objective, m.Trees[1].NumLeaves, bm.Trees[1].NumNodes(), m.Scale())
		}
		for i, r := range rows {
			if got := bm.PredictRowMargin(r); got != c.want[i] {
				t.Errorf("%s (average %v): row %v margin %v, want %v", c.objective, c.average, r, got, c.want[i])
			}
		}
		checkSHAP(t, m, bm, dense(rows))
	}
}

// TestDecodeFields: what Decode keeps of the file.
func TestDecodeFields(t *testing.T) {
	m, bm := decodeOne(t, header("v4", "binary sigmoid:1")+"tree_sizes=300\n"+stump(0, 1, "0.5", 10, "")+tail)
	if m.Version != "v4" || m.Objective != "binary sigmoid:1" || m.Boosting != "gbdt" || m.PandasCategorical != "null" ||
		strings.Join(m.FeatureNames, ",") != "a,b,c" || m.FeatureInfos[2] != "1:33:64:95" || m.Trees[0].Shrinkage != 0.1 {
		t.Errorf("read %+v", m)
	}
	tr := bm.Trees[0]
	if tr.Gain[0] != 1.5 || tr.Cover[0] != 40 || tr.Cover[1] != 10 || tr.Cover[2] != 30 || tr.Value[0] != 0.5 || !tr.DefaultLeft[0] {
		t.Errorf("converted %+v", tr)
	}
	// Windows line ends read the same.
	m2, err := Decode([]byte(strings.ReplaceAll(header("v4", "binary sigmoid:1")+stump(0, 1, "0.5", 10, "")+tail, "\n", "\r\n")))
	if err != nil || m2.Trees[0].Threshold[0] != 0.5 {
		t.Errorf("CRLF: %v", err)
	}
}

// TestDecodeRefused: each malformed or unsupported file is refused with
// the error it deserves, naming what and where.
func TestDecodeRefused(t *testing.T) {
	good := header("v4", "binary sigmoid:1") + stump(0, 0, "0.5", 0, "") + tail
	swap := func(old, new string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("%q not in the model", old)
		}
		return strings.Replace(good, old, new, 1)
	}
	for _, c := range []struct {
		name, text string
		want       error
		says       string
	}{
		{"empty", "", ErrFormat, "empty"},
		{"json", `{"name":"tree"}`, ErrFormat, "save_model"},
		{"not tree", "hello\n", ErrFormat, `line 1 is "hello"`},
		{"multiclass", swap("num_class=1", "num_class=3"), ErrUnsupported, "num_class=3"},
		{"trees per iteration", swap("num_tree_per_iteration=1", "num_tree_per_iteration=3"), ErrUnsupported, "num_tree_per_iteration=3"},
		{"multiclass objective", swap("objective=binary sigmoid:1", "objective=multiclass num_class:3"), ErrFormat, "num_class=1 for the multiclass objective"},
		{"multiclassova", swap("objective=binary sigmoid:1", "objective=multiclassova num_class:1 sigmoid:1"), ErrUnsupported, "one-vs-all probabilities"},
		{"regression", swap("objective=binary sigmoid:1", "objective=regression"), ErrUnsupported, `line 7: objective "regression"`},
		{"lambdarank", swap("objective=binary sigmoid:1", "objective=lambdarank"), ErrUnsupported, `objective "lambdarank"`},
		{"cross_entropy_lambda", swap("objective=binary sigmoid:1", "objective=cross_entropy_lambda"), ErrUnsupported, "cross_entropy_lambda"},
		{"custom", swap("objective=binary sigmoid:1\n", ""), ErrUnsupported, "custom objective"},
		{"no sigmoid", swap("binary sigmoid:1", "binary"), ErrFormat, "sigmoid parameter"},
		{"bad sigmoid", swap("sigmoid:1", "sigmoid:-2"), ErrFormat, "sigmoid parameter"},
		{"version", swap("version=v4", "version=v1"), ErrUnsupported, `version "v1"`},
		{"no version", swap("version=v4\n", ""), ErrFormat, "no version line"},
		{"v2 forest", swap("version=v4", "version=v2\naverage_output"), ErrUnsupported, "LightGBM before 2.2.3"},
		{"linear", swap("is_linear=0", "is_linear=1"), ErrUnsupported, "linear trees"},
		{"linear parameter", swap("[boosting: gbdt]", "[linear_tree: 1]"), ErrUnsupported, "linear trees"},
		{"names", swap("feature_names=a b c", "feature_names=a b"), ErrFormat, "2 feature names, want max_feature_idx+1 = 3"},
		{"huge feature count", swap("max_feature_idx=2", "max_feature_idx=2000000000"), ErrFormat, "want max_feature_idx+1 = 2000000001"},
		{"infos", swap("feature_infos=[-5:5] [-5:5] 1:33:64:95", "feature_infos=none"), ErrFormat, "1 feature infos"},
		{"duplicate", swap("num_class=1", "num_class=1\nnum_class=1"), ErrFormat, `"num_class" again`},
		{"tree number", swap("Tree=0", "Tree=1"), ErrFormat, `"Tree=1", want "Tree=0"`},
		{"huge num_leaves", swap("num_leaves=2", "num_leaves=2000000000"), ErrFormat, "leaf_value): 2 values, want 2000000000"},
		{"leaf values", swap("leaf_value=-1 1", "leaf_value=-1"), ErrFormat, "(tree 0, leaf_value): 1 values, want 2"},
		{"leaf NaN", swap("leaf_value=-1 1", "leaf_value=-1 nan"), ErrFormat, `value 2 is "nan"`},
		{"threshold NaN", swap("threshold=0.5", "threshold=nan"), ErrFormat, "threshold"},
		{"threshold inf", swap("threshold=0.5", "threshold=inf"), ErrFormat, "threshold"},
		{"feature", swap("split_feature=0", "split_feature=3"), ErrFormat, "(tree 0, split_feature): value 1 is \"3\""},
		{"child", swap("right_child=-2", "right_child=-3"), ErrFormat, "right_child"},
		{"leaf twice", swap("right_child=-2", "right_child=-1"), ErrFormat, "leaf 0 is reached twice"},
		{"root as child", swap("right_child=-2", "right_child=0"), ErrFormat, "split node 0 is reached twice"},
		{"missing type 3", swap("decision_type=0", "decision_type=12"), ErrFormat, "missing type 3"},
		{"decision type", swap("decision_type=0", "decision_type=16"), ErrFormat, "decision_type"},
		{"no bitsets", swap("decision_type=0", "decision_type=1"), ErrFormat, "not one of the 0 (num_cat)"},
		{"no num_leaves", swap("num_leaves=2\n", ""), ErrFormat, "tree 0 has no num_leaves line"},
		{"no split_feature", swap("split_feature=0\n", ""), ErrFormat, "tree 0 has no split_feature line"},
		{"tree sizes", swap("feature_infos=[-5:5] [-5:5] 1:33:64:95", "feature_infos=[-5:5] [-5:5] 1:33:64:95\ntree_sizes=1 2"), ErrFormat, "2 sizes for 1 trees"},
		{"no trees", header("v4", "binary sigmoid:1") + tail, ErrFormat, "no trees"},
		{"truncated", good[:strings.Index(good, "end of trees")], ErrFormat, "truncated"},
	} {
		_, err := Decode([]byte(c.text))
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: Decode = %v, want %v saying %q", c.name, err, c.want, c.says)
		}
	}

	cat := func(bounds, words string) string {
		return header("v4", "binary sigmoid:1") + stump(0, 2, "0", 1, "cat_boundaries="+bounds+"\ncat_threshold="+words+"\n") + tail
	}
	for _, c := range []struct{ name, text, says string }{
		{"bounds count", cat("0 1 2", "1 1"), "3 values, want num_cat+1 = 2"},
		{"bounds start", cat("1 2", "1 1"), "first boundary is 1"},
		{"words count", cat("0 3", "1 1"), "(tree 0, cat_threshold): 2 values, want 3"},
		{"word range", cat("0 1", "4294967296"), `"4294967296"`},
		{"empty bitset", cat("0 1", "0"), "empty bitset"},
		{"huge words", cat("0 2000000000", "1"), "1 values, want 2000000000"},
	} {
		_, err := Decode([]byte(c.text))
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: Decode = %v, want ErrFormat saying %q", c.name, err, c.says)
		}
	}
	// Two splits of one tree may not share a bitset.
	shared := header("v4", "binary sigmoid:1") + "\nTree=0\nnum_leaves=3\nnum_cat=1\nsplit_feature=2 2\nthreshold=0 0\ndecision_type=1 1\n" +
		"left_child=1 -1\nright_child=-2 -3\nleaf_value=1 2 3\ncat_boundaries=0 1\ncat_threshold=6\n" + tail
	if _, err := Decode([]byte(shared)); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "which another split uses") {
		t.Errorf("shared bitset: %v", err)
	}
}

// TestTruncated: a fixture cut anywhere before its "end of trees" line is
// refused with ErrFormat, never read as a smaller model.
func TestTruncated(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "lg_dart_breast_cancer.model"))
	if err != nil {
		t.Fatal(err)
	}
	end := bytes.Index(b, []byte("end of trees"))
	for n := 0; n < end+len("end of tree"); n += 7 {
		if _, err := Decode(b[:n]); !errors.Is(err, ErrFormat) {
			t.Fatalf("cut at %d bytes: Decode = %v, want ErrFormat", n, err)
		}
	}
	if _, err := Decode(b[:end+len("end of trees")]); err != nil {
		t.Errorf("cut after \"end of trees\": %v", err)
	}
}

// TestBoostHandBuilt: Boost refuses a Tree built by hand whose arrays or
// structure are wrong, rather than panic or loop.
func TestBoostHandBuilt(t *testing.T) {
	base := func() *Model {
		return &Model{Sigmoid: 1, NumFeature: 1, Trees: []Tree{{NumLeaves: 2, SplitFeature: []int32{0}, SplitGain: []float64{0},
			Threshold: []float64{0.5}, DecisionType: []uint8{0}, Left: []int32{-1}, Right: []int32{-2}, InternalValue: []float64{0},
			InternalCount: []float64{2}, LeafValue: []float64{1, 2}, LeafCount: []float64{1, 1}}}}
	}
	if _, err := base().Boost(); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func(*Model){
		"leaves":    func(m *Model) { m.Trees[0].NumLeaves = 3 },
		"feature":   func(m *Model) { m.Trees[0].SplitFeature[0] = 1 },
		"child":     func(m *Model) { m.Trees[0].Right[0] = -3 },
		"twice":     func(m *Model) { m.Trees[0].Right[0] = -1 },
		"threshold": func(m *Model) { m.Trees[0].Threshold[0] = math.Inf(1) },
		"bitset":    func(m *Model) { m.Trees[0].DecisionType[0] = 1 },
		"sigmoid":   func(m *Model) { m.Sigmoid = 0 },
		"features":  func(m *Model) { m.NumFeature = 0 },
	} {
		m := base()
		f(m)
		if _, err := m.Boost(); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: Boost = %v, want ErrFormat", name, err)
		}
	}
}

package tree

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aer-go/aer/learn"
)

// sklearnMulti is testdata/sklearn_multiclass.json (see
// sklearn_multiclass.py).
type sklearnMulti struct {
	Classes int         `json:"classes"`
	X       [][]float64 `json:"X"`
	Y       []int       `json:"y"`
	W       []float64   `json:"w"`
	XTest   [][]float64 `json:"X_test"`
	Trees   []struct {
		sklearnTree
		ProbaTest []float64 `json:"proba_test"`
	} `json:"trees"`
}

// TestSklearnMulticlass compares multi-class trees (4 classes) with
// scikit-learn 1.2.1's DecisionTreeClassifier node for node, and their
// class probabilities on the training rows and on other rows to 1e-12.
// The values lie on a 1/1024 grid and the trees are cut so that no two
// splits tie.
func TestSklearnMulticlass(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "sklearn_multiclass.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g sklearnMulti
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	k := g.Classes
	x := dense(g.X)
	for _, c := range g.Trees {
		var s Settings
		weighted := false
		var keys []string
		for key, v := range c.Settings {
			if key == "weights" {
				weighted = v.(bool)
				continue
			}
			if err := s.Set(key, fmt.Sprint(v)); err != nil {
				t.Fatal(err)
			}
			keys = append(keys, fmt.Sprintf("%s=%v", key, v))
		}
		name := strings.Join(keys, ",")
		if weighted {
			name += ",weighted"
		}
		ref := collapsePure(c.sklearnTree)
		t.Run(name, func(t *testing.T) {
			d := &learn.Data{X: x, Y: g.Y}
			if weighted {
				d.W = g.W
				if s.ClassWeight == Balanced {
					// scikit-learn balances class counts, not weights:
					// fold the count-balanced weights into the rows'.
					cw, err := Balanced.OfMulti(g.Y, nil, k)
					if err != nil {
						t.Fatal(err)
					}
					d.W = make([]float64, len(g.W))
					for i, w := range g.W {
						d.W[i] = w * cw[g.Y[i]]
					}
					s.ClassWeight = ClassWeight{}
				}
			}
			for _, presort := range []bool{true, false} {
				gr, err := NewMultiGrower(context.Background(), d.X, d.Y, k, 1)
				if err != nil {
					t.Fatal(err)
				}
				tr, err := gr.grow(context.Background(), Sample{Weight: d.W}, s, nil, modeOf(presort), nil)
				if err != nil {
					t.Fatal(err)
				}
				if tr.NumNodes() != len(ref.Feature) {
					t.Fatalf("presort %v: %d nodes, scikit-learn %d", presort, tr.NumNodes(), len(ref.Feature))
				}
				for i := range ref.Feature {
					f := ref.Feature[i]
					if f == -2 {
						f = -1
					}
					if tr.Feature[i] != f || tr.Left[i] != ref.Left[i] || tr.Right[i] != ref.Right[i] || tr.Samples[i] != ref.Samples[i] {
						t.Errorf("presort %v: node %d: feature %d, children %d %d, %d rows; scikit-learn %d, %d %d, %d",
							presort, i, tr.Feature[i], tr.Left[i], tr.Right[i], tr.Samples[i], f, ref.Left[i], ref.Right[i], ref.Samples[i])
					}
					if f >= 0 && tr.Threshold[i] != ref.Threshold[i] {
						t.Errorf("presort %v: node %d: threshold %v, scikit-learn %v", presort, i, tr.Threshold[i], ref.Threshold[i])
					}
					if !near(tr.Weight[i], ref.Weight[i]) || !near(tr.Impurity[i], ref.Impurity[i]) {
						t.Errorf("presort %v: node %d: weight %v, impurity %v; scikit-learn %v, %v", presort, i, tr.Weight[i], tr.Impurity[i], ref.Weight[i], ref.Impurity[i])
					}
				}
				m := &MultiModel{fitted{tree: tr}}
				for _, set := range []struct {
					rows [][]float64
					want []float64
				}{{g.X, c.Proba}, {g.XTest, c.ProbaTest}} {
					p, err := m.PredictProba(dense(set.rows), nil)
					if err != nil {
						t.Fatal(err)
					}
					if len(p) != len(set.want) {
						t.Fatalf("%d probabilities, scikit-learn %d", len(p), len(set.want))
					}
					worst := 0.0
					for i := range p {
						worst = max(worst, math.Abs(p[i]-set.want[i]))
					}
					if worst > 1e-12 {
						t.Errorf("presort %v: probabilities differ from scikit-learn's by up to %g", presort, worst)
					}
				}
				imp := make([]float64, len(g.X[0]))
				tr.Importance(imp)
				Normalize(imp)
				for j := range imp {
					if !near(imp[j], c.Importance[j]) {
						t.Errorf("presort %v: importance %v, scikit-learn %v", presort, imp, c.Importance)
						break
					}
				}
			}
		})
	}
}

package adaboost

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/tree"
)

// sklearnMultiFits is testdata/sklearn_multiclass.json (see
// sklearn_multiclass.py).
type sklearnMultiFits struct {
	Classes int `json:"classes"`
	sklearnFits
}

// fixedRuleMulti is the under-sample of sklearn_multiclass.py's round
// r: of every class c but the smallest, rows_c[(17r + 31j) mod n_c] for
// j < n_min, and every row of the smallest, as positions in increasing
// order.
func fixedRuleMulti(y []int, k, r int) []int32 {
	rows := make([][]int, k)
	for i, v := range y {
		rows[v] = append(rows[v], i)
	}
	small := 0
	for c := range k {
		if len(rows[c]) < len(rows[small]) {
			small = c
		}
	}
	in := make([]bool, len(y))
	for c := range k {
		for j := range rows[small] {
			if c == small {
				in[rows[c][j]] = true
			} else {
				in[rows[c][(17*r+31*j)%len(rows[c])]] = true
			}
		}
	}
	var pick []int32
	for i, ok := range in {
		if ok {
			pick = append(pick, int32(i))
		}
	}
	return pick
}

// TestSklearnMulticlass compares multi-class AdaBoost SAMME.R
// (scikit-learn 1.2.1's AdaBoostClassifier on 3 classes) and RUSBoost
// (imbalanced-learn 0.10.0's RUSBoostClassifier, its random
// under-sampler replaced by a fixed rule that the test reproduces) round
// by round: the weighted errors, the decision function, the class
// probabilities and the feature importances, within 1e-9 (the sums are
// added in other orders). The depth-2 fit is cut to 25 rounds: in round
// 27 the two choose different thresholds of one node.
func TestSklearnMulticlass(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "sklearn_multiclass.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g sklearnMultiFits
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	k := g.Classes
	x := mat.NewDense(len(g.X), len(g.X[0]), nil)
	for i, r := range g.X {
		x.SetRow(i, r)
	}
	d := &learn.Data{X: x, Y: g.Y}
	const tol = 1e-9
	for _, f := range g.Fits {
		t.Run(f.Name, func(t *testing.T) {
			data := *d
			if f.Weighted {
				data.W = g.W
			}
			s := Settings{NEstimators: f.Rounds, LearningRate: f.LearningRate, Tree: &tree.Settings{MaxDepth: f.MaxDepth}}
			var e *MultiEnsemble
			if f.Name[:3] != "rus" {
				var err error
				if e, err = FitClasses(context.Background(), &data, k, s, 0, 1, nil); err != nil {
					t.Fatal(err)
				}
			} else {
				s.UnderSample = true
				gr, err := tree.NewMultiGrower(context.Background(), data.X, data.Y, k, 1)
				if err != nil {
					t.Fatal(err)
				}
				b, err := newBooster(context.Background(), gr, data.X, data.Y, nil, data.W, nil, s.Resolved())
				if err != nil {
					t.Fatal(err)
				}
				b.count = make([]int32, b.n)
				for r := range f.Rounds {
					pick := fixedRuleMulti(data.Y, k, r)
					clear(b.count)
					for _, i := range pick {
						b.count[i] = 1
					}
					stop, err := b.round(context.Background(), r, nil, pick)
					if err != nil || stop {
						t.Fatalf("round %d: stop %v, %v", r, stop, err)
					}
				}
				e = &MultiEnsemble{NumFeatures: 4, Classes: k, Trees: b.tree, Errors: b.errs, terms: b.terms}
			}
			if len(e.Trees) != f.Rounds {
				t.Fatalf("%d rounds, scikit-learn %d", len(e.Trees), f.Rounds)
			}
			for r, v := range e.Errors {
				if math.Abs(v-f.Errors[r]) > tol {
					t.Fatalf("round %d: weighted error %v, scikit-learn %v", r+1, v, f.Errors[r])
				}
			}
			dec, p := make([]float64, k), make([]float64, k)
			for i := range d.Y {
				row := d.X.RawRowView(i)
				e.decision(row, dec)
				e.predictRow(row, p)
				for c := range k {
					if math.Abs(dec[c]-f.Decision[i*k+c]) > tol {
						t.Fatalf("row %d: decision %v, scikit-learn %v", i, dec, f.Decision[i*k:(i+1)*k])
					}
					if math.Abs(p[c]-f.Proba[i*k+c]) > tol {
						t.Fatalf("row %d: probabilities %v, scikit-learn %v", i, p, f.Proba[i*k:(i+1)*k])
					}
				}
			}
			for j, v := range e.Importance() {
				if math.Abs(v-f.Importance[j]) > tol {
					t.Errorf("feature %d: importance %v, scikit-learn %v", j, v, f.Importance[j])
				}
			}
		})
	}
}

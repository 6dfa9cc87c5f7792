package tree

import (
	"context"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/sharedtest"
	"github.com/aer-go/aer/learn"
)

// baselines is the part of ../shared/golden/baselines.json these tests
// read: scikit-learn 1.2.1 DecisionTreeClassifier fits of a 280-row
// dataset (40 of class 1), their tree_ arrays and scores of 60 more rows.
type baselines struct {
	X      [][]float64 `json:"X"`
	Y      []int       `json:"y"`
	XScore [][]float64 `json:"X_score"`
	Cart   []struct {
		Criterion   string    `json:"criterion"`
		ClassWeight *string   `json:"class_weight"`
		MaxDepth    *int      `json:"max_depth"`
		NodeCount   int       `json:"node_count"`
		Depth       int       `json:"depth"`
		Leaves      int       `json:"leaves"`
		Feature     []int32   `json:"feature"`
		Threshold   []float64 `json:"threshold"`
		Left        []int32   `json:"children_left"`
		Right       []int32   `json:"children_right"`
		Weight      []float64 `json:"weighted_n_node_samples"`
		Proba       []float64 `json:"proba_score"`
	} `json:"cart"`
}

func dense(rows [][]float64) *mat.Dense {
	x := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		x.SetRow(i, r)
	}
	return x
}

// TestGoldenSklearn grows the eight trees of the golden file (gini and
// entropy, no class weights and balanced, depth 3 and unlimited) and
// compares them with scikit-learn's. Depth-3 trees are compared node for
// node: features, children, weighted node sizes, thresholds to float32
// precision (scikit-learn works in float32) and the scores of new rows.
// Fully grown trees are not unique: a node of two rows of different
// classes is split as well by any feature that separates them, and
// scikit-learn, which searches features in a random order, takes any
// (its random_state changes the number of nodes on this data from 79 to
// 91); what every fully grown tree shares is its training predictions.
func TestGoldenSklearn(t *testing.T) {
	var g baselines
	sharedtest.Golden(t, "baselines.json", &g)
	train := &learn.Data{X: dense(g.X), Y: g.Y}
	score := dense(g.XScore)
	for _, c := range g.Cart {
		s := Settings{Criterion: c.Criterion}
		name := c.Criterion
		if c.ClassWeight != nil {
			cw, err := ParseClassWeight(*c.ClassWeight)
			if err != nil {
				t.Fatal(err)
			}
			s.ClassWeight = cw
			name += "/" + *c.ClassWeight
		}
		if c.MaxDepth != nil {
			s.MaxDepth = *c.MaxDepth
			name += "/depth3"
		}
		t.Run(name, func(t *testing.T) {
			tr, err := Fit(context.Background(), train, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.MaxDepth == nil {
				checkFullyGrown(t, tr, train, s.ClassWeight)
				return
			}
			if tr.NumNodes() != c.NodeCount || tr.Depth() != c.Depth || tr.NumLeaves() != c.Leaves {
				t.Errorf("%d nodes, depth %d, %d leaves; scikit-learn %d, %d, %d",
					tr.NumNodes(), tr.Depth(), tr.NumLeaves(), c.NodeCount, c.Depth, c.Leaves)
			}
			for i := range min(tr.NumNodes(), c.NodeCount) {
				f := c.Feature[i]
				if f == -2 {
					f = -1
				}
				if tr.Feature[i] != f || tr.Left[i] != c.Left[i] || tr.Right[i] != c.Right[i] {
					t.Errorf("node %d: feature %d, children %d %d; scikit-learn %d, %d %d", i, tr.Feature[i], tr.Left[i], tr.Right[i], f, c.Left[i], c.Right[i])
				}
				if f >= 0 && math.Abs(tr.Threshold[i]-c.Threshold[i]) > 1e-6*math.Max(1, math.Abs(c.Threshold[i])) {
					t.Errorf("node %d: threshold %v, scikit-learn %v", i, tr.Threshold[i], c.Threshold[i])
				}
				if math.Abs(tr.Weight[i]-c.Weight[i]) > 1e-9*c.Weight[0] {
					t.Errorf("node %d: weight %v, scikit-learn %v", i, tr.Weight[i], c.Weight[i])
				}
			}
			m := &Model{fitted: fitted{tree: tr}}
			p, err := m.PositiveProba(score, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range p {
				if math.Abs(p[i]-c.Proba[i]) > 1e-12 {
					t.Errorf("scored row %d: %v, scikit-learn %v", i, p[i], c.Proba[i])
				}
			}
		})
	}
}

// checkFullyGrown checks the training predictions of a fully grown tree,
// those of scikit-learn's: each row gets the weighted share of class 1
// among the training rows equal to it (a leaf holds rows of one class, or
// rows that no feature separates).
func checkFullyGrown(t *testing.T, tr *Tree, train *learn.Data, cw ClassWeight) {
	t.Helper()
	w0, w1 := cw.Of(train.Y, nil)
	sum := map[string][2]float64{}
	key := func(i int) string { return fmt.Sprint(train.X.RawRowView(i)) }
	for i, y := range train.Y {
		s := sum[key(i)]
		if y == 1 {
			s[1] += w1
		} else {
			s[0] += w0
		}
		sum[key(i)] = s
	}
	for i := range train.Y {
		s := sum[key(i)]
		want := s[1] / (s[0] + s[1])
		if got := tr.PredictRow(train.X.RawRowView(i)); math.Abs(got-want) > 1e-12 {
			t.Errorf("training row %d: %v, want %v", i, got, want)
		}
	}
	for i, f := range tr.Feature {
		if f < 0 && tr.Impurity[i] != 0 && len(sum) == len(train.Y) {
			t.Errorf("leaf %d has impurity %v, and every training row is distinct", i, tr.Impurity[i])
		}
	}
}

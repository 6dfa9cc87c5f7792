package boost

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/sharedtest"
)

func sharedDir(t testing.TB) string { return sharedtest.Path(t) }

type xgbNode struct {
	NodeID   int       `json:"nodeid"`
	Split    string    `json:"split"`
	Cond     float64   `json:"split_condition"`
	Yes      int       `json:"yes"`
	No       int       `json:"no"`
	Missing  int       `json:"missing"`
	Gain     float64   `json:"gain"`
	Cover    float64   `json:"cover"`
	Leaf     *float64  `json:"leaf"`
	Children []xgbNode `json:"children"`
}

type xgbGolden struct {
	X        [][]float64  `json:"X"`
	XMissing [][]*float64 `json:"X_missing"`
	Y        []int        `json:"y"`
	Cases    []struct {
		Name    string               `json:"name"`
		Params  map[string]any       `json:"params"`
		Trees   []string             `json:"trees_text"`
		Margins map[string][]float64 `json:"margins"`
	} `json:"cases"`
}

func loadGolden(t *testing.T) *xgbGolden {
	path := filepath.Join(sharedDir(t), "golden", "xgboost_small.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("golden file absent: %v", err)
	}
	var g xgbGolden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return &g
}

func compareTree(t *testing.T, where string, got *Tree, i int32, want *xgbNode) {
	t.Helper()
	const tol = 1e-5
	rel := func(a, b float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }
	if want.Leaf != nil {
		if got.Left[i] >= 0 {
			t.Errorf("%s node %d: got a split on f%d < %v, want leaf %v", where, i, got.Feature[i], got.Threshold[i], *want.Leaf)
			return
		}
		if !rel(got.Value[i], *want.Leaf) || !rel(got.Cover[i], want.Cover) {
			t.Errorf("%s leaf %d: value %v cover %v, want %v, %v", where, i, got.Value[i], got.Cover[i], *want.Leaf, want.Cover)
		}
		return
	}
	if got.Left[i] < 0 {
		t.Errorf("%s node %d: got leaf %v, want split %s < %v", where, i, got.Value[i], want.Split, want.Cond)
		return
	}
	f, _ := strconv.Atoi(want.Split[1:])
	dl := want.Missing == want.Yes
	if int(got.Feature[i]) != f || float32(got.Threshold[i]) != float32(want.Cond) || got.DefaultLeft[i] != dl {
		t.Errorf("%s node %d: split f%d < %v (missing left %v), want %s < %v (missing left %v)",
			where, i, got.Feature[i], got.Threshold[i], got.DefaultLeft[i], want.Split, want.Cond, dl)
		return
	}
	if !rel(got.Gain[i], want.Gain) || !rel(got.Cover[i], want.Cover) {
		t.Errorf("%s node %d: gain %v cover %v, want %v, %v", where, i, got.Gain[i], got.Cover[i], want.Gain, want.Cover)
	}
	var yes, no *xgbNode
	for k := range want.Children {
		switch want.Children[k].NodeID {
		case want.Yes:
			yes = &want.Children[k]
		case want.No:
			no = &want.Children[k]
		}
	}
	compareTree(t, where, got, got.Left[i], yes)
	compareTree(t, where, got, got.Left[i]+1, no)
}

// TestXGBoostParity trains on the golden data with each case's parameters
// and checks the trees (splits, default directions, gains, covers, leaf
// values) and the training margins against XGBoost 1.7's hist method.
func TestXGBoostParity(t *testing.T) {
	g := loadGolden(t)
	n := len(g.X)
	for _, c := range g.Cases {
		t.Run(c.Name, func(t *testing.T) {
			x := mat.NewDense(n, len(g.X[0]), nil)
			for i := range n {
				for j := range g.X[i] {
					v := g.X[i][j]
					if c.Name == "missing" {
						v = math.NaN()
						if p := g.XMissing[i][j]; p != nil {
							v = *p
						}
					}
					x.Set(i, j, v)
				}
			}
			var s Settings
			for k, v := range c.Params {
				switch k {
				case "tree_method", "nthread":
					continue
				case "objective":
					if v != "binary:logistic" {
						t.Fatalf("objective %v", v)
					}
					continue
				}
				if err := s.Set(k, strconv.FormatFloat(v.(float64), 'g', -1, 64)); err != nil {
					t.Fatal(err)
				}
			}
			s.NEstimators = len(c.Trees)
			m, err := Train(context.Background(), Data{X: x, Y: g.Y}, nil, &s)
			if err != nil {
				t.Fatal(err)
			}
			for k, text := range c.Trees {
				var want xgbNode
				if err := json.Unmarshal([]byte(text), &want); err != nil {
					t.Fatal(err)
				}
				compareTree(t, c.Name+" tree "+strconv.Itoa(k), &m.Trees[k], 0, &want)
			}
			for rounds, want := range c.Margins {
				r, _ := strconv.Atoi(rounds)
				got := m.FirstTrees(r).PredictMargin(x, nil)
				worst := 0.0
				for i := range want {
					worst = math.Max(worst, math.Abs(got[i]-want[i]))
				}
				if worst > 1e-5 {
					t.Errorf("after %d rounds: max |margin - XGBoost| = %.3g, want <= 1e-5", r, worst)
				} else {
					t.Logf("after %d rounds: max |margin - XGBoost| = %.3g", r, worst)
				}
			}
		})
	}
}

package boost

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/internal/sharedtest"
	"github.com/aer-go/aer/learn"
)

// multiGolden is testdata/xgb_multiclass.json, made by
// testdata/xgb_multiclass.py with XGBoost 1.7.4.
type multiGolden struct {
	Data map[string]struct {
		X [][]*float64 `json:"X"`
		Y []int        `json:"y"`
	} `json:"data"`
	Cases []struct {
		Name     string                 `json:"name"`
		Data     string                 `json:"data"`
		Params   map[string]any         `json:"params"`
		Rounds   int                    `json:"rounds"`
		Classes  int                    `json:"classes"`
		Weight   []float64              `json:"weight"`
		Margins  map[string][][]float64 `json:"margins"`
		Proba    [][]float64            `json:"proba"`
		Contribs [][][]float64          `json:"contribs"`
		Import   map[string][]float64   `json:"importance"`
	} `json:"cases"`
	Shared []struct {
		Name    string         `json:"name"`
		Table   string         `json:"table"`
		Params  map[string]any `json:"params"`
		Rounds  int            `json:"rounds"`
		Classes int            `json:"classes"`
		Rows    []int          `json:"rows"`
		Margins [][]float64    `json:"margins"`
	} `json:"shared_cases"`
}

func loadMultiGolden(t *testing.T) *multiGolden {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "xgb_multiclass.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g multiGolden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return &g
}

// goldenSettings turns XGBoost's parameters into Settings.
func goldenSettings(t *testing.T, params map[string]any, rounds int) Settings {
	t.Helper()
	var s Settings
	for k, v := range params {
		switch k {
		case "tree_method", "nthread", "seed", "num_class", "objective":
			continue
		case "grow_policy":
			if v != "lossguide" {
				t.Fatalf("grow_policy %v", v)
			}
			s.GrowPolicy = LeafWise
			continue
		}
		if err := s.Set(k, strconv.FormatFloat(v.(float64), 'g', -1, 64)); err != nil {
			t.Fatal(err)
		}
	}
	s.NEstimators = rounds
	return s
}

func denseOf(rows [][]*float64) *mat.Dense {
	x := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, row := range rows {
		for j, v := range row {
			x.Set(i, j, math.NaN())
			if v != nil {
				x.Set(i, j, *v)
			}
		}
	}
	return x
}

// maxDiff is the largest |got[i*k+c] - want[i][c]|.
func maxDiff(got []float64, want [][]float64) float64 {
	worst := 0.0
	for i, row := range want {
		for c, w := range row {
			worst = math.Max(worst, math.Abs(got[i*len(row)+c]-w))
		}
	}
	return worst
}

// TestXGBoostMultiParity trains each golden case as XGBoost 1.7's
// multi:softprob did (hist, exact cuts: 3 and 5 classes, depths 2 to 4,
// L1/L2 penalties, gamma, min_child_weight, row weights, missing values,
// base_score, leaf-wise growth, and the glass and ecoli6 tables) and
// checks the training margins, base_score included, within 1e-5 of
// XGBoost's after all rounds (and half of them), the probabilities of the
// first 40 rows, and their TreeSHAP values per class against
// pred_contribs and the importances against get_score's.
func TestXGBoostMultiParity(t *testing.T) {
	g := loadMultiGolden(t)
	for _, c := range g.Cases {
		t.Run(c.Name, func(t *testing.T) {
			d := g.Data[c.Data]
			x := denseOf(d.X)
			s := goldenSettings(t, c.Params, c.Rounds)
			m, err := TrainMulti(context.Background(), Data{X: x, Y: d.Y, Weight: c.Weight}, nil, c.Classes, &s)
			if err != nil {
				t.Fatal(err)
			}
			if m.NumClasses() != c.Classes || len(m.Trees) != c.Rounds {
				t.Fatalf("%d classes, %d rounds; want %d, %d", m.NumClasses(), len(m.Trees), c.Classes, c.Rounds)
			}
			x40 := x.Slice(0, 40, 0, m.NumFeatures()).(*mat.Dense)
			for rounds, want := range c.Margins {
				r, _ := strconv.Atoi(rounds)
				xr := x
				if len(want) < len(d.Y) {
					xr = x40
				}
				got, err := m.FirstRounds(r).Margins(xr, nil)
				if err != nil {
					t.Fatal(err)
				}
				worst := maxDiff(got, want)
				if worst > 1e-5 {
					t.Errorf("after %d rounds: max |margin - XGBoost| = %.3g over %d rows, want <= 1e-5", r, worst, len(want))
				} else {
					t.Logf("after %d rounds: max |margin - XGBoost| = %.3g over %d rows", r, worst, len(want))
				}
			}
			p, err := m.PredictProba(x40, nil)
			if err != nil {
				t.Fatal(err)
			}
			if worst := maxDiff(p, c.Proba); worst > 1e-6 {
				t.Errorf("max |probability - XGBoost| = %.3g, want <= 1e-6", worst)
			}
			if c.Contribs == nil {
				return
			}
			worst := 0.0
			for k := range c.Classes {
				phi, err := m.Class(k).SHAP(x40, nil)
				if err != nil {
					t.Fatal(err)
				}
				base := m.Class(k).SHAPBase()
				for i, rows := range c.Contribs {
					want := rows[k]
					nf := len(want) - 1
					for f := range nf {
						worst = math.Max(worst, math.Abs(phi.At(i, f)-want[f]))
					}
					worst = math.Max(worst, math.Abs(base-want[nf]))
				}
			}
			if worst > 1e-5 {
				t.Errorf("max |SHAP - XGBoost pred_contribs| = %.3g, want <= 1e-5", worst)
			} else {
				t.Logf("max |SHAP - XGBoost pred_contribs| = %.3g", worst)
			}
			for kind, want := range c.Import {
				got, err := m.Importance(kind)
				if err != nil {
					t.Fatal(err)
				}
				for f, w := range want {
					if math.Abs(got[f]-w) > 1e-5*math.Max(1, w) {
						t.Errorf("importance %s of feature %d: %v, XGBoost %v", kind, f, got[f], w)
					}
				}
			}
		})
	}
}

// readMultiTable reads a shared multi-class table: its features, and
// its text labels as classes numbered in the sorted order of their names.
func readMultiTable(t *testing.T, path string) (*mat.Dense, []int, int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	lab := slices.Index(recs[0], "label")
	var names []string
	for _, r := range recs[1:] {
		names = append(names, r[lab])
	}
	slices.Sort(names)
	names = slices.Compact(names)
	x := mat.NewDense(len(recs)-1, len(recs[0])-1, nil)
	y := make([]int, len(recs)-1)
	for i, r := range recs[1:] {
		y[i] = slices.Index(names, r[lab])
		j := 0
		for k, cell := range r {
			if k == lab {
				continue
			}
			v, err := strconv.ParseFloat(cell, 64)
			if err != nil {
				t.Fatal(err)
			}
			x.Set(i, j, v)
			j++
		}
	}
	return x, y, len(names)
}

// TestXGBoostMultiParityShared: on whole shared tables (satellite: 6435
// rows, 36 features, 6 classes; dna: 3186 rows, 180 features, 3 classes)
// with XGBoost's default depth 6 and learning rate, 30 rounds (180 and 90
// trees) give margins within 1e-5 of XGBoost 1.7's. Skipped without the
// shared folder.
func TestXGBoostMultiParityShared(t *testing.T) {
	g := loadMultiGolden(t)
	dir := sharedtest.Path(t, "datasets-multiclass")
	for _, c := range g.Shared {
		t.Run(c.Name, func(t *testing.T) {
			x, y, k := readMultiTable(t, filepath.Join(dir, c.Table+".csv"))
			if k != c.Classes {
				t.Fatalf("%d classes, golden %d", k, c.Classes)
			}
			s := goldenSettings(t, c.Params, c.Rounds)
			m, err := TrainMulti(context.Background(), Data{X: x, Y: y}, nil, k, &s)
			if err != nil {
				t.Fatal(err)
			}
			_, nf := x.Dims()
			sub := mat.NewDense(len(c.Rows), nf, nil)
			for i, r := range c.Rows {
				sub.SetRow(i, x.RawRowView(r))
			}
			got, err := m.Margins(sub, nil)
			if err != nil {
				t.Fatal(err)
			}
			if worst := maxDiff(got, c.Margins); worst > 1e-5 {
				t.Errorf("max |margin - XGBoost| = %.3g over %d rows, want <= 1e-5", worst, len(c.Rows))
			} else {
				t.Logf("after %d rounds: max |margin - XGBoost| = %.3g over %d rows", c.Rounds, worst, len(c.Rows))
			}
		})
	}
}

// multiData is n rows of nf features in k classes: class c's rows centred
// at a point of its own on the first features; every 7th value of
// feature 1 missing.
func multiData(n, nf, k int, seed uint64) (*mat.Dense, []int) {
	r := rng.New(seed)
	x := mat.NewDense(n, nf, nil)
	y := make([]int, n)
	for i := range n {
		// Imbalanced: class c drawn about twice as often as class c+1.
		c := 0
		for c < k-1 && r.Float64() < 0.5 {
			c++
		}
		y[i] = c
		for j := range nf {
			v := r.NormFloat64()
			if j < 4 {
				v += float64((c*(j+3))%5) - 2
			}
			if j == 1 && i%7 == 3 {
				v = math.NaN()
			}
			x.Set(i, j, v)
		}
	}
	return x, y
}

// TestMultiWorkers: the same model, byte for byte, on 1, 2 and 3
// threads (one, two and three trees grown at once), depth-wise and
// leaf-wise, with row weights, row and feature sampling and missing
// values; 20000 rows make the root span two blocks.
func TestMultiWorkers(t *testing.T) {
	x, y := multiData(20_000, 8, 4, 1)
	w := make([]float64, len(y))
	for i := range w {
		w[i] = float64(1 + i%3)
	}
	for _, s := range []Settings{
		{NEstimators: 5, MaxDepth: 4, Subsample: 0.8, ColsampleByTree: 0.6, Seed: 3},
		{NEstimators: 5, GrowPolicy: LeafWise, MaxLeaves: 12, Subsample: 0.7, Seed: 4},
	} {
		var first []byte
		for th := 1; th <= 3; th++ {
			s.Threads = th
			m, err := TrainMulti(context.Background(), Data{X: x, Y: y, Weight: w}, nil, 4, &s)
			if err != nil {
				t.Fatal(err)
			}
			b, err := m.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if th == 1 {
				first = b
			} else if !bytes.Equal(b, first) {
				t.Errorf("%s: model on %d threads differs from 1 thread", s.GrowPolicy, th)
			}
		}
	}
}

// TestMultiFitLoad: FitClasses on 1 and 2 workers gives the same bytes;
// LoadClasses gives a model that encodes to the same bytes and predicts
// the same probabilities (rows summing to 1); Margins are the softmax's
// logits.
func TestMultiFitLoad(t *testing.T) {
	x, y := multiData(2000, 5, 3, 2)
	meth := New(Settings{NEstimators: 8, MaxDepth: 3, Subsample: 0.9})
	var models [2]learn.Model
	var enc [2][]byte
	for i, workers := range []int{1, 2} {
		m, err := meth.(learn.ClassFitter).FitClasses(context.Background(), &learn.Data{X: x, Y: y}, nil, 3, learn.Env{Seed: 9, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		models[i] = m
		if enc[i], err = m.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(enc[0], enc[1]) {
		t.Fatal("FitClasses on 2 workers differs from 1 worker")
	}
	loaded, err := meth.(learn.ClassFitter).LoadClasses(enc[0])
	if err != nil {
		t.Fatal(err)
	}
	again, err := loaded.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, enc[0]) {
		t.Fatal("saved, loaded and saved again: the bytes differ")
	}
	if loaded.NumClasses() != 3 || loaded.NumFeatures() != 5 {
		t.Fatalf("loaded: %d classes, %d features", loaded.NumClasses(), loaded.NumFeatures())
	}
	sum, ok := models[0].(*MultiModel).Summary().(*Summary)
	if !ok || sum.Trees != 24 || len(sum.Importance) == 0 {
		t.Errorf("summary %+v, want 24 trees and importances", sum)
	}
	if loaded.(*MultiModel).Summary() != nil {
		t.Error("a loaded model has a summary")
	}
	p0, err := models[0].PredictProba(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	p1, err := loaded.PredictProba(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	margins, err := loaded.(*MultiModel).Margins(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	right := 0
	for i := range len(y) {
		sum, best := 0.0, 0
		for c := range 3 {
			k := i*3 + c
			if p0[k] != p1[k] {
				t.Fatalf("row %d class %d: loaded model predicts %v, fitted %v", i, c, p1[k], p0[k])
			}
			sum += p0[k]
			if p0[k] > p0[i*3+best] {
				best = c
			}
			// log p_c - log p_0 = margin_c - margin_0.
			if d := math.Log(p0[k]/p0[i*3]) - (margins[k] - margins[i*3]); math.Abs(d) > 1e-9 {
				t.Fatalf("row %d class %d: log-ratio off the margins by %v", i, c, d)
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("row %d: probabilities sum to %v", i, sum)
		}
		if best == y[i] {
			right++
		}
	}
	if acc := float64(right) / float64(len(y)); acc < 0.8 {
		t.Errorf("training accuracy %.3f, want a model that learnt (>= 0.8)", acc)
	}
}

// TestMultiErrors: bad class counts, labels, data and refused settings
// are errors wrapping learn.ErrData or learn.ErrParam, never panics.
func TestMultiErrors(t *testing.T) {
	x, y := multiData(50, 3, 3, 3)
	ctx := context.Background()
	fit := func(s Settings, d *learn.Data, valid *learn.Data, k int) error {
		_, err := New(s).(learn.ClassFitter).FitClasses(ctx, d, valid, k, learn.Env{})
		return err
	}
	good := &learn.Data{X: x, Y: y}
	withY := func(f func(y []int)) *learn.Data {
		yy := append([]int(nil), y...)
		f(yy)
		return &learn.Data{X: x, Y: yy}
	}
	for _, c := range []struct {
		name  string
		s     Settings
		d     *learn.Data
		valid *learn.Data
		k     int
		want  error
	}{
		{"one class", Settings{}, &learn.Data{X: x, Y: make([]int, 50)}, nil, 1, learn.ErrData},
		{"no class", Settings{}, good, nil, 0, learn.ErrData},
		{"too many classes", Settings{}, good, nil, MaxClasses + 1, learn.ErrData},
		{"label above k", Settings{}, withY(func(y []int) { y[7] = 3 }), nil, 3, learn.ErrData},
		{"negative label", Settings{}, withY(func(y []int) { y[0] = -1 }), nil, 3, learn.ErrData},
		{"labels short", Settings{}, &learn.Data{X: x, Y: y[:10]}, nil, 3, learn.ErrData},
		{"bad validation label", Settings{}, good, withY(func(y []int) { y[3] = 5 }), 3, learn.ErrData},
		{"no rows", Settings{}, &learn.Data{}, nil, 3, learn.ErrData},
		{"zero weights", Settings{}, &learn.Data{X: x, Y: y, W: make([]float64, 50)}, nil, 3, learn.ErrData},
		{"scale_pos_weight", Settings{ScalePosWeight: 3}, good, nil, 3, learn.ErrParam},
		{"scale_pos_weight balanced", Settings{BalancedPosWeight: true}, good, nil, 3, learn.ErrParam},
		{"focal", Settings{Objective: Focal}, good, nil, 3, learn.ErrParam},
		{"weighted", Settings{Objective: Weighted, WeightedAlpha: 4}, good, nil, 3, learn.ErrParam},
		{"focal_gamma", Settings{FocalGamma: 1}, good, nil, 3, learn.ErrParam},
		{"auc", Settings{EvalMetric: AUC}, good, good, 3, learn.ErrParam},
		{"bad eta", Settings{Eta: math.NaN()}, good, nil, 3, learn.ErrParam},
		{"early stopping without validation", Settings{EarlyStoppingRounds: 2}, good, nil, 3, learn.ErrParam},
	} {
		err := fit(c.s, c.d, c.valid, c.k)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want one wrapping %v", c.name, err, c.want)
		}
	}
	// scale_pos_weight=1 is the default and is taken.
	if err := fit(Settings{ScalePosWeight: 1, NEstimators: 2}, good, nil, 3); err != nil {
		t.Errorf("scale_pos_weight 1: %v", err)
	}
	// A class without rows is learnt as rare, not refused.
	m, err := TrainMulti(ctx, Data{X: x, Y: y}, nil, 5, &Settings{NEstimators: 3})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := m.PredictProba(x, nil)
	if p[3] >= p[0] && p[3] >= p[1] {
		t.Errorf("an absent class gets probability %v", p[3])
	}
	// Train itself, and prediction on the wrong width.
	if _, err := TrainMulti(ctx, Data{X: x, Y: y}, nil, 3, &Settings{Gradient: LogisticGrad}); err == nil {
		t.Error("TrainMulti took a custom gradient")
	}
	if _, err := m.PredictProba(mat.NewDense(2, 4, nil), nil); !errors.Is(err, learn.ErrData) {
		t.Errorf("4 features for 3: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := TrainMulti(cctx, Data{X: x, Y: y}, nil, 3, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestMultiLoadErrors: LoadClasses refuses what is not a well-formed
// model, with an error.
func TestMultiLoadErrors(t *testing.T) {
	x, y := multiData(200, 3, 3, 4)
	m, err := TrainMulti(context.Background(), Data{X: x, Y: y}, nil, 3, &Settings{NEstimators: 2, MaxDepth: 2})
	if err != nil {
		t.Fatal(err)
	}
	good, _ := m.MarshalBinary()
	edit := func(f func(v map[string]any)) []byte {
		var v map[string]any
		if err := json.Unmarshal(good, &v); err != nil {
			t.Fatal(err)
		}
		f(v)
		b, _ := json.Marshal(v)
		return b
	}
	tree := func(v map[string]any, r, c int) map[string]any {
		return v["trees"].([]any)[r].([]any)[c].(map[string]any)
	}
	for name, b := range map[string][]byte{
		"not json":     []byte("{"),
		"one class":    edit(func(v map[string]any) { v["base_margin"] = []any{0.5} }),
		"short round":  edit(func(v map[string]any) { v["trees"].([]any)[1] = v["trees"].([]any)[1].([]any)[:2] }),
		"no features":  edit(func(v map[string]any) { v["num_features"] = 0 }),
		"bad child":    edit(func(v map[string]any) { tree(v, 0, 1)["left"].([]any)[0] = 0 }),
		"bad feature":  edit(func(v map[string]any) { tree(v, 1, 2)["feature"].([]any)[0] = 7 }),
		"short arrays": edit(func(v map[string]any) { tree(v, 0, 0)["value"] = []any{} }),
	} {
		if _, err := NewMethod().(learn.ClassFitter).LoadClasses(b); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
	if _, err := NewMethod().(learn.ClassFitter).LoadClasses(good); err != nil {
		t.Fatal(err)
	}
}

// FuzzLoadMulti: LoadClasses returns a model or an error, never panics,
// and a model it returns predicts.
func FuzzLoadMulti(f *testing.F) {
	x, y := multiData(200, 3, 3, 5)
	m, err := TrainMulti(context.Background(), Data{X: x, Y: y}, nil, 3, &Settings{NEstimators: 2, MaxDepth: 2})
	if err != nil {
		f.Fatal(err)
	}
	good, _ := m.MarshalBinary()
	f.Add(good)
	f.Add([]byte(`{"num_features":1,"base_margin":[0,0],"trees":[]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		mm, err := NewMethod().(learn.ClassFitter).LoadClasses(b)
		if err != nil || mm.NumFeatures() > 1000 {
			return
		}
		row := mat.NewDense(2, mm.NumFeatures(), nil)
		for j := range mm.NumFeatures() {
			row.Set(1, j, math.NaN())
		}
		p, err := mm.PredictProba(row, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(p) != 2*mm.NumClasses() {
			t.Fatalf("%d probabilities for 2 rows of %d classes", len(p), mm.NumClasses())
		}
	})
}

// TestMultiEarlyStopping: the validation curve is the multi-class
// log-loss of the first rounds' probabilities, and early stopping keeps
// the rounds up to the best one.
func TestMultiEarlyStopping(t *testing.T) {
	x, y := multiData(1500, 5, 3, 6)
	vx, vy := multiData(500, 5, 3, 7)
	s := Settings{NEstimators: 60, Eta: 0.8, MaxDepth: 6, MinChildWeight: -1, EarlyStoppingRounds: 3}
	m, err := TrainMulti(context.Background(), Data{X: x, Y: y}, &Data{X: vx, Y: vy}, 3, &s)
	if err != nil {
		t.Fatal(err)
	}
	ev := m.Eval
	if !ev.Stopped || len(m.Trees) != ev.BestIteration+1 || len(ev.Curve) != ev.BestIteration+4 {
		t.Fatalf("stopped %v at %d of %d rounds (curve %d), want a stop 3 rounds after the best", ev.Stopped, ev.BestIteration, len(m.Trees), len(ev.Curve))
	}
	for _, r := range []int{1, ev.BestIteration + 1} {
		p, err := m.FirstRounds(r).PredictProba(vx, nil)
		if err != nil {
			t.Fatal(err)
		}
		loss := 0.0
		for i, c := range vy {
			loss -= math.Log(p[i*3+c])
		}
		loss /= float64(len(vy))
		if math.Abs(loss-ev.Curve[r-1]) > 1e-12 {
			t.Errorf("round %d: curve %v, log-loss of the predictions %v", r, ev.Curve[r-1], loss)
		}
	}
	if ev.BestScore != ev.Curve[ev.BestIteration] {
		t.Errorf("best score %v, curve there %v", ev.BestScore, ev.Curve[ev.BestIteration])
	}
}

// TestMultiIntegerWeightsRepeatRows: as TestIntegerWeightsRepeatRows for
// three classes: integer row weights grow the trees that repeating each
// row that many times grows (weight 0: left out).
func TestMultiIntegerWeightsRepeatRows(t *testing.T) {
	for k, s := range []Settings{
		{NEstimators: 8, MaxDepth: 5},
		{NEstimators: 8, GrowPolicy: LeafWise, MaxLeaves: 16, Alpha: 0.3, Gamma: 0.05, MinChildWeight: 3},
	} {
		x, y2, w := coarseData(600, 10, 0.05*float64(k), uint64(k+30))
		y := make([]int, len(y2))
		for i := range y {
			y[i] = y2[i]
			if y2[i] == 0 && x.At(i, 0) > 0 {
				y[i] = 2
			}
		}
		rx, ry := repeatRows(x, y, w)
		weighted, err := TrainMulti(context.Background(), Data{X: x, Y: y, Weight: w}, nil, 3, &s)
		if err != nil {
			t.Fatal(err)
		}
		repeated, err := TrainMulti(context.Background(), Data{X: rx, Y: ry}, nil, 3, &s)
		if err != nil {
			t.Fatal(err)
		}
		for r := range weighted.Trees {
			for c := range 3 {
				if err := sameTree(&weighted.Trees[r][c], &repeated.Trees[r][c], 1e-9); err != nil {
					t.Fatalf("%s: round %d class %d: %v", s.GrowPolicy, r, c, err)
				}
			}
		}
	}
}

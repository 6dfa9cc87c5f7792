package aer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/serve"
)

func clinicTable(t *testing.T, part string) *aer.Table {
	t.Helper()
	tb, err := aer.ReadTable(filepath.Join("testdata", "clinic."+part+".csv"), &aer.ReadOptions{ID: "id", Label: "outcome"})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func gbdt(t *testing.T) learn.Method {
	m, err := aer.Method("gbdt")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestTableFromRows: structs (tags, pointers, nil as missing) and maps
// read as the same CSV would.
func TestTableFromRows(t *testing.T) {
	type row struct {
		Age    *float64 `aer:"age"`
		Clinic string   `aer:"clinic"`
		Secret string   `aer:"-"`
		hidden int
		Sick   bool `aer:"label"`
	}
	f := func(v float64) *float64 { return &v }
	rows := []*row{{f(30), "east", "s", 1, false}, {nil, "west", "s", 2, true}, {f(50), "east", "s", 3, false}, {f(60), "west", "", 0, true}}
	st, err := aer.TableFromRows(rows, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"age", "clinic=east", "clinic=west"}; !reflect.DeepEqual(st.Features(), want) {
		t.Errorf("struct features %v, want %v", st.Features(), want)
	}
	if !slices.Equal(st.Classes(), []string{"false", "true"}) || !math.IsNaN(st.Dataset().X.At(1, 0)) {
		t.Errorf("classes %v, missing age %v", st.Classes(), st.Dataset().X.At(1, 0))
	}
	maps := []map[string]any{{"age": 30, "clinic": "east", "label": false}, {"clinic": "west", "label": true},
		{"age": 50.0, "clinic": "east", "label": false}, {"age": int64(60), "clinic": "west", "label": true}}
	mt, err := aer.TableFromRows(maps, &aer.ReadOptions{Label: "label"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(mt.Features(), st.Features()) || !reflect.DeepEqual(mt.Dataset().Y, st.Dataset().Y) {
		t.Errorf("maps give %v %v, structs %v %v", mt.Features(), mt.Dataset().Y, st.Features(), st.Dataset().Y)
	}
	for _, bad := range []any{42, []int{1, 2}, []map[int]any{{1: 2}}, []struct{ C chan int }{{nil}}} {
		if _, err := aer.TableFromRows(bad, nil); !errors.Is(err, learn.ErrData) {
			t.Errorf("TableFromRows(%T): %v, want ErrData", bad, err)
		}
	}
}

// TestNewTableErrors: columns of different lengths and unknown types are
// refused, naming the column.
func TestNewTableErrors(t *testing.T) {
	_, err := aer.NewTable([]aer.Column{{Name: "a", Values: []float64{1, 2}}, {Name: "label", Values: []int{0}}}, nil)
	if !errors.Is(err, learn.ErrData) || !strings.Contains(err.Error(), `"label"`) {
		t.Errorf("lengths: %v", err)
	}
	_, err = aer.NewTable([]aer.Column{{Name: "a", Values: []complex128{1}}}, nil)
	if !errors.Is(err, learn.ErrData) || !strings.Contains(err.Error(), `"a"`) {
		t.Errorf("type: %v", err)
	}
	_, err = aer.NewTable([]aer.Column{{Name: "a", Values: []float64{1, math.Inf(1), 2}}, {Name: "label", Values: []int{0, 1, 1}}}, nil)
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("an infinite value: %v, want its line", err)
	}
}

// TestFitErrors: what Fit refuses, and that it does not change the method
// it is given.
func TestFitErrors(t *testing.T) {
	ctx := context.Background()
	train, valid := clinicTable(t, "train"), clinicTable(t, "valid")
	unl, err := aer.ReadTable(filepath.Join("testdata", "clinic.test.csv"), &aer.ReadOptions{Unlabeled: true, ID: "id", Drop: []string{"outcome"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := aer.Fit(ctx, unl, nil, nil, gbdt(t)); !errors.Is(err, learn.ErrData) {
		t.Errorf("unlabelled training table: %v", err)
	}
	if _, err := aer.Fit(ctx, train, nil, &aer.Settings{Spec: aer.Spec{Grid: []string{"max_depth=2,3"}}}, gbdt(t)); !errors.Is(err, learn.ErrParam) {
		t.Errorf("a grid without validation rows: %v", err)
	}
	if _, err := aer.Fit(ctx, train, valid, &aer.Settings{Spec: aer.Spec{Decision: decision.Options{Rule: "magic"}}}, gbdt(t)); !errors.Is(err, learn.ErrParam) {
		t.Errorf("an unknown threshold rule: %v", err)
	}
	m := gbdt(t)
	before := m.Params()
	model, err := aer.Fit(ctx, train, valid, &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=5"}, Grid: []string{"max_depth=2,3"}}}, m)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.Params(), before) {
		t.Error("Fit changed the method's parameters")
	}
	r := model.Report()
	if r.Search == nil || len(r.Search.Points) != 2 || r.Layer == nil {
		t.Fatalf("report %+v: want a 2-point grid and a decision layer", r)
	}
	var cfg aer.FitConfig
	json.Unmarshal(model.Header().Config, &cfg)
	if cfg.Params["n_estimators"] != "5" || cfg.Params["max_depth"] != strings.TrimPrefix(r.Search.Points[r.Search.Chosen].Params[0], "max_depth=") {
		t.Errorf("saved params %v, chosen %v", cfg.Params, r.Search.Points[r.Search.Chosen].Params)
	}
}

// TestFitWarnings: an AER fit whose mixture takes the largest L of its
// pool reports it in FitReport.Warnings, found through the decision layer
// as the method's own (learn.WarningsOf), worded as mixture.Selection
// words it; a method with nothing to say leaves Warnings nil.
func TestFitWarnings(t *testing.T) {
	ctx := context.Background()
	train, valid := clinicTable(t, "train"), clinicTable(t, "valid")
	model, err := aer.Fit(ctx, train, valid, &aer.Settings{Spec: aer.Spec{Params: []string{"components=1-2", "grid=none"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := model.Report().Warnings
	want := "BIC chose a mixture of L = 2 components, the largest of the pool 1-2: more may fit better"
	if len(w) == 0 || w[0] != want {
		t.Errorf("warnings %q, want %q first", w, want)
	}
	if got := learn.WarningsOf(model.Learned()); !reflect.DeepEqual(got, w) {
		t.Errorf("the model's warnings %q, the report's %q", got, w)
	}
	g, err := aer.Fit(ctx, train, valid, &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=5"}}}, gbdt(t))
	if err != nil {
		t.Fatal(err)
	}
	if g.Report().Warnings != nil {
		t.Errorf("gbdt warns %q", g.Report().Warnings)
	}
}

// TestSaveLoad: a saved model loads back to the same scores and
// threshold; a save that fails leaves the existing file as it was.
func TestSaveLoad(t *testing.T) {
	ctx := context.Background()
	train, valid, test := clinicTable(t, "train"), clinicTable(t, "valid"), clinicTable(t, "test")
	model, err := aer.Fit(ctx, train, valid, &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=10"}}}, gbdt(t))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.aer")
	if err := model.Save(ctx, path); err != nil {
		t.Fatal(err)
	}
	back, err := aer.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p1, _ := model.Predict(ctx, test, nil)
	p2, err := back.Predict(ctx, test, nil)
	if err != nil {
		t.Fatal(err)
	}
	t1, from1 := model.Threshold()
	t2, from2 := back.Threshold()
	if !reflect.DeepEqual(p1, p2) || t1 != t2 || from1 != "decision-layer" || from2 != from1 {
		t.Errorf("loaded model differs: thresholds %v %s and %v %s", t1, from1, t2, from2)
	}
	before, _ := os.ReadFile(path)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := model.Save(cancelled, path); err == nil {
		t.Error("a cancelled save succeeded")
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("a failed save changed the existing file")
	}
}

// TestHandler serves a fitted model through serve.Handler: rows by
// column name, class names in the answer.
func TestHandler(t *testing.T) {
	ctx := context.Background()
	model, err := aer.Fit(ctx, clinicTable(t, "train"), nil, &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=10"}}}, gbdt(t))
	if err != nil {
		t.Fatal(err)
	}
	h, err := serve.Handler("clinic", model, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	body := `{"rows": [{"id": "a1", "age": 2.1, "dose": -1.6, "heart_rate": 0.1, "bmi": 2.9, "noise": 2.0, "clinic": "east"}]}`
	resp, err := http.Post(srv.URL+"/v1/predict", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var pr serve.PredictResponse
	if err := json.NewDecoder(resp.Body).Decode(&pr); err != nil || resp.StatusCode != 200 {
		t.Fatalf("status %d: %v", resp.StatusCode, err)
	}
	test, _ := aer.TableFromRows([]map[string]any{{"id": "a1", "age": 2.1, "dose": -1.6, "heart_rate": 0.1, "bmi": 2.9, "noise": 2.0, "clinic": "east"}},
		&aer.ReadOptions{Unlabeled: true, ID: "id"})
	p, err := model.Predict(ctx, test, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(pr.Rows) != 1 || pr.Rows[0].Score != p.Score[0] || pr.Rows[0].Label != p.Class(0) || pr.Rows[0].ID != "a1" {
		t.Errorf("served %+v, library %v %s", pr.Rows, p.Score, p.Class(0))
	}
}

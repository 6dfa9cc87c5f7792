package serve

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/aer-go/aer"
)

// multiModel is a logistic regression of k classes on two features,
// fitted once per k on a small synthetic table.
var multiModels sync.Map

func multiModel(t *testing.T, k int) *aer.Model {
	t.Helper()
	if m, ok := multiModels.Load(k); ok {
		return m.(*aer.Model)
	}
	var x0, x1 []float64
	var y []string
	for i := range 20 * k {
		c := i % k
		x0 = append(x0, float64(c)+0.1*float64(i%7))
		x1 = append(x1, float64(c%3)-0.05*float64(i%5))
		y = append(y, fmt.Sprintf("c%d", c))
	}
	table, err := aer.NewTable([]aer.Column{{Name: "x0", Values: x0}, {Name: "x1", Values: x1}, {Name: "class", Values: y}}, &aer.ReadOptions{Label: "class"})
	if err != nil {
		t.Fatal(err)
	}
	method, err := aer.Method("logreg")
	if err != nil {
		t.Fatal(err)
	}
	m, err := aer.Fit(context.Background(), table, nil, &aer.Settings{Env: aer.Env{Seed: 1, Workers: 1}}, method)
	if err != nil {
		t.Fatal(err)
	}
	if m.NumClasses() != k {
		t.Fatalf("the model has %d classes, want %d", m.NumClasses(), k)
	}
	multiModels.Store(k, m)
	return m
}

func rowsBody(n int) string {
	rows := make([]string, n)
	for i := range rows {
		rows[i] = fmt.Sprintf("[%d, 0.5]", i%5)
	}
	return `{"rows": [` + strings.Join(rows, ",") + `]}`
}

// TestMaxCellsMultiClass: the answer's rows x classes is bounded before
// anything is scored, with 413 and a message saying how many rows fit;
// a request within the bound is answered, and its cells are given back.
func TestMaxCellsMultiClass(t *testing.T) {
	s := newServer(t, &Options{MaxCells: 60}, Spec{Name: "multi", Model: multiModel(t, 6)})
	status, doc, raw := do(t, s, http.MethodPost, "/v1/predict", "application/json", rowsBody(10))
	if status != http.StatusOK {
		t.Fatalf("10 rows x 6 classes = 60 cells: status %d: %s", status, raw)
	}
	if rows := doc["rows"].([]any); len(rows) != 10 || len(rows[0].(map[string]any)["probabilities"].([]any)) != 6 {
		t.Fatalf("answer %s", raw)
	}
	if n := s.cells.Load(); n != 0 {
		t.Errorf("%d cells still held after the answer", n)
	}
	status, doc, raw = do(t, s, http.MethodPost, "/v1/predict", "application/json", rowsBody(11))
	if status != http.StatusRequestEntityTooLarge {
		t.Fatalf("11 rows x 6 classes = 66 cells over 60: status %d: %s", status, raw)
	}
	msg, _ := doc["error"].(string)
	for _, want := range []string{"66 numbers", "limit of 60", "--max-cells", "at most 10 rows", "6 classes"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if n := s.cells.Load(); n != 0 {
		t.Errorf("%d cells held after a refusal", n)
	}
}

// TestMaxCellsExplain: explanations count an attribution per feature and
// a base per row, so the bound on a binary model's answer depends on them.
func TestMaxCellsExplain(t *testing.T) {
	lr, _ := models(t) // 4 features: 1 + (4+1) = 6 cells a row explained
	s := newServer(t, &Options{MaxCells: 30}, Spec{Name: "lr", Path: lr})
	body := func(n int, explain bool) string {
		rows := make([]string, n)
		for i := range rows {
			rows[i] = "[0.1, 0.2, 0.3, 0.4]"
		}
		return fmt.Sprintf(`{"rows": [%s], "explain": %v}`, strings.Join(rows, ","), explain)
	}
	for _, tc := range []struct {
		rows    int
		explain bool
		status  int
	}{
		{30, false, http.StatusOK},
		{31, false, http.StatusRequestEntityTooLarge},
		{5, true, http.StatusOK},
		{6, true, http.StatusRequestEntityTooLarge},
	} {
		status, _, raw := do(t, s, http.MethodPost, "/v1/predict", "application/json", body(tc.rows, tc.explain))
		if status != tc.status {
			t.Errorf("%d rows, explain %v: status %d, want %d: %s", tc.rows, tc.explain, status, tc.status, raw)
		}
	}
}

// TestMaxCellsInFlight: while other answers hold the cells in flight, a
// request that would pass the bound waits its turn (503, Retry-After);
// once they are given back it is answered.
func TestMaxCellsInFlight(t *testing.T) {
	s := newServer(t, &Options{MaxCells: 60, MaxCellsInFlight: 100}, Spec{Name: "multi", Model: multiModel(t, 6)})
	s.cells.Store(50) // answers in flight
	w := postRows(s, rowsBody(10))
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
		t.Fatalf("60 cells over 50 in flight of 100: status %d, Retry-After %q: %s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	if w := postRows(s, rowsBody(5)); w.Code != http.StatusOK {
		t.Errorf("30 cells over 50 in flight of 100: status %d: %s", w.Code, w.Body)
	}
	s.cells.Store(0)
	if w := postRows(s, rowsBody(10)); w.Code != http.StatusOK {
		t.Errorf("60 cells, none in flight: status %d: %s", w.Code, w.Body)
	}
	if n := s.cells.Load(); n != 0 {
		t.Errorf("%d cells held after the answers", n)
	}
	// MaxCellsInFlight is never below MaxCells: a lone request fits.
	if o := (&Options{MaxCells: 60, MaxCellsInFlight: 10}).withDefaults(); o.MaxCellsInFlight != 60 {
		t.Errorf("MaxCellsInFlight %d, want 60", o.MaxCellsInFlight)
	}
}

// postRows posts body to s's /v1/predict.
func postRows(s *Server, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "/v1/predict", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

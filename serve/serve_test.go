package serve

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	_ "github.com/aer-go/aer/methods" // the registry, for tests only
	"github.com/aer-go/aer/modelfile"
	"github.com/aer-go/aer/synth"
)

// fitFile fits method (with params key=value) on synthetic data and
// saves it in dir as name.aer, with class labels "no" and "yes".
func fitFile(t testing.TB, dir, name, method string, params ...string) string {
	t.Helper()
	d, err := synth.Generate(&synth.Settings{Samples: 300, Features: 4, Ratio: 3}, 7)
	if err != nil {
		t.Fatal(err)
	}
	m, err := learn.New(method)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range params {
		k, v, _ := strings.Cut(p, "=")
		if err := m.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	model, err := m.Fit(context.Background(), &learn.Data{X: d.X, Y: d.Y, Features: d.Features}, nil, learn.Env{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	payload, err := model.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := json.Marshal(map[string]any{"seed": 7, "params": learn.ParamMap(m.Params())})
	h := &modelfile.Header{Method: method, Config: cfg, Producer: "test",
		Schema: dataset.Schema{Features: d.Features, Label: "class", Classes: []string{"no", "yes"}, Weight: "w"}}
	path := filepath.Join(dir, name+".aer")
	if err := modelfile.Save(path, h, payload); err != nil {
		t.Fatal(err)
	}
	return path
}

// fixture is one model file per test binary: fitting is the slow part.
var fixture struct {
	once         sync.Once
	dir          string
	logreg, tree string
}

func models(t *testing.T) (logreg, tree string) {
	fixture.once.Do(func() {
		dir, err := os.MkdirTemp("", "serve-test")
		if err != nil {
			t.Fatal(err)
		}
		fixture.dir = dir
		fixture.logreg = fitFile(t, dir, "lr", "logreg")
		fixture.tree = fitFile(t, dir, "tree", "tree", "max_depth=3")
	})
	if fixture.logreg == "" {
		t.Fatal("fitting the test models failed")
	}
	return fixture.logreg, fixture.tree
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fixture.dir != "" {
		os.RemoveAll(fixture.dir)
	}
	os.Exit(code)
}

func newServer(t *testing.T, opt *Options, specs ...Spec) *Server {
	t.Helper()
	s, err := New(specs, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// do sends a request to h and returns the status, the decoded JSON body
// (when it is JSON) and the raw body.
func do(t *testing.T, h http.Handler, method, path, contentType, body string) (int, map[string]any, string) {
	t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	raw := w.Body.String()
	var doc map[string]any
	if strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		if err := json.Unmarshal([]byte(raw), &doc); err != nil {
			t.Fatalf("%s %s: answer is not JSON: %v\n%s", method, path, err, raw)
		}
	}
	return w.Code, doc, raw
}

const jsonType = "application/json"

// want scores of the first rows of the test data, computed directly.
func directScores(t *testing.T, path string, rows [][]float64) ([]float64, float64, [2]string) {
	t.Helper()
	m, err := aer.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, len(rows))
	for i, r := range rows {
		x := make([]float64, len(r))
		copy(x, r)
		p, err := learn.Predict(context.Background(), m.Learned().(learn.Scorer), denseRow(x), 1)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = p[0]
	}
	th, _ := m.Threshold()
	return out, th, dataset.ClassPair(m.Header().Schema.Classes)
}

func TestPredictSuccess(t *testing.T) {
	lr, _ := models(t)
	s := newServer(t, nil, Spec{Name: "lr", Path: lr})
	rows := [][]float64{{0.5, -1, 2, 0.1}, {-2, 1, 0, 3}, {1, 1, 1, math.NaN()}}
	want, th, classes := directScores(t, lr, rows)
	check := func(name string, code int, doc map[string]any, raw string) {
		t.Helper()
		if code != 200 {
			t.Fatalf("%s: status %d: %s", name, code, raw)
		}
		if doc["model"] != "lr" || doc["method"] != "logreg" || doc["threshold"] != th || doc["threshold_from"] != "default" {
			t.Errorf("%s: %s", name, raw)
		}
		// The label and weight columns are expected, not "ignored".
		if _, ok := doc["ignored"]; ok {
			t.Errorf("%s: ignored listed: %s", name, raw)
		}
		got := doc["rows"].([]any)
		if len(got) != len(rows) {
			t.Fatalf("%s: %d rows, want %d", name, len(got), len(rows))
		}
		for i, g := range got {
			p := g.(map[string]any)
			score := p["score"].(float64)
			label := classes[0]
			if want[i] >= th {
				label = classes[1]
			}
			if math.Abs(score-want[i]) > 1e-12 || p["label"] != label || p["positive"] != (label == "yes") {
				t.Errorf("%s: row %d = %v, want score %v label %s", name, i+1, p, want[i], label)
			}
		}
	}
	code, doc, raw := do(t, s, "POST", "/v1/predict", jsonType, `{"rows": [[0.5, -1, 2, 0.1], [-2, 1, 0, 3], [1, 1, 1, null]]}`)
	check("arrays", code, doc, raw)
	code, doc, raw = do(t, s, "POST", "/v1/models/lr/predict", jsonType+"; charset=utf-8",
		`{"rows": [{"x3": 0.1, "x0": 0.5, "x1": -1, "x2": 2}, {"x0": -2, "x1": 1, "x2": 0, "x3": 3, "class": "yes", "w": 2}, {"x0": 1, "x1": 1, "x2": 1, "x3": null}], "explain": false}`)
	check("objects", code, doc, raw)
	code, doc, raw = do(t, s, "POST", "/v1/predict", "text/csv", "x1,x0,class,x2,x3\n-1,0.5,no,2,0.1\n1,-2,,0,3\n1,1,yes,1,NA\n")
	check("csv", code, doc, raw)
	// Every missing-value token aer predict knows (null, <NA>, #N/A too).
	for _, tok := range []string{"null", "<NA>", "#N/A", "n/a", " NaN "} {
		code, doc, raw = do(t, s, "POST", "/v1/predict", "text/csv", "x1,x0,class,x2,x3\n-1,0.5,no,2,0.1\n1,-2,,0,3\n1,1,yes,1,"+tok+"\n")
		check("csv missing "+tok, code, doc, raw)
	}
	// No Content-Type: JSON.
	code, doc, raw = do(t, s, "POST", "/v1/predict", "", `{"rows": [[0.5, -1, 2, 0.1], [-2, 1, 0, 3], [1, 1, 1, null]]}`)
	check("no content type", code, doc, raw)
}

func TestExplain(t *testing.T) {
	lr, tree := models(t)
	s := newServer(t, nil, Spec{Name: "lr", Path: lr}, Spec{Name: "tree", Path: tree})
	code, doc, raw := do(t, s, "POST", "/v1/models/tree/predict", jsonType, `{"explain": true, "rows": [[0.5, -1, 2, 0.1]]}`)
	if code != 200 {
		t.Fatalf("status %d: %s", code, raw)
	}
	row := doc["rows"].([]any)[0].(map[string]any)
	if row["explanation"] == nil {
		t.Errorf("no explanation: %s", raw)
	}
	code, doc, raw = do(t, s, "POST", "/v1/models/tree/predict", jsonType, `{"rows": [[0.5, -1, 2, 0.1]]}`)
	if code != 200 || doc["rows"].([]any)[0].(map[string]any)["explanation"] != nil {
		t.Errorf("explanation not asked for: %d %s", code, raw)
	}
	// logreg has feature attributions and no breakdown: the top 2 of
	// its 4 features, and base + every attribution is the score's logit
	// (compared as the score: this one is close to 1).
	code, doc, raw = do(t, s, "POST", "/v1/models/lr/predict", jsonType, `{"explain": true, "top": 2, "rows": [[0.5, -1, 2, 0.1]]}`)
	if code != 200 {
		t.Fatalf("explain of logreg: %d %s", code, raw)
	}
	row = doc["rows"].([]any)[0].(map[string]any)
	f, ok := row["features"].(map[string]any)
	if !ok || row["explanation"] != nil || f["space"] != "logit" || f["shown"] != 2.0 || f["total"] != 4.0 || len(f["values"].([]any)) != 2 {
		t.Fatalf("explain of logreg: %s", raw)
	}
	p := row["score"].(float64)
	if out := f["output"].(float64); math.Abs(1/(1+math.Exp(-out))-p) > 1e-12 {
		t.Errorf("attributions sum to %v, whose sigmoid is not the score %v", out, p)
	}
	// A model with neither is refused.
	swapModel(s, "lr", func(m learn.Scorer) learn.Scorer { return opaque{m} })
	s.models["lr"].cur.Load().attributes = false
	code, doc, _ = do(t, s, "POST", "/v1/models/lr/predict", jsonType, `{"explain": true, "rows": [[0.5, -1, 2, 0.1]]}`)
	if code != 400 || !strings.Contains(doc["error"].(string), "offers no per-row explanation and no feature attributions") {
		t.Errorf("explain of an opaque model: %d %v", code, doc)
	}
}

// opaque hides every method of a model but learn.Model's.
type opaque struct{ learn.Scorer }

func TestErrors(t *testing.T) {
	lr, _ := models(t)
	s := newServer(t, &Options{MaxRows: 3, MaxBody: 300}, Spec{Name: "lr", Path: lr}, Spec{Name: "raw", Path: lr}, Spec{Name: "nan", Path: lr})
	// Models that cannot score missing values: one refuses them, one
	// gives NaN.
	swapModel(s, "raw", func(m learn.Scorer) learn.Scorer { return strict{m, false} })
	swapModel(s, "nan", func(m learn.Scorer) learn.Scorer { return strict{m, true} })
	for _, tc := range []struct {
		name, method, path, ctype, body string
		status                          int
		msg                             string
		row                             float64
		field                           string
	}{
		{"too few values", "POST", "/v1/models/lr/predict", jsonType, `{"rows": [[1,2,3,4],[1,2,3]]}`, 400, `row 2: 3 values; the model expects 4 features, in order: "x0", "x1", "x2", "x3"`, 2, ""},
		{"too many values", "POST", "/v1/models/lr/predict", jsonType, `{"rows": [[1,2,3,4,5]]}`, 400, "row 1: more than 4 values", 1, ""},
		{"csv ragged", "POST", "/v1/models/lr/predict", "text/csv", "x0,x1,x2,x3\n1,2,3,4\n1,2,3\n", 400, "row 2: wrong number of fields", 2, ""},
		{"missing feature", "POST", "/v1/models/lr/predict", jsonType, `{"rows": [{"x0":1,"x1":2}]}`, 400, `row 1, field "x2": missing feature(s) "x2", "x3"`, 1, "x2"},
		// A field or column the model does not use is scored, not
		// refused, unless Options.StrictColumns: TestUnusedColumns.
		{"csv missing column", "POST", "/v1/models/lr/predict", "text/csv", "x0,x1,x3\n1,2,4\n", 400, `field "x2": the header lacks feature(s) "x2"`, 0, "x2"},
		{"string value", "POST", "/v1/models/lr/predict", jsonType, `{"rows": [[1,2,3,4],[1,"abc",3,4]]}`, 400, `row 2, field "x1": "abc" is not a number`, 2, "x1"},
		{"bool value", "POST", "/v1/models/lr/predict", jsonType, `{"rows": [{"x0":1,"x1":2,"x2":true,"x3":4}]}`, 400, `row 1, field "x2": true is not a number`, 1, "x2"},
		{"csv not a number", "POST", "/v1/models/lr/predict", "text/csv", "x0,x1,x2,x3\n1,2,3,4\n1,2,zz,4\n", 400, `row 2, field "x2": "zz" is not a number`, 2, "x2"},
		{"out of range", "POST", "/v1/models/lr/predict", jsonType, `{"rows": [[1,2,3,1e999]]}`, 400, `row 1, field "x3": "1e999" is out of the range`, 1, "x3"},
		{"csv infinite", "POST", "/v1/models/lr/predict", "text/csv", "x0,x1,x2,x3\n1,2,3,Inf\n", 400, `row 1, field "x3": "Inf" is not a finite number`, 1, "x3"},
		{"NaN literal", "POST", "/v1/models/lr/predict", jsonType, `{"rows": [[1,2,3,NaN]]}`, 400, "send null for a missing value", 0, ""},
		{"NaN not allowed", "POST", "/v1/models/raw/predict", jsonType, `{"rows": [[1,2,3,4],[1,null,3,4]]}`, 400, "row 2: the logreg model cannot score this row", 2, ""},
		{"NaN score", "POST", "/v1/models/nan/predict", "text/csv", "x0,x1,x2,x3\n1,2,3,4\n1,2,3,4\n1,2,?,4\n", 400, "row 3: the logreg model gives a NaN score", 3, ""},
		{"malformed json", "POST", "/v1/models/lr/predict", jsonType, `{"rows": [[1,2,3,4]`, 400, "malformed JSON", 0, ""},
		{"not an object", "POST", "/v1/models/lr/predict", jsonType, `[[1,2,3,4]]`, 400, "must be a JSON object", 0, ""},
		{"unknown key", "POST", "/v1/models/lr/predict", jsonType, `{"rows": [[1,2,3,4]], "row": 1}`, 400, `unknown key "row"`, 0, ""},
		{"trailing data", "POST", "/v1/models/lr/predict", jsonType, `{"rows": [[1,2,3,4]]} {}`, 400, "unexpected data after", 0, ""},
		{"no rows", "POST", "/v1/models/lr/predict", jsonType, `{"rows": []}`, 400, "no rows", 0, ""},
		{"empty body", "POST", "/v1/models/lr/predict", jsonType, ``, 400, "the body is empty", 0, ""},
		{"too many rows", "POST", "/v1/models/lr/predict", jsonType, `{"rows": [[1,2,3,4],[1,2,3,4],[1,2,3,4],[1,2,3,4]]}`, 413, "more than 3 rows", 4, ""},
		{"csv too many rows", "POST", "/v1/models/lr/predict", "text/csv", "x0,x1,x2,x3\n1,2,3,4\n1,2,3,4\n1,2,3,4\n1,2,3,4\n", 413, "more than 3 rows", 4, ""},
		{"body too large", "POST", "/v1/models/lr/predict", jsonType, `{"rows": [[1,2,3,4` + strings.Repeat(" ", 400) + `]]}`, 413, "larger than the limit of 300 bytes", 0, ""},
		{"media type", "POST", "/v1/models/lr/predict", "text/plain", `1,2,3,4`, 415, "not supported", 0, ""},
		{"unknown model", "POST", "/v1/models/nope/predict", jsonType, `{"rows": [[1,2,3,4]]}`, 404, `unknown model "nope" (serving "lr", "nan", "raw")`, 0, ""},
		{"unknown model info", "GET", "/v1/models/nope", "", ``, 404, "unknown model", 0, ""},
		{"unknown route", "GET", "/v2/predict", "", ``, 404, "no such route", 0, ""},
		{"wrong method", "GET", "/v1/models/lr/predict", "", ``, 405, "method GET is not allowed", 0, ""},
		{"wrong method list", "POST", "/v1/models", jsonType, `{}`, 405, "allowed: GET", 0, ""},
		{"model required", "POST", "/v1/predict", jsonType, `{"rows": [[1,2,3,4]]}`, 400, "3 models are served", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, doc, raw := do(t, s, tc.method, tc.path, tc.ctype, tc.body)
			if code != tc.status {
				t.Fatalf("status %d, want %d: %s", code, tc.status, raw)
			}
			msg, _ := doc["error"].(string)
			row, _ := doc["row"].(float64)
			field, _ := doc["field"].(string)
			if !strings.Contains(msg, tc.msg) || row != tc.row || field != tc.field {
				t.Errorf("got %s\nwant error containing %q, row %v, field %q", raw, tc.msg, tc.row, tc.field)
			}
		})
	}
	// 405 says what is allowed.
	r := httptest.NewRequest("DELETE", "/v1/models/lr", nil)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != 405 || w.Header().Get("Allow") != "GET" {
		t.Errorf("DELETE: %d, Allow %q", w.Code, w.Header().Get("Allow"))
	}
}

// TestUnusedColumns: a JSON field or CSV column the model does not use
// is ignored whatever it holds, as aer predict ignores such a column:
// the row scores as it does without it, and the answer names it in
// "ignored" (counted in aer_ignored_columns_total). Options.StrictColumns
// refuses it with the message it always had.
func TestUnusedColumns(t *testing.T) {
	lr, _ := models(t)
	s := newServer(t, nil, Spec{Name: "lr", Path: lr})
	strict := newServer(t, &Options{StrictColumns: true}, Spec{Name: "lr", Path: lr})
	want, _, _ := directScores(t, lr, [][]float64{{1, 2, 3, 4}, {0.5, -1, 2, 0.1}})
	for _, tc := range []struct {
		name, ctype, body, plain string
		ignored                  []any
		row                      float64 // of the strict refusal
	}{
		{"json", jsonType,
			`{"rows": [{"x0":1,"x1":2,"x2":3,"x3":4,"x9":5}, {"x0":0.5,"x1":-1,"note":"text","x2":2,"x3":0.1,"x9":[1,{"a":null}]}]}`,
			`{"rows": [{"x0":1,"x1":2,"x2":3,"x3":4}, {"x0":0.5,"x1":-1,"x2":2,"x3":0.1}]}`,
			[]any{"x9", "note"}, 1},
		{"csv", "text/csv", "x0,x1,x2,x3,x9\n1,2,3,4,5\n0.5,-1,2,0.1,not a number\n", "x0,x1,x2,x3\n1,2,3,4\n0.5,-1,2,0.1\n",
			[]any{"x9"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, doc, raw := do(t, s, "POST", "/v1/models/lr/predict", tc.ctype, tc.body)
			if code != 200 {
				t.Fatalf("status %d: %s", code, raw)
			}
			if got, _ := doc["ignored"].([]any); !slices.Equal(got, tc.ignored) {
				t.Errorf("ignored %v, want %v: %s", doc["ignored"], tc.ignored, raw)
			}
			_, plain, _ := do(t, s, "POST", "/v1/models/lr/predict", tc.ctype, tc.plain)
			if _, ok := plain["ignored"]; ok {
				t.Errorf("ignored listed without an unused column: %v", plain)
			}
			rows, prows := doc["rows"].([]any), plain["rows"].([]any)
			for i := range want {
				got, p := rows[i].(map[string]any)["score"].(float64), prows[i].(map[string]any)["score"].(float64)
				if got != p || math.Abs(got-want[i]) > 1e-12 {
					t.Errorf("row %d: score %v, %v without the column, want %v", i+1, got, p, want[i])
				}
			}
			// Strict: refused as before.
			code, doc, raw = do(t, strict, "POST", "/v1/models/lr/predict", tc.ctype, tc.body)
			msg, _ := doc["error"].(string)
			row, _ := doc["row"].(float64)
			if code != 400 || !strings.Contains(msg, `field "x9": the model has no such feature (its features: "x0", "x1", "x2", "x3")`) || row != tc.row || doc["field"] != "x9" {
				t.Errorf("strict: %d %s", code, raw)
			}
			if code, _, raw = do(t, strict, "POST", "/v1/models/lr/predict", tc.ctype, tc.plain); code != 200 {
				t.Errorf("strict, no unused column: %d %s", code, raw)
			}
		})
	}
	// Counted per name and request: x9 and note, then x9.
	_, _, metricsText := do(t, s, "GET", "/metrics", "", "")
	if !strings.Contains(metricsText, `aer_ignored_columns_total{model="lr"} 3`) {
		t.Errorf("metrics lack aer_ignored_columns_total 3:\n%s", grepLines(metricsText, "aer_ignored"))
	}
}

// grepLines returns the lines of s that contain sub.
func grepLines(s, sub string) string {
	var out []string
	for line := range strings.Lines(s) {
		if strings.Contains(line, sub) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}

func TestModelInfo(t *testing.T) {
	lr, tree := models(t)
	s := newServer(t, nil, Spec{Name: "lr", Path: lr}, Spec{Name: "tree", Path: tree})
	code, doc, raw := do(t, s, "GET", "/v1/models/lr", "", "")
	if code != 200 {
		t.Fatalf("%d %s", code, raw)
	}
	m, _ := aer.Load(lr)
	// The whole file's SHA-256 beside the stored checksum, as aer info
	// --model shows them (serve showed only the checksum, which matches
	// nothing sha256sum prints).
	fileBytes, _ := os.ReadFile(lr)
	if sum := sha256.Sum256(fileBytes); doc["sha256"] != hex.EncodeToString(sum[:]) {
		t.Errorf("sha256 %v, sha256sum %x", doc["sha256"], sum)
	}
	if doc["name"] != "lr" || doc["file"] != "lr.aer" || doc["method"] != "logreg" || doc["checksum"] != m.Checksum() ||
		doc["threshold"] != 0.5 || doc["threshold_from"] != "default" || doc["label"] != "class" || doc["seed"] != 7.0 || doc["explains"] != false {
		t.Errorf("info: %s", raw)
	}
	if f := doc["features"].([]any); len(f) != 4 || f[0] != "x0" {
		t.Errorf("features: %v", f)
	}
	if p := doc["params"].(map[string]any); p["standardize"] != "true" {
		t.Errorf("params: %v", p)
	}
	code, doc, raw = do(t, s, "GET", "/v1/models", "", "")
	if list := doc["models"].([]any); code != 200 || len(list) != 2 || list[1].(map[string]any)["explains"] != true {
		t.Errorf("list: %d %s", code, raw)
	}
	for _, path := range []string{"/healthz", "/readyz"} {
		if code, _, raw := do(t, s, "GET", path, "", ""); code != 200 {
			t.Errorf("%s: %d %s", path, code, raw)
		}
	}
	s.closing.Store(true)
	if code, _, _ := do(t, s, "GET", "/readyz", "", ""); code != 503 {
		t.Errorf("readyz while closing: %d", code)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReload(t *testing.T) {
	lr, tree := models(t)
	path := filepath.Join(t.TempDir(), "m.aer")
	copyFile(t, lr, path)
	var logs bytes.Buffer
	s := newServer(t, &Options{Logger: slogTo(&logs)}, Spec{Name: "m", Path: path})
	body := `{"rows": [[0.5, -1, 2, 0.1]]}`
	_, before, _ := do(t, s, "POST", "/v1/predict", jsonType, body)

	// A good new file: swapped in.
	copyFile(t, tree, path)
	code, doc, raw := do(t, s, "POST", "/v1/models/m/reload", "", "")
	if code != 200 || doc["method"] != "tree" {
		t.Fatalf("reload: %d %s", code, raw)
	}
	if _, after, _ := do(t, s, "POST", "/v1/predict", jsonType, body); after["method"] != "tree" {
		t.Errorf("after reload: %v", after)
	}

	// A corrupt file: the tree keeps serving, the error says why.
	b, _ := os.ReadFile(path)
	b[len(b)/2] ^= 1
	os.WriteFile(path, b, 0o644)
	code, doc, raw = do(t, s, "POST", "/v1/models/m/reload", "", "")
	if code != 500 || !strings.Contains(doc["error"].(string), "the old model keeps serving") || !strings.Contains(doc["error"].(string), "checksum") {
		t.Errorf("bad reload: %d %s", code, raw)
	}
	if _, after, _ := do(t, s, "POST", "/v1/predict", jsonType, body); after["method"] != "tree" {
		t.Errorf("after a bad reload: %v", after)
	}
	// SIGHUP's path: ReloadAll with a missing file.
	os.Remove(path)
	if err := s.ReloadAll(); err == nil || !strings.Contains(err.Error(), "m.aer") {
		t.Errorf("ReloadAll of a missing file: %v", err)
	}
	if err := s.Reload("nope"); err == nil {
		t.Error("Reload of an unknown model: no error")
	}
	if code, _, _ := do(t, s, "POST", "/v1/predict", jsonType, body); code != 200 {
		t.Errorf("after a failed ReloadAll: %d", code)
	}
	if !strings.Contains(logs.String(), "model reload failed; the old model keeps serving") {
		t.Errorf("no log of the failed reload:\n%s", logs.String())
	}
	_ = before

	_, _, metrics := do(t, s, "GET", "/metrics", "", "")
	for _, want := range []string{
		`aer_model_reloads_total{model="m",result="ok"} 1`,
		`aer_model_reloads_total{model="m",result="failed"} 2`,
		`aer_rows_scored_total{model="m"} 4`,
		`aer_http_requests_total{code="200",route="/v1/predict"} 4`,
		`aer_http_requests_total{code="500",route="/v1/models/{name}/reload"} 1`,
		`aer_http_errors_total{kind="reload_failed"} 1`,
		`aer_http_request_duration_seconds_bucket{route="/v1/predict",le="0.0001"}`,
		`aer_http_request_duration_seconds_count{route="/v1/predict"} 4`,
		"process_resident_memory_bytes",
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// blocking is a model whose scoring waits until release is closed.
type blocking struct {
	learn.Scorer
	started chan struct{}
	release chan struct{}
}

func TestConcurrencyLimit(t *testing.T) {
	lr, _ := models(t)
	s := newServer(t, &Options{MaxConcurrent: 2}, Spec{Name: "lr", Path: lr})
	// Fill the two slots by hand, as two slow requests would.
	s.sem <- struct{}{}
	s.sem <- struct{}{}
	r := httptest.NewRequest("POST", "/v1/predict", strings.NewReader(`{"rows": [[1,2,3,4]]}`))
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != 503 || w.Header().Get("Retry-After") != "1" || !strings.Contains(w.Body.String(), "its limit") {
		t.Errorf("over the limit: %d, Retry-After %q: %s", w.Code, w.Header().Get("Retry-After"), w.Body.String())
	}
	// Health and metrics stay reachable.
	if code, _, _ := do(t, s, "GET", "/healthz", "", ""); code != 200 {
		t.Errorf("healthz over the limit: %d", code)
	}
	<-s.sem
	if code, _, raw := do(t, s, "POST", "/v1/predict", jsonType, `{"rows": [[1,2,3,4]]}`); code != 200 {
		t.Errorf("under the limit: %d %s", code, raw)
	}
	_, _, m := do(t, s, "GET", "/metrics", "", "")
	if !strings.Contains(m, `aer_http_errors_total{kind="overloaded"} 1`) || !strings.Contains(m, `aer_http_requests_total{code="503",route="/v1/predict"} 1`) {
		t.Errorf("metrics do not count the 503:\n%s", m)
	}
}

func TestGracefulShutdown(t *testing.T) {
	lr, _ := models(t)
	s := newServer(t, &Options{ShutdownTimeout: 10 * time.Second}, Spec{Name: "lr", Path: lr})
	// A request in flight when the shutdown starts: its model blocks.
	var b *blocking
	swapModel(s, "lr", func(m learn.Scorer) learn.Scorer {
		b = &blocking{Scorer: m, started: make(chan struct{}), release: make(chan struct{})}
		return b
	})

	ln := listen(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	url := "http://" + ln.Addr().String()
	got := make(chan int, 1)
	go func() {
		resp, err := http.Post(url+"/v1/predict", jsonType, strings.NewReader(`{"rows": [[1,2,3,4]]}`))
		if err != nil {
			got <- -1
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		got <- resp.StatusCode
	}()
	<-b.started
	cancel()
	time.Sleep(50 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("Serve returned with a request in flight: %v", err)
	default:
	}
	close(b.release)
	if code := <-got; code != 200 {
		t.Errorf("request in flight: status %d", code)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if _, err := http.Get(url + "/healthz"); err == nil {
		t.Error("still answering after shutdown")
	}
}

// TestCSVDelimiters: CSV bodies separated by semicolons or tabs read as
// aer predict reads such files (they were refused), and score as the
// comma-separated one does.
func TestCSVDelimiters(t *testing.T) {
	lr, _ := models(t)
	s := newServer(t, nil, Spec{Name: "lr", Path: lr})
	comma := "x0,x1,x2,x3\n1,2,3,4\n-1,0.5,2,0\n"
	code, _, want := do(t, s, "POST", "/v1/predict", "text/csv", comma)
	if code != 200 {
		t.Fatalf("comma: %d %s", code, want)
	}
	for _, sep := range []string{";", "\t"} {
		body := strings.ReplaceAll(comma, ",", sep)
		if code, _, got := do(t, s, "POST", "/v1/predict", "text/csv", body); code != 200 || got != want {
			t.Errorf("separator %q: %d %s, want %s", sep, code, got, want)
		}
	}
}

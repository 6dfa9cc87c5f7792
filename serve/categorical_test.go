package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/modelfile"
	"github.com/aer-go/aer/synth"
)

// fitCategorical fits gbdt on synthetic data with a categorical column
// color (values 1, blue, red: numbers in canonical form, as dataset reads
// them) between x0 and x1, and an id column, read by the dataset package
// as aer fit reads it, and saves it in dir.
func fitCategorical(t *testing.T, dir string) string {
	t.Helper()
	d, err := synth.Generate(&synth.Settings{Samples: 300, Features: 4, Ratio: 3}, 3)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString("id,x0,color,x1,x2,class\n")
	for i := range len(d.Y) {
		color := []string{"blue", "red", "1.0"}[i%3]
		if d.Y[i] == 1 && i%2 == 0 {
			color = "red"
		}
		fmt.Fprintf(&sb, "row%d,%v,%s,%v,%v,%d\n", i, d.X.At(i, 0), color, d.X.At(i, 1), d.X.At(i, 2), d.Y[i])
	}
	data, err := dataset.Read(strings.NewReader(sb.String()), "train", dataset.Options{Label: "class", ID: "id", AutoCategorical: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := learn.New("gbdt")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Set("n_estimators", "15"); err != nil {
		t.Fatal(err)
	}
	model, err := m.Fit(context.Background(), &learn.Data{X: data.X, Y: data.Y, Features: data.Features}, nil, learn.Env{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	payload, err := model.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var cats []dataset.Category
	for _, c := range data.Categories {
		cats = append(cats, dataset.Category{Column: c.Column, Values: c.Values})
	}
	h := &modelfile.Header{Method: "gbdt", Producer: "test", Schema: dataset.Schema{Features: data.Features, Label: "class",
		Classes: data.Classes, ID: "id", Categories: cats}}
	path := filepath.Join(dir, "cat.aer")
	if err := modelfile.Save(path, h, payload); err != nil {
		t.Fatal(err)
	}
	return path
}

// rowsOf returns the rows of a predict answer.
func rowsOf(t *testing.T, code int, doc map[string]any, raw string) []map[string]any {
	t.Helper()
	if code != 200 {
		t.Fatalf("status %d: %s", code, raw)
	}
	var rows []map[string]any
	for _, r := range doc["rows"].([]any) {
		rows = append(rows, r.(map[string]any))
	}
	return rows
}

// TestCategoricalRequests: categorical values compare in canonical form
// (1, 1.0, "+1" and the CSV cell 1.0 are one category); null, a missing
// token and an unseen value all encode to zeros, only the unseen one
// reported; ids are echoed as sent; feature attributions are per column.
func TestCategoricalRequests(t *testing.T) {
	path := fitCategorical(t, t.TempDir())
	s := newServer(t, nil, Spec{Name: "cat", Path: path})
	info := s.models["cat"].info()
	if !slices.Equal(info.Columns, []string{"x0", "color", "x1", "x2"}) || !slices.Equal(info.Features, []string{"x0", "color=1", "color=blue", "color=red", "x1", "x2"}) {
		t.Fatalf("columns %v, features %v", info.Columns, info.Features)
	}
	code, doc, raw := do(t, s, "POST", "/v1/predict", jsonType, `{"rows": [
		{"x0": 0.5, "color": 1, "x1": -1, "x2": 2, "id": 7},
		{"x0": 0.5, "color": 1.0, "x1": -1, "x2": 2, "id": "a"},
		{"x0": 0.5, "color": "+1", "x1": -1, "x2": 2, "class": "1"},
		[0.5, " 1 ", -1, 2],
		{"x0": 0.5, "color": null, "x1": -1, "x2": 2, "id": null},
		{"x0": 0.5, "color": "NA", "x1": -1, "x2": 2},
		{"x0": 0.5, "color": "green", "x1": -1, "x2": 2},
		{"x0": 0.5, "color": true, "x1": -1, "x2": 2},
		{"x0": 0.5, "color": "blue", "x1": -1, "x2": 2},
		{"x0": 0.5, "color": "red", "x1": -1, "x2": 2}]}`)
	rows := rowsOf(t, code, doc, raw)
	code, doc, raw = do(t, s, "POST", "/v1/predict?explain=1&top=2", "text/csv", "x2,color,id,x1,x0\n2,1.0,z9,-1,0.5\n2,,,-1,0.5\n")
	csvRows := rowsOf(t, code, doc, raw)
	score := func(r map[string]any) float64 { return r["score"].(float64) }
	for i := 1; i < 4; i++ {
		if score(rows[i]) != score(rows[0]) {
			t.Errorf("row %d: the category 1 scores %v, row 1 %v", i+1, score(rows[i]), score(rows[0]))
		}
	}
	if score(csvRows[0]) != score(rows[0]) || score(csvRows[1]) != score(rows[4]) {
		t.Errorf("CSV rows score %v, %v; JSON rows %v, %v", score(csvRows[0]), score(csvRows[1]), score(rows[0]), score(rows[4]))
	}
	for i := 5; i < 8; i++ {
		if score(rows[i]) != score(rows[4]) {
			t.Errorf("row %d scores %v unlike the missing value's %v", i+1, score(rows[i]), score(rows[4]))
		}
	}
	if score(rows[8]) == score(rows[9]) {
		t.Errorf("blue and red score alike (%v): is the column encoded?", score(rows[8]))
	}
	for i, r := range rows {
		wantUnseen := i == 6 || i == 7
		if u, ok := r["unseen"].([]any); ok != wantUnseen || ok && (len(u) != 1 || u[0] != "color") {
			t.Errorf("row %d: unseen %v", i+1, r["unseen"])
		}
	}
	if rows[0]["id"] != 7.0 || rows[1]["id"] != "a" || csvRows[0]["id"] != "z9" {
		t.Errorf("ids %v, %v, %v; want 7, a, z9", rows[0]["id"], rows[1]["id"], csvRows[0]["id"])
	}
	for _, r := range []map[string]any{rows[2], rows[3], rows[4], csvRows[1]} {
		if id, ok := r["id"]; ok && id != "" {
			t.Errorf("id %v where the row has none", id)
		}
	}
	// Attributions: the top 2 of 4 columns; color's value as a category.
	f := csvRows[0]["features"].(map[string]any)
	if f["shown"] != 2.0 || f["total"] != 4.0 {
		t.Errorf("features %v", f)
	}
	code, doc, raw = do(t, s, "POST", "/v1/predict", jsonType, `{"explain": true, "top": 99, "rows": [{"x0": 0.5, "color": 1, "x1": -1, "x2": null}, {"x0": 0.5, "color": "green", "x1": -1, "x2": 1}]}`)
	for i, r := range rowsOf(t, code, doc, raw) {
		f := r["features"].(map[string]any)
		sum := f["base"].(float64)
		values := map[string]any{}
		for _, v := range f["values"].([]any) {
			v := v.(map[string]any)
			sum += v["attribution"].(float64)
			values[v["feature"].(string)] = v["value"]
		}
		if math.Abs(sum-f["output"].(float64)) > 1e-9 || math.Abs(1/(1+math.Exp(-sum))-score(r)) > 1e-12 {
			t.Errorf("row %d: base + attributions %v, output %v, score %v", i+1, sum, f["output"], score(r))
		}
		want := map[string]any{"x0": 0.5, "color": []any{"1", nil}[i], "x1": -1.0, "x2": []any{nil, 1.0}[i]}
		if b, _ := json.Marshal(values); string(b) != string(must(json.Marshal(want))) {
			t.Errorf("row %d: values %s, want %s", i+1, b, must(json.Marshal(want)))
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestCategoricalErrors: refusals name the row and the field.
func TestCategoricalErrors(t *testing.T) {
	path := fitCategorical(t, t.TempDir())
	lr, _ := models(t)
	s := newServer(t, nil, Spec{Name: "cat", Path: path}, Spec{Name: "lr", Path: lr})
	for _, tc := range []struct {
		name, ctype, body string
		status            int
		row               float64
		field, msg        string
	}{
		{"nested category", jsonType, `{"rows": [[1, "red", 2, 3], {"x0": 0.5, "color": ["red"], "x1": -1, "x2": 2}]}`, 400, 2, "color", "an array or object is not a value of a categorical column"},
		{"nested number", jsonType, `{"rows": [{"x0": {"v": 1}, "color": "red", "x1": -1, "x2": 2}]}`, 400, 1, "x0", "not a number"},
		{"nested id", jsonType, `{"rows": [{"x0": 1, "color": "red", "x1": -1, "x2": 2, "id": [1]}]}`, 400, 1, "id", "id must be a string or a number"},
		// A misspelt column is ignored, so the column is missing.
		{"unknown column", jsonType, `{"rows": [{"x0": 1, "colour": "red", "x1": -1, "x2": 2}]}`, 400, 1, "color", `missing column(s) "color" (send null for a missing value); its fields the model does not use, ignored: "colour"`},
		{"one-hot name", jsonType, `{"rows": [{"x0": 1, "color=red": 1, "x1": -1, "x2": 2}]}`, 400, 1, "color=red", `send the column's value, e.g. {"color": "red"}`},
		{"missing column", jsonType, `{"rows": [{"x0": 1, "x1": -1, "x2": 2}]}`, 400, 1, "color", "missing column(s)"},
		{"short array", jsonType, `{"rows": [[1, "red", 2, 3], [1, "red", 2]]}`, 400, 2, "", `3 values; the model expects 4 columns, in order: "x0", "color", "x1", "x2"`},
		{"string number", jsonType, `{"rows": [[1, "red", "2", 3]]}`, 400, 1, "x1", "not a number"},
		{"top 0", jsonType, `{"top": 0, "rows": [[1, "red", 2, 3]]}`, 400, 0, "", `"top" must be a whole number`},
		{"csv text in a number column", "text/csv", "x0,color,x1,x2\n1,red,2,3\n1,red,two,3\n", 400, 2, "x1", "not a number"},
		{"csv missing column", "text/csv", "x0,x1,x2\n1,2,3\n", 400, 0, "color", "the header lacks column(s)"},
		{"csv ragged", "text/csv", "x0,color,x1,x2\n1,red,2,3\n1,red,2\n", 400, 2, "", "wrong number of fields"},
		{"csv bad label", "text/csv", "x0,color,x1,x2,class\n1,red,2,3,0\n1,red,2,3,7\n", 400, 2, "class", `"7": label is not one of the classes (the model knows "0" (negative) and "1" (positive))`},
		{"csv gzip", "text/csv", "\x1f\x8b\x08\x00", 400, 0, "", "gzip-compressed or Parquet"},
		{"csv empty", "text/csv", "", 400, 0, "", "the CSV body is empty"},
		{"csv header only", "text/csv", "x0,color,x1,x2\n", 400, 0, "", "no rows to score"},
	} {
		code, doc, raw := do(t, s, "POST", "/v1/models/cat/predict", tc.ctype, tc.body)
		if code != tc.status || doc["row"] != map[bool]any{true: nil, false: tc.row}[tc.row == 0] || doc["field"] != map[bool]any{true: nil, false: tc.field}[tc.field == ""] ||
			!strings.Contains(fmt.Sprint(doc["error"]), tc.msg) {
			t.Errorf("%s: %d %s; want %d, row %v, field %q, %q", tc.name, code, raw, tc.status, tc.row, tc.field, tc.msg)
		}
	}
	// Options.StrictColumns refuses a column the model does not use.
	strict := newServer(t, &Options{StrictColumns: true}, Spec{Name: "cat", Path: path})
	for _, tc := range []struct {
		name, ctype, body string
		row               float64
		field, msg        string
	}{
		{"unknown column", jsonType, `{"rows": [{"x0": 1, "colour": "red", "x1": -1, "x2": 2}]}`, 1, "colour", `no such column (its columns: "x0", "color", "x1", "x2")`},
		{"csv unknown column", "text/csv", "x0,color,x1,x2,x3\n1,red,2,3,4\n", 0, "x3", "no such column"},
	} {
		code, doc, raw := do(t, strict, "POST", "/v1/models/cat/predict", tc.ctype, tc.body)
		if row, _ := doc["row"].(float64); code != 400 || row != tc.row || doc["field"] != tc.field || !strings.Contains(fmt.Sprint(doc["error"]), tc.msg) {
			t.Errorf("strict, %s: %d %s; want 400, row %v, field %q, %q", tc.name, code, raw, tc.row, tc.field, tc.msg)
		}
	}
	// By default it is ignored whatever it holds, and named.
	for _, body := range []string{"x0,color,x1,x2,x3\n1,red,2,3,4\n", "x0,x3,color,x1,x2\n1,text,red,2,3\n", "x0,color,x1,x2\n1,red,2,3\n"} {
		code, doc, raw := do(t, s, "POST", "/v1/models/cat/predict", "text/csv", body)
		_, plain, _ := do(t, s, "POST", "/v1/models/cat/predict", "text/csv", "x0,color,x1,x2\n1,red,2,3\n")
		wantIgnored := "[x3]"
		if !strings.Contains(body, "x3") {
			wantIgnored = "<nil>"
		}
		if code != 200 || fmt.Sprint(doc["ignored"]) != wantIgnored || fmt.Sprint(doc["rows"]) != fmt.Sprint(plain["rows"]) {
			t.Errorf("csv %q: %d %s; want the answer without x3 and ignored %s", body, code, raw, wantIgnored)
		}
	}
	for _, q := range []string{"?explain=maybe", "?explain=true&top=0"} {
		code, doc, raw := do(t, s, "POST", "/v1/models/cat/predict"+q, "text/csv", "x0,color,x1,x2\n1,red,2,3\n")
		if code != 400 || doc["field"] == nil || !strings.Contains(fmt.Sprint(doc["error"]), "query parameter") {
			t.Errorf("%s: %d %s", q, code, raw)
		}
	}
	// A model without categorical columns describes itself as before.
	_, doc, _ := do(t, s, "GET", "/v1/models/lr", "", "")
	for _, k := range []string{"columns", "categories", "id"} {
		if _, ok := doc[k]; ok {
			t.Errorf("model without categorical columns or id: %q in %v", k, doc)
		}
	}
	_, doc, _ = do(t, s, "GET", "/v1/models/cat", "", "")
	if b, _ := json.Marshal(doc["categories"]); string(b) != `[{"column":"color","values":["1","blue","red"]}]` || doc["id"] != "id" {
		t.Errorf("categories %s, id %v", b, doc["id"])
	}
}

// TestIDWithoutCategories: a model without categorical columns but with
// an id column echoes it from JSON objects and CSV.
func TestIDWithoutCategories(t *testing.T) {
	lr, _ := models(t)
	h, payload, err := modelfile.Load(lr)
	if err != nil {
		t.Fatal(err)
	}
	h.Schema.ID = "key"
	path := filepath.Join(t.TempDir(), "id.aer")
	if err := modelfile.Save(path, h, payload); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, nil, Spec{Name: "id", Path: path})
	code, doc, raw := do(t, s, "POST", "/v1/predict", jsonType, `{"rows": [{"key": "k1", "x0": 1, "x1": 2, "x2": 3, "x3": 4}, [1, 2, 3, 4]]}`)
	rows := rowsOf(t, code, doc, raw)
	code, doc, raw = do(t, s, "POST", "/v1/predict", "text/csv", "x0,key,x1,x2,x3\n1,k2,2,3,4\n")
	csvRows := rowsOf(t, code, doc, raw)
	if rows[0]["id"] != "k1" || rows[1]["id"] != nil || csvRows[0]["id"] != "k2" || rows[0]["score"] != rows[1]["score"] || csvRows[0]["score"] != rows[0]["score"] {
		t.Errorf("rows %v, CSV rows %v", rows, csvRows)
	}
}

// TestLayout: the raw columns of a schema, and schemas whose categories
// do not match their features refused.
func TestLayout(t *testing.T) {
	cats := []dataset.Category{{Column: "c", Values: []string{"x", "y"}}, {Column: "e", Values: nil}}
	l, err := newLayout(&dataset.Schema{Features: []string{"a", "c=x", "c=y", "b"}, Categories: cats})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(l.names, []string{"a", "c", "b", "e"}) || l.cols[1].feat != 1 || l.cols[1].width() != 2 || l.cols[2].feat != 3 || l.cols[3].width() != 0 {
		t.Errorf("layout %+v", l.cols)
	}
	for _, bad := range []struct {
		features []string
		msg      string
	}{
		{[]string{"a", "c=x", "b"}, `feature 3 is "b", not its one-hot feature "c=y"`},
		{[]string{"a", "c=x"}, "not all among the features"},
		{[]string{"a", "b"}, `its one-hot feature "c=x" is not among the features`},
		{[]string{"a", "c=x", "c=y", "c"}, `names column "c" twice`},
	} {
		if _, err := newLayout(&dataset.Schema{Features: bad.features, Categories: cats[:1]}); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%v: %v, want %q", bad.features, err, bad.msg)
		}
	}
}

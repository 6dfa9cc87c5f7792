package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aer-go/aer/predfile"
	"github.com/aer-go/aer/serve"
)

// servedAnswer is the part of a predict answer (serve.PredictResponse) the
// tests read; each method's explanation is left out.
type servedAnswer struct {
	Threshold float64  `json:"threshold"`
	Ignored   []string `json:"ignored"`
	Rows      []struct {
		Score    float64             `json:"score"`
		Positive bool                `json:"positive"`
		ID       any                 `json:"id"`
		Unseen   []string            `json:"unseen"`
		Features *serve.Attributions `json:"features"`
	} `json:"rows"`
}

// postServe sends body to the server's predict route and decodes the answer.
func postServe(t *testing.T, s http.Handler, query, ctype, body string) (int, *servedAnswer, map[string]any) {
	t.Helper()
	w := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/v1/predict"+query, strings.NewReader(body))
	req.Header.Set("Content-Type", ctype)
	s.ServeHTTP(w, req)
	if w.Code != http.StatusOK {
		var e map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil {
			t.Fatalf("status %d, body %s", w.Code, w.Body)
		}
		return w.Code, nil, e
	}
	var r servedAnswer
	if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	return w.Code, &r, nil
}

// TestServeCategorical: models fitted on a categorical column (and an id
// column) served over HTTP score JSON objects, JSON arrays (in the raw
// column order) and CSV bodies exactly as aer predict scores the same
// rows, to the last bit, unseen values included and reported per row;
// ids are echoed; feature attributions add up to the score's logit;
// a column the model does not use is ignored and named in "ignored", as
// aer predict ignores it (refused with serve.Options.StrictColumns);
// bad rows are refused naming the row and the field.
func TestServeCategorical(t *testing.T) {
	dir := t.TempDir()
	train, valid, test := aerTask(t, dir)
	files := map[string]string{}
	for _, f := range []struct{ name, path, unseen string }{{"train", train, ""}, {"valid", valid, ""}, {"test", test, "arctic"}} {
		tmp, out := filepath.Join(dir, f.name+"-r.csv"), filepath.Join(dir, f.name+"-c.csv")
		withRegion(t, f.path, tmp, f.unseen)
		withID(t, tmp, out, "rid", "r")
		files[f.name] = out
	}
	testCSV, err := os.ReadFile(files["test"])
	if err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(bytes.NewReader(testCSV)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	header, cells := records[0], records[1:]
	region := slices.Index(header, "region")
	// The test rows with a text column the model does not use.
	var extra bytes.Buffer
	cw := csv.NewWriter(&extra)
	for i, rec := range records {
		cw.Write(append(slices.Clone(rec), map[bool]string{true: "note", false: "free text, " + strconv.Itoa(i)}[i == 0]))
	}
	cw.Flush()
	extraCSV := filepath.Join(dir, "test-extra.csv")
	if err := os.WriteFile(extraCSV, extra.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, fit := range []struct {
		name string
		args []string
	}{
		{"gbdt", []string{"--method", "gbdt", "--param", "n_estimators=20"}},
		{"aer", append([]string{"--method", "aer"}, smallAER...)},
	} {
		t.Run(fit.name, func(t *testing.T) {
			model := filepath.Join(dir, fit.name+".aer")
			args := append([]string{"fit", "--method", "gbdt", "--train", files["train"], "--valid", files["valid"], "--id", "rid", "--out", model}, fit.args...)
			if _, errOut, code := aer(t, args...); code != 0 {
				t.Fatal(errOut)
			}
			preds := filepath.Join(dir, fit.name+"-preds.csv")
			if _, errOut, code := aer(t, "predict", "--model", model, "--data", files["test"], "--out", preds); code != 0 {
				t.Fatal(errOut)
			}
			want, err := predfile.LoadPredictions(preds)
			if err != nil {
				t.Fatal(err)
			}
			// aer predict ignores the extra column: the same predictions.
			extraPreds := filepath.Join(dir, fit.name+"-extra-preds.csv")
			if _, errOut, code := aer(t, "predict", "--model", model, "--data", extraCSV, "--out", extraPreds); code != 0 {
				t.Fatal(errOut)
			} else if mustRead(t, preds) != mustRead(t, extraPreds) {
				t.Fatal("aer predict: other predictions with an extra column")
			}
			s, err := serve.New([]serve.Spec{{Name: "m", Path: model}}, nil)
			if err != nil {
				t.Fatal(err)
			}

			// The model's description: raw columns, categories, id.
			w := httptest.NewRecorder()
			s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/v1/models/m", nil))
			var info serve.ModelInfo
			if err := json.Unmarshal(w.Body.Bytes(), &info); err != nil {
				t.Fatal(err)
			}
			wantCols := slices.DeleteFunc(slices.Clone(header), func(c string) bool { return c == "rid" || c == "label" })
			if !slices.Equal(info.Columns, wantCols) || info.ID != "rid" || len(info.Categories) != 1 ||
				info.Categories[0].Column != "region" || !slices.Equal(info.Categories[0].Values, []string{"east", "north", "south", "west"}) || !info.Attributions {
				t.Fatalf("model info: columns %v, id %q, categories %+v, attributions %v", info.Columns, info.ID, info.Categories, info.Attributions)
			}

			// The same rows three ways.
			var objects, arrays, withNote []string
			for _, rec := range cells {
				var obj, arr []string
				for k, c := range rec {
					v := c
					if header[k] == "rid" || header[k] == "region" || header[k] == "label" {
						v = strconv.Quote(c)
					}
					obj = append(obj, strconv.Quote(header[k])+":"+v)
				}
				for _, col := range info.Columns {
					k := slices.Index(header, col)
					if col == "region" {
						arr = append(arr, strconv.Quote(rec[k]))
					} else {
						arr = append(arr, rec[k])
					}
				}
				objects = append(objects, "{"+strings.Join(obj, ",")+"}")
				withNote = append(withNote, "{"+strings.Join(append(obj, `"note":["any",{"thing":1}]`), ",")+"}")
				arrays = append(arrays, "["+strings.Join(arr, ",")+"]")
			}
			for _, tc := range []struct {
				name, query, ctype, body string
				ids                      bool
				ignored                  []string
			}{
				{"csv", "?explain=true&top=100", "text/csv", string(testCSV), true, nil},
				{"objects", "", "application/json", `{"explain": true, "top": 100, "rows": [` + strings.Join(objects, ",") + `]}`, true, nil},
				{"arrays", "", "application/json", `{"explain": true, "top": 100, "rows": [` + strings.Join(arrays, ",") + `]}`, false, nil},
				{"csv extra column", "?explain=true&top=100", "text/csv", extra.String(), true, []string{"note"}},
				{"objects extra field", "", "application/json", `{"explain": true, "top": 100, "rows": [` + strings.Join(withNote, ",") + `]}`, true, []string{"note"}},
			} {
				code, got, e := postServe(t, s, tc.query, tc.ctype, tc.body)
				if code != 200 {
					t.Fatalf("%s: status %d: %v", tc.name, code, e)
				}
				if len(got.Rows) != len(want.Score) {
					t.Fatalf("%s: %d rows, aer predict %d", tc.name, len(got.Rows), len(want.Score))
				}
				if !slices.Equal(got.Ignored, tc.ignored) {
					t.Errorf("%s: ignored %v, want %v", tc.name, got.Ignored, tc.ignored)
				}
				nUnseen := 0
				for i, r := range got.Rows {
					if math.Float64bits(r.Score) != math.Float64bits(want.Score[i]) {
						t.Fatalf("%s: row %d scores %v, aer predict %v", tc.name, i+1, r.Score, want.Score[i])
					}
					if (r.Score >= got.Threshold) != (want.Pred[i] == 1) {
						t.Errorf("%s: row %d: positive %v, aer predict's pred %d", tc.name, i+1, r.Positive, want.Pred[i])
					}
					if wantID := any(want.ID[i]); tc.ids && r.ID != wantID || !tc.ids && r.ID != nil {
						t.Errorf("%s: row %d: id %v, want %v", tc.name, i+1, r.ID, want.ID[i])
					}
					if arctic := cells[i][region] == "arctic"; arctic != slices.Equal(r.Unseen, []string{"region"}) || !arctic && r.Unseen != nil {
						t.Errorf("%s: row %d (region %s): unseen %v", tc.name, i+1, cells[i][region], r.Unseen)
					} else if arctic {
						nUnseen++
					}
					f := r.Features
					if f == nil || f.Space != "logit" || f.Total != len(info.Columns) || f.Shown != f.Total {
						t.Fatalf("%s: row %d: features %+v", tc.name, i+1, f)
					}
					sum := f.Base
					for _, v := range f.Values {
						sum += v.Attribution
						if v.Feature == "region" && v.Value != map[bool]any{true: nil, false: cells[i][region]}[cells[i][region] == "arctic"] {
							t.Errorf("%s: row %d: region's value %v", tc.name, i+1, v.Value)
						}
					}
					if math.Abs(sum-f.Output) > 1e-9 || math.Abs(1/(1+math.Exp(-f.Output))-r.Score) > 1e-12 {
						t.Errorf("%s: row %d: base + attributions %v, output %v, score %v", tc.name, i+1, sum, f.Output, r.Score)
					}
				}
				if nUnseen != 60 {
					t.Errorf("%s: %d rows with an unseen value, want 60", tc.name, nUnseen)
				}
			}

			// Bad rows are refused naming the row and the field.
			arr := arrays[0]
			for _, tc := range []struct {
				name, body string
				row        float64
				field, msg string
			}{
				{"nested", `{"rows": [` + objects[0] + `, ` + strings.Replace(objects[1], `"region":"`, `"region":{"a":"`, 1) + `}]}`, 2, "region", "an array or object is not a value"},
				{"unknown column, missing", `{"rows": [` + strings.Replace(objects[0], `"region"`, `"regoin"`, 1) + `]}`, 1, "region", `missing column(s) "region"`},
				{"one-hot name", `{"rows": [` + strings.Replace(objects[0], `"region"`, `"region=north"`, 1) + `]}`, 1, "region=north", "one-hot feature of the categorical column"},
				{"wrong count", `{"rows": [` + arr + `, ` + strings.TrimSuffix(arr, "]") + `,1]]}`, 2, "", "values; the model expects"},
				{"csv text in a number column", strings.Replace(string(testCSV), "\n"+cells[0][0]+","+cells[0][1], "\n"+cells[0][0]+",oops", 1), 1, header[1], "not a number"},
			} {
				ctype := "application/json"
				if strings.HasPrefix(tc.name, "csv") {
					ctype = "text/csv"
				}
				code, _, e := postServe(t, s, "", ctype, tc.body)
				if code != 400 || e["row"] != tc.row || (e["field"] != nil || tc.field != "") && e["field"] != tc.field || !strings.Contains(e["error"].(string), tc.msg) {
					t.Errorf("%s: status %d, %v; want 400, row %v, field %q, %q", tc.name, code, e, tc.row, tc.field, tc.msg)
				}
			}

			// --strict-columns: a column the model does not use is
			// refused, as it always was.
			strict, err := serve.New([]serve.Spec{{Name: "m", Path: model}}, &serve.Options{StrictColumns: true})
			if err != nil {
				t.Fatal(err)
			}
			code, _, e := postServe(t, strict, "", "application/json", `{"rows": [`+strings.Join(withNote, ",")+`]}`)
			if code != 400 || e["row"] != 1.0 || e["field"] != "note" || !strings.Contains(e["error"].(string), "the model has no such column") {
				t.Errorf("strict, JSON: status %d, %v", code, e)
			}
			code, _, e = postServe(t, strict, "", "text/csv", extra.String())
			if code != 400 || e["row"] != nil || e["field"] != "note" || !strings.Contains(e["error"].(string), "the model has no such column") {
				t.Errorf("strict, CSV: status %d, %v", code, e)
			}
			if code, _, e = postServe(t, strict, "", "text/csv", string(testCSV)); code != 200 {
				t.Errorf("strict, no extra column: status %d, %v", code, e)
			}
		})
	}
}

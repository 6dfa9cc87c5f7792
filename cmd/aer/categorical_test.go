package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/modelfile"
)

// withRegion writes the CSV at path to out with a categorical column
// region before the label: mostly "north" for positives, "south", "east"
// or "west" otherwise; every fifth row gets unseen instead when unseen is
// not "".
func withRegion(t *testing.T, path, out, unseen string) {
	t.Helper()
	rewriteCSV(t, path, out, func(i int, f []string, label string) []string {
		region := "region"
		switch {
		case i == 0:
		case unseen != "" && i%5 == 0:
			region = unseen
		case label == "1" && i%4 != 0:
			region = "north"
		default:
			region = []string{"south", "east", "west", "north"}[i%4]
		}
		return append(f, region, label)
	})
}

// TestCategoricalRoundTrip: a model fitted on a categorical column keeps
// its categories in the schema; scoring rows with an unseen category
// works, counts them, and scores them as rows with the cell missing (both
// encode to all zeros); aer and gbdt alike.
func TestCategoricalRoundTrip(t *testing.T) {
	dir := t.TempDir()
	train, valid, test := aerTask(t, dir)
	ctrain, cvalid := filepath.Join(dir, "ctrain.csv"), filepath.Join(dir, "cvalid.csv")
	withRegion(t, train, ctrain, "")
	withRegion(t, valid, cvalid, "")
	unseen, missing := filepath.Join(dir, "unseen.csv"), filepath.Join(dir, "missing.csv")
	withRegion(t, test, unseen, "arctic")
	withRegion(t, test, missing, "NA")
	for _, fit := range []struct {
		name string
		args []string
	}{
		{"gbdt", []string{"--method", "gbdt", "--param", "n_estimators=20"}},
		{"aer", append([]string{"--method", "aer"}, smallAER...)},
	} {
		t.Run(fit.name, func(t *testing.T) {
			model := filepath.Join(dir, fit.name+".aer")
			args := append([]string{"fit", "--method", "gbdt", "--train", ctrain, "--valid", cvalid, "--out", model}, fit.args...)
			if _, errOut, code := aer(t, args...); code != 0 {
				t.Fatal(errOut)
			}
			// Validation rows with an unseen value are noted.
			args = append([]string{"fit", "--method", "gbdt", "--train", ctrain, "--valid", unseen, "--out", filepath.Join(dir, "v.aer")}, fit.args...)
			if _, errOut, code := aer(t, args...); code != 0 || !strings.Contains(errOut, "unseen.csv: 60 cells of categorical columns hold values the training data lacks") {
				t.Errorf("unseen validation values: exit %d: %s", code, errOut)
			}
			h, _, err := modelfile.Load(model)
			if err != nil {
				t.Fatal(err)
			}
			wantCats := []dataset.Category{{Column: "region", Values: []string{"east", "north", "south", "west"}}}
			if len(h.Schema.Categories) != 1 || !slices.Equal(h.Schema.Categories[0].Values, wantCats[0].Values) {
				t.Fatalf("schema categories %+v", h.Schema.Categories)
			}
			if !slices.Contains(h.Schema.Features, "region=north") || slices.Contains(h.Schema.Features, "region") {
				t.Fatalf("schema features %v", h.Schema.Features)
			}
			p1, p2 := filepath.Join(dir, fit.name+"-u.csv"), filepath.Join(dir, fit.name+"-m.csv")
			out, errOut, code := aer(t, "predict", "--model", model, "--data", unseen, "--out", p1, "--json")
			if code != 0 {
				t.Fatal(errOut)
			}
			var js struct {
				Rows     int            `json:"rows"`
				Unseen   int            `json:"unseen_categories"`
				ByColumn map[string]int `json:"unseen_by_column"`
			}
			if err := json.Unmarshal([]byte(out), &js); err != nil {
				t.Fatal(err)
			}
			if js.Rows != 300 || js.Unseen != 60 || js.ByColumn["region"] != 60 {
				t.Errorf("json %+v", js)
			}
			if want := "predict: 60 cells of categorical columns hold values unseen in training, encoded as all zeros (region 60)\n"; errOut != want {
				t.Errorf("stderr %q, want %q", errOut, want)
			}
			if _, errOut, code := aer(t, "predict", "--model", model, "--data", missing, "--out", p2); code != 0 {
				t.Fatal(errOut)
			}
			a, _ := os.ReadFile(p1)
			b, _ := os.ReadFile(p2)
			if string(a) != string(b) {
				t.Error("rows with an unseen category score unlike rows with the cell missing")
			}
			// Streaming (7 rows a batch) gives the same file.
			defer func(n int) { predictBatch = n }(predictBatch)
			predictBatch = 7
			if got, _, _ := aer(t, "predict", "--model", model, "--data", unseen); got != string(a) {
				t.Error("streamed categorical predictions differ")
			}
		})
	}
}

// TestCategoricalFlags: --categorical forces a numeric code column
// categorical; --max-categories caps the values; both are usage-checked.
func TestCategoricalFlags(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join(dir, "train.csv")
	b, _ := os.ReadFile("testdata/fit/train.csv")
	os.WriteFile(train, b, 0o644)
	model := filepath.Join(dir, "m.aer")
	if _, errOut, code := aer(t, "fit", "--method", "gbdt", "--train", train, "--categorical", "c", "--out", model); code != 0 {
		t.Fatal(errOut)
	}
	h, _, err := modelfile.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Schema.Categories) != 1 || h.Schema.Categories[0].Column != "c" || !strings.HasPrefix(strings.Join(h.Schema.Features, ","), "a,b,c=") {
		t.Errorf("schema %+v", h.Schema)
	}
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--categorical", "nope"}, 2, "--categorical nope: " + train + " has no such feature column"},
		{[]string{"--max-categories", "0"}, 2, `invalid value "0" for flag -max-categories: "0": want a whole number from 1 to 65536`},
		{[]string{"--categorical", "a", "--max-categories", "3"}, 1, `column "a"`},
	} {
		_, errOut, code := aer(t, append([]string{"fit", "--method", "gbdt", "--train", train, "--out", filepath.Join(dir, "x.aer")}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d: %s", c.args, code, errOut)
		}
	}
}

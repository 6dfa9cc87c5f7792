package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestInfoModel: aer info --model reports what aer fit wrote, for models
// of three methods fitted here.
func TestInfoModel(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join("testdata", "fit", "train.csv")
	cases := []struct {
		method string
		extra  []string
		from   string
	}{
		{"aer", nil, "decision-layer"}, // fitted on the rows aer held out
		{"gbdt", []string{"--param", "n_estimators=5", "--cross-fit", "-1"}, "default"},
		{"logreg", []string{"--valid", train, "--calibrate", "sigmoid"}, "decision-layer"},
	}
	for _, c := range cases {
		t.Run(c.method, func(t *testing.T) {
			model := filepath.Join(dir, c.method+".aer")
			args := append([]string{"fit", "--train", train, "--method", c.method, "--seed", "4", "--out", model, "--json"}, c.extra...)
			fitOut, errOut, code := aer(t, args...)
			if code != 0 {
				t.Fatalf("fit: %s", errOut)
			}
			var fit struct {
				Params map[string]string
			}
			if err := json.Unmarshal([]byte(fitOut), &fit); err != nil {
				t.Fatal(err)
			}
			out, errOut, code := aer(t, "info", "--model", model, "--json")
			if code != 0 {
				t.Fatalf("info: %s", errOut)
			}
			var r infoModelReport
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			raw, _ := os.ReadFile(model)
			sum := sha256.Sum256(raw)
			if r.SHA256 != hex.EncodeToString(sum[:]) || r.Bytes != int64(len(raw)) || r.Format != 1 {
				t.Errorf("file: %s %d %d", r.SHA256, r.Bytes, r.Format)
			}
			if r.Checksum != hex.EncodeToString(raw[len(raw)-32:]) {
				t.Errorf("stored checksum %s", r.Checksum)
			}
			if r.Method != c.method || !reflect.DeepEqual(r.Params, fit.Params) {
				t.Errorf("method %s, params %v; fit said %v", r.Method, r.Params, fit.Params)
			}
			if !reflect.DeepEqual(r.Schema.Features, []string{"a", "b", "c"}) || r.Schema.Label != "status" || !slices.Equal(r.Schema.Classes, []string{"healthy", "sick"}) {
				t.Errorf("schema %+v", r.Schema)
			}
			if r.Train == nil || r.Train.Rows != 80 || r.Train.Positives != 16 || r.Train.MissingCells == 0 {
				t.Errorf("training summary %+v", r.Train)
			}
			if r.Seed == nil || *r.Seed != 4 {
				t.Errorf("seed %v", r.Seed)
			}
			if r.ThresholdFrom != c.from {
				t.Errorf("threshold from %s, want %s", r.ThresholdFrom, c.from)
			}
			switch c.method {
			case "aer":
				if r.Decision == nil || r.Decision.Source != "cross-fit" || r.Decision.Folds != 4 {
					t.Errorf("decision %+v: want one fitted on the members' 4-fold out-of-fold scores", r.Decision)
				}
				if r.Preset != "plus" || len(r.Members) < 4 {
					t.Errorf("preset %q, %d members", r.Preset, len(r.Members))
				}
				// Static weights lie on the simplex.
				total := 0.0
				for _, m := range r.Members {
					total += m.StaticWeight
					if m.StaticWeight < 0 || m.Method == "" || m.Name == "" {
						t.Errorf("member %+v", m)
					}
				}
				if math.Abs(total-1) > 1e-9 {
					t.Errorf("static weights sum to %v", total)
				}
			case "logreg":
				if r.Decision == nil || r.Decision.Calibration == nil || r.Decision.Calibration.Method != "sigmoid" || r.Threshold != r.Decision.Threshold {
					t.Errorf("decision %+v, threshold %v", r.Decision, r.Threshold)
				}
				if r.Members != nil || r.Preset != "" {
					t.Errorf("members %v, preset %q", r.Members, r.Preset)
				}
			case "gbdt":
				if r.Threshold != 0.5 || r.Decision != nil {
					t.Errorf("threshold %v, decision %v", r.Threshold, r.Decision)
				}
			}
			text, errOut, code := aer(t, "info", "--model", model)
			if code != 0 {
				t.Fatalf("info text: %s", errOut)
			}
			for _, want := range []string{"sha256          " + r.SHA256, "method          " + c.method, "features        3: a, b, c", `label           status: negative "healthy", positive "sick"`, "trained on      80 rows (16 positive)", "\nparameters\n"} {
				if !strings.Contains(text, want) {
					t.Errorf("no %q in\n%s", want, text)
				}
			}
			if hasMembers := strings.Contains(text, "\nmembers ("); hasMembers != (c.method == "aer") {
				t.Errorf("member table shown: %v\n%s", hasMembers, text)
			}
		})
	}
}

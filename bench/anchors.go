package bench

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// anchorNames maps a registered method, at its defaults, to the Python
// anchors' run of the same settings (../shared/anchors/README.md).
var anchorNames = map[string]string{
	"aer":              "AER_exp_simplex",
	"dynens":           "DynEns_exp",
	"gbdt":             "XGB_default",
	"gbdt-tuned":       "XGB_spw",
	"smote-gbdt":       "SMOTE_XGB",
	"easy-ensemble":    "EasyEnsemble",
	"balanced-rf":      "BalancedRF",
	"balanced-bagging": "BalancedBagging",
	"rusboost":         "RUSBoost",
	"svm":              "SVC_balanced",
	"tree":             "DT_balanced",
	"logreg":           "LR_balanced",
}

// anchorOf returns the anchors' name of a spec, "" when none has the same
// settings (a spec with parameters, or a method the anchors did not run).
func anchorOf(s Spec) string {
	if len(s.Params) > 0 {
		return ""
	}
	return anchorNames[s.Name]
}

// anchorRun is one run of the anchors' runs.csv.
type anchorRun struct {
	ba, auc float64
}

// anchorRuns are the anchors' successful runs by dataset, method and seed.
type anchorRuns map[string]map[string]map[uint64]anchorRun

// readAnchors reads dir/runs.csv; a missing file gives nil.
func readAnchors(dir string) (anchorRuns, error) {
	if dir == "" {
		return nil, nil
	}
	path := filepath.Join(dir, "runs.csv")
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cr := csv.NewReader(f)
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	col := map[string]int{}
	for j, h := range head {
		col[h] = j
	}
	for _, k := range []string{"dataset", "method", "seed", "status", "tuned_ba", "roc_auc"} {
		if _, ok := col[k]; !ok {
			return nil, fmt.Errorf("%s: no %s column", path, k)
		}
	}
	out := anchorRuns{}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if rec[col["status"]] != "ok" {
			continue
		}
		seed, err1 := strconv.ParseUint(rec[col["seed"]], 10, 64)
		ba, err2 := strconv.ParseFloat(rec[col["tuned_ba"]], 64)
		auc, err3 := strconv.ParseFloat(rec[col["roc_auc"]], 64)
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", path, line, err)
		}
		d, m := rec[col["dataset"]], rec[col["method"]]
		if out[d] == nil {
			out[d] = map[string]map[uint64]anchorRun{}
		}
		if out[d][m] == nil {
			out[d][m] = map[uint64]anchorRun{}
		}
		out[d][m][seed] = anchorRun{ba, auc}
	}
}

// DefaultAnchors returns the shared anchors directory beside a datasets
// directory (../anchors next to ../datasets) when it holds runs.csv, else "".
func DefaultAnchors(datasetsDir string) string {
	dir := filepath.Join(filepath.Dir(filepath.Clean(datasetsDir)), "anchors")
	if _, err := os.Stat(filepath.Join(dir, "runs.csv")); err != nil {
		return ""
	}
	return dir
}

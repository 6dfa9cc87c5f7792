package bench

import (
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// anchorNames maps a registered method, at its defaults, to the Python
// anchors' run of the same settings (../shared/anchors/README.md). The
// default aer has no such run: its anchor is the Python AER+ (plusAnchor).
var anchorNames = map[string]string{
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

// paperAnchor is the anchors' run of the paper's AER as NOTES.md reads
// it, the anchor of aer:preset=paper.
const paperAnchor = "AER_exp_simplex"

// plusAnchor is the anchor of the default aer: the Python AER+ of
// ../shared/anchors/aerplus.md, the combination the default preset grew
// from. It has no runs, only its mean test balanced accuracy per dataset
// over the anchors' seeds (plusMeans).
const plusAnchor = "AER+"

// anchorOf returns the anchors' name of a spec, "" when none matches: the
// paper preset of aer (exactly aer:preset=paper) is AER_exp_simplex, the
// default aer AER+, another method at its defaults the run of the same
// settings; any other spec with parameters has none.
func anchorOf(s Spec) string {
	switch {
	case s.String() == PaperPreset.String():
		return paperAnchor
	case len(s.Params) > 0:
		return ""
	case s.Name == PaperPreset.Name:
		return plusAnchor
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
	f, err := openOptional(path)
	if f == nil {
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
	err = readRecords(cr, path, func(line int, rec []string) error {
		if rec[col["status"]] != "ok" {
			return nil
		}
		seed, err1 := strconv.ParseUint(rec[col["seed"]], 10, 64)
		ba, err2 := strconv.ParseFloat(rec[col["tuned_ba"]], 64)
		auc, err3 := strconv.ParseFloat(rec[col["roc_auc"]], 64)
		if err := errors.Join(err1, err2, err3); err != nil {
			return fmt.Errorf("%s: line %d: %w", path, line, err)
		}
		d, m := rec[col["dataset"]], rec[col["method"]]
		if out[d] == nil {
			out[d] = map[string]map[uint64]anchorRun{}
		}
		if out[d][m] == nil {
			out[d][m] = map[uint64]anchorRun{}
		}
		out[d][m][seed] = anchorRun{ba, auc}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// plusMeans is the Python AER+'s mean test balanced accuracy per dataset
// (aerplus.md's "AER+" column) and the seeds they average ("0-4", as the
// file says; "" when it does not).
type plusMeans struct {
	ba    map[string]float64
	seeds string
}

// plusSeeds finds the seeds of aerplus.md's study in its text ("seeds
// 0-4").
var plusSeeds = regexp.MustCompile(`seeds (\d+(?:-\d+)?)`)

// readPlusMeans reads dir/aerplus.md: the first Markdown table whose
// header's first cell is "dataset" and that has an "AER+" column, one
// value per dataset row (the "mean" row left out). A missing file gives
// nil; a file without that column is an error.
func readPlusMeans(dir string) (*plusMeans, error) {
	if dir == "" {
		return nil, nil
	}
	path := filepath.Join(dir, "aerplus.md")
	b, ok, err := readOptional(path)
	if !ok {
		return nil, err
	}
	pm := &plusMeans{ba: map[string]float64{}}
	if m := plusSeeds.FindSubmatch(b); m != nil {
		pm.seeds = string(m[1])
	}
	col := -1
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			if col >= 0 {
				break // the table ended
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		if col < 0 {
			if cells[0] == "dataset" {
				col = slices.Index(cells, plusAnchor)
			}
			continue
		}
		if len(cells) <= col || cells[0] == "mean" || strings.Trim(cells[col], "-: ") == "" {
			continue // the separator row, the mean
		}
		v, err := strconv.ParseFloat(cells[col], 64)
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: dataset %s: %s value %q: %w", path, i+1, cells[0], plusAnchor, cells[col], err)
		}
		pm.ba[cells[0]] = v
	}
	if len(pm.ba) == 0 {
		return nil, fmt.Errorf("%s: no table with a dataset column and an %s column", path, plusAnchor)
	}
	return pm, nil
}

// seedsText names the seeds of the means: "the anchors' seeds 0-4".
func (pm *plusMeans) seedsText() string {
	if pm.seeds == "" {
		return "the anchors' seeds"
	}
	return "the anchors' seeds " + pm.seeds
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

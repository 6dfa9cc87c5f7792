package bench

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"

	"github.com/aer-go/aer/contaminate"
)

// Row is one run of runs.csv: a method spec fitted on one dataset's split
// of one seed, and what it scored on the test rows.
type Row struct {
	Dataset string
	Method  string // the spec, NAME or NAME:key=value...
	// Params are the spec's parameters and, after a grid search, the
	// chosen grid values, as space-separated key=value.
	Params string
	Seed   uint64
	Status string // "ok", or "error" with Error saying why
	Error  string

	NTrain, NValid, NTest, NFeatures int

	// Threshold is the decision threshold tuned on the validation rows
	// (balanced accuracy); the metrics below are the test rows' at it.
	Threshold        float64
	BalancedAccuracy float64
	MinorityRecall   float64
	MajorityRecall   float64
	Precision        float64 // minority precision
	F1               float64
	FowlkesMallows   float64 // sqrt(precision * recall), the paper's "G-mean"
	GMean            float64 // sqrt(TPR * TNR)
	TPFPRatio        float64 // TPR / FPR, the paper's "TP-FP ratio"; +Inf when FPR = 0
	MCC              float64
	TP, FP, TN, FN   int
	ROCAUC           float64
	AveragePrecision float64
	Brier, LogLoss   float64 // NaN when the scores are not probabilities
	ValidBA          float64 // balanced accuracy on the validation rows at Threshold
	DefaultThreshold float64 // 0.5, or the threshold the method tuned itself
	DefaultBA        float64 // test balanced accuracy at DefaultThreshold
	FitSeconds       float64
	PredictSeconds   float64 // scoring the test rows
	HeapPeakBytes    uint64
	SettingsHash     string
	// Contamination is the run's condition (package contaminate,
	// "flip:0.1"); "" when clean. runs.csv has its column, the last,
	// only when a bench contaminates ("none" for clean).
	Contamination string
}

// column is one column of runs.csv.
type column struct {
	name  string
	get   func(*Row) string
	set   func(*Row, string) error
	float bool
	// num is a float column's field.
	num func(*Row) *float64
}

func strCol(name string, f func(*Row) *string) column {
	return column{name, func(r *Row) string { return *f(r) }, func(r *Row, v string) error { *f(r) = v; return nil }, false, nil}
}

func intCol(name string, f func(*Row) *int) column {
	return column{name, func(r *Row) string { return strconv.Itoa(*f(r)) }, func(r *Row, v string) (err error) {
		*f(r), err = strconv.Atoi(v)
		return err
	}, false, nil}
}

func uintCol(name string, f func(*Row) *uint64) column {
	return column{name, func(r *Row) string { return strconv.FormatUint(*f(r), 10) }, func(r *Row, v string) (err error) {
		*f(r), err = strconv.ParseUint(v, 10, 64)
		return err
	}, false, nil}
}

// floatCol writes the shortest text that parses back to the same number,
// so a resumed bench reads exactly what it wrote; NaN is "NaN", infinity
// "+Inf".
func floatCol(name string, f func(*Row) *float64) column {
	return column{name, func(r *Row) string { return strconv.FormatFloat(*f(r), 'g', -1, 64) }, func(r *Row, v string) (err error) {
		*f(r), err = strconv.ParseFloat(v, 64)
		return err
	}, true, f}
}

// classColumns name the metric of the table a column holds for three or
// more classes where it is not the column's own: f1 is the macro F1,
// roc_auc Hand and Till's MAUC.
var classColumns = map[string]string{"f1": "macro_f1", "roc_auc": "mauc"}

// setMetrics sets each float column of row that names a metric rep holds
// (a column of classColumns, for more than two classes, the metric it
// maps to); the other columns are left as they are.
func setMetrics(row *Row, rep interface{ Get(string) (float64, bool) }, classes int) {
	for _, c := range columns {
		if !c.float {
			continue
		}
		name := c.name
		if alt, ok := classColumns[name]; ok && classes > 2 {
			name = alt
		}
		if v, ok := rep.Get(name); ok {
			*c.num(row) = v
		}
	}
}

// columns are runs.csv's columns in order.
var columns = []column{
	strCol("dataset", func(r *Row) *string { return &r.Dataset }),
	strCol("method", func(r *Row) *string { return &r.Method }),
	strCol("params", func(r *Row) *string { return &r.Params }),
	uintCol("seed", func(r *Row) *uint64 { return &r.Seed }),
	strCol("status", func(r *Row) *string { return &r.Status }),
	strCol("error", func(r *Row) *string { return &r.Error }),
	intCol("n_train", func(r *Row) *int { return &r.NTrain }),
	intCol("n_valid", func(r *Row) *int { return &r.NValid }),
	intCol("n_test", func(r *Row) *int { return &r.NTest }),
	intCol("n_features", func(r *Row) *int { return &r.NFeatures }),
	floatCol("threshold", func(r *Row) *float64 { return &r.Threshold }),
	floatCol("balanced_accuracy", func(r *Row) *float64 { return &r.BalancedAccuracy }),
	floatCol("minority_recall", func(r *Row) *float64 { return &r.MinorityRecall }),
	floatCol("majority_recall", func(r *Row) *float64 { return &r.MajorityRecall }),
	floatCol("minority_precision", func(r *Row) *float64 { return &r.Precision }),
	floatCol("f1", func(r *Row) *float64 { return &r.F1 }),
	floatCol("fowlkes_mallows", func(r *Row) *float64 { return &r.FowlkesMallows }),
	floatCol("gmean", func(r *Row) *float64 { return &r.GMean }),
	floatCol("tp_fp_ratio", func(r *Row) *float64 { return &r.TPFPRatio }),
	floatCol("mcc", func(r *Row) *float64 { return &r.MCC }),
	intCol("tp", func(r *Row) *int { return &r.TP }),
	intCol("fp", func(r *Row) *int { return &r.FP }),
	intCol("tn", func(r *Row) *int { return &r.TN }),
	intCol("fn", func(r *Row) *int { return &r.FN }),
	floatCol("roc_auc", func(r *Row) *float64 { return &r.ROCAUC }),
	floatCol("average_precision", func(r *Row) *float64 { return &r.AveragePrecision }),
	floatCol("brier", func(r *Row) *float64 { return &r.Brier }),
	floatCol("log_loss", func(r *Row) *float64 { return &r.LogLoss }),
	floatCol("valid_balanced_accuracy", func(r *Row) *float64 { return &r.ValidBA }),
	floatCol("default_threshold", func(r *Row) *float64 { return &r.DefaultThreshold }),
	floatCol("default_balanced_accuracy", func(r *Row) *float64 { return &r.DefaultBA }),
	floatCol("fit_seconds", func(r *Row) *float64 { return &r.FitSeconds }),
	floatCol("predict_seconds", func(r *Row) *float64 { return &r.PredictSeconds }),
	uintCol("heap_peak_bytes", func(r *Row) *uint64 { return &r.HeapPeakBytes }),
	strCol("settings_hash", func(r *Row) *string { return &r.SettingsHash }),
}

// Columns returns the names of runs.csv's columns, in order.
func Columns() []string {
	out := make([]string, len(columns))
	for i, c := range columns {
		out[i] = c.name
	}
	return out
}

// TimingColumns are the columns that measure the machine rather than the
// method: they differ between two otherwise identical runs.
var TimingColumns = []string{"fit_seconds", "predict_seconds", "heap_peak_bytes"}

// ContaminationColumn is the column of runs.csv holding each run's
// contamination ("none" when clean), the last, written only when a row is
// contaminated.
const ContaminationColumn = "contamination"

// WriteRuns writes rows as runs.csv, with the contamination column when
// any row is contaminated.
func WriteRuns(w io.Writer, rows []Row) error {
	return writeRuns(w, rows, slices.ContainsFunc(rows, func(r Row) bool { return r.Contamination != "" }))
}

// writeRuns writes rows as runs.csv, with the contamination column when
// withCond.
func writeRuns(w io.Writer, rows []Row, withCond bool) error {
	cw := csv.NewWriter(w)
	head := Columns()
	if withCond {
		head = append(head, ContaminationColumn)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	rec := make([]string, len(head))
	for i := range rows {
		for j, c := range columns {
			rec[j] = c.get(&rows[i])
		}
		if withCond {
			rec[len(columns)] = cmp.Or(rows[i].Contamination, contaminate.None)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadRuns reads a runs.csv written by WriteRuns. Columns it does not know
// are ignored and missing ones keep their zero value, so a runs.csv of an
// older bench still reads (its rows then fail the settings check and are
// run again).
func ReadRuns(r io.Reader, name string) ([]Row, error) {
	cr := csv.NewReader(r)
	head, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	condAt := slices.Index(head, ContaminationColumn)
	idx := make([]int, len(columns))
	for j, c := range columns {
		idx[j] = -1
		for k, h := range head {
			if h == c.name {
				idx[j] = k
			}
		}
	}
	var rows []Row
	err = readRecords(cr, name, func(line int, rec []string) error {
		var row Row
		for j, c := range columns {
			if idx[j] < 0 {
				continue
			}
			if err := c.set(&row, rec[idx[j]]); err != nil {
				return fmt.Errorf("%s: line %d, column %q: %q: %w", name, line, c.name, rec[idx[j]], err)
			}
		}
		if condAt >= 0 && rec[condAt] != contaminate.None {
			c, err := contaminate.ParseCondition(rec[condAt])
			if err != nil {
				return fmt.Errorf("%s: line %d, column %q: %w", name, line, ContaminationColumn, err)
			}
			row.Contamination = condName(c)
		}
		rows = append(rows, row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// readRecords calls fn with each record cr reads after the header, and
// its line number (the first is line 2), until the end or fn's error; a
// read error is wrapped with name.
func readRecords(cr *csv.Reader, name string, fn func(line int, rec []string) error) error {
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := fn(line, rec); err != nil {
			return err
		}
	}
}

// loadRuns reads path, or returns no rows when it does not exist.
func loadRuns(path string) ([]Row, error) {
	f, err := openOptional(path)
	if f == nil {
		return nil, err
	}
	defer f.Close()
	return ReadRuns(f, path)
}

// openOptional opens path for reading; a file that does not exist gives
// a nil file and no error.
func openOptional(path string) (*os.File, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return f, err
}

// readOptional reads all of path; a file that does not exist gives
// ok false and no error.
func readOptional(path string) (b []byte, ok bool, err error) {
	b, err = os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	return b, err == nil, err
}

// nan is the value of metrics a failed run has not measured.
var nan = math.NaN()

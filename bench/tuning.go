package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/atomicfile"
	"github.com/aer-go/aer/learn"
)

// SummariesDir holds, under the output directory, what the AER figures
// need of each run's fit summary (summaries/<dataset>/<method>/<seed>.json),
// so that a resumed bench redraws them without fitting again.
const SummariesDir = "summaries"

// SummaryPath returns the file of a run's tuning summary under out.
func SummaryPath(out, dataset string, spec Spec, seed uint64) string {
	return filepath.Join(out, SummariesDir, dataset, spec.dir(), strconv.FormatUint(seed, 10)+".json")
}

// tuning is what the paper's AER figures (NOTES.md section 7) need of one
// fit: the learned static weights of the members, the validation metric
// against lambda (each at its best delta) and against delta (at the chosen
// lambda, with the confusion counts, from which F1 and Fowlkes-Mallows
// follow). It is read from the JSON of a model's learn.Summarizer summary,
// so any method whose summary has these fields gets the figures; bench
// knows no method. It is also the format of the summary files.
type tuning struct {
	// Metric names what lambda and delta maximise ("balanced_accuracy");
	// "" when the summary does not say.
	Metric string `json:"metric,omitempty"`
	// Members name the members as the model's explanation does, one per
	// static weight; nil when the model does not explain itself.
	Members []string `json:"members,omitempty"`
	// Static are the members' learned static weights.
	Static []float64 `json:"static,omitempty"`
	// Lambda and Delta are the chosen values, Best the validation metric
	// they reach.
	Lambda float64 `json:"lambda"`
	Delta  float64 `json:"delta"`
	Best   float64 `json:"best"`
	// ByLambda and ByDelta are the tuning curves on the validation rows.
	ByLambda []lambdaPoint `json:"by_lambda,omitempty"`
	ByDelta  []deltaPoint  `json:"by_delta,omitempty"`
	// Select is what chose lambda (and the likelihood rule) on the
	// validation rows: selectAUC (their ROC-AUC, in ByLambda's AUC) or
	// selectThreshold (Metric at its best delta, ByLambda's Metric); ""
	// when the summary does not say (a summary file of an older bench).
	Select string `json:"select,omitempty"`
	// DeltaRule is the configured rule for delta (deltaTuned or
	// deltaBayes) and BayesDelta says the Bayes rule set the chosen delta
	// (it falls back to the tuned one when the calibration cannot).
	DeltaRule  string `json:"delta_rule,omitempty"`
	BayesDelta bool   `json:"bayes_delta,omitempty"`
	// Chosen is the validation confusion at the chosen lambda and delta
	// (the final model's), nil when the summary does not give it: the
	// point a delta the curve's grid lacks marks.
	Chosen *confusion `json:"chosen,omitempty"`
}

// The rules a fit summary names (adaptive.Config's Select and DeltaRule).
const (
	selectAUC       = "auc"
	selectThreshold = "threshold"
	deltaTuned      = "tuned"
	deltaBayes      = "bayes"
)

type lambdaPoint struct {
	Lambda float64 `json:"lambda"`
	Metric float64 `json:"metric"`
	Delta  float64 `json:"delta"`
	// AUC is the validation ROC-AUC at this lambda, 0 when the fit did
	// not compute it (lambda not selected by ROC-AUC).
	AUC float64 `json:"auc,omitempty"`
}

type deltaPoint struct {
	Delta     float64   `json:"delta"`
	Metric    float64   `json:"metric"`
	Confusion confusion `json:"confusion"`
}

type confusion struct {
	TP int `json:"tp"`
	FP int `json:"fp"`
	TN int `json:"tn"`
	FN int `json:"fn"`
}

// empty reports that t has nothing to draw.
func (t *tuning) empty() bool {
	return t == nil || len(t.Static) == 0 && len(t.ByLambda) == 0 && len(t.ByDelta) == 0
}

// staticUsed reports whether the static weights take part in the score:
// not when the only lambda tried is 1 (likelihood weights only, the
// Dynamic Ensemble), where they are never learned.
func (t *tuning) staticUsed() bool {
	if len(t.Static) == 0 {
		return false
	}
	if len(t.ByLambda) == 0 {
		return t.Lambda != 1
	}
	for _, p := range t.ByLambda {
		if p.Lambda != 1 {
			return true
		}
	}
	return false
}

// summaryReport is the part of a fit summary's JSON that tuning reads:
// the shape of the AER fit report (aer fit --json's "result").
type summaryReport struct {
	Config struct {
		Metric    string `json:"metric"`
		Select    string `json:"select"`
		DeltaRule string `json:"delta_rule"`
	} `json:"config"`
	BayesDelta bool `json:"bayes_delta"`
	// Valid is the final model's validation metrics at its threshold:
	// counts, which are whole without row weights.
	Valid *struct {
		TP *float64 `json:"tp"`
		FP *float64 `json:"fp"`
		TN *float64 `json:"tn"`
		FN *float64 `json:"fn"`
	} `json:"valid"`
	Combiner *struct {
		Static []float64 `json:"static"`
		Lambda float64   `json:"lambda"`
		Delta  float64   `json:"delta"`
	} `json:"combiner"`
	Tune *struct {
		Metric   float64       `json:"metric"`
		ByLambda []lambdaPoint `json:"by_lambda"`
		ByDelta  []deltaPoint  `json:"by_delta"`
	} `json:"tune"`
}

// tuningOf reads the tuning of a fitted model from its summary (through
// its JSON form, the contract of aer fit --json) and its members' names
// from its explanation of row, which may be nil. It returns nil when the
// model has no summary or the summary none of the fields.
func tuningOf(m learn.Scorer, row []float64) *tuning {
	v := learn.SummaryOf(m)
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var rep summaryReport
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil // a summary of another shape
	}
	t := &tuning{Metric: rep.Config.Metric, Select: rep.Config.Select, DeltaRule: rep.Config.DeltaRule, BayesDelta: rep.BayesDelta}
	if v := rep.Valid; v != nil && v.TP != nil && v.FP != nil && v.TN != nil && v.FN != nil {
		t.Chosen = &confusion{TP: int(math.Round(*v.TP)), FP: int(math.Round(*v.FP)), TN: int(math.Round(*v.TN)), FN: int(math.Round(*v.FN))}
	}
	if c := rep.Combiner; c != nil {
		t.Static, t.Lambda, t.Delta = c.Static, c.Lambda, c.Delta
	}
	if tu := rep.Tune; tu != nil {
		t.Best = tu.Metric
		// Points whose metric was NaN or infinite are written as
		// -+math.MaxFloat64: not values to draw.
		for _, p := range tu.ByLambda {
			if finite(p.Metric) {
				t.ByLambda = append(t.ByLambda, p)
			}
		}
		for _, p := range tu.ByDelta {
			if finite(p.Metric) {
				t.ByDelta = append(t.ByDelta, p)
			}
		}
	}
	if t.empty() {
		return nil
	}
	t.Members = memberNames(m, row, len(t.Static))
	return t
}

// finite reports whether v is a number short of the +-math.MaxFloat64
// that JSON summaries write for infinities.
func finite(v float64) bool { return !math.IsNaN(v) && math.Abs(v) < math.MaxFloat64 }

// memberNames returns the "members" of m's explanation of row when it
// names n of them, else nil.
func memberNames(m learn.Scorer, row []float64, n int) []string {
	ex, ok := learn.ExplainerOf(m)
	if !ok || row == nil || n == 0 {
		return nil
	}
	e, err := ex.Explain(row)
	if err != nil {
		return nil
	}
	b, err := json.Marshal(e)
	if err != nil {
		return nil
	}
	var names struct {
		Members []string `json:"members"`
	}
	if json.Unmarshal(b, &names) != nil || len(names.Members) != n {
		return nil
	}
	return names.Members
}

// firstRow returns a copy of the first row of x, nil when it has none.
func firstRow(x *mat.Dense) []float64 {
	if x == nil || x.IsEmpty() {
		return nil
	}
	return mat.Row(nil, 0, x)
}

// saveTuning writes t to path, or removes path when t is nil, so that no
// summary of an earlier run outlives it.
func saveTuning(path string, t *tuning) error {
	if t == nil {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		return enc.Encode(t)
	})
}

// loadTuning reads a summary file; nil without error when there is none.
func loadTuning(path string) (*tuning, error) {
	b, ok, err := readOptional(path)
	if !ok {
		return nil, err
	}
	var t tuning
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if t.empty() {
		return nil, nil
	}
	return &t, nil
}

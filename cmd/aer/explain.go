package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/aer-go/aer/explain"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
)

func init() {
	register(&command{
		name:    "explain",
		summary: "break down a model's score of each row (feature attributions; AER: component and member weights), or global feature importance",
		usage: `usage: aer explain --model model.aer --data rows.csv [--rows 1,5-7] [--top 10] [--json]
       aer explain --model model.aer --data rows.csv --global [--repeats 5] [--seed 0] [--metric roc_auc] [--json]

For each row, first its feature attributions, for methods that offer them:
the base value and each feature's value and attribution, the --top largest
by absolute attribution (0: all), with base + sum of all attributions =
the output. The output is the log-odds (logit space: gbdt and its
variants, logreg, aer with its default preset plus) or the probability
(probability space: tree, balanced-rf, balanced-bagging, aer
--param preset=paper, dynens). Boosted trees, tree and forests give exact
TreeSHAP values (missing values follow each split's default direction);
logreg gives w_j (x_j - mean_j) on its standardised features, the exact
SHAP values of a linear model. AER combines its members' attributions
with the row's mixed weights w*(x), so base + sum is exactly the score's
logit (plus) or the score (paper, where each member's logit SHAP values
are rescaled to sum to f_j(x) - sigmoid(base_j)); each member's part is
SHAP of that member, but the whole is not the Shapley value of the AER
function: how x moves the weights is not attributed, and the base moves
with the weights. Attributions are of the score: behind --calibrate
sigmoid, log-odds attributions go through the calibration (linear in the
log-odds); a model calibrated otherwise, or with attributions of a
probability, offers none, nor a breakdown of its uncalibrated score.

Then the breakdown of the score that the model's method offers. For aer
and dynens: the component log-densities log N(x | mu_l, Sigma_l)
and the likelihood weights l* they give, the static weights w, the mixed
weights w* = lambda l* + (1 - lambda) w, each member's output and
contribution, the score and the prediction at delta. In probability space
(preset paper) a contribution is w*_j f_j(x) and they sum to the score; in
logit space (the default preset plus) it is w*_j logit f_j(x) and they sum
to the score's logit. Members trained on all rows (the plus preset's
"all rows" and any peers) have no component and no likelihood weight. --rows picks data rows (1-based, after the header); the default is
every row. A method with neither is an error that says so.

--global prints global feature importance over the --rows rows, one CSV
row per feature, largest first: mean_abs_attribution (mean |SHAP|, for
methods with attributions), the built-in importances (gbdt: gain,
total_gain, cover, weight; tree and forests: impurity), and, when the
data has labels, permutation importance: the drop of --metric (roc_auc,
or a thresholded metric such as balanced_accuracy at the model's
threshold) when one feature is shuffled, mean and standard deviation over
--repeats shuffles drawn from --seed (the same for any --threads).`,
		run: runExplain,
	})
}

type explainRow struct {
	Row         int               `json:"row"`
	ID          string            `json:"id,omitempty"`
	Label       *int              `json:"label,omitempty"`
	Score       float64           `json:"score"`
	Prediction  int               `json:"prediction"`
	Features    *rowAttribution   `json:"features,omitempty"`
	Explanation learn.Explanation `json:"explanation,omitempty"`
}

// rowAttribution is one row's feature attributions: output = base + the
// sum of every feature's attribution (Features lists the --top ones).
type rowAttribution struct {
	Space    learn.Space    `json:"space"`
	Base     float64        `json:"base"`
	Output   float64        `json:"output"`
	Shown    int            `json:"shown"`
	Total    int            `json:"total"`
	Features []featureValue `json:"values"`
}

type featureValue struct {
	Feature     string   `json:"feature"`
	Value       *float64 `json:"value"` // null: missing
	Attribution float64  `json:"attribution"`
}

func runExplain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["explain"]
	fs := newFlagSet(c, stderr)
	modelPath := fs.String("model", "", "model `file` written by aer fit (required)")
	dataPath := fs.String("data", "", "data `file` with the rows to explain (CSV, .csv.gz or Parquet), - for standard input (required)")
	rowsFlag := fs.String("rows", "", "data rows to explain, 1-based: e.g. 1,5-7 (default: all)")
	top := fs.Int("top", 10, "features shown per row, largest |attribution| first (0: all); with --global, rows of the table (default there: all)")
	global := fs.Bool("global", false, "print global feature importance instead of per-row explanations")
	repeats := fs.Int("repeats", 5, "--global: shuffles per feature of permutation importance")
	seed := fs.Uint64("seed", 0, "--global: random seed of the shuffles")
	metric := fs.String("metric", explain.ROCAUC, "--global: metric of permutation importance: roc_auc or a thresholded metric (balanced_accuracy, f1, mcc, ...)")
	threads := fs.Int("threads", 0, "worker goroutines (0: all cores)")
	asJSON := fs.Bool("json", false, "print one JSON document")
	id := fs.String("id", "", "row-identifier `column` shown with each row (default: the model's, aer fit --id)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	topSet := false
	fs.Visit(func(f *flag.Flag) { topSet = topSet || f.Name == "top" })
	switch {
	case len(rest) > 0:
		return usageErrorf("explain: unexpected argument %q", rest[0])
	case *modelPath == "" || *dataPath == "":
		return usageErrorf("explain: --model and --data are required")
	case *top < 0:
		return usageErrorf("explain: --top must be at least 0, not %d", *top)
	case *repeats < 1:
		return usageErrorf("explain: --repeats must be at least 1, not %d", *repeats)
	case *threads < 0:
		return usageErrorf("explain: --threads must be at least 0, not %d", *threads)
	}
	if *metric != explain.ROCAUC {
		if _, err := metrics.ParseMetric(*metric); err != nil {
			return usageErrorf("explain: --metric: %v", err)
		}
	}
	h, model, err := loadModel(*modelPath)
	if err != nil {
		return fmt.Errorf("explain: %w", err)
	}
	d, err := loadFor(ctx, *dataPath, h, *modelPath, *id)
	if err != nil {
		return fmt.Errorf("explain: %w", err)
	}
	rows, err := parseRows(*rowsFlag, d.Rows())
	if err != nil {
		return usageErrorf("explain: --rows: %v", err)
	}
	x := learn.Rows(d.X, rows)
	if *global {
		if !topSet {
			*top = 0
		}
		data := &learn.Data{X: x, Features: d.Features}
		if d.Y != nil {
			data.Y, data.W = learn.Pick(d.Y, rows), learn.Pick(d.W, rows)
		}
		g := globalOptions{top: *top, metric: *metric, repeats: *repeats, seed: *seed, threads: *threads}
		return explainGlobal(ctx, model, data, g, h.Method, *modelPath, *dataPath, *asJSON, stdout, stderr)
	}

	attr, attrErr := learn.Attribute(ctx, model, x, *threads)
	if attrErr != nil && !errors.Is(attrErr, learn.ErrNoAttribution) {
		return fmt.Errorf("explain: %w", attrErr)
	}
	ex, hasEx := learn.ExplainerOf(model)
	if attr == nil && !hasEx {
		why := ""
		if attrErr != learn.ErrNoAttribution {
			why = " (" + attrErr.Error() + ")"
		}
		return fmt.Errorf("explain: %s holds a %s model, which offers no per-row explanation and no feature attributions%s", *modelPath, h.Method, why)
	}
	unavailable := ""
	if attr == nil {
		unavailable = attrErr.Error()
		if !*asJSON {
			fmt.Fprintf(stderr, "explain: no feature attributions: %s\n", unavailable)
		}
	}
	score, err := learn.Predict(ctx, model, x, *threads)
	if err != nil {
		return fmt.Errorf("explain: %w", err)
	}
	threshold := learn.ThresholdOf(model)
	var out []explainRow
	for k, i := range rows {
		if err := ctx.Err(); err != nil {
			return err
		}
		r := explainRow{Row: i + 1, Score: score[k]}
		if score[k] >= threshold {
			r.Prediction = 1
		}
		if d.IDs != nil {
			r.ID = d.IDs[i]
		}
		if d.Y != nil {
			y := d.Y[i]
			r.Label = &y
		}
		if attr != nil {
			r.Features = rowFeatures(attr, k, x.RawRowView(k), d.Features, *top)
		}
		if hasEx {
			e, err := ex.Explain(d.X.RawRowView(i))
			if err != nil {
				return fmt.Errorf("explain: row %d: %w", i+1, err)
			}
			r.Explanation = e
		}
		out = append(out, r)
	}
	if *asJSON {
		doc := map[string]any{"model": *modelPath, "method": h.Method, "data": *dataPath, "threshold": threshold, "rows": out}
		if unavailable != "" {
			doc["features_unavailable"] = unavailable
		} else {
			doc["attribution_method"] = attr.Method
		}
		return writeJSON(stdout, doc)
	}
	if attr != nil && attr.Method != "" {
		fmt.Fprintf(stdout, "attributions: %s\n\n", attr.Method)
	}
	for k, r := range out {
		if k > 0 {
			fmt.Fprintln(stdout)
		}
		label := ""
		if r.Label != nil {
			label = fmt.Sprintf(", label %d", *r.Label)
		}
		if r.ID != "" {
			label = fmt.Sprintf(" (%s %s)", d.IDColumn, r.ID) + label
		}
		fmt.Fprintf(stdout, "row %d%s: ", r.Row, label)
		if r.Features != nil {
			fmt.Fprintf(stdout, "score %.4f, prediction %d (threshold %.4g)\n", r.Score, r.Prediction, threshold)
			writeFeatures(stdout, r.Features)
		}
		if r.Explanation != nil {
			if r.Features != nil {
				fmt.Fprint(stdout, "  breakdown: ")
			}
			if err := r.Explanation.WriteText(stdout); err != nil {
				return err
			}
		}
	}
	return nil
}

// rowFeatures is row k of a with the features' values, the top largest
// by |attribution| (0: all).
func rowFeatures(a *learn.Attribution, k int, values []float64, names []string, top int) *rowAttribution {
	phi := a.Phi.RawRowView(k)
	r := &rowAttribution{Space: a.Space, Base: a.Base[k], Output: a.Output(k), Total: len(phi)}
	order := make([]int, len(phi))
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(math.Abs(phi[b]), math.Abs(phi[a])) })
	if top > 0 && top < len(order) {
		order = order[:top]
	}
	for _, j := range order {
		fv := featureValue{Feature: featureName(names, j), Attribution: phi[j]}
		if v := values[j]; !math.IsNaN(v) {
			fv.Value = &v
		}
		r.Features = append(r.Features, fv)
	}
	r.Shown = len(r.Features)
	return r
}

func featureName(names []string, j int) string {
	if j < len(names) {
		return names[j]
	}
	return fmt.Sprintf("f%d", j+1)
}

func writeFeatures(w io.Writer, f *rowAttribution) {
	fmt.Fprintf(w, "  features (%s space): base %.4f + sum of attributions = output %.4f", f.Space, f.Base, f.Output)
	if f.Shown < f.Total {
		fmt.Fprintf(w, "; top %d of %d by |attribution|", f.Shown, f.Total)
	}
	fmt.Fprintf(w, "\n  %-20s %12s %12s\n", "feature", "value", "attribution")
	shown := 0.0
	for _, v := range f.Features {
		val := "NA"
		if v.Value != nil {
			val = strconv.FormatFloat(*v.Value, 'g', 6, 64)
		}
		fmt.Fprintf(w, "  %-20s %12s %+12.4f\n", v.Feature, val, v.Attribution)
		shown += v.Attribution
	}
	if f.Shown < f.Total {
		fmt.Fprintf(w, "  %-20s %12s %+12.4f\n", fmt.Sprintf("(%d more)", f.Total-f.Shown), "", f.Output-f.Base-shown)
	}
}

// parseRows reads "1,5-7" into 0-based row indices; empty means all n rows.
func parseRows(s string, n int) ([]int, error) {
	var rows []int
	if strings.TrimSpace(s) == "" {
		for i := range n {
			rows = append(rows, i)
		}
		return rows, nil
	}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 1 || b < a || b > n {
			return nil, fmt.Errorf("%q: want 1-based rows like 1,5-7 within 1..%d", part, n)
		}
		for i := a; i <= b; i++ {
			rows = append(rows, i-1)
		}
	}
	return rows, nil
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	aerlib "github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
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

Each row comes with its score, its prediction (the positive class when
the score reaches the model's threshold) and its label when the data has
one, the classes named by the training file's label values (under --json,
numbers when they are numbers, as 0 and 1, else strings).

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
--repeats shuffles drawn from --seed (the same for any --threads).

A multi-class model's rows come with the class its decision picks, every
class's probability and, per class, the attributions of that class's
output, base + sum = output: gbdt gives exact TreeSHAP of each class's
margin (XGBoost's pred_contribs, one set per class) and logreg exact SHAP
of each class's linear score, whose softmax is the probabilities; one
binary model per class (--multiclass ovr) gives each member's
attributions as for a binary model, of its calibrated log-odds, whose
sigmoids normalised are the probabilities. One-vs-one models offer none
(their pairwise probabilities are coupled by an iterative fit, which no
per-class sum decomposes): an error. With --global, a multi-class
model's permutation importance is of the macro balanced accuracy of its
decision (--metric roc_auc or balanced_accuracy).`,
		run: runExplain,
	})
}

// explainRow is one row as aer explain shows it: of a two-class model
// its score, prediction at the threshold, feature attributions and the
// method's breakdown; of more classes the predicted class's probability
// (Score), every class's probability and each class's attributions.
type explainRow struct {
	Row           int                      `json:"row"`
	ID            string                   `json:"id,omitempty"`
	Label         className                `json:"label,omitempty"`
	Score         float64                  `json:"score"`
	Prediction    className                `json:"prediction"`
	Features      *explain.RowAttributions `json:"features,omitempty"`
	Explanation   learn.Explanation        `json:"explanation,omitempty"`
	Probabilities []float64                `json:"probabilities,omitempty"`
	ClassFeatures []classFeatures          `json:"class_features,omitempty"`
}

// classFeatures are one class's feature attributions of a row of a
// multi-class model.
type classFeatures struct {
	Class className `json:"class"`
	*explain.RowAttributions
}

// className is a class name, the label value of the training file: in
// JSON a number when the name is one (0/1 labels stay 0 and 1), else a
// string.
type className string

// MarshalJSON writes c as a JSON number when it is a number in canonical
// form, else as a string.
func (c className) MarshalJSON() ([]byte, error) {
	if v, err := strconv.ParseFloat(string(c), 64); err == nil && !math.IsInf(v, 0) && !math.IsNaN(v) &&
		strconv.FormatFloat(v, 'g', -1, 64) == string(c) {
		return []byte(c), nil
	}
	return json.Marshal(string(c))
}

// explainOptions are aer explain's flags.
type explainOptions struct {
	model, data, rows, id, metric string
	top, repeats, threads         int
	global, asJSON                bool
	seed                          uint64
}

// parseExplainFlags reads aer explain's flags.
func parseExplainFlags(args []string, stderr io.Writer) (*explainOptions, error) {
	fs := newFlagSet(commands["explain"], stderr)
	var o explainOptions
	fs.StringVar(&o.model, "model", "", "model `file` written by aer fit (required)")
	fs.StringVar(&o.data, "data", "", "data `file` with the rows to explain (CSV, .csv.gz or Parquet), - for standard input (required)")
	fs.StringVar(&o.rows, "rows", "", "data rows to explain, 1-based: e.g. 1,5-7, or all (default: the first 10 as text, all with --json and --global)")
	fs.IntVar(&o.top, "top", 10, "features shown per row, largest |attribution| first (0: all); with --global, rows of the table (default there: all)")
	fs.BoolVar(&o.global, "global", false, "print global feature importance instead of per-row explanations")
	fs.IntVar(&o.repeats, "repeats", 5, "--global: shuffles per feature of permutation importance")
	fs.Uint64Var(&o.seed, "seed", 0, "--global: random seed of the shuffles")
	fs.StringVar(&o.metric, "metric", explain.ROCAUC, "--global: metric of permutation importance: roc_auc or a thresholded metric (balanced_accuracy, f1, mcc, ...)")
	fs.IntVar(&o.threads, "threads", 0, "worker goroutines (0: all cores)")
	fs.BoolVar(&o.asJSON, "json", false, "print one JSON document")
	fs.StringVar(&o.id, "id", "", "row-identifier `column` shown with each row (default: the model's, aer fit --id)")
	if err := parseNoArgs(fs, args); err != nil {
		return nil, err
	}
	topSet := false
	fs.Visit(func(f *flag.Flag) { topSet = topSet || f.Name == "top" })
	if o.global && !topSet {
		o.top = 0
	}
	switch {
	case o.model == "" || o.data == "":
		return nil, usageErrorf("explain: --model and --data are required")
	case o.top < 0:
		return nil, usageErrorf("explain: --top must be at least 0, not %d", o.top)
	case o.repeats < 1 || o.repeats > 1000:
		return nil, usageErrorf("explain: --repeats must be from 1 to 1000, not %d", o.repeats)
	case o.threads < 0:
		return nil, usageErrorf("explain: --threads must be at least 0, not %d", o.threads)
	}
	if o.metric != explain.ROCAUC {
		if _, err := metrics.ParseMetric(o.metric); err != nil {
			return nil, usageErrorf("explain: --metric: %v", err)
		}
	}
	return &o, nil
}

func runExplain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseExplainFlags(args, stderr)
	if err != nil {
		return err
	}
	sm, err := aerlib.Load(o.model)
	if err != nil {
		return fmt.Errorf("explain: %w", err)
	}
	if _, ok := sm.Learned().(learn.Scorer); !ok && sm.NumClasses() == 2 {
		return fmt.Errorf("explain: %s: a model of %d classes without its classes' attributions", o.model, sm.NumClasses())
	}
	h := sm.Header()
	d, err := loadFor(ctx, o.data, h, o.model, o.id)
	if err != nil {
		return fmt.Errorf("explain: %w", err)
	}
	rows, err := parseRows(o.rows, d.Rows())
	if err != nil {
		return usageErrorf("explain: --rows: %v", err)
	}
	if strings.TrimSpace(o.rows) == "" && !o.asJSON && !o.global && len(rows) > defaultTextRows {
		// A table of 40,000 rows is not read on a terminal: the first
		// rows show what the explanations are, --rows asks for more.
		fmt.Fprintf(stderr, "explain: the first %d of %d rows (--rows 1-%d or --rows all for every row, --json for a document of all)\n", defaultTextRows, len(rows), len(rows))
		rows = rows[:defaultTextRows]
	}
	if o.global {
		return explainGlobal(ctx, sm, d, rows, o, stdout, stderr)
	}
	res, err := explainRows(ctx, sm, d, rows, o)
	if err != nil {
		return err
	}
	if o.asJSON {
		return writeJSON(stdout, res.doc(sm, o))
	}
	if res.attr == nil {
		fmt.Fprintf(stderr, "explain: no feature attributions: %s\n", res.attrErr)
	}
	return writeExplainText(stdout, res, d.IDColumn)
}

// explained is what aer explain shows of the rows.
type explained struct {
	rows    []explainRow
	classes []string
	// threshold is a two-class model's, rule a multi-class model's
	// decision rule.
	threshold float64
	rule      string
	// attr are the attributions of a two-class model's score, or one per
	// class; nil when the model gives none: attrErr says why.
	attr      []*learn.Attribution
	attrErr   error
	explainer learn.Explainer // nil when the model offers no breakdown
}

// explainRows scores the rows of d with sm and explains them: feature
// attributions (explain.Row; per class for a multi-class model) and the
// method's breakdown, those the model offers; the label and prediction
// by their class names. A model that offers nothing to show is an error
// that says so.
func explainRows(ctx context.Context, sm *aerlib.Model, d *dataset.Dataset, rows []int, o *explainOptions) (*explained, error) {
	x := learn.Rows(d.X, rows)
	res := &explained{classes: sm.Classes()}
	var score, proba []float64
	var pred []int
	var err error
	if sm.NumClasses() == 2 {
		if res.classes[0] == "" && res.classes[1] == "" {
			res.classes = []string{"0", "1"}
		}
		if score, err = res.scores(ctx, sm, x, o); err != nil {
			return nil, err
		}
	} else {
		if proba, err = res.probabilities(ctx, sm, x, o); err != nil {
			return nil, err
		}
		pred = make([]int, len(rows))
		sm.Layer().Predict(proba, pred)
	}
	cols := explain.FeatureColumns(d.Features, len(d.Features))
	for r, i := range rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		row := explainRow{Row: i + 1}
		if d.IDs != nil {
			row.ID = d.IDs[i]
		}
		if d.Y != nil {
			row.Label = className(res.classes[d.Y[i]])
		}
		if score != nil {
			row.Score, row.Prediction = score[r], className(res.classes[0])
			if score[r] >= res.threshold {
				row.Prediction = className(res.classes[1])
			}
			if res.attr != nil {
				row.Features = explain.Row(res.attr[0], r, x.RawRowView(r), cols, o.top)
			}
			if res.explainer != nil {
				if row.Explanation, err = res.explainer.Explain(d.X.RawRowView(i)); err != nil {
					return nil, fmt.Errorf("explain: row %d: %w", i+1, err)
				}
			}
		} else {
			k := len(res.classes)
			p := proba[r*k : (r+1)*k]
			row.Score, row.Prediction, row.Probabilities = p[pred[r]], className(res.classes[pred[r]]), p
			for c, a := range res.attr {
				row.ClassFeatures = append(row.ClassFeatures,
					classFeatures{Class: className(res.classes[c]), RowAttributions: explain.Row(a, r, x.RawRowView(r), cols, o.top)})
			}
		}
		res.rows = append(res.rows, row)
	}
	return res, nil
}

// scores attributes and scores the rows x of the two-class model sm; a
// model that offers neither attributions nor a breakdown is an error.
func (res *explained) scores(ctx context.Context, sm *aerlib.Model, x *mat.Dense, o *explainOptions) ([]float64, error) {
	model := sm.Learned().(learn.Scorer) // runExplain checked
	res.threshold = learn.ThresholdOf(model)
	a, err := learn.Attribute(ctx, model, x, o.threads)
	switch {
	case err == nil:
		res.attr = []*learn.Attribution{a}
	case errors.Is(err, learn.ErrNoAttribution):
		res.attrErr = err
	default:
		return nil, fmt.Errorf("explain: %w", err)
	}
	res.explainer, _ = learn.ExplainerOf(model)
	if res.attr == nil && res.explainer == nil {
		why := ""
		if res.attrErr != learn.ErrNoAttribution {
			why = " (" + res.attrErr.Error() + ")"
		}
		return nil, fmt.Errorf("explain: %s holds a %s model, which offers no per-row explanation and no feature attributions%s", o.model, sm.Header().Method, why)
	}
	score, err := learn.Predict(ctx, model, x, o.threads)
	if err != nil {
		return nil, fmt.Errorf("explain: %w", err)
	}
	return score, nil
}

// probabilities attributes each class's output of the rows x of a
// multi-class model (learn.AttributeClasses) and returns their class
// probabilities; a model that offers no attributions is an error.
func (res *explained) probabilities(ctx context.Context, sm *aerlib.Model, x *mat.Dense, o *explainOptions) ([]float64, error) {
	res.rule = sm.Layer().Rule
	attr, err := learn.AttributeClasses(ctx, sm.Learned(), x, o.threads)
	if errors.Is(err, learn.ErrNoAttribution) {
		h := sm.Header()
		return nil, fmt.Errorf("explain: %s holds a multi-class %s model (%s): %v; --global gives permutation importance", o.model, h.Method, h.Multiclass, err)
	}
	if err != nil {
		return nil, fmt.Errorf("explain: %w", err)
	}
	res.attr = attr
	proba, err := sm.Learned().PredictProba(x, nil)
	if err != nil {
		return nil, fmt.Errorf("explain: %w", err)
	}
	return proba, nil
}

// doc is the --json document of the explained rows.
func (res *explained) doc(sm *aerlib.Model, o *explainOptions) map[string]any {
	h := sm.Header()
	doc := map[string]any{"model": o.model, "method": h.Method, "data": o.data, "rows": res.rows}
	switch {
	case res.attr == nil:
		doc["features_unavailable"] = res.attrErr.Error()
	default:
		doc["attribution_method"] = res.attr[0].Method
	}
	if len(res.classes) == 2 {
		doc["threshold"] = res.threshold
		return doc
	}
	names := make([]className, len(res.classes))
	for c, n := range res.classes {
		names[c] = className(n)
	}
	doc["multiclass"], doc["decision"], doc["classes"] = h.Multiclass, res.rule, names
	return doc
}

// writeExplainText writes the explained rows as text: of a two-class
// model each row's score and prediction, its attributions and breakdown;
// of more classes each row's prediction, then each class's probability
// and attributions.
func writeExplainText(w io.Writer, res *explained, idColumn string) error {
	multi := len(res.classes) > 2
	switch {
	case multi:
		fmt.Fprintf(w, "attributions: %s\n", res.attr[0].Method)
		fmt.Fprintf(w, "classes: %s; prediction by the %s decision\n\n", strings.Join(res.classes, ", "), res.rule)
	case res.attr != nil && res.attr[0].Method != "":
		fmt.Fprintf(w, "attributions: %s\n\n", res.attr[0].Method)
	}
	for k, r := range res.rows {
		if k > 0 {
			fmt.Fprintln(w)
		}
		label := ""
		if r.Label != "" {
			label = fmt.Sprintf(", label %s", r.Label)
		}
		if r.ID != "" {
			label = fmt.Sprintf(" (%s %s)", idColumn, r.ID) + label
		}
		fmt.Fprintf(w, "row %d%s: ", r.Row, label)
		if multi {
			fmt.Fprintf(w, "prediction %s, probability %.4f\n", r.Prediction, r.Score)
			for c, f := range r.ClassFeatures {
				fmt.Fprintf(w, "  class %s, probability %.4f\n", f.Class, r.Probabilities[c])
				writeFeatures(w, f.RowAttributions)
			}
			continue
		}
		if r.Features != nil {
			fmt.Fprintf(w, "score %.4f, prediction %s (threshold %.4g)\n", r.Score, r.Prediction, res.threshold)
			writeFeatures(w, r.Features)
		}
		if r.Explanation != nil {
			if r.Features != nil {
				fmt.Fprint(w, "  breakdown: ")
			}
			if err := r.Explanation.WriteText(w); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeFeatures(w io.Writer, f *explain.RowAttributions) {
	fmt.Fprintf(w, "  features (%s space): base %.4f + sum of attributions = output %.4f", f.Space, f.Base, f.Output)
	if f.Shown < f.Total {
		fmt.Fprintf(w, "; top %d of %d by |attribution|", f.Shown, f.Total)
	}
	fmt.Fprintf(w, "\n  %-20s %12s %12s\n", "feature", "value", "attribution")
	shown := 0.0
	for _, v := range f.Values {
		val := "NA"
		switch x := v.Value.(type) {
		case float64:
			val = strconv.FormatFloat(x, 'g', 6, 64)
		case string:
			val = x
		}
		fmt.Fprintf(w, "  %-20s %12s %+12.4f\n", v.Feature, val, v.Attribution)
		shown += v.Attribution
	}
	if f.Shown < f.Total {
		fmt.Fprintf(w, "  %-20s %12s %+12.4f\n", fmt.Sprintf("(%d more)", f.Total-f.Shown), "", f.Output-f.Base-shown)
	}
}

// defaultTextRows is how many rows aer explain shows as text without
// --rows.
const defaultTextRows = 10

// parseRows reads "1,5-7" into 0-based row indices; empty or "all" means
// all n rows.
func parseRows(s string, n int) ([]int, error) {
	var rows []int
	if t := strings.TrimSpace(s); t == "" || t == "all" {
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

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	aerlib "github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/density"
	"github.com/aer-go/aer/metrics"
)

const importUsage = `Usage: aer import --from xgboost|lightgbm --model FILE --data data.csv --out model.aer [--label COLUMN] [--positive VALUE | --labels A,B,C]
                  [--valid valid.csv [--tune-metric M | --cost fn=A,fp=B | --min-recall R | --cost-matrix C] [--calibrate K] [--threshold-rule R]]
                  [--ood-density=false] [--seed N] [--json]

Reads a model another library trained and writes it as an aer model file,
which aer predict, aer explain (exact TreeSHAP), aer serve, aer eval, aer
info and aer bench take like one aer fit wrote.

--from xgboost: a model XGBoost's Booster.save_model wrote, JSON (.json)
or UBJSON (.ubj), XGBoost 1.x to 3.x, objective binary:logistic or
binary:logitraw, booster gbtree or dart; numeric splits, missing values
(each split's default direction) and categorical splits (one-hot or
partition: the category codes in a split's set go right). The scores are
sigmoid(margin): Booster.predict's for binary:logistic (within 1e-6:
XGBoost sums in float32), the sigmoid of its margin for binary:logitraw;
the threshold is 0.5, with no decision layer. Multi-class models,
objective multi:softprob or multi:softmax (num_class trees a round, each
tree the class its tree_info says; several a round with
num_parallel_tree): each class's margin starts from base_score (or its
own, XGBoost 3.1's per-class base_score), and the class probabilities
are the softmax of the margins, Booster.predict's for multi:softprob and
XGBClassifier.predict_proba's for multi:softmax (within 1e-6). Other
objectives, gblinear and vector leaves are refused with the reason, and a
malformed or truncated file with the field or byte where it went wrong.

--from lightgbm: a model LightGBM's Booster.save_model wrote in its text
format (model.txt, format v2 to v4: LightGBM 2.x to 4.x), objective binary
(sigmoid:S) or cross_entropy, boosting gbdt, dart, goss or rf (rf in v3 and
v4 files only); numeric splits with each split's missing type (None: NaN
is 0; Zero: 0 and NaN go the default way; NaN: NaN goes the default way)
and categorical splits (the codes in a split's bitset go left; NaN and
negative codes right), as LightGBM decides them. The scores are
LightGBM's predict, 1/(1+exp(-S*raw score)); the margin aer explains is
S times the raw score. Multi-class models, objective multiclass
(softmax; num_class trees an iteration, tree i of class i % num_class):
the class probabilities are LightGBM's predict, the softmax of the
classes' raw scores. multiclassova (whose probabilities are independent
sigmoids, not summing to 1), regression and ranking objectives and linear
trees are refused with the reason, and a malformed or truncated file with
the line and field.

The labelled --data file (CSV, .csv.gz or Parquet; - for standard input)
gives the schema: its features, in order, are the model's inputs, and
its label and classes, --id and --drop columns are the model file's; its
rows are only scored once, for the ROC-AUC reported (a value below 0.5
warns that the positive class is probably the wrong one). The model must
read as many features as the file has, and where it names its features
they must be the file's, in the same order (LightGBM's default names,
Column_0, Column_1, ..., name none). A categorical feature is read as its
integer code (pandas' .cat.codes), so the file holds the codes, not
text. The binary objectives score the label 1: with labels 0 and 1, 1 is
the positive class whichever is rarer; with other labels, --positive
names the one the model was trained to score as 1.

A multi-class model needs a --data label of as many classes, which name
the model's classes 0, 1, ... in order: by default the labels sorted,
numbers by value (so labels 0..k-1, as XGBoost and LightGBM number them,
are the model's own); --labels A,B,C names them in the model's order
instead (the file may then hold only some of them). The imported model
predicts the most probable class (aer predict writes the multi-class
predictions: label, pred, score_<class> per class), and the accuracy and
balanced accuracy on the data are reported.

--valid fits a decision layer for the imported model on those labelled
rows (read like --data, by column name), as aer fit does with validation
rows: by default a sigmoid calibration, so that the scores are
probabilities, and the Bayes-optimal threshold for balanced accuracy; a
multi-class model gets Bayes class weights instead of its most probable
class. --tune-metric, --cost, --min-recall, --cost-matrix, --calibrate
and --threshold-rule say what it is fitted for, as in aer fit. The
training rows are not at hand, so the Bayes rule's prior is the
validation rows' positive share (class shares): give rows drawn as the
training rows were. Without --valid the model decides as its library
does: at 0.5, or at its most probable class, and aer import says so.

Out-of-distribution rows: as aer fit does for a model without a score of
its own, aer import fits a density (--ood-density, on by default; false
skips it) on at most 4,000 of --data's rows, drawn with --seed, its
threshold the 99% quantile of --valid's rows' scores, or without them of
--data's rows held out of the sample; aer predict --ood and aer serve
then flag rows unlike them. Give --data rows drawn as the training rows
were.

--json prints what was imported: the model's format, version (XGBoost's,
or LightGBM's file format), objective, booster, trees and base score
(and classes), its file's SHA-256, the schema and the ROC-AUC on the data
(a multi-class model's accuracy and balanced accuracy). The output file is written whole or not at all.`

func init() {
	register(&command{
		name:    "import",
		summary: "turn a model trained by XGBoost or LightGBM into an aer model file",
		usage:   importUsage,
		run:     runImport,
	})
}

// importOutput is the --json document of aer import.
type importOutput struct {
	aerlib.Imported
	Model    string   `json:"model"`
	Data     string   `json:"data"`
	Out      string   `json:"out"`
	Features []string `json:"features"`
	Label    string   `json:"label"`
	// Classes are a binary model's negative and positive class, Labels
	// a multi-class model's classes in its order (each absent for the
	// other).
	Classes *[2]string `json:"classes,omitempty"`
	Labels  []string   `json:"labels,omitempty"`
	Rows    int        `json:"rows"`
	// ROCAUC is a binary model's ROC-AUC on the --data rows (absent
	// when they hold one class).
	ROCAUC *float64 `json:"roc_auc,omitempty"`
	// Accuracy and BalancedAccuracy are a multi-class model's on the
	// --data rows, at its most probable class.
	Accuracy         *float64 `json:"accuracy,omitempty"`
	BalancedAccuracy *float64 `json:"balanced_accuracy,omitempty"`
	// Valid is the --valid file, and Decision the layer fitted on it
	// (absent without one: the model decides at 0.5 or at its most
	// probable class).
	Valid    string          `json:"valid,omitempty"`
	Decision *decision.Layer `json:"decision,omitempty"`
}

// decideImport fits the imported model's decision on the validation file
// path, read with table's label, classes and columns.
func decideImport(ctx context.Context, model *aerlib.Model, table *aerlib.Table, path string, df *dataFlags, opt decision.Options) (*aerlib.Model, *aerlib.Table, error) {
	d, schema := table.Dataset(), table.Schema()
	valid, err := readTable(ctx, path, dataset.Options{Label: d.Label, Classes: d.Classes, AllowOneClass: true,
		Drop: df.drop, Delimiter: df.delimiter, NA: df.na, ID: df.id, Keep: schema.RawColumns()})
	if err != nil {
		return nil, nil, fmt.Errorf("import: %w", err)
	}
	decided, err := model.Decide(ctx, valid, opt, aerlib.Env{})
	if err != nil {
		if isParamError(err) {
			return nil, nil, usageErrorf("import: --valid %s: %v", path, err)
		}
		return nil, nil, fmt.Errorf("import: --valid %s: %w", path, err)
	}
	return decided, valid, nil
}

// densityImport fits the imported model's out-of-distribution density on
// table's rows, its threshold on valid's when not nil.
func densityImport(ctx context.Context, model *aerlib.Model, table, valid *aerlib.Table, seed uint64) (*aerlib.Model, error) {
	m, err := model.FitDensity(ctx, table, valid, &density.Settings{Seed: seed})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("import: out-of-distribution density: %w", err)
	}
	return m, nil
}

func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet(commands["import"], stderr)
	from := fs.String("from", "", "the `library` that saved the model: xgboost or lightgbm (required)")
	modelPath := fs.String("model", "", "model `file` to import (JSON or UBJSON for xgboost, the text model for lightgbm), - for standard input (required)")
	data := fs.String("data", "", "labelled data `file` (CSV, .csv.gz or Parquet) giving the schema: features in the model's order, label, classes; - for standard input (required)")
	out := fs.String("out", "", "aer model `file` to write (required)")
	asJSON := fs.Bool("json", false, "print one JSON document on stdout")
	oodDensity := fs.Bool("ood-density", true, "fit an out-of-distribution density on --data's rows (threshold on --valid's when given), for aer predict --ood and aer serve (false: none)")
	seed := fs.Uint64("seed", 0, "seed of the density's row sample and fit")
	var df dataFlags
	// The data flags of aer fit, but --positive's default and no
	// --allow-majority-positive (the model decides the positive class).
	borrowFlags(fs, df.register, "label", "delimiter", "drop", "id", "na")
	fs.StringVar(&df.positive, "positive", "", "label `value` the model was trained to score as 1 (default: 1 when the labels are 0 and 1; required otherwise)")
	labels := fs.String("labels", "", "a multi-class model's `classes`, comma-separated, in its order (default: the --data labels, sorted, numbers by value)")
	validPath := fs.String("valid", "", "labelled validation `file` (CSV, .csv.gz or Parquet) to fit the decision layer on (calibration and threshold, or class weights)")
	var ff fitFlags
	borrowFlags(fs, ff.register, "tune-metric", "cost", "min-recall", "calibrate", "threshold-rule", "cost-matrix")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if err := checkImportFlags(*from, *modelPath, *data, *out); err != nil {
		return err
	}
	if err := refuseOverwrite("import", "--out", *out, input{"--model", *modelPath}, input{"--data", *data}, input{"--valid", *validPath}); err != nil {
		return err
	}
	if err := oneStdin("import", input{"--model", *modelPath}, input{"--data", *data}, input{"--valid", *validPath}); err != nil {
		return err
	}
	opt, err := ff.decision("import")
	if err != nil {
		return err
	}
	if opt.Override && *validPath == "" {
		return usageErrorf("import: --tune-metric, --cost, --min-recall, --cost-matrix, --calibrate and --threshold-rule say how --valid's rows fit the decision: give --valid")
	}

	table, err := importTable(ctx, *data, &df, *labels)
	if err != nil {
		return err
	}

	model, err := importModel(ctx, *from, *modelPath, table)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("import: %w", err)
	}

	var validTable *aerlib.Table
	if *validPath != "" {
		if model, validTable, err = decideImport(ctx, model, table, *validPath, &df, opt); err != nil {
			return err
		}
	}
	if *oodDensity {
		if model, err = densityImport(ctx, model, table, validTable, *seed); err != nil {
			return err
		}
	}
	o := importOutput{Imported: *model.ImportedFrom(), Model: *modelPath, Data: *data, Out: *out,
		Features: model.Schema().Features, Label: model.Schema().Label, Rows: table.Rows(), Valid: *validPath, Decision: model.Layer()}
	if err := scoreImport(ctx, stderr, model, table, &o); err != nil {
		return err
	}
	if err := model.Save(ctx, *out); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("import: %w", err)
	}
	if *asJSON {
		return writeJSON(stdout, o)
	}
	printImport(stdout, &o)
	return nil
}

// checkImportFlags refuses a missing required flag or an unknown --from.
func checkImportFlags(from, modelPath, data, out string) error {
	switch {
	case from == "":
		return usageErrorf("import: --from is required (xgboost or lightgbm)")
	case from != aerlib.FromXGBoost && from != aerlib.FromLightGBM:
		return usageErrorf("import: --from %q: aer imports xgboost and lightgbm models", from)
	case modelPath == "":
		return usageErrorf("import: --model is required")
	case data == "":
		return usageErrorf("import: --data is required")
	case out == "":
		return usageErrorf("import: --out is required")
	}
	return nil
}

// scoreImport scores the --data rows with the imported model: a binary
// model's ROC-AUC (warning below chance), a multi-class model's accuracy
// and balanced accuracy.
func scoreImport(ctx context.Context, stderr io.Writer, model *aerlib.Model, table *aerlib.Table, o *importOutput) error {
	preds, err := model.Predict(ctx, table, nil)
	if err != nil {
		return fmt.Errorf("import: scoring %s: %w", o.Data, err)
	}
	if model.NumClasses() > 2 {
		o.Labels = model.Classes()
		// Only what is reported: the accuracies, linear in the rows and
		// classes (EvaluateMulti's k^2 matrix and pairwise AUC took
		// minutes for thousands of classes).
		acc, bal, err := metrics.Accuracies(preds.Label, preds.Pred, len(o.Labels), nil)
		if err != nil {
			return fmt.Errorf("import: scoring %s: %w", o.Data, err)
		}
		o.Accuracy, o.BalancedAccuracy = &acc, &bal
		return nil
	}
	classes := dataset.ClassPair(model.Schema().Classes)
	o.Classes = &classes
	if neg, pos := countLabels(preds.Label); neg > 0 && pos > 0 {
		auc := metrics.ROCAUC(preds.Label, preds.Score, nil)
		o.ROCAUC = &auc
		if auc < 0.5 {
			fmt.Fprintf(stderr, "import: warning: the model's ROC-AUC on %s is %.3f, below chance: is %q the class it was trained to score as 1 (--positive)?\n", o.Data, auc, classes[1])
		}
	}
	return nil
}

// importTable reads the labelled data giving an imported model's
// schema: a binary table with label 1 positive unless --positive names
// the class, or a multi-class one (three or more labels, or the
// --labels classes, in order).
func importTable(ctx context.Context, data string, df *dataFlags, labels string) (*aerlib.Table, error) {
	opt := df.trainingOptions()
	if labels != "" {
		l := strings.Split(labels, ",")
		if len(l) < 3 || len(slices.Compact(slices.Sorted(slices.Values(l)))) != len(l) || slices.Contains(l, "") {
			return nil, usageErrorf("import: --labels %q: want three or more distinct classes, comma-separated", labels)
		}
		if df.positive != "" {
			return nil, usageErrorf("import: --positive names a binary model's class; --labels a multi-class model's")
		}
		opt.Classes = l
	}
	table, err := readTable(ctx, data, opt)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	if err := df.checkDropped(table.Dataset(), data); err != nil {
		return nil, usageErrorf("import: %v", err)
	}
	if table.Dataset().NumClasses() > 2 {
		if df.positive != "" {
			return nil, usageErrorf("import: --positive %s: %s holds %d classes (a multi-class model's classes are its labels, --labels)", df.positive, data, table.Dataset().NumClasses())
		}
		return table, nil
	}
	switch c := dataset.ClassPair(table.Classes()); {
	case c == [2]string{"1", "0"} && df.positive != "":
		return nil, usageErrorf("import: --positive %s: the binary objectives score the label 1, not 0", df.positive)
	case c != [2]string{"0", "1"} && c != [2]string{"1", "0"} && df.positive == "":
		return nil, usageErrorf("import: %s: the labels are %q and %q, not 0 and 1: name the one the model was trained to score as 1 with --positive", data, c[0], c[1])
	}
	return table, nil
}

// importModel imports the model file path ("-": the standard input)
// saved by library from, with table's schema.
func importModel(ctx context.Context, from, path string, table *aerlib.Table) (*aerlib.Model, error) {
	if path != "-" {
		return aerlib.ImportFile(ctx, path, from, table)
	}
	model, err := aerlib.Import(ctx, stdinOf(ctx), from, table)
	if err != nil && !errors.Is(err, aerlib.ErrImport) {
		err = fmt.Errorf("standard input: %w", err)
	}
	return model, err
}

// printImport renders import's outcome as text.
func printImport(stdout io.Writer, o *importOutput) {
	booster := o.Booster + " booster, "
	if o.Booster == "" {
		booster = ""
	}
	fmt.Fprintf(stdout, "imported   %s %s model (%s), %s, %s%d trees, base score %.7g\n", o.From, o.Version, o.Format, o.Objective, booster, o.Trees, o.BaseScore)
	if o.Labels != nil {
		fmt.Fprintf(stdout, "schema     %s: %d features (%s), label %s, classes %s\n", o.Data, len(o.Features), strings.Join(o.Features, ", "), o.Label, strings.Join(o.Labels, ", "))
		fmt.Fprintf(stdout, "accuracy   %.4f (balanced %.4f) on the %d rows of %s\n", *o.Accuracy, *o.BalancedAccuracy, o.Rows, o.Data)
	} else {
		fmt.Fprintf(stdout, "schema     %s: %d features (%s), label %s, positive class %s\n", o.Data, len(o.Features), strings.Join(o.Features, ", "), o.Label, o.Classes[1])
	}
	if o.ROCAUC != nil {
		fmt.Fprintf(stdout, "roc-auc    %.4f on the %d rows of %s\n", *o.ROCAUC, o.Rows, o.Data)
	}
	switch {
	case o.Decision != nil && o.Labels != nil:
		fmt.Fprintf(stdout, "decision   %s, fitted on %s\n", multiDecisionText(o.Decision), o.Valid)
	case o.Decision != nil:
		writeDecision(stdout, o.Decision, nil)
	case o.Labels != nil:
		fmt.Fprintf(stdout, "decision   the most probable class, as %s predicts (--valid fits class weights)\n", o.From)
	default:
		fmt.Fprintf(stdout, "decision   none: the model predicts positive at a score of 0.5, as %s does (--valid fits a calibration and threshold)\n", o.From)
	}
	fmt.Fprintf(stdout, "out        %s\n", o.Out)
}

// countLabels counts the 0 and 1 labels.
func countLabels(y []int) (neg, pos int) {
	for _, v := range y {
		if v == 1 {
			pos++
		} else {
			neg++
		}
	}
	return neg, pos
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	aerlib "github.com/aer-go/aer"
	"github.com/aer-go/aer/metrics"
)

const importUsage = `Usage: aer import --from xgboost|lightgbm --model FILE --data data.csv --out model.aer [--label COLUMN] [--positive VALUE] [--json]

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
the threshold is 0.5, with no decision layer. Other objectives, several
classes, gblinear and vector leaves are refused with the reason, and a
malformed or truncated file with the field or byte where it went wrong.

--from lightgbm: a model LightGBM's Booster.save_model wrote in its text
format (model.txt, format v2 to v4: LightGBM 2.x to 4.x), objective binary
(sigmoid:S) or cross_entropy, boosting gbdt, dart, goss or rf (rf in v3 and
v4 files only); numeric splits with each split's missing type (None: NaN
is 0; Zero: 0 and NaN go the default way; NaN: NaN goes the default way)
and categorical splits (the codes in a split's bitset go left; NaN and
negative codes right), as LightGBM decides them. The scores are
LightGBM's predict, 1/(1+exp(-S*raw score)); the margin aer explains is
S times the raw score. Multiclass, regression and ranking objectives,
several trees per iteration and linear trees are refused with the
reason, and a malformed or truncated file with the line and field.

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

--json prints what was imported: the model's format, version (XGBoost's,
or LightGBM's file format), objective, booster, trees and base score, its file's SHA-256, the schema and the
ROC-AUC on the data. The output file is written whole or not at all.`

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
	Model    string    `json:"model"`
	Data     string    `json:"data"`
	Out      string    `json:"out"`
	Features []string  `json:"features"`
	Label    string    `json:"label"`
	Classes  [2]string `json:"classes"`
	Rows     int       `json:"rows"`
	// ROCAUC is the imported model's ROC-AUC on the --data rows (absent
	// when they hold one class).
	ROCAUC *float64 `json:"roc_auc,omitempty"`
}

func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet(commands["import"], stderr)
	from := fs.String("from", "", "the `library` that saved the model: xgboost or lightgbm (required)")
	modelPath := fs.String("model", "", "model `file` to import (JSON or UBJSON for xgboost, the text model for lightgbm), - for standard input (required)")
	data := fs.String("data", "", "labelled data `file` (CSV, .csv.gz or Parquet) giving the schema: features in the model's order, label, classes; - for standard input (required)")
	out := fs.String("out", "", "aer model `file` to write (required)")
	asJSON := fs.Bool("json", false, "print one JSON document on stdout")
	var df dataFlags
	// The data flags of aer fit, but --positive's default and no
	// --allow-majority-positive (the model decides the positive class).
	scratch := flag.NewFlagSet("", flag.ContinueOnError)
	df.register(scratch)
	for _, name := range []string{"label", "delimiter", "drop", "id", "na"} {
		f := scratch.Lookup(name)
		fs.Var(f.Value, f.Name, f.Usage)
	}
	fs.StringVar(&df.positive, "positive", "", "label `value` the model was trained to score as 1 (default: 1 when the labels are 0 and 1; required otherwise)")
	rest, err := parseFlags(fs, args)
	switch {
	case err != nil:
		return err
	case len(rest) > 0:
		return usageErrorf("import: unexpected argument %q", rest[0])
	case *from == "":
		return usageErrorf("import: --from is required (xgboost or lightgbm)")
	case *from != aerlib.FromXGBoost && *from != aerlib.FromLightGBM:
		return usageErrorf("import: --from %q: aer imports xgboost and lightgbm models", *from)
	case *modelPath == "":
		return usageErrorf("import: --model is required")
	case *data == "":
		return usageErrorf("import: --data is required")
	case *out == "":
		return usageErrorf("import: --out is required")
	}
	if err := refuseOverwrite("import", "--out", *out, input{"--model", *modelPath}, input{"--data", *data}); err != nil {
		return err
	}
	if err := oneStdin("import", input{"--model", *modelPath}, input{"--data", *data}); err != nil {
		return err
	}

	table, err := importTable(ctx, *data, &df)
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

	o := importOutput{Imported: *model.ImportedFrom(), Model: *modelPath, Data: *data, Out: *out,
		Features: model.Schema().Features, Label: model.Schema().Label, Classes: model.Schema().Classes, Rows: table.Rows()}
	preds, err := model.Predict(ctx, table, nil)
	if err != nil {
		return fmt.Errorf("import: scoring %s: %w", *data, err)
	}
	if neg, pos := countLabels(preds.Label); neg > 0 && pos > 0 {
		auc := metrics.ROCAUC(preds.Label, preds.Score, nil)
		o.ROCAUC = &auc
		if auc < 0.5 {
			fmt.Fprintf(stderr, "import: warning: the model's ROC-AUC on %s is %.3f, below chance: is %q the class it was trained to score as 1 (--positive)?\n", *data, auc, o.Classes[1])
		}
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

// importTable reads the labelled data giving an imported model's
// schema, with label 1 positive unless --positive names the class.
func importTable(ctx context.Context, data string, df *dataFlags) (*aerlib.Table, error) {
	table, err := aerlib.ReadTableFrom(ctx, data, binaryOnly(df.trainingOptions()))
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	if err := df.checkDropped(table.Dataset(), data); err != nil {
		return nil, usageErrorf("import: %v", err)
	}
	switch c := table.Classes(); {
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
	model, err := aerlib.Import(ctx, aerlib.Stdin(ctx), from, table)
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
	fmt.Fprintf(stdout, "schema     %s: %d features (%s), label %s, positive class %s\n", o.Data, len(o.Features), strings.Join(o.Features, ", "), o.Label, o.Classes[1])
	if o.ROCAUC != nil {
		fmt.Fprintf(stdout, "roc-auc    %.4f on the %d rows of %s\n", *o.ROCAUC, o.Rows, o.Data)
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

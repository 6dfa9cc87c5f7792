package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	aerlib "github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
)

func init() {
	register(&command{
		name:    "predict",
		summary: "score a data file with a saved model",
		usage: `Usage: aer predict --model model.aer --data data.csv [--out preds.csv] [--threshold 0.5] [--json]

Reads the model file written by aer fit and writes one row per data row with
columns [id,]label,score,pred: the id column first when the data has one
(--id, else the one the model was fitted with, aer fit --id); label
(only when the data has the model's label column); score, the probability
of the positive class; and pred, the positive class when score >= the
threshold. Label and pred are class names: the label values of the
training file (0 and 1 for 0/1 labels), as aer serve writes them and aer
eval reads them. The threshold is --threshold when given, else the one
aer fit chose on validation rows (the decision layer), else the one the
method tuned itself (AER's delta), else 0.5; --json says which
("threshold_from").

Scores are calibrated probabilities when aer fit calibrated them on
validation rows, as it does by default ("scores": "probability" and
"calibrated": true under --json): a score of 0.2 then means about one
positive in five. Otherwise ("scores": "score": fitted without validation
rows, or with --calibrate none or --threshold-rule tuned) a score is the
method's own: it ranks rows, and for boosted trees, logistic regression
and the SVM (Platt scaling) it is a probability of the training loss,
which class weights and resampling shift away from the true rate of
positives; AER's score is a weighted mean of its members' outputs.

A categorical (text) column of the training data is read with the model's
list of its values: a value the list lacks, and a missing cell, encode to
all zeros; unseen values are counted on stderr and in --json
("unseen_categories").

The data (CSV, .csv.gz or Parquet) must have exactly the model's feature
columns, in any order; a weight column named as in training and the
columns dropped in training are ignored. --data - reads standard input,
--out - writes to standard output (as does no --out); with --json, --out
must be a file and a summary is printed instead. Rows are read, scored and
written 4096 at a time: memory does not grow with the file, and an error
on any row leaves no output file.`,
		run: runPredict,
	})
}

// predictOutput is the --json document of aer predict.
type predictOutput struct {
	Model     string  `json:"model"`
	Method    string  `json:"method"`
	Data      string  `json:"data"`
	Rows      int     `json:"rows"`
	Labelled  bool    `json:"labelled"`
	Threshold float64 `json:"threshold"`
	// ThresholdFrom says where the threshold came from: "flag"
	// (--threshold), "decision-layer" (chosen on validation by aer fit),
	// "method" (tuned by the method itself) or "default" (0.5).
	ThresholdFrom string `json:"threshold_from"`
	// Calibrated says whether the scores went through a calibration
	// fitted on validation rows (aer fit's default decision layer, or
	// --calibrate).
	Calibrated bool `json:"calibrated"`
	// Scores is probability (calibrated) or score (the method's own).
	Scores    string `json:"scores"`
	Predicted int    `json:"predicted_positive"`
	Out       string `json:"out"`
	// UnseenCategories counts the cells of categorical columns whose
	// value the training data did not have (encoded as all zeros);
	// UnseenByColumn splits it by column.
	UnseenCategories int            `json:"unseen_categories"`
	UnseenByColumn   map[string]int `json:"unseen_by_column,omitempty"`
	// OODFlagged counts the rows flagged out of distribution and
	// OODThreshold is the score above which they are, with --ood.
	OODFlagged   *int     `json:"ood_flagged,omitempty"`
	OODThreshold *float64 `json:"ood_threshold,omitempty"`
	// Quantized, for a quantised model (aer quantize), states how far
	// its probabilities may lie from the full-precision model's.
	Quantized *aerlib.Quantization `json:"quantized,omitempty"`
}

// predictArgs are aer predict's flags.
type predictArgs struct {
	model, data, out, id *string
	threshold            *float64
	thresholdSet         bool
	threads              *int
	asJSON               *bool
	ood                  *bool
}

// parsePredictArgs reads and checks aer predict's flags.
func parsePredictArgs(args []string, stderr io.Writer) (*predictArgs, error) {
	fs := newFlagSet(commands["predict"], stderr)
	a := &predictArgs{}
	a.model = fs.String("model", "", "model `file` written by aer fit (required)")
	a.data = fs.String("data", "", "data `file` to score (CSV, .csv.gz or Parquet), - for standard input (required)")
	a.out = fs.String("out", "", "predictions CSV `file`, - for standard output (default: stdout)")
	a.threshold = fs.Float64("threshold", 0.5, "predict positive when score >= `T` (default: the model's tuned threshold if it has one, else 0.5)")
	a.threads = fs.Int("threads", 0, "worker goroutines (0: all cores)")
	a.asJSON = fs.Bool("json", false, "print one JSON summary on stdout (needs --out)")
	a.ood = fs.Bool("ood", false, "add the columns ood_score (how far each row lies from the training data: minus its log-density under AER's majority-class mixture) and ood (1: above the threshold AER set at fit time so that about 1% of rows like the training data lie above it); AER models only")
	a.id = fs.String("id", "", "row-identifier `column` of the data, written as the first output column (default: the model's, aer fit --id, when the data has it)")
	if err := parseNoArgs(fs, args); err != nil {
		return nil, err
	}
	fs.Visit(func(f *flag.Flag) { a.thresholdSet = a.thresholdSet || f.Name == "threshold" })
	switch {
	case *a.model == "":
		return nil, usageErrorf("predict: --model is required")
	case *a.data == "":
		return nil, usageErrorf("predict: --data is required")
	case *a.asJSON && (*a.out == "" || *a.out == "-"):
		return nil, usageErrorf("predict: --json needs --out (stdout carries the JSON summary)")
	case math.IsNaN(*a.threshold):
		return nil, usageErrorf("predict: --threshold must be a number")
	case *a.threshold < 0 || *a.threshold > 1:
		return nil, usageErrorf("predict: --threshold %v lies outside [0, 1]: scores are probabilities, so every row would be predicted alike", *a.threshold)
	case *a.threads < 0:
		return nil, usageErrorf("predict: --threads must be at least 0, not %d", *a.threads)
	}
	if err := refuseOverwrite("predict", "--out", *a.out, input{"--model", *a.model}, input{"--data", *a.data}); err != nil {
		return nil, err
	}
	return a, nil
}

func runPredict(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	a, err := parsePredictArgs(args, stderr)
	if err != nil {
		return err
	}
	model, err := aerlib.Load(*a.model)
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	data, err := openData(ctx, *a.data)
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	defer data.Close()
	opt := &aerlib.StreamOptions{ID: *a.id, Batch: predictBatch}
	opt.Workers = *a.threads
	opt.OOD = *a.ood
	if a.thresholdSet {
		opt.Threshold = a.threshold
	}
	// Rows are read, scored and written a batch at a time: memory stays
	// bounded by the batch, whatever the size of the file; an error on
	// any row leaves no output file.
	var sum *aerlib.StreamSummary
	var dataErr error // a failure reading or scoring the data, not writing
	write := func(w io.Writer) error {
		sum, dataErr = model.PredictStream(ctx, data.r, data.name, w, opt)
		return dataErr
	}
	if *a.out == "" || *a.out == "-" {
		err = write(stdout)
	} else {
		err = writeFileAtomic(ctx, *a.out, write)
	}
	switch {
	case err == nil:
	case dataErr != nil:
		return predictDataError(err, a, model)
	case *a.out == "" || *a.out == "-":
		return fmt.Errorf("predict: %w", err)
	default:
		return fmt.Errorf("predict: %s: %w", *a.out, err)
	}
	return renderPredict(stdout, stderr, a, model, sum)
}

// predictDataError says what was wrong with the data aer predict read.
func predictDataError(err error, a *predictArgs, model *aerlib.Model) error {
	var de *dataset.Error
	switch {
	case errors.Is(err, learn.ErrData) && *a.id != "":
		return fmt.Errorf("predict: --id %s: %s has no such column", *a.id, *a.data)
	case errors.As(err, &de) && errors.Is(err, dataset.ErrColumns):
		return fmt.Errorf("predict: %s does not fit model %s: %w", *a.data, *a.model, err)
	}
	return fmt.Errorf("predict: %w", err)
}

// renderPredict reports a finished aer predict.
func renderPredict(stdout, stderr io.Writer, a *predictArgs, model *aerlib.Model, sum *aerlib.StreamSummary) error {
	unseen := 0
	var parts []string
	for _, c := range model.Schema().Categories {
		if n := sum.Unseen[c.Column]; n > 0 {
			unseen += n
			parts = append(parts, fmt.Sprintf("%s %d", c.Column, n))
		}
	}
	if unseen > 0 {
		fmt.Fprintf(stderr, "predict: %d cells of categorical columns hold values unseen in training, encoded as all zeros (%s)\n", unseen, strings.Join(parts, ", "))
	}
	from := sum.ThresholdFrom
	if from == "option" {
		from = "flag"
	}
	if *a.asJSON {
		out := predictOutput{
			Model: *a.model, Method: model.Method(), Data: *a.data, Rows: sum.Rows, Labelled: sum.Labelled,
			Threshold: sum.Threshold, ThresholdFrom: from, Calibrated: model.Scores() == aerlib.ScoresProbability, Scores: model.Scores(),
			Predicted: sum.Positive, Out: *a.out, UnseenCategories: unseen, UnseenByColumn: sum.Unseen,
		}
		if *a.ood {
			out.OODFlagged, out.OODThreshold = &sum.OODFlagged, &sum.OODThreshold
		}
		if q, ok := model.Quantization(); ok {
			out.Quantized = &q
		}
		return writeJSON(stdout, out)
	}
	if q, ok := model.Quantization(); ok {
		fmt.Fprintf(stderr, "predict: quantised model (%s leaves): every probability within %.2g of the full-precision model's\n", q.Precision, q.Bound)
	}
	if *a.ood {
		fmt.Fprintf(stderr, "predict: %d of %d rows flagged out of distribution (ood_score above %.4g)\n", sum.OODFlagged, sum.Rows, sum.OODThreshold)
	}
	if *a.out != "" && *a.out != "-" {
		if model.NumClasses() > 2 {
			fmt.Fprintf(stderr, "predict: %d rows scored (%d classes), written to %s\n", sum.Rows, len(model.Classes()), *a.out)
		} else {
			fmt.Fprintf(stderr, "predict: %d rows scored, %d predicted positive, written to %s\n", sum.Rows, sum.Positive, *a.out)
		}
	}
	return nil
}

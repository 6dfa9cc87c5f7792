package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/savedmodel"
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

Scores are calibrated probabilities when the model was fitted with
--calibrate ("calibrated": true under --json): a score of 0.2 then means
about one positive in five. Otherwise a score is the method's own: it
ranks rows, and for boosted trees, logistic regression and the SVM (Platt
scaling) it is a probability of the training loss, which class weights
and resampling shift away from the true rate of positives; AER's score is
a weighted mean of its members' probabilities.

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
	// fitted on validation rows (aer fit --calibrate).
	Calibrated bool   `json:"calibrated"`
	Predicted  int    `json:"predicted_positive"`
	Out        string `json:"out"`
	// UnseenCategories counts the cells of categorical columns whose
	// value the training data did not have (encoded as all zeros);
	// UnseenByColumn splits it by column.
	UnseenCategories int            `json:"unseen_categories"`
	UnseenByColumn   map[string]int `json:"unseen_by_column,omitempty"`
}

func runPredict(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["predict"]
	fs := newFlagSet(c, stderr)
	modelPath := fs.String("model", "", "model `file` written by aer fit (required)")
	dataPath := fs.String("data", "", "data `file` to score (CSV, .csv.gz or Parquet), - for standard input (required)")
	out := fs.String("out", "", "predictions CSV `file`, - for standard output (default: stdout)")
	threshold := fs.Float64("threshold", 0.5, "predict positive when score >= `T` (default: the model's tuned threshold if it has one, else 0.5)")
	threads := fs.Int("threads", 0, "worker goroutines (0: all cores)")
	asJSON := fs.Bool("json", false, "print one JSON summary on stdout (needs --out)")
	id := fs.String("id", "", "row-identifier `column` of the data, written as the first output column (default: the model's, aer fit --id, when the data has it)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	thresholdSet := false
	fs.Visit(func(f *flag.Flag) { thresholdSet = thresholdSet || f.Name == "threshold" })
	switch {
	case len(rest) > 0:
		return usageErrorf("predict: unexpected argument %q", rest[0])
	case *modelPath == "":
		return usageErrorf("predict: --model is required")
	case *dataPath == "":
		return usageErrorf("predict: --data is required")
	case *asJSON && (*out == "" || *out == "-"):
		return usageErrorf("predict: --json needs --out (stdout carries the JSON summary)")
	case math.IsNaN(*threshold):
		return usageErrorf("predict: --threshold must be a number")
	case *threshold < 0 || *threshold > 1:
		return usageErrorf("predict: --threshold %v lies outside [0, 1]: scores are probabilities, so every row would be predicted alike", *threshold)
	case *threads < 0:
		return usageErrorf("predict: --threads must be at least 0, not %d", *threads)
	}
	if err := refuseOverwrite("predict", "--out", *out, input{"--model", *modelPath}, input{"--data", *dataPath}); err != nil {
		return err
	}
	saved, err := savedmodel.Load(*modelPath)
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	h, model, layer := saved.Header, saved.Model, saved.Layer
	stream, data, err := streamFor(ctx, *dataPath, h, *modelPath, *id)
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	defer data.Close()
	from := "flag"
	if !thresholdSet {
		*threshold, from = saved.Threshold()
	}
	calibrated := layer != nil && layer.Calibration != nil
	// Rows are read, scored and written a batch at a time: memory stays
	// bounded by the batch, whatever the size of the file; an error on
	// any row leaves no output file.
	var sum predictSummary
	var dataErr error // a failure reading or scoring the data, not writing
	write := func(w io.Writer) error {
		dataErr = predictStream(ctx, w, stream, h.Schema.Features, model, *threads, *threshold, &sum)
		return dataErr
	}
	if *out == "" || *out == "-" {
		err = write(stdout)
	} else {
		err = writeFileAtomic(ctx, *out, write)
	}
	switch {
	case err == nil:
	case dataErr != nil || *out == "" || *out == "-":
		return fmt.Errorf("predict: %w", err)
	default:
		return fmt.Errorf("predict: %s: %w", *out, err)
	}
	rows, npos := sum.rows, sum.positive
	unseen, byColumn := 0, map[string]int(nil)
	var parts []string
	for k, c := range stream.Categories() {
		if n := stream.Unseen()[k]; n > 0 {
			if byColumn == nil {
				byColumn = map[string]int{}
			}
			byColumn[c.Column] = n
			unseen += n
			parts = append(parts, fmt.Sprintf("%s %d", c.Column, n))
		}
	}
	if unseen > 0 {
		fmt.Fprintf(stderr, "predict: %d cells of categorical columns hold values unseen in training, encoded as all zeros (%s)\n", unseen, strings.Join(parts, ", "))
	}
	if *asJSON {
		return writeJSON(stdout, predictOutput{
			Model: *modelPath, Method: h.Method, Data: *dataPath, Rows: rows, Labelled: stream.Labelled(),
			Threshold: *threshold, ThresholdFrom: from, Calibrated: calibrated, Predicted: npos, Out: *out,
			UnseenCategories: unseen, UnseenByColumn: byColumn,
		})
	}
	if *out != "" && *out != "-" {
		fmt.Fprintf(stderr, "predict: %d rows scored, %d predicted positive, written to %s\n", rows, npos, *out)
	}
	return nil
}

// predictSummary counts what aer predict reports, row batch by row batch.
type predictSummary struct {
	rows, positive int
}

// predictStream reads the rows of stream a batch at a time, scores them
// with model (whose features are features) and writes label, score and
// pred to w.
func predictStream(ctx context.Context, w io.Writer, stream *dataset.Stream, features []string, model learn.Model, threads int, threshold float64, sum *predictSummary) error {
	pw := dataset.NewPredictionsWriter(w, stream.IDColumn(), stream.Labelled(), true, false)
	preds := dataset.Predictions{Classes: stream.Classes()} // label and pred as the training file's class names
	for {
		d, err := stream.Next(predictBatch)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		x, err := d.Matrix(features)
		if err != nil {
			return err
		}
		score, err := learn.Predict(ctx, model, x, threads)
		if err != nil {
			return err
		}
		preds.ID, preds.Label, preds.Score, preds.Pred = d.IDs, d.Y, score, preds.Pred[:0]
		for _, s := range score {
			p := 0
			if s >= threshold {
				p = 1
				sum.positive++
			}
			preds.Pred = append(preds.Pred, p)
		}
		sum.rows += len(score)
		if err := pw.Write(&preds); err != nil {
			return err
		}
	}
	return pw.Flush()
}

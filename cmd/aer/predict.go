package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/savedmodel"
)

func init() {
	register(&command{
		name:    "predict",
		summary: "score a CSV file with a saved model",
		usage: `Usage: aer predict --model model.aer --data data.csv [--out preds.csv] [--threshold 0.5] [--json]

Reads the model file written by aer fit and writes one row per data row with
columns label,score,pred: label (0/1, only when the data has the model's
label column), score and pred (score >= the threshold). The threshold is
--threshold when given, else the one aer fit chose on validation rows (the
decision layer), else the one the method tuned itself (AER's delta), else
0.5; --json says which ("threshold_from").

Scores are calibrated probabilities when the model was fitted with
--calibrate ("calibrated": true under --json): a score of 0.2 then means
about one positive in five. Otherwise a score is the method's own: it
ranks rows, and for boosted trees, logistic regression and the SVM (Platt
scaling) it is a probability of the training loss, which class weights
and resampling shift away from the true rate of positives; AER's score is
a weighted mean of its members' probabilities.

The data must have exactly the model's feature columns, in any order (a
weight column named as in training is ignored). Without --out the CSV goes
to stdout; with --json, --out is required and a summary is printed
instead.`,
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
}

func runPredict(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["predict"]
	fs := newFlagSet(c, stderr)
	modelPath := fs.String("model", "", "model `file` written by aer fit (required)")
	dataPath := fs.String("data", "", "CSV `file` to score (required)")
	out := fs.String("out", "", "predictions CSV `file` (default: stdout)")
	threshold := fs.Float64("threshold", 0.5, "predict positive when score >= `T` (default: the model's tuned threshold if it has one, else 0.5)")
	threads := fs.Int("threads", 0, "worker goroutines (0: all cores)")
	asJSON := fs.Bool("json", false, "print one JSON summary on stdout (needs --out)")
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
	case *asJSON && *out == "":
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
	d, err := loadFor(*dataPath, h, *modelPath)
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	score, err := learn.Predict(ctx, model, d.X, *threads)
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	from := "flag"
	if !thresholdSet {
		*threshold, from = saved.Threshold()
	}
	calibrated := layer != nil && layer.Calibration != nil
	preds := &dataset.Predictions{Label: d.Y, Score: score, Pred: make([]int, len(score))}
	npos := 0
	for i, s := range score {
		if s >= *threshold {
			preds.Pred[i] = 1
			npos++
		}
	}
	write := func(w io.Writer) error { return dataset.WritePredictions(w, preds) }
	if *out == "" {
		if err := write(stdout); err != nil {
			return fmt.Errorf("predict: %w", err)
		}
	} else if err := writeFileAtomic(ctx, *out, write); err != nil {
		return fmt.Errorf("predict: %s: %w", *out, err)
	}
	if *asJSON {
		return writeJSON(stdout, predictOutput{
			Model: *modelPath, Method: h.Method, Data: *dataPath, Rows: len(score), Labelled: d.Y != nil,
			Threshold: *threshold, ThresholdFrom: from, Calibrated: calibrated, Predicted: npos, Out: *out,
		})
	}
	if *out != "" {
		fmt.Fprintf(stderr, "predict: %d rows scored, %d predicted positive, written to %s\n", len(score), npos, *out)
	}
	return nil
}

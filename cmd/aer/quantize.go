package main

import (
	"context"
	"fmt"
	"io"
	"os"

	aerlib "github.com/aer-go/aer"
)

const quantizeUsage = `Usage: aer quantize --model IN --out OUT [--precision int16|int8] [--json]

Writes a quantised copy of an aer model file: a smaller file that aer
predict, aer serve, aer explain, aer info and the library read as they
read any model. Every tree's split thresholds are stored as indices into
a table of the model's cut values per feature (one byte, two for a
feature of more than 256 cuts), and the table holds the original values,
so every row reaches the same leaves; the leaf values are stored as
integers of --precision times a scale of their tree (int16, the default:
off by at most 1/65534 of the tree's largest leaf; int8: 1/254), in a
compact binary encoding. An svm's support vectors are stored feature by
feature the same way (integers times a scale of the feature, about an
offset), its coefficients as float32.

Quantised: gbdt and its variants (gbdt-tuned, gbdt-focal, gbdt-leafwise,
rus-gbdt, smote-gbdt), binary and native multi-class, models imported
from XGBoost and LightGBM (without categorical splits), svm (RBF and
linear kernels), and aer and dynens, whose boosted members and svm peer
are quantised (a logistic-regression peer is kept as it is). Another method is refused with an error naming it,
and nothing is written.

The model says it is quantised (aer info shows it) and states its bound:
the largest difference, on any row, between a probability it gives and
the full-precision model's. For boosted trees it is the sum over the
trees of the largest rounding of a leaf, through the sigmoid (softmax:
half of it); for an RBF svm the sum over support vectors of each
coefficient times the kernel's largest slope sqrt(2 gamma/e) times how
far the vector moved, through the Platt sigmoid; for AER the largest of
its members' (their weights are a
convex combination); and through the decision layer's calibration. The
decision layer and the threshold are kept.

--json prints the input and output files and sizes, the precision, the
number of trees and the bounds. The output file is written whole or not
at all.`

func init() {
	register(&command{
		name:    "quantize",
		summary: "write a smaller, quantised copy of a tree model file",
		usage:   quantizeUsage,
		run:     runQuantize,
	})
}

// quantizeOutput is the --json document of aer quantize.
type quantizeOutput struct {
	Model    string  `json:"model"`
	Out      string  `json:"out"`
	Method   string  `json:"method"`
	BytesIn  int64   `json:"bytes_in"`
	BytesOut int64   `json:"bytes_out"`
	Ratio    float64 `json:"ratio"`
	aerlib.Quantization
}

func runQuantize(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet(commands["quantize"], stderr)
	modelPath := fs.String("model", "", "aer model `file` to quantise (required)")
	out := fs.String("out", "", "quantised model `file` to write (required)")
	precision := fs.String("precision", aerlib.PrecisionInt16, "leaf `precision`: int16 or int8")
	asJSON := fs.Bool("json", false, "print one JSON document on stdout")
	err := parseNoArgs(fs, args)
	switch {
	case err != nil:
		return err
	case *modelPath == "":
		return usageErrorf("quantize: --model is required")
	case *out == "" || *out == "-":
		return usageErrorf("quantize: --out FILE is required")
	case *precision != aerlib.PrecisionInt16 && *precision != aerlib.PrecisionInt8:
		return usageErrorf("quantize: --precision %q: want int16 or int8", *precision)
	}
	if err := refuseOverwrite("quantize", "--out", *out, input{"--model", *modelPath}); err != nil {
		return err
	}
	model, err := aerlib.Load(*modelPath)
	if err != nil {
		return fmt.Errorf("quantize: %w", err)
	}
	q, err := model.Quantize(aerlib.QuantizeOptions{Precision: *precision})
	if err != nil {
		return fmt.Errorf("quantize: %s: %w", *modelPath, err)
	}
	if err := q.Save(ctx, *out); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("quantize: %w", err)
	}
	o := quantizeOutput{Model: *modelPath, Out: *out, Method: model.Method()}
	o.Quantization, _ = q.Quantization()
	if st, err := os.Stat(*modelPath); err == nil {
		o.BytesIn = st.Size()
	}
	if st, err := os.Stat(*out); err == nil {
		o.BytesOut = st.Size()
	}
	if o.BytesOut > 0 {
		o.Ratio = float64(o.BytesIn) / float64(o.BytesOut)
	}
	if *asJSON {
		return writeJSON(stdout, o)
	}
	_, err = fmt.Fprintf(stdout, "quantised %s (%d bytes) to %s (%d bytes, %.1fx smaller): %s, %d trees, leaves %s; probabilities within %.3g of the full model's\n",
		o.Model, o.BytesIn, o.Out, o.BytesOut, o.Ratio, o.Method, o.Trees, o.Precision, o.Bound)
	return err
}

// writeQuantization writes aer info's line about a quantised model.
func writeQuantization(w io.Writer, q *aerlib.Quantization) {
	if q == nil {
		return
	}
	fmt.Fprintf(w, "quantised       %d trees, leaves %s; probabilities within %.3g of the full model's (method's score %.3g)\n", q.Trees, q.Precision, q.Bound, q.ScoreBound)
}

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	aerlib "github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/interop/onnx"
)

const exportUsage = `Usage: aer export --format onnx --model model.aer --out model.onnx [--json]

Writes an aer model file in another format, for other runtimes.

--format onnx: an ONNX file (IR 8, opsets ai.onnx 17 and ai.onnx.ml 3),
which ONNX Runtime and other ONNX runtimes score. One input, X: float32
[N, F], the model's features in the order aer info --model lists them
(NaN for a missing value); for a model with text columns, its raw columns
instead, each text column as the index of its value among the values
the model knows (NaN for a missing or unseen value), one-hot encoded
inside the graph (aer.Model.ONNXInput turns a table into X). Two outputs: probability, float32 [N], the score aer predict
writes (the decision layer's calibration included), and label, int64
[N], 1 when the probability is at least the model's threshold, aer
predict's pred. Inside the graph: the one-hot encoding, the method's imputation and
standardisation, its trees (an ai.onnx.ml TreeEnsembleRegressor; for AER
every member's margin in one ensemble, one target per member), its
linear or kernel terms, AER's mixture log-densities and weights, the
calibration and the threshold. ONNX Runtime gives aer predict's
probabilities within 3e-6 on the shared datasets' test rows (1.1e-5 for
AER's paper preset on wine_quality, whose mixture the float32 rounding
of the input moves) and its labels; the tree splits decide data written
with up to 6 significant digits as aer does (package interop/onnx says
why and how).

Exported: gbdt and its variants (gbdt-tuned, gbdt-focal, gbdt-leafwise,
rus-gbdt, smote-gbdt), logreg, svm, tree, balanced-rf, balanced-bagging,
rusboost, easy-ensemble, aer and dynens, and models imported from
XGBoost and LightGBM. Another method (mlp-focal), or an imported model
with categorical or zero-as-missing splits, is refused with an error
naming it, and nothing is written.

--out - writes to the standard output (without --json). --json prints
what was written: the method, the input's features, the threshold and
where it comes from, the calibration, the file's size and versions. The
output file is written whole or not at all.`

func init() {
	register(&command{
		name:    "export",
		summary: "write an aer model as an ONNX file for other runtimes",
		usage:   exportUsage,
		run:     runExport,
	})
}

// exportOutput is the --json document of aer export.
type exportOutput struct {
	Format   string   `json:"format"`
	Model    string   `json:"model"`
	Out      string   `json:"out"`
	Method   string   `json:"method"`
	Input    string   `json:"input"`
	Features []string `json:"features"`
	// Columns are the input's columns: the features, or, with text
	// columns, the raw columns, a text column as its value's index
	// among Categories' values (one-hot encoded inside the graph).
	Columns       []string           `json:"columns"`
	Categories    []dataset.Category `json:"categories,omitempty"`
	Outputs       []string           `json:"outputs"`
	Threshold     float64            `json:"threshold"`
	ThresholdFrom string             `json:"threshold_from"`
	Scores        string             `json:"scores"`
	Calibration   string             `json:"calibration,omitempty"`
	Bytes         int                `json:"bytes"`
	IRVersion     int                `json:"ir_version"`
	Opset         int                `json:"opset"`
	MLOpset       int                `json:"ml_opset"`
}

func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet(commands["export"], stderr)
	format := fs.String("format", aerlib.FormatONNX, "output `format`: onnx")
	modelPath := fs.String("model", "", "aer model `file` to export (required)")
	out := fs.String("out", "", "`file` to write, - for standard output (required)")
	asJSON := fs.Bool("json", false, "print one JSON document on stdout")
	rest, err := parseFlags(fs, args)
	switch {
	case err != nil:
		return err
	case len(rest) > 0:
		return usageErrorf("export: unexpected argument %q", rest[0])
	case *format != aerlib.FormatONNX:
		return usageErrorf("export: --format %q: aer exports onnx", *format)
	case *modelPath == "":
		return usageErrorf("export: --model is required")
	case *out == "":
		return usageErrorf("export: --out is required")
	case *asJSON && *out == "-":
		return usageErrorf("export: --json needs --out FILE (stdout carries the JSON summary)")
	}
	if err := refuseOverwrite("export", "--out", *out, input{"--model", *modelPath}); err != nil {
		return err
	}
	model, err := aerlib.Load(*modelPath)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	var buf bytes.Buffer
	if err := model.ExportONNX(&buf); err != nil {
		return fmt.Errorf("export: %s: %w", *modelPath, err)
	}
	if *out == "-" {
		_, err = stdout.Write(buf.Bytes())
	} else {
		err = writeFileAtomic(ctx, *out, func(w io.Writer) error {
			_, err := w.Write(buf.Bytes())
			return err
		})
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("export: %s: %w", *out, err)
	}
	if *out == "-" {
		return nil
	}
	th, from := model.Threshold()
	sch := model.Schema()
	o := exportOutput{Format: *format, Model: *modelPath, Out: *out, Method: model.Method(),
		Input: onnx.Input, Features: sch.Features, Columns: sch.Features, Categories: sch.Categories, Outputs: []string{onnx.Probability, onnx.Label},
		Threshold: th, ThresholdFrom: from, Scores: model.Scores(), Bytes: buf.Len(),
		IRVersion: onnx.IRVersion, Opset: onnx.Opset, MLOpset: onnx.MLOpset}
	if len(sch.Categories) > 0 {
		o.Columns = sch.RawColumns()
	}
	if l := model.Layer(); l != nil && l.Calibration != nil {
		o.Calibration = l.Calibration.Method
	}
	if *asJSON {
		return writeJSON(stdout, o)
	}
	fmt.Fprintf(stdout, "exported   %s model %s as ONNX (IR %d, opsets ai.onnx %d, ai.onnx.ml %d), %d bytes\n", o.Method, o.Model, o.IRVersion, o.Opset, o.MLOpset, o.Bytes)
	fmt.Fprintf(stdout, "input      %s: float32 [N, %d] (%s)\n", o.Input, len(o.Columns), strings.Join(o.Columns, ", "))
	for _, c := range o.Categories {
		fmt.Fprintf(stdout, "           %s: the index of its value among %s\n", c.Column, strings.Join(c.Values, ", "))
	}
	scores := "the method's score, uncalibrated"
	if o.Calibration != "" {
		scores = "probability, " + o.Calibration + " calibration"
	}
	whence := map[string]string{aerlib.FromDecisionLayer: "the decision layer's threshold", aerlib.FromMethod: "the method's own threshold", aerlib.FromDefault: "the default threshold"}[o.ThresholdFrom]
	fmt.Fprintf(stdout, "outputs    %s: float32 [N] (%s); %s: int64 [N] (1 when %s >= %.6g, %s)\n",
		onnx.Probability, scores, onnx.Label, onnx.Probability, o.Threshold, whence)
	fmt.Fprintf(stdout, "out        %s\n", o.Out)
	return nil
}

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	aerlib "github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/ctxio"
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

Multi-class models (three or more labels): gbdt's native softmax model
(and multi-class models imported from XGBoost or LightGBM), logreg's
multinomial one (behind its imputation and standardisation), the native
multi-class tree (tree's default) and forests (balanced-rf and
balanced-bagging with --multiclass native: their leaves' class shares,
averaged over the trees), and one-vs-rest models (--multiclass ovr) of
any exported method (each member's graph and its decision layer's
calibration, the probabilities clipped to [0, 1] and divided by their
sum). Their graph has two outputs: probabilities, float32 [N, K], the
class probabilities aer predict writes (score_<class>, in the order aer
info lists the classes), and label, int64 [N], the index of the class
aer predict predicts: the largest w_c p_c of the decision's class
weights (ArgMax, the first on a tie), or under a cost matrix (aer fit
--cost-matrix) the class of least expected cost (ArgMin of p times the
matrix). ONNX Runtime gives aer predict's probabilities within 1e-5 and
its labels on the shared multi-class tables' test rows. One-vs-one
models (--multiclass ovo), whose pairwise probabilities are coupled by
an iteration, and the native multi-class models of rusboost,
easy-ensemble and aer are refused.

--out - writes to the standard output (without --json). --json prints
what was written: the method, the input's features, the threshold and
where it comes from, the calibration (a multi-class model's classes,
decision rule and class weights), the file's size and versions. The
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
	// Classes, Decision and ClassWeights are a multi-class model's
	// classes (the order of the probabilities output and of the label's
	// indices), decision rule and class weights (the label is the class
	// of largest weight times probability); absent for a binary model.
	Classes      []string  `json:"classes,omitempty"`
	Decision     string    `json:"decision,omitempty"`
	ClassWeights []float64 `json:"class_weights,omitempty"`
	// CostMatrix is a cost decision's matrix (rows the true class): the
	// label is then the class of least expected cost.
	CostMatrix [][]float64 `json:"cost_matrix,omitempty"`
}

func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet(commands["export"], stderr)
	format := fs.String("format", aerlib.FormatONNX, "output `format`: onnx")
	modelPath := fs.String("model", "", "aer model `file` to export (required)")
	out := fs.String("out", "", "`file` to write, - for standard output (required)")
	asJSON := fs.Bool("json", false, "print one JSON document on stdout")
	err := parseNoArgs(fs, args)
	switch {
	case err != nil:
		return err
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
	model, buf, err := exportONNX(ctx, *modelPath)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
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
	o := exportSummary(model, *format, *modelPath, *out, buf.Len())
	if *asJSON {
		return writeJSON(stdout, o)
	}
	printExport(stdout, &o)
	return nil
}

// exportONNX loads the model file path and encodes it as ONNX; it
// returns ctx's error as soon as ctx is done: the file's reads stop, and
// the decoding and encoding, which take seconds for a large model and
// check no context, are left behind (their result unused, nothing
// written).
func exportONNX(ctx context.Context, path string) (*aerlib.Model, *bytes.Buffer, error) {
	type result struct {
		model *aerlib.Model
		buf   bytes.Buffer
		err   error
	}
	done := make(chan *result, 1)
	go func() {
		r := &result{}
		defer func() { done <- r }()
		f, err := os.Open(path)
		if err != nil {
			r.err = fmt.Errorf("export: %w", err)
			return
		}
		defer f.Close()
		if r.model, err = aerlib.ReadModel(ctxio.NewFile(ctx, f), path); err != nil {
			r.err = fmt.Errorf("export: %w", err)
			return
		}
		if err := r.model.ExportONNX(&r.buf); err != nil {
			r.err = fmt.Errorf("export: %s: %w", path, err)
		}
	}()
	select {
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	case r := <-done:
		if r.err != nil && ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return r.model, &r.buf, r.err
	}
}

// exportSummary describes the ONNX file written.
func exportSummary(model *aerlib.Model, format, modelPath, out string, size int) exportOutput {
	th, from := model.Threshold()
	sch := model.Schema()
	o := exportOutput{Format: format, Model: modelPath, Out: out, Method: model.Method(),
		Input: onnx.Input, Features: sch.Features, Columns: sch.Features, Categories: sch.Categories, Outputs: []string{onnx.Probability, onnx.Label},
		Threshold: th, ThresholdFrom: from, Scores: model.Scores(), Bytes: size,
		IRVersion: onnx.IRVersion, Opset: onnx.Opset, MLOpset: onnx.MLOpset}
	if len(sch.Categories) > 0 {
		o.Columns = sch.RawColumns()
	}
	if l := model.Layer(); l != nil && l.Calibration != nil {
		o.Calibration = l.Calibration.Method
	}
	if d := model.Layer(); model.NumClasses() > 2 {
		o.Outputs = []string{onnx.Probabilities, onnx.Label}
		o.Classes, o.Decision, o.ClassWeights, o.CostMatrix = model.Classes(), d.Rule, d.Weights, d.Cost
	}
	return o
}

// printExport renders export's outcome as text.
func printExport(stdout io.Writer, o *exportOutput) {
	fmt.Fprintf(stdout, "exported   %s model %s as ONNX (IR %d, opsets ai.onnx %d, ai.onnx.ml %d), %d bytes\n", o.Method, o.Model, o.IRVersion, o.Opset, o.MLOpset, o.Bytes)
	fmt.Fprintf(stdout, "input      %s: float32 [N, %d] (%s)\n", o.Input, len(o.Columns), strings.Join(o.Columns, ", "))
	for _, c := range o.Categories {
		fmt.Fprintf(stdout, "           %s: the index of its value among %s\n", c.Column, strings.Join(c.Values, ", "))
	}
	if o.Classes != nil {
		w := make([]string, len(o.ClassWeights))
		for c, v := range o.ClassWeights {
			w[c] = fmt.Sprintf("%.6g", v)
		}
		rule := "largest w_c p_c, " + o.Decision + " decision, w = " + strings.Join(w, ", ")
		if o.CostMatrix != nil {
			rule = "least expected cost, cost decision"
		}
		fmt.Fprintf(stdout, "outputs    %s: float32 [N, %d] (classes %s); %s: int64 [N] (the index of the class of %s)\n",
			onnx.Probabilities, len(o.Classes), strings.Join(o.Classes, ", "), onnx.Label, rule)
		fmt.Fprintf(stdout, "out        %s\n", o.Out)
		return
	}
	scores := "the method's score, uncalibrated"
	if o.Calibration != "" {
		scores = "probability, " + o.Calibration + " calibration"
	}
	whence := map[string]string{aerlib.FromDecisionLayer: "the decision layer's threshold", aerlib.FromMethod: "the method's own threshold", aerlib.FromDefault: "the default threshold"}[o.ThresholdFrom]
	fmt.Fprintf(stdout, "outputs    %s: float32 [N] (%s); %s: int64 [N] (1 when %s >= %.6g, %s)\n",
		onnx.Probability, scores, onnx.Label, onnx.Probability, o.Threshold, whence)
	fmt.Fprintf(stdout, "out        %s\n", o.Out)
}

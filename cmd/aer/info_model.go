package main

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	aerlib "github.com/aer-go/aer"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/modelfile"
)

// infoModelReport is what aer info --model says about a model file.
type infoModelReport struct {
	File     string `json:"file"`
	Bytes    int64  `json:"bytes"`
	Format   int    `json:"format_version"`
	Producer string `json:"producer,omitempty"`
	// SHA256 is the checksum of the whole file (as sha256sum prints it);
	// Checksum the one stored at its end, over everything before it,
	// verified when the file was read.
	SHA256   string         `json:"sha256"`
	Checksum string         `json:"checksum"`
	Method   string         `json:"method"`
	Preset   string         `json:"preset,omitempty"`
	Schema   dataset.Schema `json:"schema"`
	Train    *trainSummary  `json:"train,omitempty"`
	Seed     *uint64        `json:"seed,omitempty"`
	// Params are the method's parameters as the fit set them (every one,
	// defaults resolved), from the file's fit configuration.
	Params map[string]string `json:"params,omitempty"`
	// Threshold is where a score predicts the positive class, and
	// ThresholdFrom says who chose it: decision-layer, method or default.
	Threshold     float64 `json:"threshold"`
	ThresholdFrom string  `json:"threshold_from"`
	// Scores is probability (calibrated by the decision layer) or score
	// (the method's own).
	Scores   string          `json:"scores"`
	Decision *decision.Layer `json:"decision,omitempty"`
	// Members lists an ensemble's members (AER).
	Members []learn.MemberInfo `json:"members,omitempty"`
	// Imported says where a model aer import wrote came from.
	Imported *aerlib.Imported `json:"imported,omitempty"`
	// Multiclass and MultiDecision describe a multi-class model: how it
	// holds its classes (native, ovr, ovo) and its decision's rule and
	// class weights.
	Multiclass    string          `json:"multiclass,omitempty"`
	MultiDecision *decision.Layer `json:"multi_decision,omitempty"`
	// Quantization says how a quantised model (aer quantize) rounds its
	// leaves and the bound of its probabilities against the
	// full-precision model's; absent for a full-precision model.
	Quantization *aerlib.Quantization `json:"quantization,omitempty"`
}

// crossFitted says how many folds of out-of-fold training scores the
// layer was fitted on beside the validation rows, if any.
func crossFitted(l *decision.Layer) string {
	if l.Folds == 0 {
		return ""
	}
	return fmt.Sprintf(" and %d-fold out-of-fold training scores", l.Folds)
}

// describeModel reads the model file at path for aer info --model.
func describeModel(path string) (*infoModelReport, error) {
	// Load refuses a file that is not a model before reading it whole;
	// only then is the file hashed.
	sm, err := aerlib.Load(path)
	if err != nil {
		return nil, err
	}
	size, sum, err := hashFile(path)
	if err != nil {
		return nil, err
	}
	h := sm.Header()
	r := &infoModelReport{
		File: path, Bytes: size, Format: modelfile.Version, Producer: h.Producer,
		SHA256: sum, Checksum: sm.Checksum(), Method: h.Method, Schema: h.Schema,
		Decision: sm.Layer(), Scores: sm.Scores(), Imported: sm.ImportedFrom(),
	}
	r.Threshold, r.ThresholdFrom = sm.Threshold()
	if q, ok := sm.Quantization(); ok {
		r.Quantization = &q
	}
	var cfg headerConfig
	if len(h.Config) > 0 && json.Unmarshal(h.Config, &cfg) == nil {
		r.Params, r.Train = cfg.Params, cfg.Train
		var seed struct {
			Seed *uint64 `json:"seed"`
		}
		if json.Unmarshal(h.Config, &seed) == nil {
			r.Seed = seed.Seed
		}
		r.Preset = cfg.Params["preset"]
	}
	if sm.NumClasses() > 2 {
		r.Multiclass, r.MultiDecision, r.Scores = h.Multiclass, sm.Layer(), "probability"
		return r, nil
	}
	// The members are the method's own model's, behind any decision layer.
	m, err := learn.New(h.Method)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	_, payload, err := modelfile.Load(path)
	if err != nil {
		return nil, err
	}
	inner, err := m.Load(payload)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.Members = learn.MembersOf(inner)
	return r, nil
}

// hashFile returns the size and SHA-256 (hexadecimal) of the file at path.
func hashFile(path string) (int64, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", fmt.Errorf("%s: %w", path, err)
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// runInfoModel is aer info --model FILE.
func runInfoModel(path string, asJSON bool, stdout io.Writer) error {
	r, err := describeModel(path)
	if err != nil {
		return fmt.Errorf("info: %w", err)
	}
	if asJSON {
		return writeJSON(stdout, r)
	}
	w := &stickyWriter{w: stdout}
	fmt.Fprintf(w, "file            %s (%d bytes)\n", r.File, r.Bytes)
	fmt.Fprintf(w, "format          aer model file version %d", r.Format)
	if r.Producer != "" {
		fmt.Fprintf(w, ", written by %s", r.Producer)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "sha256          %s\n", r.SHA256)
	method := r.Method
	if r.Preset != "" {
		method += " (preset " + r.Preset + ")"
	}
	fmt.Fprintf(w, "method          %s\n", method)
	s := r.Schema
	fmt.Fprintf(w, "features        %d: %s\n", len(s.Features), strings.Join(s.Features, ", "))
	writeModelLabel(w, r)
	if s.Weight != "" {
		fmt.Fprintf(w, "weight column   %s\n", s.Weight)
	}
	if len(s.Drop) > 0 {
		fmt.Fprintf(w, "dropped         %s\n", strings.Join(s.Drop, ", "))
	}
	if im := r.Imported; im != nil {
		fmt.Fprintf(w, "imported        from %s %s (%s, sha256 %s): %s, %s booster, %d trees, base score %.7g\n", im.From, im.Version, im.Format, im.SHA256, im.Objective, im.Booster, im.Trees, im.BaseScore)
	} else {
		fmt.Fprintln(w, "trained on      "+trainedOn(r))
	}
	if r.Seed != nil {
		fmt.Fprintf(w, "seed            %d\n", *r.Seed)
	}
	writeQuantization(w, r.Quantization)
	switch l := r.Decision; {
	case r.Multiclass != "":
		// The multi-class decision is printed with the label.
	case l != nil && l.Calibration != nil:
		fmt.Fprintf(w, "decision        scores are probabilities (%s calibration), threshold %.4g for %s, rule %s (%.4f on validation%s)\n", l.Calibration.Method, l.Threshold, l.Objective, cmp.Or(l.Rule, decision.RuleTuned), l.Value, crossFitted(l))
	case l != nil:
		fmt.Fprintf(w, "decision        threshold %.4g for %s on validation (%.4f%s), rule %s\n", l.Threshold, l.Objective, l.Value, crossFitted(l), cmp.Or(l.Rule, decision.RuleTuned))
	case r.ThresholdFrom == aerlib.FromMethod:
		fmt.Fprintf(w, "decision        threshold %.4g (tuned by the method), no calibration\n", r.Threshold)
	default:
		fmt.Fprintf(w, "decision        threshold %.4g (default), no calibration\n", r.Threshold)
	}
	if len(r.Params) > 0 {
		fmt.Fprintf(w, "\nparameters\n")
		evalWriteTable(w, "ll", paramRows(r.Params))
	}
	if len(r.Members) > 0 {
		fmt.Fprintf(w, "\nmembers (%d)\n", len(r.Members))
		rows := [][]string{{"  component", "method", "name", "static weight", "settings"}}
		for _, m := range r.Members {
			c := "-"
			if m.Component >= 0 {
				c = strconv.Itoa(m.Component)
			}
			rows = append(rows, []string{"  " + c, m.Method, m.Name, strconv.FormatFloat(m.StaticWeight, 'f', 4, 64), strings.Join(m.Settings, " ")})
		}
		evalWriteTable(w, "rllrl", rows)
	}
	return w.err
}

// paramRows are the parameters as table rows, sorted by key.
func paramRows(params map[string]string) [][]string {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	rows := make([][]string, 0, len(keys))
	for _, k := range keys {
		rows = append(rows, []string{"  " + k, params[k]})
	}
	return rows
}

// writeModelLabel writes the model's label and classes (and a
// multi-class model's decision).
func writeModelLabel(w io.Writer, r *infoModelReport) {
	s := r.Schema
	if r.Multiclass == "" {
		fmt.Fprintf(w, "label           %s: negative %q, positive %q\n", s.Label, s.Classes[0], s.Classes[1])
		return
	}
	fmt.Fprintf(w, "label           %s: %d classes %q (%s)\n", s.Label, len(s.Classes), s.Classes, r.Multiclass)
	if d := r.MultiDecision; d != nil {
		fmt.Fprintf(w, "decision        %s\n", multiDecisionText(d))
	}
}

// multiDecisionText describes a multi-class decision in one line.
func multiDecisionText(d *decision.Layer) string {
	switch {
	case d.Cost != nil:
		rows := make([]string, len(d.Cost))
		for i, r := range d.Cost {
			rows[i] = fourDigits(r)
		}
		return fmt.Sprintf("%s: the class of least expected cost, cost matrix (rows the true class) [%s]", d.Rule, strings.Join(rows, " "))
	case d.Metric != "":
		return fmt.Sprintf("%s for %s: the class of largest weight x probability, weights %s", d.Rule, d.Metric, fourDigits(d.Weights))
	}
	return fmt.Sprintf("%s: the class of largest weight x probability, weights %s", d.Rule, fourDigits(d.Weights))
}

// fourDigits writes v as [a b c], each to 4 significant digits, as text
// reports write numbers (--json keeps them whole).
func fourDigits(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(x, 'g', 4, 64)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// trainedOn describes the training (and validation) rows a model file
// records.
func trainedOn(r *infoModelReport) string {
	t := r.Train
	if t == nil {
		return "(not recorded in this file)"
	}
	if r.Multiclass != "" {
		out := fmt.Sprintf("%d rows, %d missing cells", t.Rows, t.MissingCells)
		if t.ValidRows > 0 {
			out += fmt.Sprintf("; validated on %d rows", t.ValidRows)
		}
		return out
	}
	out := fmt.Sprintf("%d rows (%d positive), %d missing cells", t.Rows, t.Positives, t.MissingCells)
	if t.ValidRows > 0 {
		out += fmt.Sprintf("; validated on %d rows (%d positive)", t.ValidRows, t.ValidPositives)
	}
	return out
}

package decision

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// Layer is the decision in front of a model of any number of classes,
// fitted on validation rows: what turns its probabilities into a class.
// Of two classes (Weights nil) it is an optional calibration of the
// positive class's scores, then the threshold at which a calibrated
// score predicts the positive class: the two-class form of class weights
// and of a cost matrix (see RuleArgmax). Of three or more it is class
// weights (the class of largest weight times probability) or a cost
// matrix (the class of least expected cost). A model file keeps it in
// its header, in the JSON of its number of classes.
type Layer struct {
	Calibration *Calibration `json:"calibration,omitempty"`
	Threshold   float64      `json:"threshold"`
	// Objective names what the threshold was chosen for, and Value is
	// its value on the validation rows at Threshold.
	Objective string  `json:"objective"`
	Value     float64 `json:"valid_value"`
	// Rule is how the layer was found: RuleTuned (empty in two-class
	// files written before rules existed), RuleBayes, RuleArgmax,
	// RuleCost or a registered rule's name.
	Rule string `json:"rule,omitempty"`
	// Folds is the number of folds of cross-fitting (Options.CrossFit):
	// the layer was fitted on the out-of-fold scores of the training rows
	// and the validation rows' scores together; 0 when on the validation
	// rows alone.
	Folds int `json:"cross_fit_folds,omitempty"`
	// Source says which rows the layer was fitted on when the fit had no
	// validation rows: SourceHoldout (the scores of the rows the method
	// held out of its training rows, learn.HeldOuter) or SourceCrossFit
	// (the out-of-fold scores of the training rows alone, Folds folds);
	// "" for validation rows.
	Source string `json:"fitted_on,omitempty"`
	// Weights are the class weights of three or more classes; nil for
	// two.
	Weights []float64 `json:"weights,omitempty"`
	// Metric is what RuleTuned tuned the weights for (balanced accuracy
	// when ""): balanced_accuracy, macro_f1 or gmean.
	Metric string `json:"metric,omitempty"`
	// Cost is RuleCost's matrix (rows the true class, columns the
	// predicted one), nil otherwise.
	Cost [][]float64 `json:"cost,omitempty"`
}

// What a two-class layer fitted without validation rows was fitted on
// (Layer.Source).
const (
	// SourceHoldout: the scores of the training rows the method held out
	// for its own tuning (learn.HeldOuter).
	SourceHoldout = "holdout"
	// SourceCrossFit: the out-of-fold scores of the training rows.
	SourceCrossFit = "cross-fit"
)

// twoClassJSON and classJSON are the layer's JSON of two and of three or
// more classes, as model files have always written them.
type twoClassJSON struct {
	Calibration *Calibration `json:"calibration,omitempty"`
	Threshold   float64      `json:"threshold"`
	Objective   string       `json:"objective"`
	Value       float64      `json:"valid_value"`
	Rule        string       `json:"rule,omitempty"`
	Folds       int          `json:"cross_fit_folds,omitempty"`
	Source      string       `json:"fitted_on,omitempty"`
}

type classJSON struct {
	Rule    string      `json:"rule"`
	Weights []float64   `json:"weights"`
	Metric  string      `json:"metric,omitempty"`
	Cost    [][]float64 `json:"cost,omitempty"`
}

// MarshalJSON writes the JSON of the layer's number of classes.
// Its text is not HTML-escaped ("recall >= 0.8"): an encoder that
// escapes escapes it.
func (l Layer) MarshalJSON() ([]byte, error) {
	var v any = twoClassJSON{Calibration: l.Calibration, Threshold: l.Threshold, Objective: l.Objective, Value: l.Value, Rule: l.Rule, Folds: l.Folds, Source: l.Source}
	if l.Weights != nil {
		v = classJSON{Rule: l.Rule, Weights: l.Weights, Metric: l.Metric, Cost: l.Cost}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads either JSON, refusing unknown keys and a mix of
// the two.
func (l *Layer) UnmarshalJSON(b []byte) error {
	var all struct {
		twoClassJSON
		Threshold *float64    `json:"threshold"`
		Weights   []float64   `json:"weights"`
		Metric    string      `json:"metric"`
		Cost      [][]float64 `json:"cost"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&all); err != nil {
		return err
	}
	two := all.twoClassJSON
	if all.Weights == nil && (all.Metric != "" || all.Cost != nil) {
		return fmt.Errorf("decision: a layer with a metric or cost matrix and no class weights")
	}
	if all.Weights != nil && (all.Threshold != nil || two.Calibration != nil || two.Objective != "" || two.Value != 0 || two.Folds != 0 || two.Source != "") {
		return fmt.Errorf("decision: a layer with class weights and a threshold, calibration, objective or cross-fitting")
	}
	switch two.Source {
	case "", SourceHoldout, SourceCrossFit:
	default:
		return fmt.Errorf("decision: a layer fitted on %q: want %s or %s", two.Source, SourceHoldout, SourceCrossFit)
	}
	*l = Layer{Calibration: two.Calibration, Objective: two.Objective, Value: two.Value, Rule: two.Rule, Folds: two.Folds, Source: two.Source,
		Weights: all.Weights, Metric: all.Metric, Cost: all.Cost}
	if all.Threshold != nil {
		l.Threshold = *all.Threshold
	}
	return nil
}

// Classes is the number of classes the layer decides between: 2 for a
// threshold, else one per weight.
func (l *Layer) Classes() int {
	if l.Weights == nil {
		return 2
	}
	return len(l.Weights)
}

// Predict writes the decision for each row of proba into pred: proba
// holds Classes() probabilities per row, row-major, as learn.Model's
// PredictProba gives them (of two classes, a model behind the layer
// gives calibrated ones: Attach), and pred one class per row.
func (l *Layer) Predict(proba []float64, pred []int) {
	if l.Weights != nil {
		l.predictClasses(proba, pred)
		return
	}
	for i := range pred {
		pred[i] = 0
		if proba[2*i+1] >= l.Threshold {
			pred[i] = 1
		}
	}
}

// FitLayer fits a layer on validation labels y, the model's scores and
// optional row weights w: the calibration when calibrate is Sigmoid or
// Isotonic ("" or None for none), then the threshold best for o on the calibrated
// scores among Candidates.
func FitLayer(y []int, score, w []float64, o Objective, calibrate string) (*Layer, error) {
	l := &Layer{Objective: o.String()}
	s := score
	if calibrate != "" && calibrate != None {
		c, err := Calibrate(calibrate, y, score, w)
		if err != nil {
			return nil, err
		}
		l.Calibration = c
		s = make([]float64, len(score))
		for i, v := range score {
			s[i] = c.Apply(v)
		}
	}
	ch, err := Choose(y, s, w, o)
	if err != nil {
		return nil, err
	}
	l.Threshold, l.Value, l.Rule = ch.Threshold, ch.Value, RuleTuned
	return l, nil
}

// Check reports a layer that cannot be applied (one read from a file).
func (l *Layer) Check() error {
	if l.Weights != nil {
		return l.checkClasses()
	}
	switch l.Rule {
	case "", RuleTuned, RuleBayes:
	default:
		return fmt.Errorf("decision: two-class rule %q: want tuned or bayes", l.Rule)
	}
	// Scores are probabilities (the calibrated ones too): a threshold
	// outside [0, 1] predicts every row alike, as aer predict --threshold
	// refuses it.
	if !(l.Threshold >= 0 && l.Threshold <= 1) {
		return fmt.Errorf("decision: threshold %v lies outside [0, 1]", l.Threshold)
	}
	if l.Calibration != nil {
		return l.Calibration.check()
	}
	return nil
}

// Attach returns m behind the layer: its probabilities calibrated, and
// the layer's threshold as its learn.Thresholder. The returned model is a
// learn.Wrapped: what m offers about its make-up (summary, size,
// importances, members) is found through it. Without a calibration it
// scores as m does, so m's per-row explanations and attributions are
// found through it too. With one it changes the scores
// (learn.ScoreChanged): m's explanations come with the calibrated score
// beside them (Explanation), and its attributions only where the
// calibration maps them exactly (see calibrating.Attribute). The layer is not part of m's
// payload: MarshalBinary gives m's bytes, and whoever saves the model
// keeps the layer beside it.
func Attach(m learn.Scorer, l *Layer) learn.Scorer {
	a := &attached{Wrapped: learn.Wrapped{Inner: m}, layer: l}
	if l.Calibration == nil {
		return a
	}
	a.Changed = learn.ScoreChanged
	c := &calibrating{a}
	if _, ok := learn.ExplainerOf(m); ok {
		return &explaining{c}
	}
	return c
}

type attached struct {
	learn.Wrapped
	layer *Layer
}

func (a *attached) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	p, err := a.Inner.PositiveProba(x, dst)
	if err != nil || a.layer.Calibration == nil {
		return p, err
	}
	for i, v := range p {
		p[i] = a.layer.Calibration.Apply(v)
	}
	return p, nil
}

func (a *attached) MarshalBinary() ([]byte, error) { return a.Inner.MarshalBinary() }
func (a *attached) Threshold() float64             { return a.layer.Threshold }

// calibrating is a layer with a calibration.
type calibrating struct{ *attached }

// Explanation is the explanation of one row's score through a decision
// layer's calibration: the calibrated score and the prediction at the
// layer's threshold, then the model's own explanation of its score
// before calibration.
type Explanation struct {
	Score       float64           `json:"score"`
	Prediction  int               `json:"prediction"`
	Threshold   float64           `json:"threshold"`
	ModelScore  float64           `json:"model_score"`
	Calibration string            `json:"calibration"`
	Model       learn.Explanation `json:"model"`
}

// WriteText writes the calibrated score, then the model's explanation.
func (e *Explanation) WriteText(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "probability %.4f, prediction %d (threshold %.4g): the decision layer's %s calibration of the model's score %.4f, which the model breaks down as follows\n",
		e.Score, e.Prediction, e.Threshold, e.Calibration, e.ModelScore); err != nil {
		return err
	}
	return e.Model.WriteText(w)
}

// explaining is a layer with a calibration in front of a model that
// explains its scores (learn.Explainer).
type explaining struct{ *calibrating }

// Explain explains the calibrated score of one row (raw features) where
// the model explains its own: the model's explanation of its score, with
// the calibrated score and the layer's prediction beside it.
func (c *explaining) Explain(row []float64) (learn.Explanation, error) {
	ex, ok := learn.ExplainerOf(c.Inner)
	if !ok {
		return nil, fmt.Errorf("%w: the model does not explain its scores", learn.ErrNoAttribution)
	}
	in, err := ex.Explain(row)
	if err != nil {
		return nil, err
	}
	s, err := c.Inner.PositiveProba(mat.NewDense(1, len(row), append([]float64(nil), row...)), nil)
	if err != nil {
		return nil, err
	}
	out := &Explanation{Score: c.layer.Calibration.Apply(s[0]), Threshold: c.layer.Threshold, ModelScore: s[0], Calibration: c.layer.Calibration.Method, Model: in}
	if out.Score >= out.Threshold {
		out.Prediction = 1
	}
	return out, nil
}

// Attribute gives the attributions of the calibrated score where the
// calibration maps the inner model's attributions exactly: a sigmoid
// calibration on the logit of the scores is linear in the inner model's
// log-odds f (the calibrated log-odds are -(A f + B)), so log-odds
// attributions phi become -A phi and the base -(A base + B); exact but
// for scores within 1e-12 of 0 or 1, which the calibration clips. An
// isotonic calibration, a sigmoid one on the raw scores, or attributions
// of the probability give an error wrapping learn.ErrNoAttribution.
func (c *calibrating) Attribute(x *mat.Dense) (*learn.Attribution, error) {
	cal := c.layer.Calibration
	if cal.Method != Sigmoid || !cal.Logit {
		return nil, fmt.Errorf("%w: the decision layer's %s calibration of the scores is not linear in the model's log-odds", learn.ErrNoAttribution, cal.Method)
	}
	in, err := learn.AttributeInner(c.Inner, x)
	if err != nil {
		return nil, err
	}
	if in.Space != learn.Logit {
		return nil, fmt.Errorf("%w: the model's attributions are of its probability, which the decision layer's sigmoid calibration does not map linearly", learn.ErrNoAttribution)
	}
	r, cols := in.Phi.Dims()
	out := &learn.Attribution{
		Space:  learn.Logit,
		Method: in.Method + "; through the decision layer's sigmoid calibration (calibrated log-odds -(A f + B) of the model's log-odds f)",
		Base:   make([]float64, len(in.Base)),
		Phi:    mat.NewDense(r, cols, nil),
	}
	for i, b := range in.Base {
		out.Base[i] = -(cal.A*b + cal.B)
	}
	out.Phi.Scale(-cal.A, in.Phi)
	return out, nil
}

// NumClasses is 2: attached scores the positive class (PositiveProba).
func (a *attached) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (a *attached) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(a, x, dst)
}

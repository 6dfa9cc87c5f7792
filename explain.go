package aer

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/explain"
	"github.com/aer-go/aer/learn"
)

// Explanation says why one row got its score, as aer explain and aer
// serve's "explain" show it: its feature attributions (for models that
// offer them: exact TreeSHAP for boosted trees, trees and forests, exact
// linear SHAP for logistic regression, their mixed-weight combination for
// AER) and the method's own breakdown (AER: component likelihoods, static,
// likelihood and mixed weights, each member's output). For a multi-class
// model it gives the class the model's decision picks, every class's
// probability and, per class, the attributions of that class's output
// (ClassAttributions).
type Explanation struct {
	// Row is the row's index in the table, from 0; ID its id cell, when
	// the table has an id column.
	Row int    `json:"row"`
	ID  string `json:"id,omitempty"`
	// Score is the row's score, Class its predicted class at Threshold.
	// For a multi-class model Class is the class its decision picks
	// (Decision names the rule), Score that class's probability, and
	// Threshold 0.
	Score     float64 `json:"score"`
	Class     string  `json:"class"`
	Threshold float64 `json:"threshold"`
	// Attributions are the row's feature attributions, one per column (a
	// categorical column's one-hot attributions summed, its value named),
	// largest first: Output = Base + their sum, in Space (a logit or a
	// probability). nil when the model offers none; Unavailable says why.
	Attributions *explain.RowAttributions `json:"attributions,omitempty"`
	// Attribution says in one line what the attributions are.
	Attribution string `json:"attribution,omitempty"`
	Unavailable string `json:"unavailable,omitempty"`
	// Method is the method's own breakdown; nil when it has none.
	Method learn.Explanation `json:"method,omitempty"`

	// A multi-class model's rule of decision (decision.Layer.Rule), its
	// classes and the row's probability of each, in order; omitted for a
	// binary model.
	Decision      string    `json:"decision,omitempty"`
	Classes       []string  `json:"classes,omitempty"`
	Probabilities []float64 `json:"probabilities,omitempty"`
	// ClassAttributions are a multi-class model's feature attributions of
	// each class's output, in the order of Classes, each as Attributions
	// are for a binary model (Output = Base + the sum, in its Space; the
	// outputs are not the probabilities: Attribution says how they
	// make them); nil when the model offers none (Unavailable says why)
	// and for a binary model.
	ClassAttributions []*ClassAttributions `json:"class_attributions,omitempty"`
}

// ClassAttributions are one class's feature attributions of a row of a
// multi-class model: the attributions of the class's output (its margin
// for gbdt, its linear score for logreg, its one-vs-rest member's
// calibrated log-odds), largest first.
type ClassAttributions struct {
	Class string `json:"class"`
	*explain.RowAttributions
}

// Explain explains row (from 0) of t, whose columns are matched to the
// model's by name as Predict matches them.
func (m *Model) Explain(ctx context.Context, t *Table, row int) (*Explanation, error) {
	if err := m.usable(); err != nil {
		return nil, err
	}
	if err := t.usable("the table"); err != nil {
		return nil, err
	}
	if row < 0 || row >= t.Rows() {
		return nil, fmt.Errorf("%w: row %d: the table has rows 0 to %d", learn.ErrData, row, t.Rows()-1)
	}
	one := t.Subset([]int{row})
	e, err := m.encode(one)
	if err != nil {
		return nil, err
	}
	out := &Explanation{Row: row}
	if one.d.IDs != nil {
		out.ID = one.d.IDs[0]
	}
	s := m.Schema()
	cols := explain.SchemaColumns(&s)
	sc := m.scorer()
	if sc != nil {
		err = m.explainScore(ctx, sc, e.X, cols, out)
	} else {
		err = m.explainClasses(ctx, e.X, cols, out)
	}
	switch {
	case errors.Is(err, learn.ErrNoAttribution):
		out.Unavailable = err.Error()
	case err != nil:
		return nil, err
	}
	if sc == nil {
		return out, nil
	}
	if ex, ok := learn.ExplainerOf(sc); ok {
		if out.Method, err = ex.Explain(mat.Row(nil, 0, e.X)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// explainScore fills out with a two-class model's score of the one row
// of x, its class at the model's threshold and its attributions; an
// error wrapping learn.ErrNoAttribution when the model offers none.
func (m *Model) explainScore(ctx context.Context, sc learn.Scorer, x *mat.Dense, cols []explain.Column, out *Explanation) error {
	score, err := learn.Predict(ctx, sc, x, 1)
	if err != nil {
		return err
	}
	classes := m.Classes()
	out.Score = score[0]
	out.Threshold, _ = m.Threshold()
	out.Class = classes[0]
	if score[0] >= out.Threshold {
		out.Class = classes[1]
	}
	a, err := learn.Attribute(ctx, sc, x, 1)
	if err != nil {
		return err
	}
	out.Attributions = explain.Row(a, 0, x.RawRowView(0), cols, 0)
	out.Attribution = a.Method
	return nil
}

// explainClasses fills out with the class of the one row of x by the
// model's decision, every class's probability, and each class's
// attributions (learn.AttributeClasses); an error wrapping
// learn.ErrNoAttribution when the model offers none.
func (m *Model) explainClasses(ctx context.Context, x *mat.Dense, cols []explain.Column, out *Explanation) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	proba, err := m.model.PredictProba(x, nil)
	if err != nil {
		return err
	}
	pred := make([]int, 1)
	m.layer.Predict(proba, pred)
	classes := m.Classes()
	out.Score, out.Class, out.Decision, out.Classes, out.Probabilities = proba[pred[0]], classes[pred[0]], m.layer.Rule, classes, proba
	attrs, err := learn.AttributeClasses(ctx, m.model, x, 1)
	if err != nil {
		return err
	}
	for c, a := range attrs {
		out.ClassAttributions = append(out.ClassAttributions,
			&ClassAttributions{Class: classes[c], RowAttributions: explain.Row(a, 0, x.RawRowView(0), cols, 0)})
	}
	out.Attribution = attrs[0].Method
	return nil
}

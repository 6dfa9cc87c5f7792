package aer

import (
	"context"
	"errors"

	"github.com/aer-go/aer/explain"
	"github.com/aer-go/aer/learn"
)

// ClassAttributions are one class's feature attributions of a row of a
// multi-class model: the attributions of the class's output (its margin
// for gbdt, its linear score for logreg, its one-vs-rest member's
// calibrated log-odds), largest first.
type ClassAttributions struct {
	Class string `json:"class"`
	*explain.RowAttributions
}

// explainMulti is Explain for a multi-class model: the row's class by
// the model's decision, every class's probability, and each class's
// attributions (learn.AttributeClasses), those the model offers.
func (m *Model) explainMulti(ctx context.Context, t *Table, row int) (*Explanation, error) {
	one := t.Subset([]int{row})
	e, err := m.encode(one)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	proba, err := m.model.PredictProba(e.X, nil)
	if err != nil {
		return nil, err
	}
	pred := make([]int, 1)
	m.layer.Predict(proba, pred)
	classes := m.Classes()
	out := &Explanation{Row: row, Score: proba[pred[0]], Class: classes[pred[0]], Decision: m.layer.Rule,
		Classes: classes, Probabilities: proba}
	if one.d.IDs != nil {
		out.ID = one.d.IDs[0]
	}
	attrs, err := learn.AttributeClasses(ctx, m.model, e.X, 1)
	switch {
	case err == nil:
		s := m.Schema()
		cols := explain.SchemaColumns(&s)
		for c, a := range attrs {
			out.ClassAttributions = append(out.ClassAttributions,
				&ClassAttributions{Class: classes[c], RowAttributions: explain.Row(a, 0, e.X.RawRowView(0), cols, 0)})
		}
		out.Attribution = attrs[0].Method
	case errors.Is(err, learn.ErrNoAttribution):
		out.Unavailable = err.Error()
	default:
		return nil, err
	}
	return out, nil
}

package aer

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// Explanation says why one row got its score: its feature attributions
// (for models that offer them: exact TreeSHAP for boosted trees, trees
// and forests, exact linear SHAP for logistic regression, their
// mixed-weight combination for AER) and the method's own breakdown (AER:
// component likelihoods, static, likelihood and mixed weights, each
// member's output).
type Explanation struct {
	// Row is the row's index in the table, from 0; ID its id cell, when
	// the table has an id column.
	Row int    `json:"row"`
	ID  string `json:"id,omitempty"`
	// Score is the row's score, Class its predicted class at Threshold.
	Score     float64 `json:"score"`
	Class     string  `json:"class"`
	Threshold float64 `json:"threshold"`
	// Space is where the attributions add up: Base plus their sum is the
	// model's output in that space (a logit or a probability).
	Space string `json:"space,omitempty"`
	// Attribution says in one line what the values are.
	Attribution string  `json:"attribution,omitempty"`
	Base        float64 `json:"base,omitempty"`
	// Features are the row's features (one-hot ones by their column=value
	// names) with their values and attributions, in the model's order;
	// nil when the model offers no attributions.
	Features []FeatureAttribution `json:"features,omitempty"`
	// Method is the method's own breakdown; nil when it has none.
	Method learn.Explanation `json:"method,omitempty"`
}

// FeatureAttribution is one feature's value in a row and its share of
// the row's output.
type FeatureAttribution struct {
	Name        string  `json:"name"`
	Value       float64 `json:"value"`
	Attribution float64 `json:"attribution"`
}

// Explain explains row (from 0) of t, whose columns are matched to the
// model's by name as Predict matches them.
func (m *Model) Explain(ctx context.Context, t *Table, row int) (*Explanation, error) {
	if row < 0 || row >= t.Rows() {
		return nil, fmt.Errorf("%w: row %d: the table has rows 0 to %d", learn.ErrData, row, t.Rows()-1)
	}
	one := t.Subset([]int{row})
	p, err := m.Predict(ctx, one, &PredictOptions{Workers: 1})
	if err != nil {
		return nil, err
	}
	s := m.Schema()
	e, err := one.d.Encode(&s)
	if err != nil {
		return nil, err
	}
	out := &Explanation{Row: row, Score: p.Score[0], Class: p.Class(0), Threshold: p.Threshold}
	if p.ID != nil {
		out.ID = p.ID[0]
	}
	x := e.X.RawRowView(0)
	a, err := learn.Attribute(ctx, m.model, e.X, 1)
	switch {
	case err == nil:
		out.Space, out.Attribution, out.Base = string(a.Space), a.Method, a.Base[0]
		for j, name := range s.Features {
			out.Features = append(out.Features, FeatureAttribution{Name: name, Value: x[j], Attribution: a.Phi.At(0, j)})
		}
	case !errors.Is(err, learn.ErrNoAttribution):
		return nil, err
	}
	if ex, ok := learn.ExplainerOf(m.model); ok {
		if out.Method, err = ex.Explain(mat.Row(nil, 0, e.X)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

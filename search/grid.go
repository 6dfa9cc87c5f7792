package search

import (
	"context"
	"fmt"
	"strings"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
)

// Axis is one parameter and the values a grid tries for it.
type Axis struct {
	Key    string
	Values []string
}

// ParseAxis reads "key=v1,v2,...". Values holding commas (class weights
// such as 0:1,1:5) are separated by "|" instead: "key=v1|v2".
func ParseAxis(s string) (Axis, error) {
	k, v, ok := strings.Cut(s, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" || strings.TrimSpace(v) == "" {
		return Axis{}, fmt.Errorf("grid %q: want key=v1,v2,... (or key=v1|v2 for values with commas)", s)
	}
	sep := ","
	if strings.Contains(v, "|") {
		sep = "|"
	}
	a := Axis{Key: k}
	for _, x := range strings.Split(v, sep) {
		if x = strings.TrimSpace(x); x == "" {
			return Axis{}, fmt.Errorf("grid %q: an empty value", s)
		}
		a.Values = append(a.Values, x)
	}
	return a, nil
}

// Points returns every combination of the axes' values as key=value
// lists, the first axis varying slowest.
func Points(axes []Axis) [][]string {
	points := [][]string{nil}
	for _, a := range axes {
		var next [][]string
		for _, p := range points {
			for _, v := range a.Values {
				next = append(next, append(append([]string(nil), p...), a.Key+"="+v))
			}
		}
		points = next
	}
	return points
}

// Result is one grid point's outcome on the validation rows.
type Result struct {
	Params    []string `json:"params"`
	Value     float64  `json:"valid_value"`
	Threshold float64  `json:"threshold"`
}

// Outcome is a finished search: every point's result, the chosen one
// (the best value; of equal values, the first listed) and its method and
// model.
type Outcome struct {
	Objective string   `json:"objective"`
	Points    []Result `json:"points"`
	Chosen    int      `json:"chosen"`

	Method learn.Method `json:"-"`
	Model  learn.Scorer `json:"-"`
}

// Run fits newMethod() with every point of the grid on train, scores the
// validation rows, and keeps the point whose best threshold gives the best
// objective value on them. Every point fits with the same env (seed
// included), so points differ only by their parameters. A parameter a
// method refuses is an error wrapping learn.ErrParam.
func Run(ctx context.Context, newMethod func() (learn.Method, error), axes []Axis, train, valid *learn.Data, o decision.Objective, env learn.Env) (*Outcome, error) {
	if valid == nil {
		return nil, fmt.Errorf("%w: a grid search needs validation data", learn.ErrParam)
	}
	out := &Outcome{Objective: o.String(), Chosen: -1}
	points := Points(axes)
	for i, p := range points {
		m, err := newMethod()
		if err != nil {
			return nil, err
		}
		for _, kv := range p {
			k, v, _ := strings.Cut(kv, "=")
			if err := m.Set(k, v); err != nil {
				return nil, fmt.Errorf("grid point %s: %w", strings.Join(p, " "), err)
			}
		}
		env.Report("grid", i, len(points))
		model, err := m.Fit(ctx, train, valid, env.Quiet())
		if err != nil {
			return nil, fmt.Errorf("grid point %s: %w", strings.Join(p, " "), err)
		}
		score, err := learn.Predict(ctx, model, valid.X, env.Workers)
		if err != nil {
			return nil, fmt.Errorf("grid point %s: %w", strings.Join(p, " "), err)
		}
		ch, err := decision.Choose(valid.Y, score, valid.W, o)
		if err != nil {
			return nil, fmt.Errorf("grid point %s: %w", strings.Join(p, " "), err)
		}
		if p == nil {
			p = []string{}
		}
		out.Points = append(out.Points, Result{Params: p, Value: ch.Value, Threshold: ch.Threshold})
		better := out.Chosen < 0 || ch.Value > out.Points[out.Chosen].Value
		if o.CostFN+o.CostFP > 0 { // a cost: lower is better
			better = out.Chosen < 0 || ch.Value < out.Points[out.Chosen].Value
		}
		if better {
			out.Chosen, out.Method, out.Model = i, m, model
		}
	}
	env.Report("grid", len(points), len(points))
	return out, nil
}

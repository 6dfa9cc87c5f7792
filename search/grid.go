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
	Model  learn.Model  `json:"-"`
}

// Trial fits one grid point's method m and scores it on the validation
// rows: the fitted model (kept when the point is chosen), the value, and
// for a two-class search the threshold the value was found at.
type Trial func(ctx context.Context, m learn.Method, env learn.Env) (model learn.Model, r Result, err error)

// Best is the grid search of every number of classes: every point of
// axes is set on a fresh newMethod() and tried (env without progress;
// the search reports "grid" progress itself), and the point of the best
// value is chosen: the largest, or with lower the smallest (a cost); of
// equal values, the first listed. Outcome's Model is the chosen point's
// model, Points every point's result, in order.
func Best(ctx context.Context, newMethod func() (learn.Method, error), axes []Axis, objective string, lower bool, try Trial, env learn.Env) (*Outcome, error) {
	out := &Outcome{Objective: objective, Chosen: -1}
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
		model, r, err := try(ctx, m, env.Quiet())
		if err != nil {
			return nil, fmt.Errorf("grid point %s: %w", strings.Join(p, " "), err)
		}
		r.Params = p
		if p == nil {
			r.Params = []string{}
		}
		out.Points = append(out.Points, r)
		better := out.Chosen < 0 || r.Value > out.Points[out.Chosen].Value
		if lower {
			better = out.Chosen < 0 || r.Value < out.Points[out.Chosen].Value
		}
		if better {
			out.Chosen, out.Method, out.Model = i, m, model
		}
	}
	env.Report("grid", len(points), len(points))
	return out, nil
}

// Run is the two-class grid search: each point's model is scored at its
// best threshold for o on the validation rows (decision.Choose).
func Run(ctx context.Context, newMethod func() (learn.Method, error), axes []Axis, train, valid *learn.Data, o decision.Objective, env learn.Env) (*Outcome, error) {
	if valid == nil {
		return nil, fmt.Errorf("%w: a grid search needs validation data", learn.ErrParam)
	}
	try := func(ctx context.Context, m learn.Method, env learn.Env) (learn.Model, Result, error) {
		model, err := m.Fit(ctx, train, valid, env)
		if err != nil {
			return nil, Result{}, err
		}
		score, err := learn.Predict(ctx, model, valid.X, env.Workers)
		if err != nil {
			return nil, Result{}, err
		}
		ch, err := decision.Choose(valid.Y, score, valid.W, o)
		if err != nil {
			return nil, Result{}, err
		}
		return model, Result{Value: ch.Value, Threshold: ch.Threshold}, nil
	}
	return Best(ctx, newMethod, axes, o.String(), o.CostFN+o.CostFP > 0, try, env)
}

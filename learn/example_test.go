package learn_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// Settings of a method, declared once as a ParamTable: each parameter has
// a key, a help line, a typed setter that checks its range and a getter
// that shows its value.
func ExampleParamTable() {
	type Settings struct {
		Trees   int
		Eta     float64
		Holdout float64
		NoTomek bool // the zero value means tomek=true
		Loss    string
	}
	table := learn.ParamTable[Settings]{
		learn.Int("trees", "number of trees", 1, learn.MaxRounds, func(s *Settings) *int { return &s.Trees }),
		learn.Float("eta", "learning rate", 0, 1, func(s *Settings) *float64 { return &s.Eta }),
		learn.OpenFloat("holdout", "share of rows held out", 0, 1, func(s *Settings) *float64 { return &s.Holdout }),
		learn.Bool("tomek", "remove Tomek links", true, func(s *Settings) *bool { return &s.NoTomek }),
		learn.Enum("loss", "loss function", []string{"logistic", "focal"}, func(s *Settings) *string { return &s.Loss }),
	}

	def := Settings{Trees: 100, Eta: 0.3, Holdout: 0.25, Loss: "logistic"}
	cur := def
	for _, kv := range [][2]string{{"trees", "20"}, {"tomek", "false"}, {"loss", "focal"}} {
		if err := table.Set(&cur, kv[0], kv[1]); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(table.Set(&cur, "holdout", "1"))
	fmt.Println(table.Set(&cur, "depth", "3"))
	for _, p := range table.List(&cur, &def) {
		fmt.Printf("%-8s %-9s (default %s): %s\n", p.Key, p.Value, p.Default, p.Help)
	}
	// Output:
	// invalid parameter holdout="1": want a number in (0, 1)
	// invalid parameter: "depth" is unknown (known: trees, eta, holdout, tomek, loss)
	// trees    20        (default 100): number of trees
	// eta      0.3       (default 0.3): learning rate
	// holdout  0.25      (default 0.25): share of rows held out
	// tomek    false     (default true): remove Tomek links
	// loss     focal     (default logistic): loss function (logistic, focal)
}

// above is a method that predicts from one feature: the probability of the
// positive class is the share of training positives among the training
// rows on the same side of the mean of that feature.
type above struct{ feature int }

var aboveParams = learn.ParamTable[above]{
	learn.Int("feature", "the feature read (0-based)", 0, 1<<20, func(a *above) *int { return &a.feature }),
}

func (a *above) Name() string                { return "example-above" }
func (a *above) Set(key, value string) error { return aboveParams.Set(a, key, value) }
func (a *above) Params() []learn.Param       { return aboveParams.List(a, &above{}) }

func (a *above) Fit(ctx context.Context, train, _ *learn.Data, _ learn.Env) (learn.Scorer, error) {
	if err := train.Check("training data"); err != nil {
		return nil, err
	}
	if a.feature >= train.Cols() {
		return nil, fmt.Errorf("%w: feature %d of %d", learn.ErrParam, a.feature, train.Cols())
	}
	m := &aboveModel{Feature: a.feature, Features: train.Cols()}
	col := mat.Col(nil, a.feature, train.X)
	for _, v := range col {
		m.Mean += v / float64(len(col))
	}
	var n, pos [2]float64
	for i, v := range col {
		side := m.side(v)
		n[side]++
		pos[side] += float64(train.Y[i])
	}
	for s := range 2 {
		m.P[s] = pos[s] / math.Max(n[s], 1)
	}
	return m, nil
}

func (a *above) Load(b []byte) (learn.Scorer, error) {
	m := new(aboveModel)
	return m, json.Unmarshal(b, m)
}

type aboveModel struct {
	Feature, Features int
	Mean              float64
	P                 [2]float64 // below, above the mean
}

func (m *aboveModel) side(v float64) int {
	if v >= m.Mean {
		return 1
	}
	return 0
}

func (m *aboveModel) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	r, _ := x.Dims()
	if len(dst) < r {
		dst = make([]float64, r)
	}
	for i := range r {
		dst[i] = m.P[m.side(x.At(i, m.Feature))]
	}
	return dst[:r], nil
}

func (m *aboveModel) NumFeatures() int               { return m.Features }
func (m *aboveModel) MarshalBinary() ([]byte, error) { return json.Marshal(m) }

// Methods register once, at start-up, usually in package methods.
func init() {
	learn.Register(func() learn.Method { return new(above) })
}

// A method reached by name through the registry: configured, fitted,
// saved, loaded back and used for predictions spread over workers.
func Example_registry() {
	m, err := learn.New("example-above")
	if err != nil {
		log.Fatal(err)
	}
	if err := m.Set("feature", "1"); err != nil {
		log.Fatal(err)
	}
	train := &learn.Data{
		X: mat.NewDense(6, 2, []float64{
			0, 1,
			5, 2,
			1, 3,
			4, 7,
			2, 8,
			3, 9,
		}),
		Y: []int{0, 0, 0, 1, 1, 0},
	}
	model, err := m.Fit(context.Background(), train, nil, learn.Env{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	payload, _ := model.MarshalBinary()
	loaded, err := m.Load(payload)
	if err != nil {
		log.Fatal(err)
	}
	p, err := learn.Predict(context.Background(), loaded, mat.NewDense(3, 2, []float64{9, 0, 9, 5, 9, 10}), 2)
	fmt.Println(p, err)
	_, err = learn.Predict(context.Background(), loaded, mat.NewDense(1, 3, nil), 2)
	fmt.Println(err)
	_, err = learn.New("example-below")
	fmt.Println(errors.Is(err, learn.ErrUnknownMethod))
	fmt.Println(m.Params())
	// Output:
	// [0 0.6666666666666666 0.6666666666666666] <nil>
	// invalid data: data has 3 features, the model 2
	// true
	// [{feature 1 0 the feature read (0-based)}]
}

// NumClasses is 2: aboveModel scores the positive class (PositiveProba).
func (m *aboveModel) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (m *aboveModel) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(m, x, dst)
}

package mlp_test

import (
	"context"
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/mlp"
	"github.com/aer-go/aer/synth"
)

// benchData is 10,000 training and 2,500 validation rows of 20 features,
// one positive in ten (make_classification's settings otherwise).
func benchData(b *testing.B) (train, valid *learn.Data) {
	g, err := synth.Generate(&synth.Settings{Samples: 12500, Features: 20, Informative: 5, Ratio: 9}, 1)
	if err != nil {
		b.Fatal(err)
	}
	all := &learn.Data{X: g.X, Y: g.Y}
	tr, va := make([]int, 10000), make([]int, 2500)
	for i := range tr {
		tr[i] = i
	}
	for i := range va {
		va[i] = 10000 + i
	}
	return all.Subset(tr), all.Subset(va)
}

// BenchmarkFit is a default fit, early stopping on the validation rows.
func BenchmarkFit(b *testing.B) {
	train, valid := benchData(b)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			m := mlp.NewStandardized()
			epochs := 0
			for b.Loop() {
				model, err := m.Fit(context.Background(), train, valid, learn.Env{Seed: 1, Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				epochs = learn.SummaryOf(model).(*mlp.Summary).Epochs
			}
			b.ReportMetric(float64(epochs), "epochs")
		})
	}
}

// BenchmarkEpoch is the cost of one epoch (10 epochs per fit, no early
// stopping).
func BenchmarkEpoch(b *testing.B) {
	train, _ := benchData(b)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			m := mlp.NewMethod()
			for _, kv := range [][2]string{{"max_epochs", "10"}, {"validation_fraction", "0"}} {
				if err := m.Set(kv[0], kv[1]); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				if _, err := m.Fit(context.Background(), train, nil, learn.Env{Seed: 1, Workers: workers}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(10*b.N), "ms/epoch")
		})
	}
}

func BenchmarkPredict(b *testing.B) {
	train, valid := benchData(b)
	m := mlp.NewMethod()
	_ = m.Set("max_epochs", "1")
	model, err := m.Fit(context.Background(), train, valid, learn.Env{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]float64, train.Rows())
	for b.Loop() {
		if _, err := model.PositiveProba(train.X, dst); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(train.Rows()*b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
}

// BenchmarkPredictRow is one row at a time, as a server scores.
func BenchmarkPredictRow(b *testing.B) {
	train, valid := benchData(b)
	m := mlp.NewMethod()
	_ = m.Set("max_epochs", "1")
	model, err := m.Fit(context.Background(), train, valid, learn.Env{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	row := train.X.Slice(0, 1, 0, train.Cols()).(*mat.Dense)
	dst := make([]float64, 1)
	for b.Loop() {
		if _, err := model.PositiveProba(row, dst); err != nil {
			b.Fatal(err)
		}
	}
}

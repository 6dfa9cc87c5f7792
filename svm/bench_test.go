package svm_test

import (
	"context"
	"testing"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/prep"
	"github.com/aer-go/aer/svm"
)

// standardized returns the seed-0 anchor split of a shared dataset,
// standardised on its training rows as the Python peers were.
func standardized(b testing.TB, name string) (train, valid *learn.Data) {
	tr, va, _ := split(b, name, 0)
	// prep.Standardize applied once, outside the timed loop.
	var p *prep.Prep
	m, err := prep.Standardize(identity{}).Fit(context.Background(), tr, nil, learn.Env{})
	if err != nil {
		b.Fatal(err)
	}
	p = m.(*prep.Model).Prep
	t := *tr
	t.X = p.Apply(tr.X)
	v := *va
	v.X = p.Apply(va.X)
	return &t, &v
}

// BenchmarkFit fits the default SVM (scikit-learn's SVC(class_weight=
// 'balanced')) on standardised training rows of each shared dataset;
// "train" fits the Platt sigmoid on the training rows (the solver alone,
// what scikit-learn's SVC.fit times), "valid" on the validation rows.
func BenchmarkFit(b *testing.B) {
	for _, name := range allDatasets {
		for _, platt := range []string{"train", "valid"} {
			b.Run(name+"/"+platt, func(b *testing.B) {
				tr, va := standardized(b, name)
				if platt == "train" {
					va = nil
				}
				b.ResetTimer()
				for b.Loop() {
					if _, err := svm.Train(context.Background(), tr, va, nil, learn.Env{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// identity is a method whose model is nothing, to reuse prep's scaler.
type identity struct{}

func (identity) Name() string                      { return "identity" }
func (identity) Set(string, string) error          { return nil }
func (identity) Params() []learn.Param             { return nil }
func (identity) Load([]byte) (learn.Scorer, error) { return nil, nil }
func (identity) Fit(context.Context, *learn.Data, *learn.Data, learn.Env) (learn.Scorer, error) {
	return nil, nil
}

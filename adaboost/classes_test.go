package adaboost

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/aer-go/aer/internal/classtest"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
)

// TestMultiQuality compares RUSBoost's and EasyEnsemble's multi-class
// fits, seeds 0-4, with imbalanced-learn 0.10's on three shared
// multi-class tables
// (testdata/imblearn_multiclass.json): the mean balanced accuracy and
// macro AUC over the tables may not fall more than 0.02 below
// imbalanced-learn's (the random draws differ).
func TestMultiQuality(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	classtest.CompareImblearn(t, filepath.Join("testdata", "imblearn_multiclass.json"), NewRUSBoost(), NewEasyEnsemble())
}

// TestFitMultiInvariants checks RUSBoost and EasyEnsemble on the shared
// glass table: probabilities summing to 1, the same bits on 1, 2 and 3
// workers, and the payload's round trip.
func TestFitMultiInvariants(t *testing.T) {
	train, test, k := classtest.Table(t, "glass")
	for _, mk := range []func() learn.Method{NewRUSBoost, NewEasyEnsemble} {
		m := mk().(*Method)
		var ref []float64
		var refPayload []byte
		for _, workers := range []int{1, 2, 3} {
			mm, err := m.FitClasses(context.Background(), train, nil, k, learn.Env{Seed: 3, Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			if mm.NumClasses() != k || mm.NumFeatures() != 9 {
				t.Fatalf("%d classes, %d features", mm.NumClasses(), mm.NumFeatures())
			}
			p, err := mm.PredictProba(test.X, nil)
			if err != nil {
				t.Fatal(err)
			}
			payload, err := mm.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if ref != nil {
				if !slices.Equal(p, ref) || !slices.Equal(payload, refPayload) {
					t.Fatalf("%s: %d workers give another model than 1", m.Name(), workers)
				}
				continue
			}
			ref, refPayload = p, payload
			for i := 0; i < len(p); i += k {
				s := 0.0
				for _, v := range p[i : i+k] {
					s += v
				}
				if math.Abs(s-1) > 1e-12 {
					t.Fatalf("%s: row %d: probabilities sum to %v", m.Name(), i/k, s)
				}
			}
			back, err := m.LoadClasses(payload)
			if err != nil {
				t.Fatal(err)
			}
			q, _ := back.PredictProba(test.X, nil)
			if !slices.Equal(p, q) {
				t.Fatalf("%s: probabilities changed in the round trip", m.Name())
			}
			if again, _ := back.MarshalBinary(); !slices.Equal(again, payload) {
				t.Fatalf("%s: payload changed in the round trip", m.Name())
			}
			for _, cut := range []int{0, 7, 20, len(payload) / 2, len(payload) - 1} {
				if _, err := m.LoadClasses(payload[:cut]); err == nil {
					t.Fatalf("%s: a payload cut to %d bytes loaded", m.Name(), cut)
				}
			}
			if _, err := m.Load(payload); err == nil {
				t.Fatalf("%s: a multi-class payload loaded as a binary model", m.Name())
			}
		}
	}
	m := NewRUSBoost().(*Method)
	if err := m.Set("class_weight", "0:1,1:4"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.FitClasses(context.Background(), train, nil, k, learn.Env{}); err == nil {
		t.Error("explicit two-class weights were taken for 6 classes")
	}
}

// TestDrawBalancedMulti checks the multi-class under-sample: every
// class but the smallest drawn down to its size, without replacement.
func TestDrawBalancedMulti(t *testing.T) {
	cls := [][]int{{0, 1, 2, 3, 4, 5, 6}, {7, 8}, {}, {9, 10, 11}}
	for trial := range 20 {
		count := make([]int32, 12)
		drawBalanced(cls, count, false, false, rng.Derive(1, uint64(trial)))
		per := make([]int32, 4)
		for c, rows := range cls {
			for _, i := range rows {
				if count[i] > 1 {
					t.Fatalf("row %d drawn %d times without replacement", i, count[i])
				}
				per[c] += count[i]
			}
		}
		if !slices.Equal(per, []int32{2, 2, 0, 2}) || count[7] != 1 || count[8] != 1 {
			t.Fatalf("class counts %v", per)
		}
	}
}

package adaboost

import (
	"fmt"

	"github.com/aer-go/aer/interop/onnx"
)

// BuildONNX adds the model's graph (onnx.Exporter): the mean over
// ensembles of sigmoid(mean of the trees' leaf terms), as the model
// scores a row, every ensemble's trees in one TreeEnsembleRegressor, one
// target per ensemble.
func (m *Model) BuildONNX(b *onnx.Builder, in *onnx.Features) (onnx.Value, error) {
	es := m.Ensembles()
	if len(es) == 0 {
		return "", b.Wrap(fmt.Errorf("no ensembles"))
	}
	e := onnx.NewTrees(in)
	counts := make([]float64, len(es))
	for k, en := range es {
		if len(en.Trees) == 0 || len(en.Terms) != len(en.Trees) {
			return "", b.Wrap(fmt.Errorf("ensemble %d has %d trees and %d leaf terms", k, len(en.Trees), len(en.Terms)))
		}
		for ti, t := range en.Trees {
			if err := t.AddONNXValues(e, en.Terms[ti], 1, int64(k)); err != nil {
				return "", b.Wrap(fmt.Errorf("ensemble %d, tree %d: %w", k, ti, err))
			}
		}
		counts[k] = float64(len(en.Trees))
	}
	sum := e.Emit(b, len(es))
	p := b.Sigmoid(b.Div(sum, b.Doubles("trees", []int64{int64(len(es))}, counts)))
	if len(es) == 1 {
		return p, nil
	}
	return b.Div(b.ReduceSum(p, true, 1), b.Scalar("ensembles", float64(len(es)))), nil
}

package boost

import (
	"bytes"
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestPendingMargins: models trained with the margin updates deferred to
// the next round's gradient pass (leafOf) are byte-identical to those
// trained with the direct updates, for trees with few and with more than
// 256 leaves (the fallback), with row sampling that sometimes keeps every
// row, and with another objective.
func TestPendingMargins(t *testing.T) {
	x, y := synthData(30_000, 20, 3)
	tiny, ty := synthData(24, 20, 4)
	cases := []struct {
		name string
		x    *mat.Dense
		y    []int
		s    Settings
	}{
		{"depthwise", x, y, Settings{NEstimators: 15, MaxDepth: 6}},
		{"many-leaves", x, y, Settings{NEstimators: 4, GrowPolicy: LeafWise, MaxLeaves: 600, MaxDepth: -1}},
		{"focal", x, y, Settings{NEstimators: 10, MaxDepth: 4, Objective: Focal, FocalGamma: 2}},
		{"subsample-tiny", tiny, ty, Settings{NEstimators: 30, MaxDepth: 3, Subsample: 0.95, MinChildWeight: 0.01, Seed: 2}},
	}
	for _, c := range cases {
		var out [2][]byte
		for k, on := range []bool{false, true} {
			marginPending = on
			m, err := Train(context.Background(), Data{X: c.x, Y: c.y}, nil, &c.s)
			marginPending = true
			if err != nil {
				t.Fatal(err)
			}
			if out[k], err = m.MarshalBinary(); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(out[0], out[1]) {
			t.Errorf("%s: the models differ", c.name)
		}
	}
}

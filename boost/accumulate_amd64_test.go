//go:build amd64 && !purego

package boost

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/aer-go/aer/internal/rng"
)

// TestAccumulateRangeModels: models trained with the range kernel for
// consecutive rows (the root's) and the gather kernel for the others are
// byte-identical to those of the row kernel alone: weighted and
// unweighted, with missing values, odd numbers of features (the range
// kernel's last features one by one; fewer than 8, no gather kernel),
// roots of several blocks, row subsampling (roots that are not
// consecutive), on 1 and 2 threads.
func TestAccumulateRangeModels(t *testing.T) {
	type tc struct {
		n, nf   int
		missing bool
		weights bool
		s       Settings
	}
	base := Settings{NEstimators: 8, MaxDepth: 6, Eta: 0.3}
	sub := base
	sub.Subsample = 0.8
	bal := base
	bal.BalancedPosWeight = true
	cases := []tc{
		{40_000, 20, false, false, base},
		{40_000, 7, true, true, base},
		{20_000, 13, true, false, bal},
		{30_000, 5, false, true, sub},
		{5_000, 4, true, false, base},
		{3_000, 3, false, true, base}, // fewer than four features: the row kernel
	}
	if testing.Short() {
		cases = cases[1:3]
	}
	train := func(d Data, s Settings, threads int, rangeOn bool) []byte {
		old := useRange
		useRange = rangeOn
		defer func() { useRange = old }()
		s.Threads = threads
		m, err := Train(context.Background(), d, nil, &s)
		if err != nil {
			t.Fatal(err)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for k, c := range cases {
		t.Run(fmt.Sprintf("%d_%dx%d", k, c.n, c.nf), func(t *testing.T) {
			x, y := synthData(c.n, c.nf, uint64(k+3))
			r := rng.New(uint64(k + 50))
			if c.missing {
				for i := 0; i < c.n; i++ {
					for j := 0; j < c.nf; j++ {
						if r.Float64() < 0.05 {
							x.Set(i, j, math.NaN())
						}
					}
				}
			}
			d := Data{X: x, Y: y}
			if c.weights {
				d.Weight = make([]float64, c.n)
				for i := range d.Weight {
					d.Weight[i] = float64(r.IntN(4)) * 0.5 // some zero weights
				}
			}
			want := train(d, c.s, 1, false)
			for _, threads := range []int{1, 2} {
				if got := train(d, c.s, threads, true); !bytes.Equal(got, want) {
					t.Errorf("%d threads: the model with the range and gather kernels differs from the row kernel's", threads)
				}
			}
		})
	}
}

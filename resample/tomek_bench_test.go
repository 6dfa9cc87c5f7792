package resample

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/cputime"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/mixture"
	"github.com/aer-go/aer/synth"
	"gonum.org/v1/gonum/mat"
)

// globalSets is the data of a Tomek benchmark: the rows of x and the
// global subsets AER builds on them.
type globalSets struct {
	x       *mat.Dense
	isMin   []bool
	subsets [][]int
}

var (
	globalMu    sync.Mutex
	globalCache = map[[2]int]*globalSets{}
)

// benchGlobal generates n training rows as issue 14's data (aer gen
// --ratio 99 --features 20 --informative 10 --clusters 4), standardised
// as aer fit does when std is true, fits a
// 4-component diagonal mixture to 20,000 of its majority rows and returns
// the 4 global subsets (top floor(n_maj/4) majority rows by component
// log-density plus all minority rows), built as component does.
func benchGlobal(b testing.TB, n int, std bool) *globalSets {
	globalMu.Lock()
	defer globalMu.Unlock()
	key := [2]int{n, 0}
	if std {
		key[1] = 1
	}
	if g, ok := globalCache[key]; ok {
		return g
	}
	g, err := synth.Generate(&synth.Settings{Samples: n, Features: 20, Informative: 10, Clusters: 4, Ratio: 99}, 1)
	if err != nil {
		b.Fatal(err)
	}
	if std {
		dataset.FitScaler(g.X).Transform(g.X)
	}
	var maj, mnr []int
	isMin := make([]bool, n)
	for i, v := range g.Y {
		if v == 1 {
			mnr = append(mnr, i)
			isMin[i] = true
		} else {
			maj = append(maj, i)
		}
	}
	sub := maj[:min(len(maj), 20000)]
	mx, _, err := mixture.Fit(context.Background(), learn.Rows(g.X, sub), &mixture.Settings{Components: 4, Covariance: mixture.Diag, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	const L = 4
	scores := mat.NewDense(len(maj), L, nil)
	if _, err := mx.ComponentLogDensity(learn.Rows(g.X, maj), scores); err != nil {
		b.Fatal(err)
	}
	gs := &globalSets{x: g.X, isMin: isMin}
	for l := range L {
		rank := make([]int, len(maj))
		for i := range rank {
			rank[i] = i
		}
		slices.SortFunc(rank, func(a, c int) int {
			if sa, sc := scores.At(a, l), scores.At(c, l); sa != sc {
				if sa > sc {
					return -1
				}
				return 1
			}
			return maj[a] - maj[c]
		})
		rows := make([]int, 0, len(maj)/L+len(mnr))
		for _, i := range rank[:len(maj)/L] {
			rows = append(rows, maj[i])
		}
		rows = append(rows, mnr...)
		slices.Sort(rows)
		gs.subsets = append(gs.subsets, rows)
	}
	globalCache[key] = gs
	return gs
}

// BenchmarkTomekGlobal times the Tomek search alone on the global subsets
// of issue 14's data (the first search shared, as Subsets does), one
// component after another, with 1 and 2 workers,
// on the raw features and (std=true) standardised as aer fit does.
// It reports the links found, wall and CPU seconds (and the CPU seconds
// of the shared first search), and the rate of the
// first round's distance computations (minority rows x subset rows x 2d
// flops) per CPU second (the machine may be shared). Build with -tags
// purego for the pure-Go scan.
// Run with -benchtime=1x: at 1M rows one iteration takes tens of seconds.
func BenchmarkTomekGlobal(b *testing.B) {
	for _, n := range []int{300_000, 1_000_000} {
		for _, workers := range []int{1, 2} {
			for _, std := range []bool{false, true} {
				b.Run(fmt.Sprintf("n=%d/workers=%d/std=%v", n, workers, std), func(b *testing.B) {
					gs := benchGlobal(b, n, std)
					_, d := gs.x.Dims()
					var pairs float64
					for _, rows := range gs.subsets {
						var nm int
						for _, i := range rows {
							if gs.isMin[i] {
								nm++
							}
						}
						pairs += float64(nm) * float64(len(rows))
					}
					b.ResetTimer()
					var links int
					var firstCPU float64 // the shared first search's
					t0, c0 := time.Now(), cputime.Seconds()
					var minRows []int
					for i, m := range gs.isMin {
						if m {
							minRows = append(minRows, i)
						}
					}
					for b.Loop() {
						links = 0
						// As Subsets does: the first search shared.
						cf := cputime.Seconds()
						firsts, err := sharedFirst(gs.x, gs.subsets, minRows, workers, workers)
						if err != nil {
							b.Fatal(err)
						}
						firstCPU += cputime.Seconds() - cf
						for c, rows := range gs.subsets {
							opt := &TomekOptions{Workers: workers}
							if firsts != nil {
								opt.first = firsts[c]
							}
							l, err := tomek(gs.x, rows, func(i int) bool { return gs.isMin[i] }, opt)
							if err != nil {
								b.Fatal(err)
							}
							links += len(l)
						}
					}
					sec := time.Since(t0).Seconds() / float64(b.N)
					cpu := (cputime.Seconds() - c0) / float64(b.N)
					b.ReportMetric(float64(links), "links")
					b.ReportMetric(sec, "s/op")
					b.ReportMetric(cpu, "cpu-s/op")
					b.ReportMetric(firstCPU/float64(b.N), "first-cpu-s/op")
					if cpu > 0 {
						b.ReportMetric(pairs*2*float64(d)/cpu/1e9, "GFLOP/cpu-s")
					}
				})
			}
		}
	}
}

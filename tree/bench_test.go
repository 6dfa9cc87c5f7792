package tree_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/aer-go/aer/internal/anchortest"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/synth"
	"github.com/aer-go/aer/tree"
)

// cpuTime is the CPU time the process has used, which a busy machine
// does not inflate as it does wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkFit fits the tree method's defaults (DT_balanced) on the
// anchors' seed-0 training split of each shared dataset, on one core.
// cpu-ms/op is the CPU time per fit.
func BenchmarkFit(b *testing.B) {
	for _, name := range anchortest.Datasets {
		b.Run(name, func(b *testing.B) {
			train, _, _ := anchortest.Split(b, name, 0)
			m := tree.NewMethod()
			start := cpuTime()
			for b.Loop() {
				if _, err := m.Fit(context.Background(), train, nil, learn.Env{Workers: 1}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/1e6/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkFitLarge fits the tree method's defaults on 100k synthetic
// rows of 20 features (8 informative, 1:10 imbalance), on one core; the
// same data for scikit-learn comes from aer gen --rows 100000
// --features 20 --informative 8 --ratio 10 --seed 1.
func BenchmarkFitLarge(b *testing.B) {
	g, err := synth.Generate(&synth.Settings{Samples: 100000, Features: 20, Informative: 8, Ratio: 10}, 1)
	if err != nil {
		b.Fatal(err)
	}
	train := &learn.Data{X: g.X, Y: g.Y}
	m := tree.NewMethod()
	start := cpuTime()
	for b.Loop() {
		if _, err := m.Fit(context.Background(), train, nil, learn.Env{Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/1e6/float64(b.N), "cpu-ms/op")
}

package forest_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/aer-go/aer/forest"
	"github.com/aer-go/aer/internal/anchortest"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/synth"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkFit fits balanced-bagging and balanced-rf with their defaults
// on the anchors' seed-0 training split of each shared dataset, on one
// worker (as the anchors ran) and on two. cpu-ms/op is the CPU time per
// fit, which a busy machine inflates less than wall time.
func BenchmarkFit(b *testing.B) {
	for _, mk := range []func() learn.Method{forest.NewBalancedBagging, forest.NewBalancedRF} {
		m := mk()
		for _, name := range anchortest.Datasets {
			for _, workers := range []int{1, 2} {
				b.Run(m.Name()+"/"+name+"/workers="+string(rune('0'+workers)), func(b *testing.B) {
					train, _, _ := anchortest.Split(b, name, 0)
					start := cpuTime()
					for b.Loop() {
						if _, err := m.Fit(context.Background(), train, nil, learn.Env{Workers: workers}); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(cpuTime()-start)/1e6/float64(b.N), "cpu-ms/op")
				})
			}
		}
	}
}

// BenchmarkFitLarge fits both forests with their defaults on 100k
// synthetic rows of 20 features (8 informative, 1:10 imbalance; for
// scikit-learn: aer gen --rows 100000 --features 20 --informative 8
// --ratio 10 --seed 1), on one worker and on two.
func BenchmarkFitLarge(b *testing.B) {
	g, err := synth.Generate(&synth.Settings{Samples: 100000, Features: 20, Informative: 8, Ratio: 10}, 1)
	if err != nil {
		b.Fatal(err)
	}
	train := &learn.Data{X: g.X, Y: g.Y}
	for _, mk := range []func() learn.Method{forest.NewBalancedBagging, forest.NewBalancedRF} {
		m := mk()
		for _, workers := range []int{1, 2} {
			b.Run(m.Name()+"/workers="+string(rune('0'+workers)), func(b *testing.B) {
				start := cpuTime()
				for b.Loop() {
					if _, err := m.Fit(context.Background(), train, nil, learn.Env{Workers: workers}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(cpuTime()-start)/1e6/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

package adaboost_test

import (
	"context"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/aer-go/aer/adaboost"
	"github.com/aer-go/aer/internal/anchortest"
	"github.com/aer-go/aer/learn"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkFit fits rusboost and easy-ensemble with their defaults on the
// anchors' seed-0 training split of each shared dataset, on one worker
// (as the anchors ran) and on two. cpu-ms/op is the CPU time per fit,
// which a busy machine inflates less than wall time.
func BenchmarkFit(b *testing.B) {
	for _, mk := range []func() learn.Method{adaboost.NewRUSBoost, adaboost.NewEasyEnsemble} {
		m := mk()
		for _, name := range anchortest.Datasets {
			for _, workers := range []int{1, 2} {
				b.Run(m.Name()+"/"+name+"/workers="+strconv.Itoa(workers), func(b *testing.B) {
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

// BenchmarkPredict scores the seed-0 test split of scene (294 features)
// with each method's model, on one goroutine.
func BenchmarkPredict(b *testing.B) {
	train, _, test := anchortest.Split(b, "scene", 0)
	for _, mk := range []func() learn.Method{adaboost.NewRUSBoost, adaboost.NewEasyEnsemble} {
		m := mk()
		model, err := m.Fit(context.Background(), train, nil, learn.Env{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(m.Name(), func(b *testing.B) {
			dst := make([]float64, test.Rows())
			for b.Loop() {
				if _, err := model.PositiveProba(test.X, dst); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(test.Rows())*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
		})
	}
}

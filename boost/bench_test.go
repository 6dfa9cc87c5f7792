package boost

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
)

// synthData returns n rows of nf features with about 10% positives: a
// deterministic stand-in for make_classification (two Gaussian clusters
// per class over the first ten features, the rest noise and linear mixes).
func synthData(n, nf int, seed uint64) (*mat.Dense, []int) {
	r := rng.New(seed)
	// Four cluster centres on the vertices of a hypercube, two per class.
	var centre [2][2][10]float64
	for c := range 2 {
		for k := range 2 {
			for j := range 10 {
				centre[c][k][j] = float64(2*r.IntN(2) - 1)
			}
		}
	}
	x := mat.NewDense(n, nf, nil)
	y := make([]int, n)
	raw := x.RawMatrix()
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+nf]
		if r.Float64() < 0.1 {
			y[i] = 1
		}
		k := r.IntN(2)
		for j := range row {
			row[j] = r.NormFloat64()
			if j < 10 {
				row[j] += centre[y[i]][k][j]
			}
		}
		for j := 10; j < min(15, nf); j++ {
			row[j] = 0.5*row[j-10] - 0.3*row[j-9] + 0.1*row[j]
		}
		if r.Float64() < 0.01 {
			y[i] = 1 - y[i]
		}
	}
	return x, y
}

func benchTrain(b *testing.B, n int, threads int) {
	x, y := synthData(n, 20, 1)
	s := &Settings{NEstimators: 100, MaxDepth: 6, Eta: 0.3, Threads: threads}
	b.ResetTimer()
	var m *Model
	for range b.N {
		var err error
		m, err = Train(context.Background(), Data{X: x, Y: y}, nil, s)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	sub := x.Slice(0, 20000, 0, 20).(*mat.Dense)
	b.ReportMetric(rocAUC(m.PredictMargin(sub, nil), y[:20000]), "trainAUC")
}

func BenchmarkTrain100k(b *testing.B)       { benchTrain(b, 100_000, 2) }
func BenchmarkTrain1M(b *testing.B)         { benchTrain(b, 1_000_000, 2) }
func BenchmarkTrain100kSerial(b *testing.B) { benchTrain(b, 100_000, 1) }

func benchModel(b *testing.B) (*Model, *mat.Dense) {
	x, y := synthData(100_000, 20, 1)
	m, err := Train(context.Background(), Data{X: x, Y: y}, nil, &Settings{Threads: 2})
	if err != nil {
		b.Fatal(err)
	}
	return m, x
}

// BenchmarkPredictBatch reports rows per second of batch prediction of
// 100k rows with the 100-tree depth-6 model of BenchmarkTrain100k.
func BenchmarkPredictBatch(b *testing.B) {
	m, x := benchModel(b)
	dst := make([]float64, 100_000)
	for _, th := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", th), func(b *testing.B) {
			m.SetThreads(th)
			b.ResetTimer()
			for range b.N {
				m.Predict(x, dst)
			}
			b.ReportMetric(float64(b.N)*100_000/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkPredictRow measures single-row latency.
func BenchmarkPredictRow(b *testing.B) {
	m, x := benchModel(b)
	row := x.RawRowView(7)
	b.ResetTimer()
	s := 0.0
	for range b.N {
		s += m.PredictRow(row)
	}
	if math.IsNaN(s) {
		b.Fatal("NaN")
	}
}

// TestTimeTrain reports wall and CPU seconds of training on the
// benchmark data; set BOOST_TIME=100000 (rows) to run it. CPU time is the
// better measure on a shared, loaded machine.
func TestTimeTrain(t *testing.T) {
	rows, _ := strconv.Atoi(os.Getenv("BOOST_TIME"))
	if rows == 0 {
		t.Skip("set BOOST_TIME=<rows> to time training")
	}
	threads, _ := strconv.Atoi(os.Getenv("BOOST_THREADS"))
	x, y := synthData(rows, 20, 1)
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	t0 := time.Now()
	m, err := Train(context.Background(), Data{X: x, Y: y}, nil, &Settings{Threads: threads})
	wall := time.Since(t0)
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	if err != nil {
		t.Fatal(err)
	}
	cpu := time.Duration(ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano())
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("%d rows: wall %.3fs cpu %.3fs, heap sys %d MB, trees %d", rows, wall.Seconds(), cpu.Seconds(), ms.HeapSys>>20, len(m.Trees))
}

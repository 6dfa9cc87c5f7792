package boost

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/aer-go/aer/dataset"

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

func benchModel(b testing.TB) (*Model, *mat.Dense) {
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

// TestTimeTrain reports wall and CPU seconds of training (100 trees of
// depth 6, eta 0.3) and of batch and single-row prediction. Set
// BOOST_CSV=file.csv (e.g. from aer gen) or BOOST_TIME=<rows> of
// synthetic data, and BOOST_THREADS. CPU time is the steadier measure on
// a shared, loaded machine. testdata/xgb_time.py times XGBoost on the
// same CSV.
func TestTimeTrain(t *testing.T) {
	rows, _ := strconv.Atoi(os.Getenv("BOOST_TIME"))
	csv := os.Getenv("BOOST_CSV")
	if rows == 0 && csv == "" {
		t.Skip("set BOOST_CSV=<file> or BOOST_TIME=<rows> to time training")
	}
	threads, _ := strconv.Atoi(os.Getenv("BOOST_THREADS"))
	var x *mat.Dense
	var y []int
	if csv != "" {
		d, err := dataset.Load(csv, dataset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		x, y = d.X, d.Y
		rows = d.Rows()
	} else {
		x, y = synthData(rows, 20, 1)
	}
	cpuNow := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	runtime.GC()
	c0, t0 := cpuNow(), time.Now()
	m, err := Train(context.Background(), Data{X: x, Y: y}, nil, &Settings{Threads: threads})
	wall, cpu := time.Since(t0), cpuNow()-c0
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("train %d rows: wall %.3fs cpu %.3fs, heap sys %d MB, trees %d", rows, wall.Seconds(), cpu.Seconds(), ms.HeapSys>>20, len(m.Trees))

	n := min(rows, 100_000)
	sub := x.Slice(0, n, 0, 20).(*mat.Dense)
	dst := make([]float64, n)
	best := time.Duration(math.MaxInt64)
	var bestCPU time.Duration
	for range 3 {
		c0, t0 := cpuNow(), time.Now()
		m.Predict(sub, dst)
		if w := time.Since(t0); w < best {
			best, bestCPU = w, cpuNow()-c0
		}
	}
	t.Logf("predict %d rows: best wall %.4fs (%.0f rows/s), cpu %.4fs", n, best.Seconds(), float64(n)/best.Seconds(), bestCPU.Seconds())
	lat := make([]time.Duration, 1000)
	for i := range lat {
		row := sub.RawRowView(i)
		t0 := time.Now()
		m.PredictRow(row)
		lat[i] = time.Since(t0)
	}
	slices.Sort(lat)
	t.Logf("single row: median %v", lat[len(lat)/2])
}

// BenchmarkNewBins: binning a million rows of 20 features.
func BenchmarkNewBins(b *testing.B) {
	x, _ := synthData(1_000_000, 20, 1)
	b.ResetTimer()
	for range b.N {
		newMatrix(x, nil, 256, 1)
	}
}

package boost

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/aer-go/aer/internal/rng"
	"gonum.org/v1/gonum/mat"
)

// randomTree grows a random tree of depth at most maxDepth whose
// thresholds are drawn from vals (so that rows meet them exactly), with
// random missing-value directions.
func randomTree(r *rand.Rand, nf, maxDepth int, vals []float64) Tree {
	var t Tree
	var grow func(i int32, depth int)
	grow = func(i int32, depth int) {
		if depth == maxDepth || (depth > 0 && r.Float64() < 0.25) {
			return
		}
		t.Feature[i] = int32(r.IntN(nf))
		t.Threshold[i] = vals[r.IntN(len(vals))]
		t.DefaultLeft[i] = r.IntN(2) == 0
		l := t.addNode(r.NormFloat64(), 1)
		t.addNode(r.NormFloat64(), 1)
		t.Left[i] = l
		grow(l, depth+1)
		grow(l+1, depth+1)
	}
	t.addNode(r.NormFloat64(), 1)
	grow(0, 0)
	return t
}

// layoutData returns n rows of nf features: Gaussian values, one-hot
// blocks of 0/1 values, values equal to the thresholds, signed zeros,
// infinities and missing values.
func layoutData(r *rand.Rand, n, nf int, vals []float64) *mat.Dense {
	x := mat.NewDense(n, nf, nil)
	for i := range n {
		hot := r.IntN(4)
		for j := range nf {
			var v float64
			switch {
			case j < 4: // a one-hot encoded categorical column
				v = 0
				if j == hot {
					v = 1
				}
			case r.Float64() < 0.15:
				v = math.NaN()
			case r.Float64() < 0.3:
				v = vals[r.IntN(len(vals))]
			default:
				v = r.NormFloat64()
			}
			x.Set(i, j, v)
		}
	}
	return x
}

func layoutVals() []float64 {
	return []float64{-1, -0.5, 0, math.Copysign(0, -1), 0.5, 1, 2.25, math.Inf(1), 1e-300, -3, math.Inf(-1)}
}

// refMargins is the margin of every row of x by the layout before rows
// were widened.
func refMargins(m *Model, x *mat.Dense) []float64 {
	f := refCompile(m.Trees)
	n, _ := x.Dims()
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = x.RawRowView(i)
	}
	out := make([]float64, n)
	f.addMargins(rows, out)
	for i := range out {
		out[i] += m.BaseMargin
	}
	return out
}

// TestLayoutMatchesReference checks that prediction through widened rows
// gives the margins of the previous layout bit for bit, on random trees
// with missing values in both directions, one-hot columns, values equal
// to thresholds, signed zeros and infinities, in batch on 1 and 2
// threads and row by row.
func TestLayoutMatchesReference(t *testing.T) {
	r := rng.New(7)
	vals := layoutVals()
	fast, fallbacks := 0, 0
	for trial := range 40 {
		nf := 4 + r.IntN(12)
		m := &Model{NumFeatures: nf, BaseMargin: r.NormFloat64()}
		for range 1 + r.IntN(30) {
			// Thresholds at -Inf (which send a missing-left split's rows
			// through the node-by-node fallback) in a few trials only.
			tv := vals[:len(vals)-3]
			if trial%5 == 0 {
				tv = vals
			}
			m.Trees = append(m.Trees, randomTree(r, nf, 1+r.IntN(7), tv))
		}
		// A root-only tree, too.
		m.Trees = append(m.Trees, Tree{Feature: []int32{-1}, Threshold: []float64{0}, DefaultLeft: []bool{false},
			Left: []int32{-1}, Value: []float64{0.125}, Gain: []float64{0}, Cover: []float64{1}})
		n := 1 + r.IntN(300)
		x := layoutData(r, n, nf, vals)
		want := refMargins(m, x)
		for _, th := range []int{1, 2} {
			m.SetThreads(th)
			got := m.PredictMargin(x, nil)
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("trial %d threads %d row %d: margin %v, want %v", trial, th, i, got[i], want[i])
				}
			}
		}
		for i := range want {
			if got := m.PredictRowMargin(x.RawRowView(i)); math.Float64bits(got) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d row %d alone: margin %v, want %v", trial, i, got, want[i])
			}
		}
		if !m.forest.ok {
			fallbacks++
			continue
		}
		// The Go kernel on rows of widen, whichever kernel batches use.
		rows := make([][]float64, n)
		for i := range rows {
			rows[i] = x.RawRowView(i)
		}
		buf := make([]float64, n*2*nf)
		widen(rows, nf, buf)
		goOut := make([]float64, n)
		m.forest.addMargins(buf, goOut)
		for i := range want {
			if got := goOut[i] + m.BaseMargin; math.Float64bits(got) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d row %d, Go kernel: margin %v, want %v", trial, i, got, want[i])
			}
		}
		if haveWalkGroup && len(m.forest.group) == 0 {
			t.Fatalf("trial %d: no group layout", trial)
		}
		fast++
	}
	if fast < 20 || fallbacks == 0 {
		t.Fatalf("%d trials on the widened layout, %d on the fallback: the test lost its coverage", fast, fallbacks)
	}
}

// TestLayoutFallback checks that a tree the widened rows cannot serve (a
// missing-left split at -Inf) is walked node by node with the same rule.
func TestLayoutFallback(t *testing.T) {
	tr := Tree{
		Feature: []int32{0, -1, -1}, Threshold: []float64{math.Inf(-1), 0, 0}, DefaultLeft: []bool{true, false, false},
		Left: []int32{1, -1, -1}, Value: []float64{0, -1, 1}, Gain: []float64{1, 0, 0}, Cover: []float64{2, 1, 1},
	}
	m := &Model{NumFeatures: 1, Trees: []Tree{tr}}
	m.compile()
	if m.forest.ok {
		t.Fatal("a missing-left split at -Inf compiled to the widened layout")
	}
	x := mat.NewDense(3, 1, []float64{math.NaN(), math.Inf(-1), 5})
	got, want := m.PredictMargin(x, nil), refMargins(m, x)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("row %d: %v, want %v", i, got[i], want[i])
		}
	}
	if got[0] != -1 || got[1] != 1 || got[2] != 1 {
		t.Fatalf("margins %v, want [-1 1 1]", got)
	}
}

// BenchmarkPredictLayout compares the 64-row block kernels of the
// previous layout (ref) and the widened rows (widened, widening
// included) on the model of BenchmarkPredictBatch with 10% missing
// values, one goroutine.
func BenchmarkPredictLayout(b *testing.B) {
	m, x := benchModel(b)
	r := rng.New(3)
	raw := x.RawMatrix()
	for i := range raw.Data {
		if r.Float64() < 0.1 {
			raw.Data[i] = math.NaN()
		}
	}
	n, nf := x.Dims()
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = x.RawRowView(i)
	}
	out := make([]float64, n)
	ref := refCompile(m.Trees)
	m.compile()
	b.Run("ref", func(b *testing.B) {
		for range b.N {
			for lo := 0; lo < n; lo += 64 {
				hi := min(n, lo+64)
				ref.addMargins(rows[lo:hi], out[lo:hi])
			}
		}
		b.ReportMetric(float64(b.N)*float64(n)/b.Elapsed().Seconds(), "rows/s")
	})
	buf := make([]float64, 64*2*nf)
	b.Run("widened", func(b *testing.B) {
		for range b.N {
			for lo := 0; lo < n; lo += 64 {
				hi := min(n, lo+64)
				m.margins(rows[lo:hi], out[lo:hi], buf)
			}
		}
		b.ReportMetric(float64(b.N)*float64(n)/b.Elapsed().Seconds(), "rows/s")
	})
}

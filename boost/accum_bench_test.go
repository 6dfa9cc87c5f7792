package boost

import (
	"math"
	"testing"
)

// BenchmarkAccumulate measures histogram building on 1M rows, visiting
// an irregular eighth of them in order (as a node deep in a tree does).
func BenchmarkAccumulate(b *testing.B) {
	x, y := synthData(1_000_000, 20, 1)
	set, _ := (&Settings{Threads: 1}).resolved()
	m := newMatrix(x, nil, 256, 1)
	g := newGrower(m, &set)
	rows := make([]int32, 0, m.n/3)
	for i := range g.idx {
		g.gp[i] = gpair{float32(y[i]) - 0.5, 0.25}
		if (uint32(i)*2654435761)>>29 == 0 {
			rows = append(rows, int32(i))
		}
	}
	h := g.getHist()
	b.ResetTimer()
	for range b.N {
		g.accumulate(h, rows)
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(b.N)/float64(len(rows)*20), "ns/update")
}

// TestAccumulateKernel: the platform kernel and the Go loop give the same
// histogram, bit for bit, without and with row weights, for even and odd
// numbers of features and rows (the kernel takes them two at a time).
func TestAccumulateKernel(t *testing.T) {
	for _, nf := range []int{8, 7, 1} {
		x, y := synthData(20_000, nf, 41)
		for i := 0; i < 20_000; i += 7 {
			x.Set(i, 0, math.NaN())
		}
		set, _ := (&Settings{Threads: 1}).resolved()
		m := newMatrix(x, nil, 256, 1)
		g := newGrower(m, &set)
		rows := make([]int32, 0)
		for i := range g.gp {
			g.gp[i] = gpair{float32(y[i]) - 0.3 + float32(i%7)*1e-3, 0.2 + float32(i%5)*1e-2}
			if i%3 != 1 {
				rows = append(rows, int32(i))
			}
		}
		weights := make([]float64, len(g.gp))
		for i := range weights {
			weights[i] = float64(i%4) * 0.7
		}
		for _, w := range [][]float64{nil, weights} {
			for _, rs := range [][]int32{rows, rows[:len(rows)-1], rows[:1]} {
				g.w = w
				a, b := g.getHist(), g.getHist()
				g.accumulate(a, rs)
				g.accumulateGo(b, rs)
				for k := range a {
					if math.Float64bits(a[k]) != math.Float64bits(b[k]) {
						t.Fatalf("%d features, %d rows, weighted %v, slot %d: %v, want %v", nf, len(rs), w != nil, k, a[k], b[k])
					}
				}
				g.accumulate(a, nil)
				g.putHist(a)
				g.putHist(b)
			}
		}
	}
}

// BenchmarkPartition measures splitting the rows of a 1M-row node.
func BenchmarkPartition(b *testing.B) {
	x, _ := synthData(1_000_000, 20, 1)
	set, _ := (&Settings{Threads: 1}).resolved()
	m := newMatrix(x, nil, 256, 1)
	g := newGrower(m, &set)
	nd := &gnode{begin: 0, end: m.n, best: split{found: true, feat: 3, bin: int(m.nb[3]) / 2}}
	b.ResetTimer()
	for range b.N {
		for i := range g.idx {
			g.idx[i] = int32(i)
		}
		g.partition([]*gnode{nd})
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(b.N)/float64(m.n), "ns/row")
}

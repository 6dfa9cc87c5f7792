package boost

import (
	"math"
	"testing"
)

// BenchmarkAccumulate measures histogram building on 1M rows of 20
// features: an irregular eighth of them in order, as a node deep in a
// tree has (eighth), and all of them, as the root has (all).
func BenchmarkAccumulate(b *testing.B) {
	x, y := synthData(1_000_000, 20, 1)
	set, _ := (&Settings{Threads: 1}).resolved()
	m := newMatrix(x, nil, 256, 1)
	g := newGrower(m, &set)
	eighth := make([]int32, 0, m.n/3)
	all := make([]int32, m.n)
	for i := range g.idx {
		g.gp[i] = gpair{float32(y[i]) - 0.5, 0.25}
		if (uint32(i)*2654435761)>>29 == 0 {
			eighth = append(eighth, int32(i))
		}
		all[i] = int32(i)
	}
	h := g.getHist()
	for _, c := range []struct {
		name string
		rows []int32
	}{{"eighth", eighth}, {"all", all}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				g.accumulate(h, c.rows)
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(b.N)/float64(len(c.rows)*20), "ns/update")
		})
	}
}

// TestAccumulateKernel: the platform kernels and the Go loop give the
// same histogram, bit for bit, without and with row weights, with
// missing values, for even, odd and small numbers of features and rows:
// the row kernel (useRange off, or fewer than four features; it takes
// rows two at a time), and on amd64 the range kernel for consecutive
// rows (four features at a time, then one by one, by chunks of rows)
// from row 0 and from inside the matrix, over several chunks, and the
// gather kernel for the others (8 features or more).
func TestAccumulateKernel(t *testing.T) {
	for _, on := range []bool{true, false} {
		useRange = on
		testAccumulateKernel(t)
	}
	useRange = true
}

func testAccumulateKernel(t *testing.T) {
	for _, nf := range []int{8, 7, 1, 4, 5, 6, 13, 20} {
		x, y := synthData(20_000, nf, 41)
		for i := 0; i < 20_000; i += 7 {
			x.Set(i, 0, math.NaN())
			x.Set(i/2, nf-1, math.NaN())
		}
		set, _ := (&Settings{Threads: 1}).resolved()
		m := newMatrix(x, nil, 256, 1)
		g := newGrower(m, &set)
		rows := make([]int32, 0)
		all := make([]int32, len(g.gp))
		for i := range g.gp {
			g.gp[i] = gpair{float32(y[i]) - 0.3 + float32(i%7)*1e-3, 0.2 + float32(i%5)*1e-2}
			if i%3 != 1 {
				rows = append(rows, int32(i))
			}
			all[i] = int32(i)
		}
		weights := make([]float64, len(g.gp))
		for i := range weights {
			weights[i] = float64(i%4) * 0.7
		}
		sets := [][]int32{rows, rows[:len(rows)-1], rows[:1], all, all[3 : 3+2*rangeChunk+5], all[len(all)-rangeChunk-1:], all[100:103]}
		for _, w := range [][]float64{nil, weights} {
			for _, rs := range sets {
				g.w = w
				a, b := g.getHist(), g.getHist()
				g.accumulate(a, rs)
				g.accumulateGo(b, rs)
				for k := range a {
					if math.Float64bits(a[k]) != math.Float64bits(b[k]) {
						t.Fatalf("useRange %v, %d features, %d rows from %d, weighted %v, slot %d: %v, want %v", useRange, nf, len(rs), rs[0], w != nil, k, a[k], b[k])
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

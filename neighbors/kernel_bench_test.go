package neighbors

import (
	"fmt"
	"math"
	"testing"

	"github.com/aer-go/aer/internal/cputime"
)

// BenchmarkKernel32 times the float32 filter kernel alone on one
// reference block (in L2) with thresholds no score passes, for d = 20
// (issue 14's data) and others; GFLOP/s counts 2 flops per query,
// reference row and column.
func BenchmarkKernel32(b *testing.B) {
	if !useAVX2 {
		b.Skip("no AVX2/FMA")
	}
	for _, d := range []int{8, 20, 40} {
		for _, w := range []int{4, 6} {
			b.Run(fmt.Sprintf("scan%dx16f/d=%d", w, d), func(b *testing.B) {
				_, rb := scanBlocks(d, 60, 1)
				ix, err := NewFlat(randomData(1, rb, d, false, 1, 0), d)
				if err != nil {
					b.Fatal(err)
				}
				ix.buildPanels32()
				np := len(ix.pnorms32) / 16
				const nq = 60
				q := randomData(2, nq, d, false, 1, 0)
				q32 := make([]float32, len(q))
				q32m2 := make([]float32, len(q)) // -2q for scan6x16f
				for i, v := range q {
					q32[i] = float32(v)
					q32m2[i] = -2 * q32[i]
				}
				var thr [4]float32
				for a := range thr {
					thr[a] = float32(math.Inf(-1))
				}
				var out [96]float32
				var thr6 [6]float32
				for a := range thr6 {
					thr6[a] = float32(math.Inf(-1))
				}
				c0 := cputime.Seconds()
				for b.Loop() {
					if w == 6 {
						for i := 0; i+6 <= nq; i += 6 {
							scan6x16f(&q32m2[i*d], d, &ix.panels32[0], &ix.pnorms32[0], np, &thr6, &out)
						}
						continue
					}
					for i := 0; i+4 <= nq; i += 4 {
						scan4x16f(&q32[i*d], d, &ix.panels32[0], &ix.pnorms32[0], np, &thr, (*[64]float32)(out[:64]))
					}
				}
				flops := float64(nq) * float64(np*16) * float64(d) * 2
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				if cpu := cputime.Seconds() - c0; cpu > 0 {
					b.ReportMetric(flops*float64(b.N)/cpu/1e9, "GFLOP/cpu-s")
				}
			})
		}
	}
}

// BenchmarkScan16 times a search of 600 queries for their 16 nearest
// among 1,000,000 reference rows of 20 columns (the shape of the Tomek
// links' shared first search on 1M rows; the float32 panels, 80 MB, do
// not fit in L3), by the scan with one worker; GFLOP/s
// counts 2 flops per query, reference row and column.
func BenchmarkScan16(b *testing.B) {
	const nq, d = 600, 20
	n := 1_000_000
	x := randomData(5, n, d, false, 1, 0)
	ix, err := NewFlat(x, d)
	if err != nil {
		b.Fatal(err)
	}
	q := randomData(6, nq, d, false, 1, 0)
	opt := &Options{Workers: 1, Exhaustive: true}
	if _, err := ix.SearchFlat(q, 16, nil, opt); err != nil { // panels
		b.Fatal(err)
	}
	c0 := cputime.Seconds()
	for b.Loop() {
		if _, err := ix.SearchFlat(q, 16, nil, opt); err != nil {
			b.Fatal(err)
		}
	}
	flops := float64(nq) * float64(n) * d * 2
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	if cpu := cputime.Seconds() - c0; cpu > 0 {
		b.ReportMetric(flops*float64(b.N)/cpu/1e9, "GFLOP/cpu-s")
	}
}

// BenchmarkKernel16 is BenchmarkKernel32 for the int16 kernel scan6x16i
// (limits no score passes); GFLOP/s counts the float32 kernel's flops
// for the same work, 2 per query, reference row and column.
func BenchmarkKernel16(b *testing.B) {
	if !useAVX2 {
		b.Skip("no AVX2")
	}
	for _, d := range []int{8, 20, 40} {
		b.Run(fmt.Sprintf("scan6x16i/d=%d", d), func(b *testing.B) {
			_, rb := scanBlocks(d, 60, 1)
			ix, err := NewFlat(randomData(1, rb, d, false, 1, 0), d)
			if err != nil {
				b.Fatal(err)
			}
			ix.buildPanels16()
			np, dp := len(ix.pnorms16)/16, ix.q16.dp
			const nq = 60
			q16 := make([]int16, nq*2*dp)
			for i := range nq {
				if _, ok := ix.q16.quantize(ix.data[i*d:(i+1)*d], -2, q16[i*2*dp:(i+1)*2*dp]); !ok {
					b.Fatal("a reference row does not quantize")
				}
			}
			var lim [6]int32
			for a := range lim {
				lim[a] = math.MinInt32
			}
			var out [96]int32
			var mask [6]uint16
			c0 := cputime.Seconds()
			for b.Loop() {
				for i := 0; i+6 <= nq; i += 6 {
					scan6x16i(&q16[i*2*dp], dp, &ix.panels16[0], &ix.pnorms16[0], np, &lim, &out, &mask)
				}
			}
			flops := float64(nq) * float64(np*16) * float64(d) * 2
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			if cpu := cputime.Seconds() - c0; cpu > 0 {
				b.ReportMetric(flops*float64(b.N)/cpu/1e9, "GFLOP/cpu-s")
			}
		})
	}
}

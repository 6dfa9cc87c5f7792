package boost

import ("testing";"fmt";"unsafe")

func BenchmarkAccumulatePad(b *testing.B) {
	for _, pad := range []int{0, 8, 16, 40, 136} {
	for _, stride := range []int{1, 8} {
	b.Run(fmt.Sprintf("pad%d-stride%d", pad, stride), func(b *testing.B) {
	nf := 20
	x, y := synthData(1_000_000, nf, 1)
	set, _ := (&Settings{Threads: 1}).resolved()
	m := newMatrix(x, nil, 256, 1)
	g := newGrower(m, &set)
	rows := make([]int32, 0, m.n)
	for i := range g.idx {
		g.gp[i] = gpair{float32(y[i]) - 0.5, 0.25}
		if stride == 1 || (uint32(i)*2654435761)>>29 == 0 {
		rows = append(rows, int32(i)) }
	}
	off2 := make([]int32, nf)
	for f := range off2 { off2[f] = int32(f*(512+pad)) }
	h := make([]float64, nf*(512+pad))
	b.ResetTimer()
	for range b.N {
	accumulateKernel(unsafe.SliceData(h), unsafe.SliceData(g.m.bins), g.m.nf,
		unsafe.SliceData(off2), unsafe.SliceData(g.gp), nil, unsafe.SliceData(rows), len(rows))
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(b.N)/float64(len(rows)*nf), "ns/update")
	})
	}
	}
}

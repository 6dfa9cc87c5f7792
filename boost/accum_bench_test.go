package boost

import (
	"testing"
	"unsafe"
)

func BenchmarkAccumulate(b *testing.B) {
	x, y := synthData(100_000, 20, 1)
	set, _ := (&Settings{Threads: 1}).resolved()
	m := newMatrix(x, nil, 256, 1)
	g := newGrower(m, &set)
	for i := range g.idx {
		g.idx[i] = int32(i)
		g.gp[i] = gpair{float32(y[i]) - 0.5, 0.25}
	}
	h := g.getHist()
	b.ResetTimer()
	for range b.N {
		g.accumulate(h, g.idx)
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(b.N)/2e6, "ns/update")
}

func (g *grower) accumulate2(hist []float64, rows []int32) {
	nf := g.m.nf
	bins := g.m.bins
	gp := g.gp
	off := g.m.off[:nf]
	_ = hist[2*g.m.histLen-1]
	base := unsafe.Pointer(unsafe.SliceData(hist))
	f4 := nf &^ 3
	for _, r := range rows {
		p := gp[r]
		gr, hs := float64(p.g), float64(p.h)
		row := bins[int(r)*nf : int(r)*nf+nf]
		f := 0
		for ; f < f4; f += 4 {
			o := off[f : f+4 : f+4]
			bb := row[f : f+4 : f+4]
			h0 := (*[2]float64)(unsafe.Add(base, uintptr(int(o[0])+int(bb[0]))*16))
			h1 := (*[2]float64)(unsafe.Add(base, uintptr(int(o[1])+int(bb[1]))*16))
			h2 := (*[2]float64)(unsafe.Add(base, uintptr(int(o[2])+int(bb[2]))*16))
			h3 := (*[2]float64)(unsafe.Add(base, uintptr(int(o[3])+int(bb[3]))*16))
			h0[0] += gr
			h0[1] += hs
			h1[0] += gr
			h1[1] += hs
			h2[0] += gr
			h2[1] += hs
			h3[0] += gr
			h3[1] += hs
		}
		for ; f < nf; f++ {
			h := (*[2]float64)(unsafe.Add(base, uintptr(int(off[f])+int(row[f]))*16))
			h[0] += gr
			h[1] += hs
		}
	}
}

func BenchmarkAccumulate2(b *testing.B) {
	x, y := synthData(100_000, 20, 1)
	set, _ := (&Settings{Threads: 1}).resolved()
	m := newMatrix(x, nil, 256, 1)
	g := newGrower(m, &set)
	for i := range g.idx {
		g.idx[i] = int32(i)
		g.gp[i] = gpair{float32(y[i]) - 0.5, 0.25}
	}
	h := g.getHist()
	b.ResetTimer()
	for range b.N {
		g.accumulate2(h, g.idx)
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(b.N)/2e6, "ns/update")
}

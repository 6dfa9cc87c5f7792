package boost

import "math"

// The prediction layout before rows were widened (missing values tested
// at every split), kept as the reference the current one must match bit
// for bit and as the baseline of BenchmarkPredictLayout.

type refNode struct {
	thr      float64
	left     int32
	feat     uint16
	nanRight uint16 // 1 when a missing value goes right
}

type refForest struct {
	nodes  []refNode
	values []float64 // leaf value per node
	roots  []int32
	depths []int32
}

func refCompile(trees []Tree) refForest {
	var f refForest
	for ti := range trees {
		t := &trees[ti]
		base := int32(len(f.nodes))
		f.roots = append(f.roots, base)
		f.depths = append(f.depths, int32(t.Depth()))
		for i := range t.Feature {
			if t.Left[i] < 0 {
				f.nodes = append(f.nodes, refNode{thr: math.NaN(), left: base + int32(i)})
				f.values = append(f.values, t.Value[i])
				continue
			}
			nd := refNode{thr: t.Threshold[i], left: base + t.Left[i], feat: uint16(t.Feature[i])}
			if !t.DefaultLeft[i] {
				nd.nanRight = 1
			}
			f.nodes = append(f.nodes, nd)
			f.values = append(f.values, 0)
		}
	}
	return f
}

// addMargins adds the leaf values of every tree to out[k] for the rows
// rows[k], tree by tree, so that each tree's nodes stay in cache. Four
// rows are walked together: a walk is a chain of dependent loads, and
// interleaving independent chains keeps the processor busy.
func (f *refForest) addMargins(rows [][]float64, out []float64) {
	nodes, values := f.nodes, f.values
	n4 := len(rows) &^ 3
	for t, root := range f.roots {
		depth := f.depths[t]
		k := 0
		for ; k < n4; k += 4 {
			r0, r1, r2, r3 := rows[k], rows[k+1], rows[k+2], rows[k+3]
			i0, i1, i2, i3 := root, root, root, root
			for d := int32(0); d < depth; d++ {
				n0, n1, n2, n3 := &nodes[i0], &nodes[i1], &nodes[i2], &nodes[i3]
				v0, v1, v2, v3 := r0[n0.feat], r1[n1.feat], r2[n2.feat], r3[n3.feat]
				i0 = n0.left + (b2i(v0 >= n0.thr) | (b2i(v0 != v0) & int32(n0.nanRight)))
				i1 = n1.left + (b2i(v1 >= n1.thr) | (b2i(v1 != v1) & int32(n1.nanRight)))
				i2 = n2.left + (b2i(v2 >= n2.thr) | (b2i(v2 != v2) & int32(n2.nanRight)))
				i3 = n3.left + (b2i(v3 >= n3.thr) | (b2i(v3 != v3) & int32(n3.nanRight)))
			}
			out[k] += values[i0]
			out[k+1] += values[i1]
			out[k+2] += values[i2]
			out[k+3] += values[i3]
		}
		for ; k < len(rows); k++ {
			row := rows[k]
			i := root
			for d := int32(0); d < depth; d++ {
				nd := &nodes[i]
				v := row[nd.feat]
				i = nd.left + (b2i(v >= nd.thr) | (b2i(v != v) & int32(nd.nanRight)))
			}
			out[k] += values[i]
		}
	}
}

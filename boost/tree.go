package boost

import "math"

// Tree is one regression tree in flat arrays indexed by node id; node 0 is
// the root and the children of a split node are always allocated together,
// so Right[i] == Left[i]+1.
type Tree struct {
	// Feature is the feature a node splits on, -1 for a leaf.
	Feature []int32 `json:"feature"`
	// Threshold: a row goes left when its value is below it.
	Threshold []float64 `json:"threshold"`
	// DefaultLeft tells where a missing value goes.
	DefaultLeft []bool `json:"default_left"`
	// Left is the left child of a split node, -1 for a leaf.
	Left []int32 `json:"left"`
	// Value is the leaf value (learning rate applied) added to the margin;
	// for a split node, the value the node would have as a leaf.
	Value []float64 `json:"value"`
	// Gain is the loss reduction of a node's split, 0 for a leaf.
	Gain []float64 `json:"gain"`
	// Cover is the hessian sum of the training rows reaching the node.
	Cover []float64 `json:"cover"`
}

// NumNodes returns the number of nodes.
func (t *Tree) NumNodes() int { return len(t.Feature) }

// NumLeaves returns the number of leaves.
func (t *Tree) NumLeaves() int {
	n := 0
	for _, f := range t.Feature {
		if f < 0 {
			n++
		}
	}
	return n
}

// Depth returns the length of the longest root-to-leaf path.
func (t *Tree) Depth() int {
	var depth func(i int32) int
	depth = func(i int32) int {
		if t.Left[i] < 0 {
			return 0
		}
		return 1 + max(depth(t.Left[i]), depth(t.Left[i]+1))
	}
	if len(t.Left) == 0 {
		return 0
	}
	return depth(0)
}

func (t *Tree) addNode(value, cover float64) int32 {
	t.Feature = append(t.Feature, -1)
	t.Threshold = append(t.Threshold, 0)
	t.DefaultLeft = append(t.DefaultLeft, false)
	t.Left = append(t.Left, -1)
	t.Value = append(t.Value, value)
	t.Gain = append(t.Gain, 0)
	t.Cover = append(t.Cover, cover)
	return int32(len(t.Feature) - 1)
}

// Leaf returns the leaf a row reaches.
func (t *Tree) Leaf(row []float64) int {
	i := int32(0)
	for t.Left[i] >= 0 {
		v := row[t.Feature[i]]
		switch {
		case v < t.Threshold[i]:
			i = t.Left[i]
		case v >= t.Threshold[i]:
			i = t.Left[i] + 1
		case t.DefaultLeft[i]:
			i = t.Left[i]
		default:
			i = t.Left[i] + 1
		}
	}
	return int(i)
}

// flatNode is a node of the prediction layout: all trees in one array,
// 16 bytes a node. Prediction walks each tree for a fixed number of steps
// (its depth) without data-dependent branches: the step to the right
// child is computed as 0 or 1, and a leaf loops to itself (its threshold
// is NaN, so no value moves on).
type flatNode struct {
	thr      float64
	left     int32
	feat     uint16
	nanRight uint16 // 1 when a missing value goes right
}

type forest struct {
	nodes  []flatNode
	values []float64 // leaf value per node
	roots  []int32
	depths []int32
}

// maxFlatFeatures bounds the feature index a flatNode can hold; models
// with more features predict through the Tree walk instead.
const maxFlatFeatures = math.MaxUint16

func compile(trees []Tree) forest {
	var f forest
	for ti := range trees {
		t := &trees[ti]
		base := int32(len(f.nodes))
		f.roots = append(f.roots, base)
		f.depths = append(f.depths, int32(t.Depth()))
		for i := range t.Feature {
			if t.Left[i] < 0 {
				f.nodes = append(f.nodes, flatNode{thr: math.NaN(), left: base + int32(i)})
				f.values = append(f.values, t.Value[i])
				continue
			}
			nd := flatNode{thr: t.Threshold[i], left: base + t.Left[i], feat: uint16(t.Feature[i])}
			if !t.DefaultLeft[i] {
				nd.nanRight = 1
			}
			f.nodes = append(f.nodes, nd)
			f.values = append(f.values, 0)
		}
	}
	return f
}

// b2i is compiled to a flag-setting instruction, not a branch.
func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// addMargins adds the leaf values of every tree to out[k] for the rows
// rows[k], tree by tree, so that each tree's nodes stay in cache. Four
// rows are walked together: a walk is a chain of dependent loads, and
// interleaving independent chains keeps the processor busy.
func (f *forest) addMargins(rows [][]float64, out []float64) {
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

func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

func logit(p float64) float64 { return math.Log(p / (1 - p)) }

package boost

import (
	"math"

	"github.com/aer-go/aer/internal/catsplit"
)

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
	// Categories is nil but in trees imported from XGBoost with
	// categorical splits; then it has one entry per node: for a
	// categorical split, the category codes (ascending) whose rows go
	// right (the feature's value, rounded to float32 and truncated to an
	// integer, in the set: catsplit.Right), every other present value
	// going left and Threshold unused; nil for numeric splits and leaves.
	// Trees with categorical splits are walked node by node rather than
	// by the flat layout.
	Categories [][]int32 `json:"categories,omitempty"`
	// CategoryRule is the rule by which Categories turns a value into a
	// category code: catsplit.XGBoost (empty) or, in trees imported from
	// LightGBM, catsplit.LightGBM (the value truncated to an int).
	CategoryRule catsplit.Rule `json:"category_rule,omitempty"`
	// ZeroMissing is nil but in trees imported from LightGBM with a split
	// that treats zero as missing where its threshold alone would send
	// zero elsewhere; then it has one entry per node, true at such a
	// split: a value within catsplit.ZeroThreshold of 0 goes where a
	// missing one goes (DefaultLeft). Such trees are walked node by node.
	ZeroMissing []bool `json:"zero_missing,omitempty"`
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
		if t.ZeroMissing != nil {
			v = catsplit.AsMissing(v, t.ZeroMissing[i])
		}
		switch {
		case t.Categories != nil && t.Categories[i] != nil && v == v:
			i = t.Left[i] + b2i(t.CategoryRule.Right(t.Categories[i], v))
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
// child is 0 or 1, and a leaf loops to itself (its threshold is NaN, so
// no value moves on).
//
// Missing values need no test of their own: prediction reads a row
// widened to 2*nf values (widen), where cell f holds the value with NaN
// replaced by +Inf and cell nf+f with NaN replaced by -Inf. A split
// whose missing values go right reads cell f, one whose missing values go
// left cell nf+f, and both go right exactly when the value is >= the
// threshold: a present value is compared as it is, +Inf >= t for every
// threshold t that is not NaN, and -Inf >= t for none above -Inf.
// compile checks those two conditions and otherwise leaves the forest
// unusable (ok false), so that the model walks its Trees instead.
type flatNode struct {
	thr  float64
	left int32 // index of the left child (the right is left+1); a leaf: its own
	feat int32 // cell of the widened row: f, or nf+f when missing goes left
}

type forest struct {
	nf     int // features; a widened row has 2*nf cells
	nodes  []flatNode
	values []float64 // leaf value per node
	roots  []int32
	depths []int32
	ok     bool

	// group and groupRoots are the nodes and roots of walkGroup (byte
	// offsets for left and root, 64*cell for feat), empty without it.
	group      []flatNode
	groupRoots []int32
}

func compile(trees []Tree, nf int) forest {
	f := forest{nf: nf, ok: true}
	for ti := range trees {
		t := &trees[ti]
		if t.Categories != nil || t.ZeroMissing != nil {
			// Categorical splits have no threshold, and zero-as-missing
			// ones more than one: walk the Trees.
			f.ok = false
		}
		base := int32(len(f.nodes))
		f.roots = append(f.roots, base)
		f.depths = append(f.depths, int32(t.Depth()))
		for i := range t.Feature {
			if t.Left[i] < 0 {
				f.nodes = append(f.nodes, flatNode{thr: math.NaN(), left: base + int32(i)})
				f.values = append(f.values, t.Value[i])
				continue
			}
			thr := t.Threshold[i]
			nd := flatNode{thr: thr, left: base + t.Left[i], feat: t.Feature[i]}
			if t.DefaultLeft[i] {
				nd.feat += int32(nf)
				if math.IsInf(thr, -1) {
					f.ok = false
				}
			}
			if math.IsNaN(thr) {
				f.ok = false
			}
			f.nodes = append(f.nodes, nd)
			f.values = append(f.values, 0)
		}
	}
	if haveWalkGroup && f.ok && wellFormed(trees, nf) &&
		len(f.nodes) < math.MaxInt32/16 && nf < math.MaxInt32/128 {
		f.group = make([]flatNode, len(f.nodes))
		for i, nd := range f.nodes {
			f.group[i] = flatNode{thr: nd.thr, left: 16 * nd.left, feat: 64 * nd.feat}
		}
		f.groupRoots = make([]int32, len(f.roots))
		for t, r := range f.roots {
			f.groupRoots[t] = 16 * r
		}
	}
	return f
}

// wellFormed tells whether every split of trees has its children after it
// and inside the tree, and a feature in [0, nf): then a walk of at most
// the tree's depth steps stays inside the tree, as walkGroup, which does
// not check indices, needs. (Models from Train and from a model file are;
// others are walked in Go, with index checks.)
func wellFormed(trees []Tree, nf int) bool {
	for ti := range trees {
		t := &trees[ti]
		n := len(t.Feature)
		if n == 0 || len(t.Left) != n || len(t.Threshold) != n || len(t.DefaultLeft) != n || len(t.Value) != n {
			return false
		}
		for i := range n {
			if t.Left[i] < 0 {
				continue
			}
			if int(t.Left[i]) <= i || int(t.Left[i])+1 >= n || t.Feature[i] < 0 || int(t.Feature[i]) >= nf {
				return false
			}
		}
	}
	return true
}

// groupWiden writes rows as groupWalk reads them: groups of eight rows,
// group g at buf[16*nf*g:], holding cell c (as in widen) of its row k at
// 8*c+k. The cells of the missing rows of a last, partial group are left
// as they are (their walks are thrown away).
func groupWiden(rows [][]float64, nf int, buf []float64) {
	for k, row := range rows {
		g := buf[16*nf*(k>>3) : 16*nf*(k>>3+1)]
		lane := k & 7
		for j, v := range row[:nf] {
			hi, lo := v, v
			if v != v {
				hi, lo = math.Inf(1), math.Inf(-1)
			}
			g[8*j+lane] = hi
			g[8*(nf+j)+lane] = lo
		}
	}
}

// addGroupMargins adds the leaf values of every tree to out[k] for the rows
// of buf, written by groupWiden, with walkGroup.
func (f *forest) addGroupMargins(buf []float64, out []float64) {
	if len(f.roots) == 0 {
		return
	}
	size := 16 * f.nf
	var tmp [8]float64
	for lo := 0; lo < len(out); lo += 8 {
		g := buf[size*(lo>>3) : size*(lo>>3+1)]
		o := tmp[:]
		if lo+8 <= len(out) {
			o = out[lo : lo+8]
		} else {
			copy(tmp[:], out[lo:])
		}
		walkGroup(&f.group[0], &f.values[0], &g[0], &f.groupRoots[0], &f.depths[0], len(f.roots), &o[0])
		if lo+8 > len(out) {
			copy(out[lo:], tmp[:])
		}
	}
}

// widen writes rows into buf (len(rows)*2*nf cells) as forest reads them.
func widen(rows [][]float64, nf int, buf []float64) {
	for k, row := range rows {
		hi := buf[2*k*nf : (2*k+1)*nf]
		lo := buf[(2*k+1)*nf : (2*k+2)*nf]
		for j, v := range row[:nf] {
			if v != v {
				hi[j], lo[j] = math.Inf(1), math.Inf(-1)
			} else {
				hi[j], lo[j] = v, v
			}
		}
	}
}

// b2i is compiled to a flag-setting instruction, not a branch.
func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// addMargins adds the leaf values of every tree to out[k] for the widened
// rows k of buf, tree by tree, so that each tree's nodes stay in cache.
// Eight rows are walked together: a walk is a chain of dependent loads,
// and interleaving independent chains keeps the processor busy (eight
// chains still fit the registers; four left it waiting, 1.3-1.6x slower
// on the 100-tree depth-6 model of BenchmarkPredictLayout).
func (f *forest) addMargins(buf []float64, out []float64) {
	nodes, values := f.nodes, f.values
	stride := 2 * f.nf
	n := len(out)
	n8 := n &^ 7
	for t, root := range f.roots {
		depth := f.depths[t]
		k := 0
		for ; k < n8; k += 8 {
			o := k * stride
			r0 := buf[o : o+stride : o+stride]
			r1 := buf[o+stride : o+2*stride : o+2*stride]
			r2 := buf[o+2*stride : o+3*stride : o+3*stride]
			r3 := buf[o+3*stride : o+4*stride : o+4*stride]
			o += 4 * stride
			r4 := buf[o : o+stride : o+stride]
			r5 := buf[o+stride : o+2*stride : o+2*stride]
			r6 := buf[o+2*stride : o+3*stride : o+3*stride]
			r7 := buf[o+3*stride : o+4*stride : o+4*stride]
			i0, i1, i2, i3 := root, root, root, root
			i4, i5, i6, i7 := root, root, root, root
			for d := int32(0); d < depth; d++ {
				n0, n1, n2, n3 := &nodes[i0], &nodes[i1], &nodes[i2], &nodes[i3]
				i0 = n0.left + b2i(r0[n0.feat] >= n0.thr)
				i1 = n1.left + b2i(r1[n1.feat] >= n1.thr)
				i2 = n2.left + b2i(r2[n2.feat] >= n2.thr)
				i3 = n3.left + b2i(r3[n3.feat] >= n3.thr)
				n4, n5, n6, n7 := &nodes[i4], &nodes[i5], &nodes[i6], &nodes[i7]
				i4 = n4.left + b2i(r4[n4.feat] >= n4.thr)
				i5 = n5.left + b2i(r5[n5.feat] >= n5.thr)
				i6 = n6.left + b2i(r6[n6.feat] >= n6.thr)
				i7 = n7.left + b2i(r7[n7.feat] >= n7.thr)
			}
			out[k] += values[i0]
			out[k+1] += values[i1]
			out[k+2] += values[i2]
			out[k+3] += values[i3]
			out[k+4] += values[i4]
			out[k+5] += values[i5]
			out[k+6] += values[i6]
			out[k+7] += values[i7]
		}
		for ; k < n; k++ {
			o := k * stride
			row := buf[o : o+stride : o+stride]
			i := root
			for d := int32(0); d < depth; d++ {
				nd := &nodes[i]
				i = nd.left + b2i(row[nd.feat] >= nd.thr)
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

// walk returns the leaf a row reaches under the rule of prediction: right
// when the value is >= the threshold (at a categorical split: when its
// code is in the split's set), or when it is missing (or zero, at a
// ZeroMissing split) and the split sends missing values right. It is Leaf but for NaN thresholds (which
// neither training nor a model file produces), where it sends present
// values left as the flat layout does.
func (t *Tree) walk(row []float64) int {
	i := int32(0)
	for t.Left[i] >= 0 {
		v := row[t.Feature[i]]
		if t.ZeroMissing != nil {
			v = catsplit.AsMissing(v, t.ZeroMissing[i])
		}
		if t.Categories != nil && t.Categories[i] != nil && v == v {
			i = t.Left[i] + b2i(t.CategoryRule.Right(t.Categories[i], v))
			continue
		}
		if v >= t.Threshold[i] || (v != v && !t.DefaultLeft[i]) {
			i = t.Left[i] + 1
		} else {
			i = t.Left[i]
		}
	}
	return int(i)
}

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
// 16 bytes a node. A leaf has left < 0 and its value in thr; a split
// whose missing values go left stores ^feature in feat.
type flatNode struct {
	thr  float64
	feat int32
	left int32
}

type forest struct {
	nodes []flatNode
	roots []int32
}

func compile(trees []Tree) forest {
	var f forest
	for ti := range trees {
		t := &trees[ti]
		base := int32(len(f.nodes))
		f.roots = append(f.roots, base)
		for i := range t.Feature {
			if t.Left[i] < 0 {
				f.nodes = append(f.nodes, flatNode{thr: t.Value[i], feat: 0, left: -1})
				continue
			}
			feat := t.Feature[i]
			if t.DefaultLeft[i] {
				feat = ^feat
			}
			f.nodes = append(f.nodes, flatNode{thr: t.Threshold[i], feat: feat, left: base + t.Left[i]})
		}
	}
	return f
}

// margin returns the sum of the leaf values of trees [0, ntrees) for row.
func (f *forest) margin(row []float64, ntrees int) float64 {
	s := 0.0
	nodes := f.nodes
	for _, r := range f.roots[:ntrees] {
		i := r
		for {
			nd := &nodes[i]
			if nd.left < 0 {
				s += nd.thr
				break
			}
			feat := nd.feat
			dl := feat < 0
			if dl {
				feat = ^feat
			}
			v := row[feat]
			if v < nd.thr {
				i = nd.left
			} else if v >= nd.thr || !dl {
				i = nd.left + 1
			} else {
				i = nd.left
			}
		}
	}
	return s
}

func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

func logit(p float64) float64 { return math.Log(p / (1 - p)) }

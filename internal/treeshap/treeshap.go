package treeshap

import (
	"fmt"

	"github.com/aer-go/aer/internal/catsplit"
)

// Tree is a binary tree prepared for TreeSHAP. A row goes left at a split
// node when its value is below the threshold (at or below it with
// LessEqual), right when above, and to the default child when it is
// missing (NaN), exactly as the model's prediction does. At a categorical
// split (Nodes.Categories) a present value goes right when its category
// code is in the split's set (package catsplit); at a zero-as-missing
// split (Nodes.ZeroMissing) a zero value goes where a missing one does.
type Tree struct {
	feature     []int32
	left, right []int32
	threshold   []float64
	defaultLeft []bool
	lessEqual   bool
	categories  [][]int32 // nil, or one entry per node: nil unless a categorical split
	catRule     catsplit.Rule
	zeroMissing []bool // nil, or one entry per node: zero is missing there
	// zero[i] is the share of node i's parent's cover that reached i.
	zero []float64
	// value is the leaf value; mean is the cover-weighted mean leaf value
	// below a node, mean[0] the tree's expected output.
	value, mean []float64
	depth       int
}

// Nodes are the arrays of a tree: node 0 is the root, a child's id is
// larger than its parent's, Feature is -1 at a leaf; Cover is the training
// weight (hessian sum for boosted trees) that reached each node, Value the
// output of each leaf.
type Nodes struct {
	Feature     []int32
	Left, Right []int32
	Threshold   []float64
	DefaultLeft []bool
	Cover       []float64
	Value       []float64
	// LessEqual: a row goes left when value <= threshold (scikit-learn)
	// instead of value < threshold (XGBoost).
	LessEqual bool
	// Categories, when not nil, has one entry per node: the category codes
	// a categorical split sends right (catsplit.Right), nil at numeric
	// splits and leaves (XGBoost's partition splits, imported).
	Categories [][]int32
	// CategoryRule is the rule of Categories (catsplit.XGBoost, the
	// zero value, or catsplit.LightGBM).
	CategoryRule catsplit.Rule
	// ZeroMissing, when not nil, has one entry per node: true where a
	// zero value (catsplit.IsZero) goes where a missing one goes
	// (LightGBM's missing type Zero, imported).
	ZeroMissing []bool
}

// New checks n and prepares its tree. A split node whose cover is not
// positive sends half of its weight to each child.
func New(n Nodes) (*Tree, error) {
	k := len(n.Feature)
	if k == 0 || len(n.Left) != k || len(n.Right) != k || len(n.Threshold) != k ||
		len(n.DefaultLeft) != k || len(n.Cover) != k || len(n.Value) != k {
		return nil, fmt.Errorf("treeshap: node arrays are empty or of different lengths")
	}
	if n.Categories != nil && len(n.Categories) != k {
		return nil, fmt.Errorf("treeshap: %d category sets for %d nodes", len(n.Categories), k)
	}
	if n.ZeroMissing != nil && len(n.ZeroMissing) != k {
		return nil, fmt.Errorf("treeshap: %d zero-as-missing flags for %d nodes", len(n.ZeroMissing), k)
	}
	t := &Tree{feature: n.Feature, left: n.Left, right: n.Right, threshold: n.Threshold,
		defaultLeft: n.DefaultLeft, lessEqual: n.LessEqual, categories: n.Categories,
		catRule: n.CategoryRule, zeroMissing: n.ZeroMissing,
		zero: make([]float64, k), value: n.Value, mean: make([]float64, k)}
	depth := make([]int, k)
	t.zero[0] = 1
	for i := range k {
		if n.Feature[i] < 0 {
			t.depth = max(t.depth, depth[i])
			continue
		}
		l, r := n.Left[i], n.Right[i]
		if int(l) <= i || int(r) <= i || int(l) >= k || int(r) >= k {
			return nil, fmt.Errorf("treeshap: node %d has children %d, %d", i, l, r)
		}
		depth[l], depth[r] = depth[i]+1, depth[i]+1
		if depth[l] > maxDepth {
			return nil, fmt.Errorf("treeshap: the tree is deeper than %d", maxDepth)
		}
		if c := n.Cover[i]; c > 0 {
			t.zero[l], t.zero[r] = n.Cover[l]/c, n.Cover[r]/c
		} else {
			t.zero[l], t.zero[r] = 0.5, 0.5
		}
	}
	// Children come after their parents: one backward pass fills the means
	// with the fractions the recursion uses, so that the values sum
	// exactly to the output minus mean[0].
	for i := k - 1; i >= 0; i-- {
		if n.Feature[i] < 0 {
			t.mean[i] = n.Value[i]
			continue
		}
		l, r := n.Left[i], n.Right[i]
		t.mean[i] = t.zero[l]*t.mean[l] + t.zero[r]*t.mean[r]
	}
	return t, nil
}

// Expected returns the tree's expected output: the cover-weighted mean of
// its leaves, the base value its SHAP values start from.
func (t *Tree) Expected() float64 { return t.mean[0] }

// Depth returns the length of the tree's longest root-to-leaf path.
func (t *Tree) Depth() int { return t.depth }

// hot returns the child a row goes to at split node i.
func (t *Tree) hot(i int32, row []float64) (hot, cold int32) {
	v, th := row[t.feature[i]], t.threshold[i]
	if t.zeroMissing != nil {
		v = catsplit.AsMissing(v, t.zeroMissing[i])
	}
	var left bool
	switch {
	case t.categories != nil && t.categories[i] != nil && v == v:
		left = !t.catRule.Right(t.categories[i], v)
	case v < th:
		left = true
	case v == th:
		left = t.lessEqual
	case v > th:
		left = false
	default:
		left = t.defaultLeft[i]
	}
	if left {
		return t.left[i], t.right[i]
	}
	return t.right[i], t.left[i]
}

// pathElem is one feature of the unique path: the share of the cover that
// follows it when the feature is unknown (zero) and whether the row
// follows it (one), with the permutation weight of the path's subsets.
type pathElem struct {
	feature   int32
	zero, one float64
	pweight   float64
}

// Workspace holds the path buffers of one goroutine. The zero value is
// ready to use; it grows to the deepest tree it meets.
type Workspace struct {
	path []pathElem
}

func (w *Workspace) grow(depth int) []pathElem {
	d := depth + 2
	if need := d * (d + 1) / 2; len(w.path) < need {
		w.path = make([]pathElem, need)
	}
	return w.path
}

// Add adds scale times the tree's SHAP values of row (one per feature) to
// phi. The values sum to scale (output(row) - Expected()). phi must have
// an entry for every feature the tree splits on.
func (t *Tree) Add(phi, row []float64, scale float64, w *Workspace) {
	path := w.grow(t.depth)
	t.recurse(phi, row, scale, path, 0, 0, 1, 1, -1)
}

// recurse is Algorithm 2 of Lundberg et al.: path holds the unique path
// of depth unique (its first unique+1 elements) and the space below it for
// the children's copies.
func (t *Tree) recurse(phi, row []float64, scale float64, parent []pathElem, node int32, unique int, pzero, pone float64, pfeat int32) {
	path := parent[unique+1:]
	copy(path, parent[:unique+1])
	extend(path, unique, pzero, pone, pfeat)
	if t.feature[node] < 0 {
		v := t.value[node] * scale
		for i := 1; i <= unique; i++ {
			e := &path[i]
			phi[e.feature] += unwoundSum(path, unique, i) * (e.one - e.zero) * v
		}
		return
	}
	hot, cold := t.hot(node, row)
	f := t.feature[node]
	izero, ione := 1.0, 1.0
	k := 0
	for ; k <= unique; k++ {
		if path[k].feature == f {
			break
		}
	}
	if k <= unique {
		izero, ione = path[k].zero, path[k].one
		unwind(path, unique, k)
		unique--
	}
	t.recurse(phi, row, scale, path, hot, unique+1, t.zero[hot]*izero, ione, f)
	t.recurse(phi, row, scale, path, cold, unique+1, t.zero[cold]*izero, 0, f)
}

// inv[k] is 1/k: the recursion's divisions by small integers become
// multiplications.
var inv = func() (t [maxDepth + 3]float64) {
	for k := 1; k < len(t); k++ {
		t[k] = 1 / float64(k)
	}
	return t
}()

// maxDepth bounds the depth of a tree New accepts.
const maxDepth = 512

// extend adds a feature to the unique path, updating the permutation
// weights of the subsets that include it or not.
func extend(path []pathElem, unique int, zero, one float64, feature int32) {
	pw := 0.0
	if unique == 0 {
		pw = 1
	}
	path[unique] = pathElem{feature: feature, zero: zero, one: one, pweight: pw}
	id := inv[unique+1]
	oneD, zeroD := one*id, zero*id
	for i := unique - 1; i >= 0; i-- {
		path[i+1].pweight += oneD * path[i].pweight * float64(i+1)
		path[i].pweight = zeroD * path[i].pweight * float64(unique-i)
	}
}

// unwind removes element k from the unique path, undoing its extend.
func unwind(path []pathElem, unique, k int) {
	one, zero := path[k].one, path[k].zero
	next := path[unique].pweight
	d := float64(unique + 1)
	if one != 0 {
		dOne, zeroD := d/one, zero*inv[unique+1]
		for i := unique - 1; i >= 0; i-- {
			tmp := path[i].pweight
			path[i].pweight = next * dOne * inv[i+1]
			next = tmp - path[i].pweight*zeroD*float64(unique-i)
		}
	} else {
		dZero := d / zero
		for i := unique - 1; i >= 0; i-- {
			path[i].pweight *= dZero * inv[unique-i]
		}
	}
	for i := k; i < unique; i++ {
		path[i].feature, path[i].zero, path[i].one = path[i+1].feature, path[i+1].zero, path[i+1].one
	}
}

// unwoundSum is the total permutation weight of the path with element k
// removed, without changing the path.
func unwoundSum(path []pathElem, unique, k int) float64 {
	one, zero := path[k].one, path[k].zero
	d := float64(unique + 1)
	total := 0.0
	switch {
	case one != 0:
		next := path[unique].pweight
		dOne, zeroD := d/one, zero*inv[unique+1]
		for i := unique - 1; i >= 0; i-- {
			tmp := next * dOne * inv[i+1]
			total += tmp
			next = path[i].pweight - tmp*zeroD*float64(unique-i)
		}
	case zero != 0:
		dZero := d / zero
		for i := unique - 1; i >= 0; i-- {
			total += path[i].pweight * dZero * inv[unique-i]
		}
	}
	return total
}

// Set is an ensemble's trees prepared for TreeSHAP, with the sum of a base
// value and the trees' expected outputs.
type Set struct {
	Trees []*Tree
	// Base is the base given to Prepare plus each tree's Expected, added
	// in tree order.
	Base float64
	// Err is the error of the first tree that could not be prepared; the
	// trees after it are not.
	Err error
}

// Prepare prepares the n trees tree(0), ..., tree(n-1) in order, adding
// each one's expected output to base. The first tree that fails stops
// it, its error wrapped as "pkg: tree i: ..." in Set.Err.
func Prepare(pkg string, n int, base float64, tree func(i int) (*Tree, error)) *Set {
	s := &Set{Base: base}
	for i := range n {
		t, err := tree(i)
		if err != nil {
			s.Err = fmt.Errorf("%s: tree %d: %w", pkg, i, err)
			break
		}
		s.Trees = append(s.Trees, t)
		s.Base += t.Expected()
	}
	return s
}

package xgboost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/aer-go/aer/internal/catsplit"
	"github.com/aer-go/aer/internal/quote"
	"github.com/aer-go/aer/interop/internal/treeimport"
)

// Errors returned (wrapped) by Read and Decode.
var (
	// ErrFormat: the file is not a well-formed XGBoost model (malformed
	// JSON or UBJSON, a missing or ill-typed field, a tree whose arrays
	// disagree, a truncated file).
	ErrFormat = errors.New("not a well-formed XGBoost model")
	// ErrUnsupported: a well-formed model that aer cannot score as XGBoost
	// does (another objective, booster or version, several classes or
	// outputs).
	ErrUnsupported = errors.New("unsupported XGBoost model")
)

// MaxBytes bounds the size of a model file Read accepts (1 GiB).
const MaxBytes = treeimport.MaxBytes

// Objectives aer imports: both score the positive class by the margin,
// the sum of the trees' leaves and the base score.
const (
	// Logistic is binary:logistic: Booster.predict gives sigmoid(margin);
	// base_score is a probability.
	Logistic = "binary:logistic"
	// LogitRaw is binary:logitraw: Booster.predict gives the margin;
	// base_score is a margin.
	LogitRaw = "binary:logitraw"
	// SoftProb is multi:softprob: one margin per class, each the sum of
	// its trees' leaves and the base score, Booster.predict gives their
	// softmax.
	SoftProb = "multi:softprob"
	// SoftMax is multi:softmax: the margins of multi:softprob;
	// Booster.predict gives the class of the largest, and
	// XGBClassifier.predict_proba their softmax.
	SoftMax = "multi:softmax"
)

// MaxClasses bounds num_class of the multi-class objectives.
const MaxClasses = 10_000

// maxTreeDepth bounds a tree's depth (TreeSHAP's bound, internal/treeshap).
const maxTreeDepth = 512

// Model is an XGBoost model read from a file that Booster.save_model
// wrote, in JSON or UBJSON.
type Model struct {
	// Version is the XGBoost version that saved the model.
	Version [3]int
	// Format is "json" or "ubjson".
	Format string
	// Objective is Logistic, LogitRaw, SoftProb or SoftMax.
	Objective string
	// Booster is "gbtree" or "dart".
	Booster string
	// BaseScore is learner_model_param.base_score as saved: a probability
	// for binary:logistic, a margin for binary:logitraw and the
	// multi-class objectives (the first class's when ClassBaseScores has
	// several).
	BaseScore float32
	// NumClass is num_class: the number of classes of a multi-class
	// objective, 0 for a binary one.
	NumClass int
	// ClassBaseScores is nil but for a multi-class model whose base_score
	// is a vector of one value per class (XGBoost 3.1 and later): each
	// class's base margin.
	ClassBaseScores []float32
	// Class holds the class (output group, tree_info) of each tree of a
	// multi-class model; nil for a binary one (every tree is class 0's).
	Class []int
	// NumFeature is the number of features the model reads.
	NumFeature int
	// FeatureNames are the model's feature names, nil when it has none.
	FeatureNames []string
	// FeatureTypes are the model's feature types ("float", "int", "i",
	// "q", "c" for categorical), nil when it has none.
	FeatureTypes []string
	// Trees are the trees, in the order their leaves are summed.
	Trees []Tree
}

// Tree is one tree in XGBoost's arrays, indexed by XGBoost's node ids
// (node 0 the root). Nodes that no path from the root reaches (deleted by
// pruning) are kept as saved and never read.
type Tree struct {
	// Left and Right are the children of a split node, -1 at a leaf.
	Left, Right []int32
	// Feature is the feature a split node tests.
	Feature []int32
	// Condition is split_conditions: a numeric split sends a row left
	// when its value, as a float32, is below it; at a leaf, the leaf's
	// value (learning rate applied).
	Condition []float32
	// DefaultLeft says where a missing value goes.
	DefaultLeft []bool
	// Categories is nil unless the tree has a categorical split; then
	// it has one entry per node: the ascending category codes a
	// categorical split sends right, nil at numeric splits and leaves.
	Categories [][]int32
	// Cover is sum_hessian, the hessian sum of the training rows that
	// reached each node (TreeSHAP's background).
	Cover []float32
	// Gain is loss_changes, the loss reduction of each split.
	Gain []float32
	// Weight scales the tree's leaves: dart's weight_drop, 1 for gbtree.
	Weight float32
}

// Read reads a model file from r: JSON or UBJSON, told apart by their
// first bytes. It reads at most MaxBytes, and stops after the first few
// KB of a file that does not start as a model does (with an object's
// '{'), and at the first NUL byte of a JSON file.
func Read(r io.Reader) (*Model, error) {
	return ReadContext(context.Background(), r)
}

// ReadContext is Read, stopping with ctx's error once ctx is done: r's
// reads (if r checks ctx: ctxio.Reader) and the decoding, between trees.
func ReadContext(ctx context.Context, r io.Reader) (*Model, error) {
	data, err := treeimport.ReadAll(r, sniff, ErrFormat, ErrUnsupported)
	if err != nil {
		return nil, err
	}
	return DecodeContext(ctx, data)
}

// sniff tells whether a file starting with prefix can be a model, and
// whether it is JSON (text): after white space (JSON) or no-op markers
// (UBJSON), its first byte is an object's '{'.
func sniff(prefix []byte, eof bool) (bool, error) {
	i := 0
	for i < len(prefix) && (prefix[i] == ' ' || prefix[i] == '\t' || prefix[i] == '\n' || prefix[i] == '\r' || prefix[i] == 'N') {
		i++
	}
	switch {
	case i == len(prefix) && eof:
		return true, nil // Decode says what is wrong with it
	case i == len(prefix):
		return false, fmt.Errorf("%w: the first %d bytes are white space; an XGBoost model (JSON or UBJSON) starts with '{'", ErrFormat, len(prefix))
	case prefix[i] != '{':
		return false, fmt.Errorf("%w: byte %d is %q; an XGBoost model (JSON or UBJSON) starts with '{'", ErrFormat, i+1, rune(prefix[i]))
	}
	return IsJSON(prefix), nil
}

// IsJSON tells whether data looks like a JSON document rather than
// UBJSON: after white space, an object's '{' and then white space, a
// key's '"' or the closing '}' (UBJSON follows '{' with a key's length
// marker or a '$' or '#').
func IsJSON(data []byte) bool {
	i := 0
	space := func() {
		for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
			i++
		}
	}
	space()
	if i >= len(data) || data[i] != '{' {
		return i < len(data) && data[i] != '{' && data[i] != '[' // neither: let JSON name the error
	}
	i++
	if i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r' || data[i] == '"' || data[i] == '}') {
		return true
	}
	return false
}

// Decode decodes a model from the bytes of a JSON or UBJSON file.
func Decode(data []byte) (*Model, error) {
	return DecodeContext(context.Background(), data)
}

// DecodeContext is Decode, stopping with ctx's error once ctx is done
// (it checks between trees).
func DecodeContext(ctx context.Context, data []byte) (*Model, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: the file is empty", ErrFormat)
	}
	var doc any
	var err error
	format := "ubjson"
	if IsJSON(data) {
		format = "json"
		doc, err = decodeJSON(data)
	} else {
		doc, err = decodeUBJSON(data)
	}
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m, err := fromDocument(ctx, field{v: doc, ok: true})
	if err != nil {
		return nil, err
	}
	m.Format = format
	return m, nil
}

// fromDocument reads a model from a decoded document.
func fromDocument(ctx context.Context, root field) (*Model, error) {
	if _, ok := root.v.(map[string]any); !ok {
		return nil, fmt.Errorf("%w: the document is %s, not an object", ErrFormat, kind(root.v))
	}
	m := &Model{}
	ver, err := root.need("version")
	if err != nil {
		return nil, err
	}
	v, err := ver.ints(0, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	if len(v) != 3 {
		return nil, ver.errorf("want [major, minor, patch], found %d numbers", len(v))
	}
	m.Version = [3]int{int(v[0]), int(v[1]), int(v[2])}
	if m.Version[0] < 1 || m.Version[0] > 3 {
		return nil, fmt.Errorf("%w: saved by XGBoost %d.%d.%d; aer reads models of XGBoost 1.x to 3.x", ErrUnsupported, m.Version[0], m.Version[1], m.Version[2])
	}
	learner, err := root.need("learner")
	if err != nil {
		return nil, err
	}
	if err := m.readLearner(ctx, learner); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *Model) readLearner(ctx context.Context, learner field) error {
	obj, err := learner.need("objective")
	if err != nil {
		return err
	}
	name, err := obj.need("name")
	if err != nil {
		return err
	}
	if m.Objective, err = name.str(); err != nil {
		return err
	}
	multi := m.Objective == SoftProb || m.Objective == SoftMax
	if m.Objective != Logistic && m.Objective != LogitRaw && !multi {
		return fmt.Errorf("%w: objective %s (%s); aer imports classifiers: %s, %s, %s or %s", ErrUnsupported, quote.Name(m.Objective), name.path, Logistic, LogitRaw, SoftProb, SoftMax)
	}

	param, err := learner.need("learner_model_param")
	if err != nil {
		return err
	}
	nf, err := param.need("num_feature")
	if err != nil {
		return err
	}
	n, err := nf.int(1, math.MaxInt32)
	if err != nil {
		return err
	}
	m.NumFeature = int(n)
	for _, k := range []string{"num_class", "num_target"} {
		f, err := param.key(k)
		if err != nil {
			return err
		}
		if !f.ok {
			continue
		}
		c, err := f.int(0, math.MaxInt32)
		if err != nil {
			return err
		}
		if multi && k == "num_class" {
			if c < 2 || c > MaxClasses {
				return f.errorf("%s has %d classes, want 2 to %d", m.Objective, c, MaxClasses)
			}
			m.NumClass = int(c)
			continue
		}
		if c > 1 {
			return fmt.Errorf("%w: %s is %d: a model of several classes or outputs", ErrUnsupported, f.path, c)
		}
	}
	if multi && m.NumClass == 0 {
		return fmt.Errorf("%w: %s.num_class: %s without a number of classes", ErrFormat, param.path, m.Objective)
	}
	bs, err := param.need("base_score")
	if err != nil {
		return err
	}
	if multi {
		return m.readMultiBase(ctx, bs, learner)
	}
	if m.BaseScore, err = bs.float32(); err != nil {
		return err
	}
	b := float64(m.BaseScore)
	switch {
	case math.IsNaN(b) || math.IsInf(b, 0):
		return bs.errorf("base score %v", b)
	case m.Objective == Logistic && !(b > 0 && b < 1):
		return bs.errorf("base score %v of %s is not a probability in (0, 1)", b, Logistic)
	}
	if bm := m.BaseMargin(); math.IsInf(bm, 0) {
		return bs.errorf("base score %v is too close to 0 or 1: its margin is %v", b, bm)
	}
	return m.readBooster(ctx, learner)
}

// readMultiBase reads a multi-class model's base_score, one margin for
// every class or (XGBoost 3.1 and later) one per class, then the rest.
func (m *Model) readMultiBase(ctx context.Context, bs, learner field) error {
	v, err := bs.float32s()
	if err != nil {
		return err
	}
	switch len(v) {
	case 1:
	case m.NumClass:
		m.ClassBaseScores = v
	default:
		return bs.errorf("%d base scores for %d classes", len(v), m.NumClass)
	}
	for _, b := range v {
		if math.IsNaN(float64(b)) || math.IsInf(float64(b), 0) {
			return bs.errorf("base score %v", b)
		}
	}
	m.BaseScore = v[0]
	return m.readBooster(ctx, learner)
}

// readBooster reads the feature names and types and the booster.
func (m *Model) readBooster(ctx context.Context, learner field) error {
	for _, k := range []string{"feature_names", "feature_types"} {
		f, err := learner.key(k)
		if err != nil {
			return err
		}
		if !f.ok {
			continue
		}
		s, err := f.strs()
		if err != nil {
			return err
		}
		if len(s) == 0 {
			continue
		}
		if len(s) != m.NumFeature {
			return f.errorf("%d names for %d features", len(s), m.NumFeature)
		}
		if k == "feature_names" {
			m.FeatureNames = s
		} else {
			m.FeatureTypes = s
		}
	}

	gb, err := learner.need("gradient_booster")
	if err != nil {
		return err
	}
	gname, err := gb.need("name")
	if err != nil {
		return err
	}
	if m.Booster, err = gname.str(); err != nil {
		return err
	}
	var model field
	var weights []float64
	switch m.Booster {
	case "gbtree":
		if model, err = gb.need("model"); err != nil {
			return err
		}
	case "dart":
		inner, err := gb.need("gbtree")
		if err != nil {
			return err
		}
		if model, err = inner.need("model"); err != nil {
			return err
		}
		wd, err := gb.need("weight_drop")
		if err != nil {
			return err
		}
		if weights, err = wd.nums(); err != nil {
			return err
		}
		for i, w := range weights {
			if math.IsNaN(w) || math.IsInf(w, 0) {
				return fmt.Errorf("%w: %s[%d]: weight %v", ErrFormat, wd.path, i, w)
			}
		}
	default:
		return fmt.Errorf("%w: booster %s (%s); aer imports tree boosters: gbtree or dart", ErrUnsupported, quote.Name(m.Booster), gname.path)
	}
	return m.readTrees(ctx, model, weights)
}

func (m *Model) readTrees(ctx context.Context, model field, weights []float64) error {
	trees, err := model.need("trees")
	if err != nil {
		return err
	}
	nt, err := trees.length()
	if err != nil {
		return err
	}
	if weights != nil && len(weights) != nt {
		return fmt.Errorf("%w: dart has %d weights for %d trees", ErrFormat, len(weights), nt)
	}
	if p, err := model.key("gbtree_model_param"); err != nil {
		return err
	} else if p.ok {
		f, err := p.need("num_trees")
		if err != nil {
			return err
		}
		n, err := f.int(0, math.MaxInt32)
		if err != nil {
			return err
		}
		if int(n) != nt {
			return f.errorf("%d trees, the model holds %d (truncated?)", n, nt)
		}
	}
	info, err := model.key("tree_info")
	if err != nil {
		return err
	}
	if info.ok {
		groups, err := info.ints(math.MinInt32, math.MaxInt32)
		if err != nil {
			return err
		}
		if len(groups) != nt {
			return info.errorf("%d entries for %d trees", len(groups), nt)
		}
		for i, g := range groups {
			switch {
			case m.NumClass > 0 && (g < 0 || g >= int64(m.NumClass)):
				return fmt.Errorf("%w: %s[%d]: tree of class %d; the model has %d", ErrFormat, info.path, i, g, m.NumClass)
			case m.NumClass == 0 && g != 0:
				return fmt.Errorf("%w: %s[%d]: tree of output %d: a model of several classes or outputs", ErrUnsupported, info.path, i, g)
			}
		}
		if m.NumClass > 0 {
			m.Class = make([]int, nt)
			for i, g := range groups {
				m.Class[i] = int(g)
			}
		}
	} else if m.NumClass > 0 {
		return fmt.Errorf("%w: %s: a multi-class model without tree_info (the class of each tree)", ErrFormat, model.path)
	}
	m.Trees = make([]Tree, nt)
	var codes treeimport.Codes
	for i := range nt {
		if err := ctx.Err(); err != nil {
			return err
		}
		m.Trees[i].Weight = 1
		if weights != nil {
			m.Trees[i].Weight = float32(weights[i])
		}
		if err := m.Trees[i].read(trees.at(i), m.NumFeature, &codes); err != nil {
			return err
		}
	}
	return nil
}

// read reads and checks one tree; its categorical splits' codes count in
// codes.
func (t *Tree) read(f field, nf int, codes *treeimport.Codes) error {
	if p, err := f.key("tree_param"); err != nil {
		return err
	} else if p.ok {
		if s, err := p.key("size_leaf_vector"); err != nil {
			return err
		} else if s.ok {
			n, err := s.int(0, math.MaxInt32)
			if err != nil {
				return err
			}
			if n > 1 {
				return fmt.Errorf("%w: %s is %d: leaves of several outputs", ErrUnsupported, s.path, n)
			}
		}
	}
	left, err := intArray(f, "left_children", -1, math.MaxInt32)
	if err != nil {
		return err
	}
	n := len(left)
	if n == 0 {
		return f.errorf("a tree without nodes")
	}
	get := func(k string) ([]float64, error) {
		c, err := f.need(k)
		if err != nil {
			return nil, err
		}
		a, err := c.nums()
		if err != nil {
			return nil, err
		}
		if len(a) != n {
			return nil, c.errorf("%d values for %d nodes", len(a), n)
		}
		return a, nil
	}
	right, err := intArray(f, "right_children", -1, math.MaxInt32)
	if err != nil {
		return err
	}
	feat, err := intArray(f, "split_indices", 0, math.MaxInt32)
	if err != nil {
		return err
	}
	defLeft, err := intArray(f, "default_left", 0, 1)
	if err != nil {
		return err
	}
	cond, err := get("split_conditions")
	if err != nil {
		return err
	}
	cover, err := get("sum_hessian")
	if err != nil {
		return err
	}
	gain, err := get("loss_changes")
	if err != nil {
		return err
	}
	for k, a := range [][]int64{right, feat, defLeft} {
		if len(a) != n {
			name := []string{"right_children", "split_indices", "default_left"}[k]
			return fmt.Errorf("%w: %s.%s: %d values for %d nodes", ErrFormat, f.path, name, len(a), n)
		}
	}
	var splitType []int64
	if st, err := f.key("split_type"); err != nil {
		return err
	} else if st.ok {
		if splitType, err = intArray(f, "split_type", 0, 1); err != nil {
			return err
		}
		if len(splitType) != n {
			return st.errorf("%d values for %d nodes", len(splitType), n)
		}
	}

	t.Left, t.Right, t.Feature = make([]int32, n), make([]int32, n), make([]int32, n)
	t.Condition, t.DefaultLeft = make([]float32, n), make([]bool, n)
	t.Cover, t.Gain = make([]float32, n), make([]float32, n)
	for i := range n {
		t.Left[i], t.Right[i], t.Feature[i] = int32(left[i]), int32(right[i]), int32(feat[i])
		t.Condition[i], t.DefaultLeft[i] = float32(cond[i]), defLeft[i] == 1
		t.Cover[i], t.Gain[i] = float32(cover[i]), float32(gain[i])
	}

	if err := t.readCategories(f, splitType, codes); err != nil {
		return err
	}
	if err := t.check(nf); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrFormat, f.path, err)
	}
	return nil
}

// readCategories reads the category sets of a tree's categorical splits
// (split_type 1). A categorical node without a set gets an empty one,
// which check refuses if a row can reach it.
//
// Several splits may share one segment of categories (XGBoost's never
// do), so the sets' sizes count in codes before any set is allocated.
func (t *Tree) readCategories(f field, splitType []int64, codes *treeimport.Codes) error {
	n := len(t.Left)
	if !slices.Contains(splitType, 1) {
		return nil
	}
	cats, err := intArray(f, "categories", 0, catsplit.MaxCode-1)
	if err != nil {
		return err
	}
	nodes, err := intArray(f, "categories_nodes", 0, int64(n-1))
	if err != nil {
		return err
	}
	segs, err := intArray(f, "categories_segments", 0, int64(len(cats)))
	if err != nil {
		return err
	}
	sizes, err := intArray(f, "categories_sizes", 0, int64(len(cats)))
	if err != nil {
		return err
	}
	if len(segs) != len(nodes) || len(sizes) != len(nodes) {
		return fmt.Errorf("%w: %s: %d categories_nodes, %d categories_segments, %d categories_sizes", ErrFormat, f.path, len(nodes), len(segs), len(sizes))
	}
	t.Categories = make([][]int32, n)
	for k, node := range nodes {
		at := fmt.Sprintf("%s.categories_nodes[%d]", f.path, k)
		if splitType[node] != 1 {
			return fmt.Errorf("%w: %s: node %d is not a categorical split", ErrFormat, at, node)
		}
		if t.Categories[node] != nil {
			return fmt.Errorf("%w: %s: node %d has two category sets", ErrFormat, at, node)
		}
		if segs[k]+sizes[k] > int64(len(cats)) {
			return fmt.Errorf("%w: %s: categories [%d, %d) of %d", ErrFormat, at, segs[k], segs[k]+sizes[k], len(cats))
		}
		if err := codes.Add(int(sizes[k])); err != nil {
			return fmt.Errorf("%w: %s.categories_sizes[%d]: %w", ErrUnsupported, f.path, k, err)
		}
		set := make([]int32, sizes[k])
		for j := range set {
			set[j] = int32(cats[segs[k]+int64(j)])
		}
		slices.Sort(set)
		t.Categories[node] = slices.Compact(set)
	}
	for i, s := range splitType {
		switch {
		case t.Left[i] < 0:
			// A leaf decides nothing, whatever its split type.
			t.Categories[i] = nil
		case s == 1 && t.Categories[i] == nil:
			t.Categories[i] = []int32{}
		}
	}
	return nil
}

// check checks the nodes a walk from the root reaches: each reached once
// (a tree, no cycles), children in range, depth bounded, features below
// nf, finite leaf values, covers and gains, numeric conditions not NaN,
// categorical splits with a set of valid codes. Nodes no walk reaches
// (deleted by pruning) are not read.
func (t *Tree) check(nf int) error {
	n := len(t.Left)
	if n == 0 {
		return fmt.Errorf("no nodes")
	}
	if len(t.Right) != n || len(t.Feature) != n || len(t.Condition) != n || len(t.DefaultLeft) != n ||
		len(t.Cover) != n || len(t.Gain) != n || (t.Categories != nil && len(t.Categories) != n) {
		return fmt.Errorf("node arrays of different lengths")
	}
	depth := make([]int32, n)
	seen := make([]bool, n)
	seen[0] = true
	stack := []int32{0}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		l, r := t.Left[i], t.Right[i]
		if c := float64(t.Cover[i]); !(c >= 0) || math.IsInf(c, 0) {
			return fmt.Errorf("node %d: cover (sum_hessian) %v", i, c)
		}
		if l < 0 || r < 0 {
			if l != -1 || r != -1 {
				return fmt.Errorf("node %d: children %d and %d (a leaf has -1 and -1)", i, l, r)
			}
			if c := float64(t.Condition[i]); math.IsNaN(c) || math.IsInf(c, 0) {
				return fmt.Errorf("node %d: leaf value %v", i, c)
			}
			if t.Categories != nil && t.Categories[i] != nil {
				return fmt.Errorf("node %d: a leaf with categories", i)
			}
			continue
		}
		for _, c := range []int32{l, r} {
			if int(c) >= n {
				return fmt.Errorf("node %d: child %d is not one of the tree's %d nodes", i, c, n)
			}
			if seen[c] {
				return fmt.Errorf("node %d: node %d is reached twice (not a tree)", i, c)
			}
			seen[c] = true
			depth[c] = depth[i] + 1
			if depth[c] > maxTreeDepth {
				return fmt.Errorf("node %d: deeper than %d", c, maxTreeDepth)
			}
			stack = append(stack, c)
		}
		if t.Feature[i] < 0 || int(t.Feature[i]) >= nf {
			return fmt.Errorf("node %d: feature %d; the model has %d", i, t.Feature[i], nf)
		}
		if g := float64(t.Gain[i]); math.IsNaN(g) || math.IsInf(g, 0) {
			return fmt.Errorf("node %d: gain (loss_changes) %v", i, g)
		}
		if t.Categories != nil && t.Categories[i] != nil {
			if err := catsplit.Check(t.Categories[i]); err != nil {
				return fmt.Errorf("node %d: categorical split: %w", i, err)
			}
		} else if c := float64(t.Condition[i]); math.IsNaN(c) {
			return fmt.Errorf("node %d: split condition NaN", i)
		} else if math.IsInf(c, -1) {
			return fmt.Errorf("node %d: split_conditions %v: a numeric split at %v sends every value right", i, c, c)
		}
	}
	if w := float64(t.Weight); math.IsNaN(w) || math.IsInf(w, 0) {
		return fmt.Errorf("weight %v", w)
	}
	return nil
}

// intArray reads the integer array k of f, values in [lo, hi].
func intArray(f field, k string, lo, hi int64) ([]int64, error) {
	c, err := f.need(k)
	if err != nil {
		return nil, err
	}
	return c.ints(lo, hi)
}

// BaseMargin is the margin every row starts from: base_score, turned into
// a margin by the logit for binary:logistic, computed as XGBoost does,
// in float32: -log(1/b - 1). For the multi-class objectives, whose link
// is the identity, it is base_score itself (the first class's when each
// class has its own: ClassBaseMargins).
func (m *Model) BaseMargin() float64 {
	if m.Objective == Logistic {
		return float64(-float32(math.Log(float64(1/m.BaseScore - 1))))
	}
	return float64(m.BaseScore)
}

// Categorical tells whether feature j is categorical (feature type "c").
func (m *Model) Categorical(j int) bool {
	return j < len(m.FeatureTypes) && m.FeatureTypes[j] == "c"
}

// Multi tells whether the model is a multi-class one (SoftProb or
// SoftMax).
func (m *Model) Multi() bool { return m.NumClass > 0 }

// ClassBaseMargins returns the margin each class starts from, for a
// multi-class model: base_score for every class (XGBoost 1.x to 3.0,
// where it cancels in the softmax), or each class's own (3.1 and later,
// which estimate one per class).
func (m *Model) ClassBaseMargins() []float64 {
	out := make([]float64, m.NumClass)
	for c := range out {
		out[c] = float64(m.BaseScore)
		if m.ClassBaseScores != nil {
			out[c] = float64(m.ClassBaseScores[c])
		}
	}
	return out
}

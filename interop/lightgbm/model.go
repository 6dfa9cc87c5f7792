package lightgbm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/aer-go/aer/internal/quote"
	"github.com/aer-go/aer/interop/internal/treeimport"
)

// Errors returned (wrapped) by Read and Decode.
var (
	// ErrFormat: the file is not a well-formed LightGBM text model (a
	// missing or malformed line, arrays that disagree with num_leaves, a
	// tree that is not a tree, a truncated file).
	ErrFormat = errors.New("not a well-formed LightGBM model")
	// ErrUnsupported: a well-formed model that aer cannot score as
	// LightGBM does (another objective, several classes, linear trees,
	// another version).
	ErrUnsupported = errors.New("unsupported LightGBM model")
)

// MaxBytes bounds the size of a model file Read accepts (1 GiB).
const MaxBytes = treeimport.MaxBytes

// maxTreeDepth bounds a tree's depth (TreeSHAP's bound, internal/treeshap).
const maxTreeDepth = 512

// Objectives aer imports (the first word of the objective line).
const (
	// Binary is LightGBM's binary log loss: the probability is
	// 1/(1+exp(-sigmoid*margin)).
	Binary = "binary"
	// CrossEntropy is cross_entropy (alias xentropy): the probability is
	// 1/(1+exp(-margin)).
	CrossEntropy = "cross_entropy"
	// Multiclass is multiclass (softmax): num_class trees per iteration,
	// one per class, the class probabilities the softmax of the classes'
	// raw scores.
	Multiclass = "multiclass"
)

// MaxClasses bounds num_class of the multiclass objective.
const MaxClasses = 10_000

// decision_type's bits (LightGBM's tree.h).
const (
	categoricalMask = 1
	defaultLeftMask = 2
)

// Missing types: bits 2-3 of decision_type.
const (
	// MissingNone: NaN is read as 0.
	MissingNone = 0
	// MissingZero: 0 (within 1e-35f) and NaN go the default way.
	MissingZero = 1
	// MissingNaN: NaN goes the default way.
	MissingNaN = 2
)

// Model is a LightGBM model read from its text format.
type Model struct {
	// Version is the format's version line: "v2", "v3" or "v4".
	Version string
	// Objective is the objective line as written, e.g. "binary
	// sigmoid:1" or "cross_entropy".
	Objective string
	// Sigmoid is the binary objective's sigmoid parameter S (1 for
	// cross_entropy): the probability is 1/(1+exp(-S*margin)); 0 for
	// multiclass.
	Sigmoid float64
	// NumClass is num_class: the number of classes of the multiclass
	// objective (tree i is class i % NumClass's), 1 for a binary one.
	NumClass int
	// Boosting is the parameters section's boosting ("gbdt", "dart",
	// "goss", "rf"), "" when the file has none.
	Boosting string
	// AverageOutput: the margin is the mean of the trees' outputs, not
	// their sum (random forest mode).
	AverageOutput bool
	// NumFeature is max_feature_idx+1, the number of features read.
	NumFeature int
	// FeatureNames are feature_names (LightGBM names unnamed features
	// Column_0, Column_1, ...).
	FeatureNames []string
	// FeatureInfos are feature_infos: "[min:max]" for a numeric feature,
	// the categories seen, colon-separated, for a categorical one, "none"
	// for a feature with one value.
	FeatureInfos []string
	// PandasCategorical is the pandas_categorical line's value ("null"
	// when the model was not trained on pandas categorical columns), ""
	// when the file has none.
	PandasCategorical string
	// Trees are the trees, in order.
	Trees []Tree
}

// Tree is one tree in LightGBM's arrays: split nodes 0..NumLeaves-2
// (node 0 the root) and leaves 0..NumLeaves-1; a child c >= 0 is split
// node c, c < 0 is leaf ^c (-1 is leaf 0).
type Tree struct {
	// NumLeaves is num_leaves; a tree of one leaf has no split.
	NumLeaves int
	// SplitFeature, SplitGain, Threshold, DecisionType, Left, Right,
	// InternalValue and InternalCount have one entry per split node.
	SplitFeature []int32
	SplitGain    []float64
	// Threshold: a numeric split sends x left when x <= Threshold; a
	// categorical split's is the index of its bitset in CatBoundaries.
	Threshold    []float64
	DecisionType []uint8
	Left, Right  []int32
	// InternalValue is the output each split node would have as a leaf.
	InternalValue []float64
	// InternalCount is the number of training rows that reached each
	// split node (0 each when the file has no internal_count).
	InternalCount []float64
	// LeafValue and LeafCount have one entry per leaf.
	LeafValue []float64
	LeafCount []float64
	// CatBoundaries and CatThreshold are the categorical splits'
	// bitsets: bitset k is CatThreshold[CatBoundaries[k]:CatBoundaries[k+1]],
	// bit j of word w standing for the code 32*w+j.
	CatBoundaries []int32
	CatThreshold  []uint32
	// Shrinkage is the learning rate the leaves were scaled by (already
	// applied to LeafValue).
	Shrinkage float64
}

// Read reads a model file from r. It reads at most MaxBytes, and stops
// after the first few KB of a file that does not start as a text model
// does (its first line "tree"), and at the first NUL byte.
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

// sniff tells whether a file starting with prefix can be a text model:
// after blank lines, its first line is "tree".
func sniff(prefix []byte, eof bool) (bool, error) {
	if len(prefix) == 0 {
		return true, nil // Decode says the file is empty
	}
	return true, checkStart(prefix, eof)
}

// checkStart checks the start of a file (all of it when whole): no JSON,
// and "tree" its first line that is not blank.
func checkStart(data []byte, whole bool) error {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return fmt.Errorf("%w: the file is JSON (Booster.dump_model's, or another library's); aer reads LightGBM's text format, which Booster.save_model writes", ErrFormat)
	}
	if len(trimmed) == 0 {
		if whole {
			return nil
		}
		return fmt.Errorf("%w: the first %d bytes are blank; LightGBM's text format starts with the line \"tree\"", ErrFormat, len(data))
	}
	first := trimmed
	if i := bytes.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	} else if !whole && len(first) < len("tree\r") {
		return nil // the line goes on past the prefix: let Decode see it
	}
	first = bytes.TrimSuffix(first, []byte("\r"))
	if string(first) == "tree" {
		return nil
	}
	n := 1 + bytes.Count(data[:len(data)-len(trimmed)], []byte("\n"))
	return fmt.Errorf("%w: line %d is %s, not \"tree\", the first line of LightGBM's text format", ErrFormat, n, quote.Name(string(first)))
}

// line is one line of the file: its number (from 1) and text without the
// line break.
type line struct {
	n    int
	text string
}

// lines splits data at '\n' (a '\r' before it is dropped).
type lines struct {
	data string
	pos  int
	n    int
}

func (l *lines) next() (line, bool) {
	if l.pos >= len(l.data) {
		return line{}, false
	}
	end := strings.IndexByte(l.data[l.pos:], '\n')
	var t string
	if end < 0 {
		t, l.pos = l.data[l.pos:], len(l.data)
	} else {
		t, l.pos = l.data[l.pos:l.pos+end], l.pos+end+1
	}
	l.n++
	return line{n: l.n, text: strings.TrimSuffix(t, "\r")}, true
}

// errf returns an ErrFormat error about line ln.
func errf(ln line, format string, args ...any) error {
	return fmt.Errorf("%w: line %d: %s", ErrFormat, ln.n, fmt.Sprintf(format, args...))
}

// keyValue splits a line at its first '='; a line without one is a key
// with no value (LightGBM's "average_output").
func keyValue(t string) (key, value string) {
	if i := strings.IndexByte(t, '='); i >= 0 {
		return t[:i], t[i+1:]
	}
	return t, ""
}

// section reads the key=value lines of the header or of a tree, up to
// the line that ends it (a Tree=K line or "end of trees"), returned as
// end. A key given twice is an error whose message starts with what
// (the tree, "" for the header); the file's end before that line is one
// that says where it ended (where).
func (ls *lines) section(what, where string) (fields map[string]line, end line, err error) {
	fields = map[string]line{}
	for {
		ln, ok := ls.next()
		if !ok {
			return nil, ln, fmt.Errorf("%w: the file ends %s, with no \"end of trees\" line (truncated?)", ErrFormat, where)
		}
		if ln.text == "" {
			continue
		}
		if strings.HasPrefix(ln.text, "Tree=") || ln.text == "end of trees" {
			return fields, ln, nil
		}
		k, _ := keyValue(ln.text)
		if prev, dup := fields[k]; dup {
			return nil, ln, errf(ln, "%s%s again (first on line %d)", what, quote.Name(k), prev.n)
		}
		fields[k] = ln
	}
}

// Decode decodes a model from the bytes of a text model file.
func Decode(data []byte) (*Model, error) {
	return DecodeContext(context.Background(), data)
}

// DecodeContext is Decode, stopping with ctx's error once ctx is done
// (it checks between trees).
func DecodeContext(ctx context.Context, data []byte) (*Model, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: the file is empty", ErrFormat)
	}
	if err := checkStart(data, true); err != nil {
		return nil, err
	}
	ls := &lines{data: string(data)}
	first, ok := ls.next()
	for ok && strings.TrimSpace(first.text) == "" {
		first, ok = ls.next()
	}
	if !ok || first.text != "tree" {
		return nil, fmt.Errorf("%w: line %d is %s, not \"tree\", the first line of LightGBM's text format", ErrFormat, first.n, quote.Name(first.text))
	}

	// The header: key=value lines up to the first tree.
	header, ln, err := ls.section("", "after its header")
	if err != nil {
		return nil, err
	}
	m, err := decodeHeader(header)
	if err != nil {
		return nil, err
	}

	// The trees, each a Tree=K line and its key=value lines.
	var codes treeimport.Codes
	for ln.text != "end of trees" {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k, err := strconv.Atoi(strings.TrimPrefix(ln.text, "Tree="))
		if err != nil || k != len(m.Trees) {
			return nil, errf(ln, "%s, want \"Tree=%d\"", quote.Name(ln.text), len(m.Trees))
		}
		var fields map[string]line
		fields, ln, err = ls.section(fmt.Sprintf("tree %d: ", k), fmt.Sprintf("in tree %d", k))
		if err != nil {
			return nil, err
		}
		t, err := decodeTree(k, fields, m.NumFeature, &codes)
		if err != nil {
			return nil, err
		}
		m.Trees = append(m.Trees, *t)
	}
	if sizes, ok := header["tree_sizes"]; ok {
		_, v := keyValue(sizes.text)
		if n := len(strings.Fields(v)); n != len(m.Trees) {
			return nil, errf(sizes, "tree_sizes has %d sizes for %d trees", n, len(m.Trees))
		}
	}
	if len(m.Trees) == 0 {
		return nil, errf(ln, "no trees")
	}
	if len(m.Trees)%m.NumClass != 0 {
		return nil, errf(ln, "%d trees for %d classes: not a whole number of iterations", len(m.Trees), m.NumClass)
	}
	if err := m.finite(); err != nil {
		return nil, err
	}

	// After the trees: the parameters and pandas_categorical.
	inParams := false
	for {
		ln, ok = ls.next()
		if !ok {
			break
		}
		switch t := ln.text; {
		case t == "parameters:":
			inParams = true
		case t == "end of parameters":
			inParams = false
		case inParams && strings.HasPrefix(t, "[boosting: ") && strings.HasSuffix(t, "]"):
			m.Boosting = strings.TrimSuffix(strings.TrimPrefix(t, "[boosting: "), "]")
		case inParams && strings.HasPrefix(t, "[linear_tree: ") && t != "[linear_tree: 0]":
			return nil, fmt.Errorf("%w: line %d: %s: linear trees (linear_tree) are not supported", ErrUnsupported, ln.n, quote.Name(t))
		case !inParams && strings.HasPrefix(t, "pandas_categorical:"):
			m.PandasCategorical = strings.TrimPrefix(t, "pandas_categorical:")
		}
	}
	return m, nil
}

// finite refuses a leaf whose value times the margin's scale is not
// finite: a model file aer writes holds finite numbers only.
func (m *Model) finite() error {
	scale := m.Scale()
	for k, t := range m.Trees {
		for j, v := range t.LeafValue {
			if x := v * scale; math.IsInf(x, 0) {
				return fmt.Errorf("%w: tree %d: leaf %d: leaf_value %v times the margin's scale %v is %v", ErrUnsupported, k, j, v, scale, x)
			}
		}
	}
	return nil
}

// decodeHeader checks the header's lines and returns the model they
// describe, without trees.
func decodeHeader(h map[string]line) (*Model, error) {
	get := func(key string) (line, string, error) {
		ln, ok := h[key]
		if !ok {
			return ln, "", fmt.Errorf("%w: the header has no %s line", ErrFormat, key)
		}
		_, v := keyValue(ln.text)
		return ln, v, nil
	}
	m := &Model{}
	ln, v, err := get("version")
	if err != nil {
		return nil, err
	}
	switch v {
	case "v2", "v3", "v4":
		m.Version = v
	default:
		return nil, fmt.Errorf("%w: line %d: version %s (aer reads v2, v3 and v4, LightGBM 2.x to 4.x)", ErrUnsupported, ln.n, quote.Name(v))
	}
	ln, v, err = get("num_class")
	if err != nil {
		return nil, err
	}
	// The multiclass objective: num_class classes, as many trees an
	// iteration.
	multi := false
	if o, ok := h["objective"]; ok {
		_, ov := keyValue(o.text)
		multi = len(strings.Fields(ov)) > 0 && strings.Fields(ov)[0] == Multiclass
	}
	if n, err := strconv.Atoi(v); err != nil || n < 1 {
		return nil, errf(ln, "num_class %s", quote.Name(v))
	} else if multi {
		if n < 2 || n > MaxClasses {
			return nil, errf(ln, "num_class=%d for the multiclass objective, want 2 to %d", n, MaxClasses)
		}
		m.NumClass = n
	} else if n != 1 {
		return nil, fmt.Errorf("%w: line %d: num_class=%d: aer imports models of one class (binary) or the multiclass objective", ErrUnsupported, ln.n, n)
	} else {
		m.NumClass = 1
	}
	if ln, ok := h["num_tree_per_iteration"]; ok {
		_, v := keyValue(ln.text)
		if n, err := strconv.Atoi(v); err != nil || n < 1 {
			return nil, errf(ln, "num_tree_per_iteration %s", quote.Name(v))
		} else if n != m.NumClass {
			return nil, fmt.Errorf("%w: line %d: num_tree_per_iteration=%d: aer imports models of one tree per iteration and class (%d)", ErrUnsupported, ln.n, n, m.NumClass)
		}
	}
	if ln, ok := h["average_output"]; ok {
		if m.Version == "v2" {
			// LightGBM 2.2.3 changed what a random forest's leaves hold
			// (#1906), and v2 files do not say which version wrote them.
			return nil, fmt.Errorf("%w: line %d: average_output (a random forest) in a v2 file: LightGBM before 2.2.3 saved its leaves as probabilities, averaged with no sigmoid, and 2.2.3 and later as margins, and a v2 file does not say which wrote it", ErrUnsupported, ln.n)
		}
		m.AverageOutput = true
	}

	ln, v, err = get("objective")
	if err != nil {
		if _, ok := h["objective"]; !ok {
			return nil, fmt.Errorf("%w: the header has no objective line (a custom objective): aer cannot tell how its margin becomes a probability", ErrUnsupported)
		}
		return nil, err
	}
	m.Objective = v
	words := strings.Fields(v)
	if len(words) == 0 {
		return nil, errf(ln, "empty objective")
	}
	switch words[0] {
	case Binary:
		m.Sigmoid = -1
		for _, w := range words[1:] {
			if s, ok := strings.CutPrefix(w, "sigmoid:"); ok {
				f, err := strconv.ParseFloat(s, 64)
				if err != nil {
					return nil, errf(ln, "objective %s: sigmoid %s is not a number", quote.Name(v), quote.Name(s))
				}
				m.Sigmoid = f
			}
		}
		if !(m.Sigmoid > 0) || math.IsInf(m.Sigmoid, 0) {
			return nil, errf(ln, "objective %s: the sigmoid parameter must be a positive number", quote.Name(v))
		}
	case CrossEntropy, "xentropy":
		m.Sigmoid = 1
	case Multiclass:
		for _, w := range words[1:] {
			if s, ok := strings.CutPrefix(w, "num_class:"); ok && s != strconv.Itoa(m.NumClass) {
				return nil, errf(ln, "objective %s: num_class:%s, the header's num_class=%d", quote.Name(v), quote.Name(s), m.NumClass)
			}
		}
	case "multiclassova", "multiclass_ova", "ova", "ovr":
		return nil, fmt.Errorf("%w: line %d: objective %s: LightGBM's one-vs-all probabilities are independent sigmoids that do not sum to 1, which aer's multi-class models give; aer imports the binary objectives binary and cross_entropy (xentropy) and multiclass (softmax)", ErrUnsupported, ln.n, quote.Name(v))
	default:
		return nil, fmt.Errorf("%w: line %d: objective %s: aer imports the binary objectives binary and cross_entropy (xentropy) and multiclass (softmax)", ErrUnsupported, ln.n, quote.Name(v))
	}

	ln, v, err = get("max_feature_idx")
	if err != nil {
		return nil, err
	}
	maxIdx, err := strconv.Atoi(v)
	if err != nil || maxIdx < 0 {
		return nil, errf(ln, "max_feature_idx %s", quote.Name(v))
	}
	// The names and infos bound the feature count by the file's size.
	ln, v, err = get("feature_names")
	if err != nil {
		return nil, err
	}
	m.FeatureNames = strings.Split(v, " ")
	if len(m.FeatureNames) != maxIdx+1 {
		return nil, errf(ln, "%d feature names, want max_feature_idx+1 = %d", len(m.FeatureNames), maxIdx+1)
	}
	for j, name := range m.FeatureNames {
		if name == "" {
			return nil, errf(ln, "feature %d has no name", j+1)
		}
	}
	m.NumFeature = maxIdx + 1
	ln, v, err = get("feature_infos")
	if err != nil {
		return nil, err
	}
	m.FeatureInfos = strings.Split(v, " ")
	if len(m.FeatureInfos) != m.NumFeature {
		return nil, errf(ln, "%d feature infos, want max_feature_idx+1 = %d", len(m.FeatureInfos), m.NumFeature)
	}
	return m, nil
}

// decodeTree checks tree k's lines and returns the tree; its bitsets'
// codes count in codes.
func decodeTree(k int, f map[string]line, nf int, codes *treeimport.Codes) (*Tree, error) {
	where := func(ln line, key string) string { return fmt.Sprintf("line %d (tree %d, %s)", ln.n, k, key) }
	bad := func(ln line, key, format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrFormat, where(ln, key), fmt.Sprintf(format, args...))
	}
	intField := func(key string) (int, error) {
		ln, ok := f[key]
		if !ok {
			return 0, fmt.Errorf("%w: tree %d has no %s line", ErrFormat, k, key)
		}
		_, v := keyValue(ln.text)
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, bad(ln, key, "%s is not an integer", quote.Name(v))
		}
		return n, nil
	}
	// fieldWords returns the field's line and values: want of them (want
	// < 0: any number); nil values for an absent optional field, or an
	// empty one (LightGBM wrote "leaf_count=" for one-leaf trees).
	fieldWords := func(key string, want int, optional bool) (line, []string, error) {
		ln, ok := f[key]
		if !ok {
			if optional {
				return ln, nil, nil
			}
			return ln, nil, fmt.Errorf("%w: tree %d has no %s line", ErrFormat, k, key)
		}
		_, v := keyValue(ln.text)
		words := strings.Fields(v)
		if len(words) == 0 && optional {
			return ln, nil, nil
		}
		if want >= 0 && len(words) != want {
			return ln, nil, bad(ln, key, "%d values, want %d", len(words), want)
		}
		if words == nil {
			words = []string{}
		}
		return ln, words, nil
	}
	// floats parses the field's values: want of them (want < 0: any
	// number), all finite; absent and optional: nil.
	floats := func(key string, want int, optional bool) ([]float64, error) {
		ln, words, err := fieldWords(key, want, optional)
		if err != nil || words == nil {
			return nil, err
		}
		out := make([]float64, len(words))
		for i, w := range words {
			x, err := strconv.ParseFloat(w, 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, bad(ln, key, "value %d is %s, not a finite number", i+1, quote.Name(w))
			}
			out[i] = x
		}
		return out, nil
	}
	// ints parses integer values in [lo, hi].
	ints := func(key string, want int, optional bool, lo, hi int64) ([]int64, error) {
		ln, words, err := fieldWords(key, want, optional)
		if err != nil || words == nil {
			return nil, err
		}
		out := make([]int64, len(words))
		for i, w := range words {
			x, err := strconv.ParseInt(w, 10, 64)
			if err != nil || x < lo || x > hi {
				return nil, bad(ln, key, "value %d is %s, not an integer in [%d, %d]", i+1, quote.Name(w), lo, hi)
			}
			out[i] = x
		}
		return out, nil
	}

	t := &Tree{Shrinkage: 1}
	n, err := intField("num_leaves")
	if err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, bad(f["num_leaves"], "num_leaves", "%d leaves", n)
	}
	numCat, err := intField("num_cat")
	if err != nil {
		return nil, err
	}
	if numCat < 0 {
		return nil, bad(f["num_cat"], "num_cat", "%d", numCat)
	}
	if ln, ok := f["is_linear"]; ok {
		if _, v := keyValue(ln.text); v != "0" {
			return nil, fmt.Errorf("%w: %s: is_linear=%s: linear trees are not supported", ErrUnsupported, where(ln, "is_linear"), quote.Name(v))
		}
	}
	// leaf_value first: its values bound num_leaves by the file's size
	// before anything else is allocated for them.
	if t.LeafValue, err = floats("leaf_value", n, false); err != nil {
		return nil, err
	}
	t.NumLeaves = n
	if ln, ok := f["shrinkage"]; ok {
		// Informative only (the leaves have it): some versions wrote
		// garbage here for one-leaf trees.
		_, v := keyValue(ln.text)
		if x, err := strconv.ParseFloat(v, 64); err == nil {
			t.Shrinkage = x
		}
	}
	counts, err := ints("leaf_count", n, true, 0, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	t.LeafCount = toFloats(counts, n)
	if n == 1 {
		return t, nil
	}

	s := n - 1
	feat, err := ints("split_feature", s, false, 0, int64(nf-1))
	if err != nil {
		return nil, err
	}
	left, err := ints("left_child", s, false, int64(-n), int64(s-1))
	if err != nil {
		return nil, err
	}
	right, err := ints("right_child", s, false, int64(-n), int64(s-1))
	if err != nil {
		return nil, err
	}
	if t.Threshold, err = floats("threshold", s, false); err != nil {
		return nil, err
	}
	dt, err := ints("decision_type", s, true, 0, 15)
	if err != nil {
		return nil, err
	}
	if t.SplitGain, err = floats("split_gain", s, true); err != nil {
		return nil, err
	}
	if t.InternalValue, err = floats("internal_value", s, true); err != nil {
		return nil, err
	}
	counts, err = ints("internal_count", s, true, 0, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	t.InternalCount = toFloats(counts, s)
	if t.SplitGain == nil {
		t.SplitGain = make([]float64, s)
	}
	if t.InternalValue == nil {
		t.InternalValue = make([]float64, s)
	}
	t.SplitFeature, t.Left, t.Right = make([]int32, s), make([]int32, s), make([]int32, s)
	t.DecisionType = make([]uint8, s)
	for i := range s {
		t.SplitFeature[i], t.Left[i], t.Right[i] = int32(feat[i]), int32(left[i]), int32(right[i])
		if dt != nil {
			t.DecisionType[i] = uint8(dt[i])
		}
	}

	if numCat > 0 {
		b, err := ints("cat_boundaries", -1, false, 0, math.MaxInt32)
		if err != nil {
			return nil, err
		}
		ln := f["cat_boundaries"]
		if len(b) != numCat+1 {
			return nil, bad(ln, "cat_boundaries", "%d values, want num_cat+1 = %d", len(b), numCat+1)
		}
		if b[0] != 0 {
			return nil, bad(ln, "cat_boundaries", "the first boundary is %d, not 0", b[0])
		}
		for i := 1; i < len(b); i++ {
			if b[i] <= b[i-1] {
				return nil, bad(ln, "cat_boundaries", "boundary %d (%d) is not above the one before (%d)", i+1, b[i], b[i-1])
			}
		}
		words, err := ints("cat_threshold", int(b[numCat]), false, 0, math.MaxUint32)
		if err != nil {
			return nil, err
		}
		t.CatBoundaries = make([]int32, len(b))
		for i, x := range b {
			t.CatBoundaries[i] = int32(x)
		}
		t.CatThreshold = make([]uint32, len(words))
		for i, x := range words {
			t.CatThreshold[i] = uint32(x)
		}
		// The codes a bitset decodes to, bounded before they are
		// allocated (32 a word, however short the word's text).
		for c := range numCat {
			if err := codes.Add(popCount(t.CatThreshold[b[c]:b[c+1]])); err != nil {
				return nil, fmt.Errorf("%w: %s: bitset %d: %w", ErrUnsupported, where(f["cat_threshold"], "cat_threshold"), c, err)
			}
		}
	}
	if err := t.check(k, numCat, f); err != nil {
		return nil, err
	}
	return t, nil
}

// popCount is the number of bits set in words.
func popCount(words []uint32) int {
	n := 0
	for _, w := range words {
		n += bits.OnesCount32(w)
	}
	return n
}

// toFloats converts counts (nil: n zeros) to float64s.
func toFloats(c []int64, n int) []float64 {
	out := make([]float64, n)
	for i, x := range c {
		out[i] = float64(x)
	}
	return out
}

// check checks the tree's structure (every node reached once from the
// root, depth bounded) and its splits' decision types and bitsets.
func (t *Tree) check(k, numCat int, f map[string]line) error {
	s := t.NumLeaves - 1
	used := make([]bool, numCat)
	for i := range s {
		d := t.DecisionType[i]
		if d>>2 == 3 {
			return fmt.Errorf("%w: line %d (tree %d, decision_type): split %d has missing type 3 (LightGBM's are 0 None, 1 Zero, 2 NaN)", ErrFormat, f["decision_type"].n, k, i)
		}
		if d&categoricalMask == 0 {
			if x := t.Threshold[i]; math.IsInf(Threshold(x), 0) {
				return fmt.Errorf("%w: line %d (tree %d, threshold): split %d: threshold %v: no float64 lies above it (aer's splits send x left when x < u)", ErrUnsupported, f["threshold"].n, k, i, x)
			}
			continue
		}
		ln := f["threshold"]
		c := t.Threshold[i]
		if c != math.Trunc(c) || c < 0 || c >= float64(numCat) {
			return fmt.Errorf("%w: line %d (tree %d, threshold): categorical split %d names bitset %v, not one of the %d (num_cat)", ErrFormat, ln.n, k, i, c, numCat)
		}
		if used[int(c)] {
			return fmt.Errorf("%w: line %d (tree %d, threshold): categorical split %d uses bitset %v, which another split uses", ErrFormat, ln.n, k, i, c)
		}
		used[int(c)] = true
		empty := true
		for _, w := range t.CatThreshold[t.CatBoundaries[int(c)]:t.CatBoundaries[int(c)+1]] {
			empty = empty && w == 0
		}
		if empty {
			return fmt.Errorf("%w: line %d (tree %d, cat_threshold): categorical split %d has an empty bitset", ErrFormat, f["cat_threshold"].n, k, i)
		}
	}
	// Every split node and leaf is reached exactly once from the root.
	seenSplit, seenLeaf := make([]bool, s), make([]bool, t.NumLeaves)
	seenSplit[0] = true
	type item struct{ node, depth int32 }
	stack := []item{{0, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range []int32{t.Left[it.node], t.Right[it.node]} {
			if c < 0 {
				if seenLeaf[^c] {
					return fmt.Errorf("%w: tree %d: leaf %d is reached twice (left_child, right_child)", ErrFormat, k, ^c)
				}
				seenLeaf[^c] = true
				if it.depth+1 > maxTreeDepth {
					return fmt.Errorf("%w: tree %d is deeper than %d", ErrUnsupported, k, maxTreeDepth)
				}
				continue
			}
			if seenSplit[c] {
				return fmt.Errorf("%w: tree %d: split node %d is reached twice (left_child, right_child)", ErrFormat, k, c)
			}
			seenSplit[c] = true
			stack = append(stack, item{c, it.depth + 1})
		}
	}
	for j, ok := range seenLeaf {
		if !ok {
			return fmt.Errorf("%w: tree %d: no path from the root reaches leaf %d (left_child, right_child)", ErrFormat, k, j)
		}
	}
	return nil
}

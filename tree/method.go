package tree

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/internal/treeshap"
	"github.com/aer-go/aer/learn"
)

// MethodName is the name the decision-tree method is registered under.
const MethodName = "tree"

// Method is the cost-sensitive decision tree on the learn contract: its
// defaults are scikit-learn's DecisionTreeClassifier(class_weight=
// "balanced") (gini, unlimited depth).
type Method struct{ s Settings }

// NewMethod returns the decision-tree method with its defaults.
func NewMethod() learn.Method { return &Method{s: methodDefaults()} }

// New returns the decision-tree method with the typed settings s (zero
// fields resolved to their defaults), for Go programs. Its class weights
// are s.ClassWeight: the zero value weighs every class 1, while the
// registered method's default is Balanced.
func New(s Settings) learn.Method { return &Method{s: s.Resolved()} }

func methodDefaults() Settings { return Settings{ClassWeight: Balanced}.Resolved() }

// Name returns the registered name.
func (m *Method) Name() string { return MethodName }

// PaperGrid is the paper's appendix grid of its cost-sensitive decision
// tree: class weights 1:110, 1:130, 1:150 or balanced, times gini or
// entropy.
func (m *Method) PaperGrid() []string {
	return []string{"class_weight=0:1,1:110|0:1,1:130|0:1,1:150|balanced", "criterion=gini,entropy"}
}

// Describe returns a one-line description.
func (m *Method) Describe() string {
	return "cost-sensitive CART decision tree (scikit-learn's DecisionTreeClassifier, class_weight balanced)"
}

// Settings returns a copy of the configured settings.
func (m *Method) Settings() Settings { return m.s }

// Set sets one parameter by its scikit-learn name.
func (m *Method) Set(key, value string) error { return Params.Set(&m.s, key, value) }

// Params lists every parameter with its value and default.
func (m *Method) Params() []learn.Param {
	cur, def := m.s.Resolved(), methodDefaults()
	return Params.List(&cur, &def)
}

// Fit grows one tree on train (valid is not used). The features of each
// split are drawn from the Env's seed when max_features is below the
// number of features.
func (m *Method) Fit(ctx context.Context, train, _ *learn.Data, env learn.Env) (learn.Scorer, error) {
	t, err := m.grow(ctx, train, env, train.Check("training data"), func() (*Grower, error) {
		return NewGrower(ctx, train.X, train.Y, env.Threads())
	})
	if err != nil {
		return nil, err
	}
	return &Model{fitted: fitted{tree: t, features: train.Features}}, nil
}

// FitClasses grows one tree on train, whose labels are 0..k-1, splitting
// on the impurity of all k classes (valid is not used); its leaves
// predict their weighted class shares, as scikit-learn's
// DecisionTreeClassifier's predict_proba. A balanced class_weight is
// n / (k n_c); explicit class weights are refused. The learn.ClassFitter
// contract.
func (m *Method) FitClasses(ctx context.Context, train, _ *learn.Data, k int, env learn.Env) (learn.Model, error) {
	t, err := m.grow(ctx, train, env, CheckClasses(train, "training data", k), func() (*Grower, error) {
		return NewMultiGrower(ctx, train.X, train.Y, k, env.Threads())
	})
	if err != nil {
		return nil, err
	}
	return &MultiModel{fitted{tree: t, features: train.Features}}, nil
}

// magicMulti starts a multi-class decision-tree payload; its last byte
// is the format version.
var magicMulti = []byte("aer.tree.multi\x01")

// LoadClasses decodes a model written by MultiModel.MarshalBinary (the
// learn.ClassFitter contract).
func (m *Method) LoadClasses(payload []byte) (learn.Model, error) {
	if f, ok, err := loadQuant(payload, true); ok {
		if err != nil {
			return nil, err
		}
		return &MultiModel{*f}, nil
	}
	t, names, err := decodePayload(payload, magicMulti, "multi-class decision-tree", DecodeTreeMulti)
	if err != nil {
		return nil, err
	}
	return &MultiModel{fitted{tree: t, features: names}}, nil
}

// grow checks the settings, then (unless dataErr, the training data's
// check, is not nil) grows one tree on train with the grower newGrower
// makes, the Env's seed drawing the features of each split.
func (m *Method) grow(ctx context.Context, train *learn.Data, env learn.Env, dataErr error, newGrower func() (*Grower, error)) (*Tree, error) {
	if err := m.s.Check(); err != nil {
		return nil, err
	}
	if dataErr != nil {
		return nil, dataErr
	}
	g, err := newGrower()
	if err != nil {
		return nil, err
	}
	t, err := g.Grow(ctx, Sample{Weight: train.W}, m.s, rng.Derive(env.Seed, 0))
	if err != nil {
		return nil, err
	}
	env.Report("tree", 1, 1)
	return t, nil
}

// magic starts a decision-tree payload; its last byte is the format
// version.
var magic = []byte("aer.tree\x01")

// Load decodes a model written by Model.MarshalBinary.
func (m *Method) Load(payload []byte) (learn.Scorer, error) {
	if f, ok, err := loadQuant(payload, false); ok {
		if err != nil {
			return nil, err
		}
		return &Model{fitted: *f}, nil
	}
	t, names, err := decodePayload(payload, magic, "decision-tree", DecodeTree)
	if err != nil {
		return nil, err
	}
	return &Model{fitted: fitted{tree: t, features: names}}, nil
}

var _ learn.ClassFitter = (*Method)(nil)

// CheckClasses is learn.Data.Check for labels 0..k-1 (rows numbered from
// 1, errors wrapping learn.ErrData), with a positive, finite total row
// weight: the checks of the multi-class fits built on trees.
func CheckClasses(d *learn.Data, what string, k int) error {
	if k < 2 || k > MaxClasses {
		return fmt.Errorf("%w: %d classes, want 2 to %d", learn.ErrData, k, MaxClasses)
	}
	return CheckLabels(d, what, k)
}

// CheckLabels is CheckClasses without its bound on k: the checks of
// every multi-class fit of rows, labels 0..k-1 and row weights.
func CheckLabels(d *learn.Data, what string, k int) error {
	if d.Rows() == 0 {
		return fmt.Errorf("%w: %s has no rows", learn.ErrData, what)
	}
	if len(d.Y) != d.Rows() {
		return fmt.Errorf("%w: %s has %d rows but %d labels", learn.ErrData, what, d.Rows(), len(d.Y))
	}
	for i, y := range d.Y {
		if y < 0 || y >= k {
			return fmt.Errorf("%w: %s row %d: label %d is not a class of 0..%d", learn.ErrData, what, i+1, y, k-1)
		}
	}
	// The rest as for two classes.
	tmp := *d
	tmp.Y = make([]int, len(d.Y))
	if err := tmp.Check(what); err != nil {
		return err
	}
	total := 0.0
	for i := range d.Y {
		total += d.Weight(i)
	}
	if !(total > 0) || math.IsInf(total, 0) || total > 1e300 {
		return fmt.Errorf("%w: %s: the row weights sum to %v; want a positive total below 1e300 (only their ratios matter)", learn.ErrData, what, total)
	}
	return nil
}

// decodePayload decodes a tree payload starting with magic (what names
// its kind in errors): the tree, by decode, and the feature names.
func decodePayload(payload, magic []byte, what string, decode func([]byte) (*Tree, []byte, error)) (*Tree, []string, error) {
	if !bytes.HasPrefix(payload, magic) {
		return nil, nil, fmt.Errorf("tree: not a %s payload", what)
	}
	t, rest, err := decode(payload[len(magic):])
	if err != nil {
		return nil, nil, err
	}
	names, rest, err := DecodeNames(rest, t.NumFeatures)
	if err != nil {
		return nil, nil, err
	}
	if len(rest) != 0 {
		return nil, nil, fmt.Errorf("tree: %d bytes after the model", len(rest))
	}
	return t, names, nil
}

// fitted is what a fitted tree model holds, of two classes (Model) or
// more (MultiModel): the tree and the feature names.
type fitted struct {
	tree     *Tree
	features []string            // nil when the training data had no names
	quant    *learn.Quantization // how the tree was quantised; nil: it was not
}

// Tree returns the fitted tree.
func (m *fitted) Tree() *Tree { return m.tree }

// NumFeatures returns the number of input features.
func (m *fitted) NumFeatures() int { return m.tree.NumFeatures }

// NumParams is the number of leaves.
func (m *fitted) NumParams() int { return m.tree.NumLeaves() }

// Summary reports the tree's size and its feature importances.
func (m *fitted) Summary() any {
	imp := make([]float64, m.tree.NumFeatures)
	m.tree.Importance(imp)
	Normalize(imp)
	return &Summary{Depth: m.tree.Depth(), Leaves: m.tree.NumLeaves(), Nodes: m.tree.NumNodes(),
		Importance: Importances(imp, m.features)}
}

// rows returns the dimensions of x, an error when its columns are not
// the model's features.
func (m *fitted) rows(x *mat.Dense) (n, c int, err error) {
	n, c = x.Dims()
	if c != m.tree.NumFeatures {
		return 0, 0, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, m.tree.NumFeatures)
	}
	return n, c, nil
}

// marshal encodes the tree after magic with appendTree, then the
// feature names.
func (m *fitted) marshal(magic []byte, appendTree func(*Tree, []byte) ([]byte, error)) ([]byte, error) {
	b, err := appendTree(m.tree, bytes.Clone(magic))
	if err != nil {
		return nil, err
	}
	return AppendNames(b, m.features), nil
}

// Model is a fitted decision tree of two classes on the learn contract.
type Model struct {
	fitted

	shapOnce sync.Once
	shap     *treeshap.Tree
	shapErr  error
}

// PositiveProba writes the probability of class 1 of each row of x: the
// weighted share of class 1 in the leaf the row reaches.
func (m *Model) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	n, c, err := m.rows(x)
	if err != nil {
		return nil, err
	}
	if len(dst) < n {
		dst = make([]float64, n)
	}
	raw := x.RawMatrix()
	for i := range n {
		dst[i] = m.tree.PredictRow(raw.Data[i*raw.Stride : i*raw.Stride+c])
	}
	return dst[:n], nil
}

// MarshalBinary encodes the tree and the feature names.
func (m *Model) MarshalBinary() ([]byte, error) {
	if m.quant != nil {
		return m.marshalQuant(quantMagic)
	}
	return m.marshal(magic, (*Tree).AppendBinary)
}

// MultiModel is a fitted decision tree of k classes (leaves holding
// class shares) on the learn contract.
type MultiModel struct{ fitted }

// NumClasses returns the number of classes.
func (m *MultiModel) NumClasses() int { return m.tree.Classes }

// PredictProba writes the class shares of the leaf each row
// reaches, Classes() per row.
func (m *MultiModel) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	n, c, err := m.rows(x)
	if err != nil {
		return nil, err
	}
	k := m.tree.Classes
	if len(dst) < n*k {
		dst = make([]float64, n*k)
	}
	raw := x.RawMatrix()
	for i := range n {
		copy(dst[i*k:(i+1)*k], m.tree.DistRow(raw.Data[i*raw.Stride:i*raw.Stride+c]))
	}
	return dst[:n*k], nil
}

// MarshalBinary encodes the tree and the feature names.
func (m *MultiModel) MarshalBinary() ([]byte, error) {
	if m.quant != nil {
		return m.marshalQuant(quantMagicMulti)
	}
	return m.marshal(magicMulti, (*Tree).AppendBinaryMulti)
}

// Summary is the report of a decision-tree fit.
type Summary struct {
	Depth  int `json:"depth"`
	Leaves int `json:"leaves"`
	Nodes  int `json:"nodes"`
	// Importance lists the features with a positive importance, largest
	// first.
	Importance []FeatureImportance `json:"importance"`
}

// String is the summary in one line, for aer fit's text output.
func (s *Summary) String() string {
	return fmt.Sprintf("depth %d, %d leaves%s", s.Depth, s.Leaves, TopImportances(s.Importance))
}

// FeatureImportance is one feature's share of the weighted impurity
// decrease (scikit-learn's feature_importances_).
type FeatureImportance struct {
	Feature    string  `json:"feature"`
	Importance float64 `json:"importance"`
}

// Importances lists the positive entries of imp by feature name (f<j>
// when names is nil), largest first.
func Importances(imp []float64, names []string) []FeatureImportance {
	out := []FeatureImportance{}
	for j, v := range imp {
		if v > 0 {
			out = append(out, FeatureImportance{Feature: featureName(names, j), Importance: v})
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Importance > out[b].Importance })
	return out
}

// TopImportances is the text summaries give the largest importances:
// "; importance " and the first three features of imp with their
// importances, "" when imp is empty.
func TopImportances(imp []FeatureImportance) string {
	if len(imp) == 0 {
		return ""
	}
	var parts []string
	for _, f := range imp[:min(3, len(imp))] {
		parts = append(parts, fmt.Sprintf("%s %.3f", f.Feature, f.Importance))
	}
	return "; importance " + strings.Join(parts, ", ")
}

func featureName(names []string, j int) string {
	if j < len(names) {
		return names[j]
	}
	return fmt.Sprintf("f%d", j)
}

// Explain returns the path of a row from the root to its leaf.
func (m *Model) Explain(row []float64) (learn.Explanation, error) {
	if len(row) != m.tree.NumFeatures {
		return nil, fmt.Errorf("%w: row has %d values, the model %d features", learn.ErrData, len(row), m.tree.NumFeatures)
	}
	return m.tree.Path(row, m.features), nil
}

// Path returns the nodes a row passes through, for explanations.
func (t *Tree) Path(row []float64, names []string) *Path {
	p := &Path{}
	i := int32(0)
	for {
		st := Step{Node: int(i), Value: t.Value[i], Weight: t.Weight[i]}
		if t.Left[i] < 0 {
			p.Steps = append(p.Steps, st)
			p.Score = t.Value[i]
			return p
		}
		f := t.Feature[i]
		v := row[f]
		st.Feature, st.Threshold, st.RowValue = featureName(names, int(f)), t.Threshold[i], v
		next := t.Left[i]
		switch {
		case v <= t.Threshold[i]:
			st.Went = "left"
		case v > t.Threshold[i] || !t.DefaultLeft[i]:
			st.Went, next = "right", t.Right[i]
		default:
			st.Went = "left"
		}
		if v != v {
			st.Went += " (missing)"
			st.RowValue = 0
		}
		p.Steps = append(p.Steps, st)
		i = next
	}
}

// Path is a row's way through a tree.
type Path struct {
	Score float64 `json:"score"`
	Steps []Step  `json:"steps"`
}

// Step is one node on a path.
type Step struct {
	Node int `json:"node"`
	// Value is the share of class 1 among the node's training weight,
	// Weight that weight.
	Value  float64 `json:"value"`
	Weight float64 `json:"weight"`
	// Feature, Threshold, RowValue and Went describe the test of a split
	// node (RowValue is 0 for a missing value); empty at the leaf.
	Feature   string  `json:"feature,omitempty"`
	Threshold float64 `json:"threshold,omitempty"`
	RowValue  float64 `json:"row_value,omitempty"`
	Went      string  `json:"went,omitempty"`
}

// WriteText writes the path, one node a line.
func (p *Path) WriteText(w io.Writer) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "score %.4f\n", p.Score)
	for _, s := range p.Steps {
		if s.Went == "" {
			fmt.Fprintf(&buf, "  leaf %d: P(1) %.4f, weight %.4g\n", s.Node, s.Value, s.Weight)
			continue
		}
		v := learn.FormatFloat(s.RowValue)
		if strings.HasSuffix(s.Went, "(missing)") {
			v = "missing"
		}
		fmt.Fprintf(&buf, "  node %d: %s = %s vs <= %.6g: %s (P(1) %.4f, weight %.4g)\n", s.Node, s.Feature, v, s.Threshold, s.Went, s.Value, s.Weight)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// AppendNames appends feature names to b (a count, then each length and
// bytes); no names is a count of 0. Models built on trees store their
// feature names this way.
func AppendNames(b []byte, names []string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(names)))
	for _, s := range names {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
		b = append(b, s...)
	}
	return b
}

// DecodeNames reads names written by AppendNames from the start of b: none,
// or one for each of p features. It returns them with the rest of b.
func DecodeNames(b []byte, p int) ([]string, []byte, error) {
	if len(b) < 4 {
		return nil, nil, errShort
	}
	k := int(binary.LittleEndian.Uint32(b))
	b = b[4:]
	if k == 0 {
		return nil, b, nil
	}
	if k != p {
		return nil, nil, fmt.Errorf("tree: %d feature names for %d features", k, p)
	}
	if k > len(b)/4 { // each name takes at least its 4-byte length
		return nil, nil, errShort
	}
	names := make([]string, k)
	for j := range names {
		if len(b) < 4 {
			return nil, nil, errShort
		}
		l := int(binary.LittleEndian.Uint32(b))
		if l > len(b)-4 {
			return nil, nil, errShort
		}
		names[j], b = string(b[4:4+l]), b[4+l:]
	}
	return names, b, nil
}

// NumClasses is 2: Model scores the positive class (PositiveProba).
func (m *Model) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (m *Model) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(m, x, dst)
}

package adaboost

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/tree"
)

// Names the methods are registered under.
const (
	AdaBoostName = "adaboost"
	RUSBoostName = "rusboost"
	EasyName     = "easy-ensemble"
)

// kind is which of the three methods a Method is.
type kind int

const (
	adaBoost kind = iota
	rusBoost
	easyEnsemble
)

// boostParams are the parameters of one boosted ensemble, on the Boost
// field of EasySettings; rounds names the key of the number of rounds.
func boostParams(rounds string) learn.ParamTable[EasySettings] {
	return append(learn.ParamTable[EasySettings]{
		learn.Int(rounds, "boosting rounds (trees), fewer when a round classifies every row right (at most 100000: a round takes about 50 µs even on 80 rows)", 1, learn.MaxTrees, func(s *EasySettings) *int { return &s.Boost.NEstimators }),
		learn.OpenFloat("learning_rate", "scales the exponent of each weight update", 0, math.Inf(1), func(s *EasySettings) *float64 { return &s.Boost.LearningRate }),
	}, tree.ParamsOn(func(s *EasySettings) *tree.Settings { return s.Boost.Tree })...)
}

var (
	adaParams = boostParams("n_estimators")
	rusParams = append(learn.ParamTable[EasySettings]{
		learn.Bool("replacement", "under-sample with replacement", false, func(s *EasySettings) *bool { return &s.Boost.Replacement }),
	}, boostParams("n_estimators")...)
	easyParams = append(learn.ParamTable[EasySettings]{
		learn.Int("n_estimators", "number of AdaBoost ensembles, each on its own balanced under-sample (at most 10000, and n_estimators x rounds at most 100000 trees: a tree takes about 50 µs even on 80 rows)", 1, 10_000, func(s *EasySettings) *int { return &s.NEstimators }),
		learn.Bool("replacement", "under-sample with replacement", false, func(s *EasySettings) *bool { return &s.Replacement }),
	}, boostParams("rounds")...)
)

// Method is AdaBoost, RUSBoost or EasyEnsemble on the learn contract.
type Method struct {
	kind     kind
	name     string
	describe string
	params   learn.ParamTable[EasySettings]
	// s holds the settings, resolved (its tree settings are its own);
	// AdaBoost and RUSBoost use s.Boost only.
	s EasySettings
}

// NewAdaBoost returns scikit-learn 1.2's
// AdaBoostClassifier(algorithm="SAMME.R") with its defaults: up to 50
// stumps, learning rate 1.
func NewAdaBoost() learn.Method {
	return &Method{kind: adaBoost, name: AdaBoostName, params: adaParams, s: EasySettings{}.Resolved(),
		describe: "AdaBoost SAMME.R over decision stumps (scikit-learn's AdaBoostClassifier)"}
}

// NewRUSBoost returns imbalanced-learn 0.10's RUSBoostClassifier() with
// its defaults: up to 50 rounds of SAMME.R over stumps, learning rate 1,
// each stump grown on a random under-sample of the majority class to the
// size of the minority (without replacement), the weights updated on every
// row.
func NewRUSBoost() learn.Method {
	s := EasySettings{Boost: Settings{UnderSample: true}}.Resolved()
	return &Method{kind: rusBoost, name: RUSBoostName, params: rusParams, s: s,
		describe: "RUSBoost (imbalanced-learn's RUSBoostClassifier): AdaBoost SAMME.R over stumps, each on a random under-sample to balance"}
}

// NewEasyEnsemble returns imbalanced-learn 0.10's
// EasyEnsembleClassifier(n_estimators=10) with its defaults: 10 AdaBoost
// SAMME.R ensembles of up to 50 stumps, each on the minority class and an
// equal random draw of the majority (without replacement), probabilities
// averaged.
func NewEasyEnsemble() learn.Method {
	return &Method{kind: easyEnsemble, name: EasyName, params: easyParams, s: EasySettings{}.Resolved(),
		describe: "EasyEnsemble (imbalanced-learn's EasyEnsembleClassifier): AdaBoost ensembles on balanced random under-samples, averaged"}
}

// Name returns the registered name.
func (m *Method) Name() string { return m.name }

// Describe returns a one-line description.
func (m *Method) Describe() string { return m.describe }

// Settings returns a copy of the configured settings (for AdaBoost and
// RUSBoost, the Boost field).
func (m *Method) Settings() EasySettings { return m.s.Resolved() }

// Set sets one parameter.
func (m *Method) Set(key, value string) error { return m.params.Set(&m.s, key, value) }

// Params lists every parameter with its value and default.
func (m *Method) Params() []learn.Param {
	cur := m.s.Resolved()
	def := m.fresh().s
	return m.params.List(&cur, &def)
}

func (m *Method) fresh() *Method {
	switch m.kind {
	case rusBoost:
		return NewRUSBoost().(*Method)
	case easyEnsemble:
		return NewEasyEnsemble().(*Method)
	}
	return NewAdaBoost().(*Method)
}

// Fit boosts on train (valid is not used). EasyEnsemble boosts its
// ensembles in parallel on the Env's workers; no model depends on their
// number.
func (m *Method) Fit(ctx context.Context, train, _ *learn.Data, env learn.Env) (learn.Scorer, error) {
	ens, err := fitEnsembles(m, env,
		func(s EasySettings, progress func(done, total int)) ([]*Ensemble, error) {
			return FitEasy(ctx, train, s, env.Seed, env.Threads(), progress)
		},
		func(s Settings, progress func(done, total int)) (*Ensemble, error) {
			return Fit(ctx, train, s, env.Seed, env.Threads(), progress)
		})
	if err != nil {
		return nil, err
	}
	return &Model{fitted[*Ensemble]{ensembles: ens, features: train.Features}}, nil
}

// fitEnsembles fits m's ensembles with its resolved settings: easy's for
// EasyEnsemble (progress by ensembles), else one's single ensemble
// (progress by rounds). Binary and multi-class fits share it.
func fitEnsembles[E any](m *Method, env learn.Env, easy func(EasySettings, func(done, total int)) ([]E, error), one func(Settings, func(done, total int)) (E, error)) ([]E, error) {
	s := m.s.Resolved()
	if m.kind == easyEnsemble {
		return easy(s, func(done, total int) { env.Report("ensembles", done, total) })
	}
	e, err := one(s.Boost, func(done, total int) { env.Report("rounds", done, total) })
	if err != nil {
		return nil, err
	}
	return []E{e}, nil
}

// magic starts a payload; its last byte is the format version.
var magic = []byte("aer.adaboost\x01")

// Load decodes a model written by Model.MarshalBinary (of any of the
// three methods).
func (m *Method) Load(payload []byte) (learn.Scorer, error) {
	if bytes.HasPrefix(payload, quantMagic) {
		return loadQuant(payload)
	}
	ens, names, err := decode(payload, magic, "an AdaBoost", false, func(b []byte, e, p, _ int, errs []float64) (*Ensemble, []byte, error) {
		nt := len(errs)
		trees := make([]*tree.Tree, nt)
		terms := make([][]float64, nt)
		for k := range trees {
			t, rest, err := tree.DecodeTree(b)
			if err != nil {
				return nil, nil, fmt.Errorf("adaboost: ensemble %d, tree %d: %w", e+1, k+1, err)
			}
			if t.NumFeatures != p {
				return nil, nil, fmt.Errorf("adaboost: ensemble %d, tree %d has %d features, the model %d", e+1, k+1, t.NumFeatures, p)
			}
			nodes := t.NumNodes()
			if len(rest) < 8*nodes {
				return nil, nil, errShort
			}
			terms[k] = make([]float64, nodes)
			for node := range terms[k] {
				v := math.Float64frombits(binary.LittleEndian.Uint64(rest[8*node:]))
				// |log p1 - log p0| <= log(1/eps) = 36.04
				if !(math.Abs(v) <= 37) {
					return nil, nil, fmt.Errorf("adaboost: ensemble %d, tree %d, node %d: term %v is out of range", e+1, k+1, node, v)
				}
				terms[k][node] = v
			}
			trees[k], b = t, rest[8*nodes:]
		}
		return &Ensemble{NumFeatures: p, Trees: trees, Errors: errs, Terms: terms}, b, nil
	})
	if err != nil {
		return nil, err
	}
	return &Model{fitted[*Ensemble]{ensembles: ens, features: names}}, nil
}

// errShort is the error of a payload that ends too early.
var errShort = errors.New("adaboost: payload is truncated")

// decode decodes a payload that starts with magic (what names its kind
// in errors): the number of features, of classes when classes is set,
// and of ensembles, then each ensemble (its rounds' errors, checked, and
// the rest by ensemble), then the feature names.
func decode[E any](payload, magic []byte, what string, classes bool, ensemble func(b []byte, e, p, k int, errs []float64) (E, []byte, error)) ([]E, []string, error) {
	if !bytes.HasPrefix(payload, magic) {
		return nil, nil, fmt.Errorf("adaboost: not %s payload", what)
	}
	b := payload[len(magic):]
	if len(b) < 8 {
		return nil, nil, errShort
	}
	p, k := int(binary.LittleEndian.Uint32(b)), 0
	b = b[4:]
	if classes {
		if len(b) < 8 {
			return nil, nil, errShort
		}
		k, b = int(binary.LittleEndian.Uint32(b)), b[4:]
		if k < 2 || k > tree.MaxClasses {
			return nil, nil, fmt.Errorf("adaboost: %d classes", k)
		}
	}
	ne := int(binary.LittleEndian.Uint32(b))
	b = b[4:]
	if ne == 0 || ne > len(b) {
		return nil, nil, errShort
	}
	ens := make([]E, ne)
	for e := range ens {
		if len(b) < 4 {
			return nil, nil, errShort
		}
		nt := int(binary.LittleEndian.Uint32(b))
		b = b[4:]
		if nt == 0 || nt > len(b)/8 {
			return nil, nil, errShort
		}
		errs := make([]float64, nt)
		for j := range errs {
			errs[j] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*j:]))
			if !(errs[j] >= 0 && errs[j] <= 1) {
				return nil, nil, fmt.Errorf("adaboost: ensemble %d, round %d: error %v is not in [0, 1]", e+1, j+1, errs[j])
			}
		}
		var err error
		if ens[e], b, err = ensemble(b[8*nt:], e, p, k, errs); err != nil {
			return nil, nil, err
		}
	}
	names, rest, err := tree.DecodeNames(b, p)
	if err != nil {
		return nil, nil, fmt.Errorf("adaboost: %w", err)
	}
	if len(rest) != 0 {
		return nil, nil, fmt.Errorf("adaboost: %d bytes after the model", len(rest))
	}
	return ens, names, nil
}

// FitClasses boosts on train, whose labels are 0..k-1 (valid is not
// used): RUSBoost and AdaBoost one SAMME.R ensemble on K classes,
// EasyEnsemble its ensembles in parallel on the Env's workers; no model
// depends on their number. The learn.ClassFitter contract.
func (m *Method) FitClasses(ctx context.Context, train, _ *learn.Data, k int, env learn.Env) (learn.Model, error) {
	ens, err := fitEnsembles(m, env,
		func(s EasySettings, progress func(done, total int)) ([]*MultiEnsemble, error) {
			return FitEasyMulti(ctx, train, k, s, env.Seed, env.Threads(), progress)
		},
		func(s Settings, progress func(done, total int)) (*MultiEnsemble, error) {
			return FitClasses(ctx, train, k, s, env.Seed, env.Threads(), progress)
		})
	if err != nil {
		return nil, err
	}
	return &MultiModel{fitted[*MultiEnsemble]{ensembles: ens, features: train.Features}}, nil
}

// magicMulti starts a multi-class payload; its last byte is the format
// version.
var magicMulti = []byte("aer.adaboost.multi\x01")

// LoadClasses decodes a model written by MultiModel.MarshalBinary (the
// learn.ClassFitter contract).
func (m *Method) LoadClasses(payload []byte) (learn.Model, error) {
	ens, names, err := decode(payload, magicMulti, "a multi-class AdaBoost", true, func(b []byte, e, p, k int, errs []float64) (*MultiEnsemble, []byte, error) {
		me := &MultiEnsemble{NumFeatures: p, Classes: k, Errors: errs}
		for j := range errs {
			t, rest, err := tree.DecodeTreeMulti(b)
			if err != nil {
				return nil, nil, fmt.Errorf("adaboost: ensemble %d, tree %d: %w", e+1, j+1, err)
			}
			if t.NumFeatures != p || t.Classes != k {
				return nil, nil, fmt.Errorf("adaboost: ensemble %d, tree %d has %d features and %d classes, the model %d and %d", e+1, j+1, t.NumFeatures, t.Classes, p, k)
			}
			me.Trees = append(me.Trees, t)
			me.terms = append(me.terms, samme(t))
			b = rest
		}
		return me, b, nil
	})
	if err != nil {
		return nil, err
	}
	return &MultiModel{fitted[*MultiEnsemble]{ensembles: ens, features: names}}, nil
}

var _ learn.ClassFitter = (*Method)(nil)

// ensemble is what the models ask of their ensembles, of two classes
// (Ensemble) or K (MultiEnsemble).
type ensemble interface {
	rounds() (p int, trees []*tree.Tree, errs []float64)
	Importance() []float64
}

func (e *Ensemble) rounds() (int, []*tree.Tree, []float64) { return e.NumFeatures, e.Trees, e.Errors }

func (e *MultiEnsemble) rounds() (int, []*tree.Tree, []float64) {
	return e.NumFeatures, e.Trees, e.Errors
}

// fitted is what both models hold: the ensembles and the feature names.
type fitted[E ensemble] struct {
	ensembles []E
	features  []string
	quant     *learn.Quantization // how the model was quantised; nil: it was not
}

// Ensembles returns the fitted ensembles.
func (m *fitted[E]) Ensembles() []E { return m.ensembles }

// NumFeatures returns the number of input features.
func (m *fitted[E]) NumFeatures() int {
	p, _, _ := m.ensembles[0].rounds()
	return p
}

// NumParams is the number of leaves of all trees.
func (m *fitted[E]) NumParams() int {
	n := 0
	for _, e := range m.ensembles {
		_, trees, _ := e.rounds()
		for _, t := range trees {
			n += t.NumLeaves()
		}
	}
	return n
}

// Summary reports the ensembles' sizes, the rounds' errors and the
// feature importances.
func (m *fitted[E]) Summary() any {
	s := &Summary{Ensembles: len(m.ensembles), Leaves: m.NumParams()}
	imp := make([]float64, m.NumFeatures())
	for _, e := range m.ensembles {
		_, trees, _ := e.rounds()
		s.Rounds = append(s.Rounds, len(trees))
		for j, v := range e.Importance() {
			imp[j] += v
		}
	}
	tree.Normalize(imp)
	s.Importance = tree.Importances(imp, m.features)
	if len(m.ensembles) == 1 {
		_, _, s.Errors = m.ensembles[0].rounds()
	}
	return s
}

// marshal encodes, after magic and header, each ensemble (its rounds'
// errors, then each tree by appendTree, given its index) and the feature
// names.
func (m *fitted[E]) marshal(magic []byte, header []int, appendTree func(b []byte, e E, j int, t *tree.Tree) ([]byte, error)) ([]byte, error) {
	b := bytes.Clone(magic)
	for _, v := range header {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(m.ensembles)))
	for _, e := range m.ensembles {
		_, trees, errs := e.rounds()
		b = binary.LittleEndian.AppendUint32(b, uint32(len(trees)))
		for _, v := range errs {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		for j, t := range trees {
			var err error
			if b, err = appendTree(b, e, j, t); err != nil {
				return nil, err
			}
		}
	}
	return tree.AppendNames(b, m.features), nil
}

// Model is a fitted AdaBoost, RUSBoost or EasyEnsemble of two classes
// on the learn contract: the mean of its ensembles' probabilities (one
// ensemble but for EasyEnsemble).
type Model struct{ fitted[*Ensemble] }

// PredictRow returns the probability of class 1 of one row.
func (m *Model) PredictRow(row []float64) float64 {
	if len(m.ensembles) == 1 {
		return m.ensembles[0].PredictRow(row)
	}
	s := 0.0
	for _, e := range m.ensembles {
		s += e.PredictRow(row)
	}
	return s / float64(len(m.ensembles))
}

// PositiveProba writes the probability of class 1 of each row of x.
func (m *Model) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	n, c := x.Dims()
	if c != m.NumFeatures() {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, m.NumFeatures())
	}
	if len(dst) < n {
		dst = make([]float64, n)
	}
	raw := x.RawMatrix()
	for i := range n {
		dst[i] = m.PredictRow(raw.Data[i*raw.Stride : i*raw.Stride+c])
	}
	return dst[:n], nil
}

// MarshalBinary encodes the ensembles (each its rounds' errors, then each
// tree and its leaves' terms) and the feature names.
func (m *Model) MarshalBinary() ([]byte, error) {
	if m.quant != nil {
		return m.marshalQuant()
	}
	return m.marshal(magic, []int{m.NumFeatures()}, func(b []byte, e *Ensemble, j int, t *tree.Tree) ([]byte, error) {
		b, err := t.AppendBinary(b)
		if err != nil {
			return nil, err
		}
		for _, v := range e.Terms[j] {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		return b, nil
	})
}

// Summary is the report of a fit.
type Summary struct {
	Ensembles int `json:"ensembles"`
	// Rounds is the number of trees of each ensemble.
	Rounds []int `json:"rounds"`
	Leaves int   `json:"leaves"`
	// Errors is each round's weighted training error, for one ensemble.
	Errors []float64 `json:"errors,omitempty"`
	// Importance is the mean over ensembles of scikit-learn's
	// feature_importances_, the features with a positive one, largest
	// first.
	Importance []tree.FeatureImportance `json:"importance"`
}

// String is the summary in one line, for aer fit's text output.
func (s *Summary) String() string {
	trees := 0
	for _, r := range s.Rounds {
		trees += r
	}
	out := fmt.Sprintf("%d trees (%d leaves)", trees, s.Leaves)
	if s.Ensembles > 1 {
		out = fmt.Sprintf("%d ensembles, %s", s.Ensembles, out)
	}
	if n := len(s.Errors); n > 0 {
		out += fmt.Sprintf(", last round's weighted error %.4f", s.Errors[n-1])
	}
	out += tree.TopImportances(s.Importance)
	return out
}

// Explain breaks a row's score down by ensemble and by round.
func (m *Model) Explain(row []float64) (learn.Explanation, error) {
	if len(row) != m.NumFeatures() {
		return nil, fmt.Errorf("%w: row has %d values, the model %d features", learn.ErrData, len(row), m.NumFeatures())
	}
	x := &Explanation{Score: m.PredictRow(row)}
	for _, e := range m.ensembles {
		ee := EnsembleExplanation{Terms: make([]float64, len(e.Trees))}
		for k, t := range e.Trees {
			ee.Terms[k] = e.Terms[k][t.Leaf(row)]
		}
		ee.Decision = e.Decision(row)
		ee.Probability = sigmoid(ee.Decision)
		x.Ensembles = append(x.Ensembles, ee)
	}
	return x, nil
}

// Explanation is a row's score, the mean of its ensembles' probabilities.
type Explanation struct {
	Score     float64               `json:"score"`
	Ensembles []EnsembleExplanation `json:"ensembles"`
}

// EnsembleExplanation is one ensemble's part: its probability, the
// logistic function of its decision, the mean of its rounds' terms
// log p1 - log p0.
type EnsembleExplanation struct {
	Probability float64   `json:"probability"`
	Decision    float64   `json:"decision"`
	Terms       []float64 `json:"terms"`
}

// WriteText writes the score, each ensemble's probability and decision,
// and the rounds that moved the decision most.
func (x *Explanation) WriteText(w io.Writer) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "score %.4f", x.Score)
	if len(x.Ensembles) > 1 {
		fmt.Fprintf(&buf, ", the mean of %d ensembles' probabilities", len(x.Ensembles))
	}
	buf.WriteString("\n")
	for e, ee := range x.Ensembles {
		order := make([]int, len(ee.Terms))
		for k := range order {
			order[k] = k
		}
		sort.SliceStable(order, func(a, b int) bool { return math.Abs(ee.Terms[order[a]]) > math.Abs(ee.Terms[order[b]]) })
		var top []string
		for _, k := range order[:min(3, len(order))] {
			top = append(top, fmt.Sprintf("round %d %+.3f", k+1, ee.Terms[k]))
		}
		name := "ensemble"
		if len(x.Ensembles) > 1 {
			name = fmt.Sprintf("ensemble %d", e+1)
		}
		fmt.Fprintf(&buf, "  %s: P(1) %.4f, decision %+.4f (mean of %d rounds' log p1 - log p0; largest %s)\n",
			name, ee.Probability, ee.Decision, len(ee.Terms), strings.Join(top, ", "))
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// NumClasses is 2: Model scores the positive class (PositiveProba).
func (m *Model) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (m *Model) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(m, x, dst)
}

// MultiModel is a fitted multi-class AdaBoost, RUSBoost or EasyEnsemble
// (learn.MultiModel): the mean of its ensembles' class probabilities
// (one ensemble but for EasyEnsemble).
type MultiModel struct{ fitted[*MultiEnsemble] }

// NumClasses returns the number of classes.
func (m *MultiModel) NumClasses() int { return m.ensembles[0].Classes }

// PredictProba writes the class probabilities of each row of x,
// Classes() per row: the mean over the ensembles of the softmax of their
// decisions over K-1.
func (m *MultiModel) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	n, c := x.Dims()
	if c != m.NumFeatures() {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, m.NumFeatures())
	}
	k := m.NumClasses()
	if len(dst) < n*k {
		dst = make([]float64, n*k)
	}
	dst = dst[:n*k]
	raw := x.RawMatrix()
	one := make([]float64, k)
	for i := range n {
		row, out := raw.Data[i*raw.Stride:i*raw.Stride+c], dst[i*k:(i+1)*k]
		if len(m.ensembles) == 1 {
			m.ensembles[0].predictRow(row, out)
			continue
		}
		clear(out)
		for _, e := range m.ensembles {
			e.predictRow(row, one)
			for j, v := range one {
				out[j] += v
			}
		}
		for j := range out {
			out[j] /= float64(len(m.ensembles))
		}
	}
	return dst, nil
}

// MarshalBinary encodes the ensembles (each its rounds' errors, then its
// multi-class trees; the terms follow from the trees) and the feature
// names.
func (m *MultiModel) MarshalBinary() ([]byte, error) {
	return m.marshal(magicMulti, []int{m.NumFeatures(), m.NumClasses()}, func(b []byte, _ *MultiEnsemble, _ int, t *tree.Tree) ([]byte, error) {
		return t.AppendBinaryMulti(b)
	})
}

// PreferDecomposition makes one-vs-rest the default of RUSBoost,
// EasyEnsemble and AdaBoost on multi-class labels (multiclass.Decomposer;
// "ovr" is multiclass.OneVsRest), the native SAMME.R model being asked
// for by name (aer fit --multiclass native). On the 5 shared multi-class
// tables, 3:1:1 splits with seeds 0-2, native was below one-vs-rest:
// rusboost by 0.078 balanced accuracy (standard error 0.028),
// easy-ensemble by 0.111 (0.021), as imbalanced-learn's own are (SAMME.R
// over stumps on several classes).
func (m *Method) PreferDecomposition() string { return "ovr" }

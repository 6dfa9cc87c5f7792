package decompose

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
)

// MaxClasses is the most classes a decomposition loads.
const MaxClasses = 10_000

// Strategies of decomposition.
const (
	// OneVsRest fits one binary model per class, the class against all
	// others, and normalises their probabilities to sum to 1
	// (scikit-learn's OneVsRestClassifier).
	OneVsRest = "ovr"
	// OneVsOne fits one binary model per pair of classes on the rows of
	// those two, and couples the pairwise probabilities into class
	// probabilities (Wu, Lin and Weng's second method, as LIBSVM and
	// scikit-learn's SVC do).
	OneVsOne = "ovo"
)

// Member is one binary model of a decomposition: class A against class B
// (B = -1: against every other class), and the decision layer fitted in
// front of it on the validation rows (nil without them), whose
// calibration makes its scores probabilities.
type Member struct {
	A, B  int
	Model learn.Scorer
	Layer *decision.Layer
}

// Model is a multi-class model made of binary ones.
type Model struct {
	Strategy string
	K        int
	Members  []Member
	nf       int
}

// Fit decomposes train (labels 0..k-1) into binary problems by strategy
// and fits method on each, with the validation rows' matching part for
// its tuning and decision layer (decision.Options zero value: a sigmoid
// calibration). Member i's seed is derived from env.Seed and its place,
// so the model does not depend on the order of the fits.
func Fit(ctx context.Context, method learn.Method, strategy string, train, valid *learn.Data, k int, env learn.Env) (*Model, error) {
	if k < 3 {
		return nil, fmt.Errorf("%w: a decomposition needs 3 or more classes, have %d", learn.ErrData, k)
	}
	pairs, err := Pairs(strategy, k)
	if err != nil {
		return nil, err
	}
	m := &Model{Strategy: strategy, K: k, Members: make([]Member, len(pairs)), nf: train.Cols()}
	layered := decision.Wrap(method, decision.Options{})
	for i, p := range pairs {
		// Each member copies its rows first: a cancelled fit of many
		// classes stops between members, not only inside a fit.
		if err := learn.Interrupted(ctx); err != nil {
			return nil, err
		}
		tr, err := binary(train, p[0], p[1])
		if err != nil {
			return nil, fmt.Errorf("training data, %s: %w", pairName(p), err)
		}
		var va *learn.Data
		if valid != nil {
			if va, err = binary(valid, p[0], p[1]); err != nil {
				va = nil // no validation rows of both sides: no layer
			}
		}
		e := env
		e.Seed = rng.DeriveSeed(env.Seed, uint64(i))
		e.ConsumeTrain = false
		fitted, err := layered.Fit(ctx, tr, va, e)
		if err != nil {
			return nil, fmt.Errorf("%s model %s: %w", method.Name(), pairName(p), err)
		}
		m.Members[i] = Member{A: p[0], B: p[1], Model: decision.Detach(fitted), Layer: decision.LayerOf(fitted)}
	}
	return m, nil
}

// Pairs lists the binary problems of strategy for k classes: (c, -1) for
// one-vs-rest, (a, b) with a < b for one-vs-one.
func Pairs(strategy string, k int) ([][2]int, error) {
	var out [][2]int
	switch strategy {
	case OneVsRest:
		for c := range k {
			out = append(out, [2]int{c, -1})
		}
	case OneVsOne:
		for a := range k {
			for b := a + 1; b < k; b++ {
				out = append(out, [2]int{a, b})
			}
		}
	default:
		return nil, fmt.Errorf("%w: multiclass %q: want %s or %s", learn.ErrParam, strategy, OneVsRest, OneVsOne)
	}
	return out, nil
}

func pairName(p [2]int) string {
	if p[1] < 0 {
		return fmt.Sprintf("class %d vs rest", p[0])
	}
	return fmt.Sprintf("class %d vs %d", p[0], p[1])
}

// binary returns d as the binary problem a against b (b < 0: every other
// class): label 1 for class a. For a pair, only the rows of a and b.
func binary(d *learn.Data, a, b int) (*learn.Data, error) {
	var rows []int
	for i, y := range d.Y {
		if b < 0 || y == a || y == b {
			rows = append(rows, i)
		}
	}
	out := d
	if b >= 0 {
		out = d.Subset(rows)
	} else {
		c := *d
		out = &c
	}
	y := make([]int, len(out.Y))
	pos := 0
	for i, v := range out.Y {
		if v == a {
			y[i] = 1
			pos++
		}
	}
	if pos == 0 || pos == len(y) {
		return nil, fmt.Errorf("%w: %d rows of the class against %d", learn.ErrData, pos, len(y)-pos)
	}
	out.Y = y
	return out, nil
}

// NumClasses returns the number of classes.
func (m *Model) NumClasses() int { return m.K }

// NumFeatures returns the number of features.
func (m *Model) NumFeatures() int { return m.nf }

// scorer is a member's model behind its layer.
func (mb *Member) scorer() learn.Scorer {
	if mb.Layer != nil {
		return decision.Attach(mb.Model, mb.Layer)
	}
	return mb.Model
}

// PredictProba returns the class probabilities of x's rows,
// row-major, K per row.
func (m *Model) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	r, _ := x.Dims()
	k := m.K
	if cap(dst) < r*k {
		dst = make([]float64, r*k)
	}
	dst = dst[:r*k]
	scores := make([][]float64, len(m.Members))
	for i := range m.Members {
		s, err := m.Members[i].scorer().PositiveProba(x, nil)
		if err != nil {
			return nil, fmt.Errorf("member %s: %w", pairName([2]int{m.Members[i].A, m.Members[i].B}), err)
		}
		scores[i] = s
	}
	switch m.Strategy {
	case OneVsRest:
		for i := range r {
			row := dst[i*k : (i+1)*k]
			sum := 0.0
			for c := range k {
				row[c] = clip01(scores[c][i])
				sum += row[c]
			}
			for c := range row {
				if sum > 0 {
					row[c] /= sum
				} else {
					row[c] = 1 / float64(k)
				}
			}
		}
	case OneVsOne:
		rp := make([][]float64, k)
		for a := range rp {
			rp[a] = make([]float64, k)
		}
		for i := range r {
			for j, mb := range m.Members {
				p := min(max(scores[j][i], 1e-7), 1-1e-7)
				rp[mb.A][mb.B], rp[mb.B][mb.A] = p, 1-p
			}
			couple(rp, dst[i*k:(i+1)*k])
		}
	default:
		return nil, fmt.Errorf("multiclass: strategy %q", m.Strategy)
	}
	return dst, nil
}

func clip01(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return min(max(v, 0), 1)
}

// couple turns pairwise probabilities r[a][b] = P(a | a or b) into class
// probabilities p (Wu, Lin and Weng 2004, method 2: the p minimising
// sum over pairs of (r[b][a] p_a - r[a][b] p_b)^2 on the simplex, by
// LIBSVM's fixed-point iteration).
func couple(r [][]float64, p []float64) {
	k := len(p)
	q := make([][]float64, k)
	for t := range q {
		q[t] = make([]float64, k)
		p[t] = 1 / float64(k)
		for j := range k {
			if j != t {
				q[t][t] += r[j][t] * r[j][t]
				q[t][j] = -r[j][t] * r[t][j]
			}
		}
	}
	qp := make([]float64, k)
	eps := 0.005 / float64(k)
	for iter := 0; iter < max(100, k); iter++ {
		pqp := 0.0
		for t := range k {
			qp[t] = 0
			for j := range k {
				qp[t] += q[t][j] * p[j]
			}
			pqp += p[t] * qp[t]
		}
		worst := 0.0
		for t := range k {
			worst = max(worst, math.Abs(qp[t]-pqp))
		}
		if worst < eps {
			break
		}
		for t := range k {
			diff := (-qp[t] + pqp) / q[t][t]
			p[t] += diff
			pqp = (pqp + diff*(diff*q[t][t]+2*qp[t])) / (1 + diff) / (1 + diff)
			for j := range k {
				qp[j] = (qp[j] + diff*q[t][j]) / (1 + diff)
				p[j] /= 1 + diff
			}
		}
	}
}

// encoded is a Model on the wire: each member's payload (its method's
// MarshalBinary) and decision layer.
type encoded struct {
	Strategy string          `json:"strategy"`
	Classes  int             `json:"classes"`
	Features int             `json:"features"`
	Members  []encodedMember `json:"members"`
}

type encodedMember struct {
	A       int             `json:"a"`
	B       int             `json:"b"`
	Payload []byte          `json:"payload"`
	Layer   *decision.Layer `json:"layer,omitempty"`
}

// MarshalBinary encodes the model.
func (m *Model) MarshalBinary() ([]byte, error) {
	e := encoded{Strategy: m.Strategy, Classes: m.K, Features: m.nf}
	for _, mb := range m.Members {
		b, err := mb.Model.MarshalBinary()
		if err != nil {
			return nil, err
		}
		e.Members = append(e.Members, encodedMember{A: mb.A, B: mb.B, Payload: b, Layer: mb.Layer})
	}
	return json.Marshal(e)
}

// Load decodes a model written by MarshalBinary whose members method
// loads.
func Load(payload []byte, method learn.Method) (*Model, error) {
	var e encoded
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return nil, fmt.Errorf("multiclass: decoding: %w", err)
	}
	// The member count is checked before the pairs are listed: a crafted
	// class count must not allocate their list.
	want := e.Classes
	if e.Strategy == OneVsOne {
		want = e.Classes * (e.Classes - 1) / 2
	}
	if e.Classes < 3 || e.Classes > MaxClasses || len(e.Members) != want {
		return nil, fmt.Errorf("multiclass: %d members for %d classes (%s)", len(e.Members), e.Classes, e.Strategy)
	}
	pairs, err := Pairs(e.Strategy, e.Classes)
	if err != nil {
		return nil, err
	}
	m := &Model{Strategy: e.Strategy, K: e.Classes, nf: e.Features}
	for i, em := range e.Members {
		if [2]int{em.A, em.B} != pairs[i] {
			return nil, fmt.Errorf("multiclass: member %d is %s, want %s", i, pairName([2]int{em.A, em.B}), pairName(pairs[i]))
		}
		mb, err := method.Load(em.Payload)
		if err != nil {
			return nil, fmt.Errorf("multiclass: member %s: %w", pairName(pairs[i]), err)
		}
		if mb.NumFeatures() != e.Features {
			return nil, fmt.Errorf("multiclass: member %s has %d features, want %d", pairName(pairs[i]), mb.NumFeatures(), e.Features)
		}
		if em.Layer != nil {
			if err := em.Layer.Check(); err != nil {
				return nil, fmt.Errorf("multiclass: member %s: %w", pairName(pairs[i]), err)
			}
		}
		m.Members = append(m.Members, Member{A: em.A, B: em.B, Model: mb, Layer: em.Layer})
	}
	return m, nil
}

var _ learn.Model = (*Model)(nil)

// ErrClasses is returned for labels out of 0..k-1.
var ErrClasses = errors.New("multiclass: label out of range")

// CheckLabels checks that y's labels are in 0..k-1 and each class has a
// row.
func CheckLabels(y []int, k int) error {
	seen := make([]bool, k)
	for i, v := range y {
		if v < 0 || v >= k {
			return fmt.Errorf("%w: row %d: %d, want 0..%d", ErrClasses, i+1, v, k-1)
		}
		seen[v] = true
	}
	if i := slices.Index(seen, false); i >= 0 {
		return fmt.Errorf("%w: no row of class %d", learn.ErrData, i)
	}
	return nil
}

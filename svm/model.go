package svm

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// Model is a fitted support vector machine: the decision function
//
//	f(x) = sum_s coef_s K(sv_s, x) + intercept
//
// (positive for the positive class; coef_s = y_s alpha_s with y = +1 for
// the positive class, scikit-learn's dual_coef_), and the Platt sigmoid
// that maps f to a probability.
type Model struct {
	k         kernelFunc
	sv        *lanes    // support vectors, negative class first
	coef      []float64 // dual coefficients
	coefPad   []float64 // coef padded with zeros to whole blocks
	support   []int     // training row of each support vector (0-based)
	intercept float64
	plattA    float64
	plattB    float64
	w         []float64 // linear kernel: sum_s coef_s sv_s
	summary   *Summary
	means     []float64           // training rows' feature means: the attributions' reference
	quant     *learn.Quantization // how the model was quantised; nil for a full model
	qpayload  []byte              // a quantised model's encoding (quantize.go)
}

// Summary reports what a fit found.
type Summary struct {
	Kernel string  `json:"kernel"`
	Gamma  float64 `json:"gamma,omitempty"`
	Degree int     `json:"degree,omitempty"`
	Coef0  float64 `json:"coef0,omitempty"`
	C      float64 `json:"C"`
	// ClassWeights are the weights of class 0 and class 1 multiplying C.
	ClassWeights [2]float64 `json:"class_weights"`
	// SupportVectors counts the support vectors of class 0 and class 1.
	SupportVectors [2]int `json:"support_vectors"`
	// AtBound counts the support vectors whose coefficient is at its
	// bound C_i.
	AtBound   int     `json:"support_vectors_at_bound"`
	Intercept float64 `json:"intercept"`
	// Objective is the dual objective a'Qa/2 - e'a at the solution.
	Objective  float64 `json:"objective"`
	Iterations int     `json:"iterations"`
	// Converged is false when the solver stopped at max_iter.
	Converged bool `json:"converged"`
	// PlattA and PlattB define P(positive | f) = 1/(1+exp(A f + B)),
	// fitted on PlattRows ("validation" or "training") rows.
	PlattA    float64 `json:"platt_a"`
	PlattB    float64 `json:"platt_b"`
	PlattRows string  `json:"platt_rows"`
}

// String is the summary in one line, for aer fit's text output.
func (s *Summary) String() string {
	k := s.Kernel
	switch s.Kernel {
	case RBF:
		k += fmt.Sprintf(" (gamma %.4g)", s.Gamma)
	case Polynomial:
		k += fmt.Sprintf(" (degree %d, gamma %.4g, coef0 %.4g)", s.Degree, s.Gamma, s.Coef0)
	}
	out := fmt.Sprintf("%s kernel: %d support vectors (%d negative, %d positive; %d at the bound), intercept %.4g, %d iterations",
		k, s.SupportVectors[0]+s.SupportVectors[1], s.SupportVectors[0], s.SupportVectors[1], s.AtBound, s.Intercept, s.Iterations)
	if !s.Converged {
		out += " (stopped at max_iter)"
	}
	return out + fmt.Sprintf("; Platt sigmoid A %.4g, B %.4g on the %s rows", s.PlattA, s.PlattB, s.PlattRows)
}

// newModel builds a model from its support vectors, their coefficients
// and training rows.
func newModel(k kernelFunc, sv *lanes, support []int, coef []float64, intercept float64) *Model {
	m := &Model{k: k, sv: sv, coef: coef, support: support, intercept: intercept}
	m.prepare()
	return m
}

// prepare computes what prediction needs beyond the support vectors.
func (m *Model) prepare() {
	m.coefPad = make([]float64, m.sv.blocks()*lane)
	copy(m.coefPad, m.coef)
	if m.k.kind != kLinear {
		return
	}
	m.w = make([]float64, m.sv.d)
	row := make([]float64, m.sv.d)
	for s, c := range m.coef {
		for f, v := range m.sv.row(s, row) {
			m.w[f] += c * v
		}
	}
}

// NumFeatures is the number of features the model expects.
func (m *Model) NumFeatures() int { return m.sv.d }

// NumParams is the number of dual coefficients plus the intercept.
func (m *Model) NumParams() int { return len(m.coef) + 1 }

// Intercept returns the bias of the decision function.
func (m *Model) Intercept() float64 { return m.intercept }

// DualCoef returns the dual coefficients y_s alpha_s of the support
// vectors (negative class first, then positive, each in training order).
func (m *Model) DualCoef() []float64 { return append([]float64(nil), m.coef...) }

// Support returns the training rows (0-based, among the rows Fit was
// given) of the support vectors, in the order of DualCoef.
func (m *Model) Support() []int { return append([]int(nil), m.support...) }

// Kernel returns the kernel: its name (Linear, RBF or Polynomial) and
// coefficients, K(u, v) = u.v, exp(-gamma |u-v|^2) or
// (gamma u.v + coef0)^degree.
func (m *Model) Kernel() (name string, gamma, coef0 float64, degree int) {
	return kernelNames[m.k.kind], m.k.gamma, m.k.coef0, m.k.degree
}

// SupportVectors returns a copy of the support vectors, one row each, in
// the order of DualCoef.
func (m *Model) SupportVectors() *mat.Dense {
	if len(m.coef) == 0 {
		return nil
	}
	out := mat.NewDense(len(m.coef), m.sv.d, nil)
	row := make([]float64, m.sv.d)
	for s := range m.coef {
		out.SetRow(s, m.sv.row(s, row))
	}
	return out
}

// Platt returns the sigmoid's A and B: P(positive | f) = 1/(1+exp(A f + B)).
func (m *Model) Platt() (a, b float64) { return m.plattA, m.plattB }

// Summary returns what the fit found, or what the file recorded.
func (m *Model) Summary() any {
	if m.summary == nil {
		return nil
	}
	return m.summary
}

// Decision writes the decision value of every row of x into dst
// (allocated when too short) and returns it; one goroutine.
func (m *Model) Decision(x *mat.Dense, dst []float64) ([]float64, error) {
	r, c := x.Dims()
	if c != m.sv.d {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, m.sv.d)
	}
	raw := x.RawMatrix()
	for i := range r {
		for f, v := range raw.Data[i*raw.Stride : i*raw.Stride+c] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: row %d, feature %d: %v (the svm needs complete finite features; the registered method imputes missing values)", learn.ErrData, i+1, f+1, v)
			}
		}
	}
	if cap(dst) < r {
		dst = make([]float64, r)
	}
	dst = dst[:r]
	row := func(i int) []float64 { return raw.Data[i*raw.Stride : i*raw.Stride+c] }
	if m.w != nil || len(m.coef) == 0 {
		for i := range r {
			s := m.intercept
			for f, v := range row(i) {
				if m.w != nil {
					s += m.w[f] * v
				}
			}
			dst[i] = s
		}
		return dst, nil
	}
	// Four rows at a time share each pass over the support vectors; a
	// row's value is the same in a group of four or alone.
	nb := m.sv.blocks()
	width := nb * lane
	scratch := make([]float64, 4*width)
	q := make([]float64, 4*c)
	i := 0
	for ; i+4 <= r; i += 4 {
		for k := range 4 {
			copy(q[k*c:(k+1)*c], row(i+k))
		}
		dotLanes4(m.sv.xt, nb, c, q, scratch, width)
		for k := range 4 {
			dst[i+k] = m.finishRow(scratch[k*width:(k+1)*width], sqNorm(q[k*c:(k+1)*c]))
		}
	}
	for ; i < r; i++ {
		s := scratch[:width]
		dotLanes(m.sv.xt, nb, c, row(i), s)
		dst[i] = m.finishRow(s, sqNorm(row(i)))
	}
	return dst, nil
}

// finishRow turns the dot products s of a row (squared norm sqv) with the
// support vectors into its decision value.
func (m *Model) finishRow(s []float64, sqv float64) float64 {
	m.k.finish(s, m.sv.sq, m.coefPad, sqv, 1)
	sum := 0.0
	for _, v := range s[:len(m.coef)] {
		sum += v
	}
	return sum + m.intercept
}

// PositiveProba writes the Platt probability of the positive class of
// every row of x into dst and returns it.
func (m *Model) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	dst, err := m.Decision(x, dst)
	if err != nil {
		return nil, err
	}
	for i, f := range dst {
		dst[i] = plattProb(f, m.plattA, m.plattB)
	}
	return dst, nil
}

// The payload: magic, a JSON header, then little-endian arrays: the
// training rows of the support vectors (int64), their coefficients and
// their feature values row by row (float64).
const magic = "aer-svm\x01"

type header struct {
	Kernel    string   `json:"kernel"`
	Gamma     float64  `json:"gamma"`
	Coef0     float64  `json:"coef0"`
	Degree    int      `json:"degree"`
	Features  int      `json:"features"`
	Support   int      `json:"support_vectors"`
	Intercept float64  `json:"intercept"`
	PlattA    float64  `json:"platt_a"`
	PlattB    float64  `json:"platt_b"`
	Summary   *Summary `json:"summary,omitempty"`
	// Means are the training rows' feature means (Attribute's
	// reference); files written before attributions lack them.
	Means []float64 `json:"means,omitempty"`
}

var kernelNames = [...]string{kLinear: Linear, kRBF: RBF, kPoly: Polynomial}

// MarshalBinary encodes the model for Method.Load.
func (m *Model) MarshalBinary() ([]byte, error) {
	if m.quant != nil {
		return bytes.Clone(m.qpayload), nil
	}
	h := header{Kernel: kernelNames[m.k.kind], Gamma: m.k.gamma, Coef0: m.k.coef0, Degree: m.k.degree,
		Features: m.sv.d, Support: len(m.coef), Intercept: m.intercept, PlattA: m.plattA, PlattB: m.plattB, Summary: m.summary, Means: m.means}
	js, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("svm: encoding the model: %w", err)
	}
	var buf bytes.Buffer
	buf.WriteString(magic)
	binary.Write(&buf, binary.LittleEndian, uint32(len(js)))
	buf.Write(js)
	for _, r := range m.support {
		binary.Write(&buf, binary.LittleEndian, int64(r))
	}
	binary.Write(&buf, binary.LittleEndian, m.coef)
	row := make([]float64, m.sv.d)
	for s := range m.coef {
		binary.Write(&buf, binary.LittleEndian, m.sv.row(s, row))
	}
	return buf.Bytes(), nil
}

// decode reads a payload written by MarshalBinary, checking everything.
func decode(p []byte) (*Model, error) {
	bad := func(format string, a ...any) (*Model, error) {
		return nil, fmt.Errorf("svm: decoding the model: "+format, a...)
	}
	if bytes.HasPrefix(p, []byte(quantMagic)) {
		return decodeQuant(p)
	}
	if !bytes.HasPrefix(p, []byte(magic)) {
		return bad("not an svm model (bad magic)")
	}
	p = p[len(magic):]
	if len(p) < 4 {
		return bad("truncated header")
	}
	n := binary.LittleEndian.Uint32(p)
	p = p[4:]
	if uint64(n) > uint64(len(p)) {
		return bad("truncated header")
	}
	var h header
	if err := json.Unmarshal(p[:n], &h); err != nil {
		return bad("%v", err)
	}
	p = p[n:]
	kind, err := checkHeader(&h)
	if err != nil {
		return bad("%v", err)
	}
	want := uint64(h.Support) * (8 + 8 + 8*uint64(h.Features))
	if uint64(len(p)) != want || want/uint64(h.Features+2) != 8*uint64(h.Support) {
		return bad("%d bytes of arrays, want %d for %d support vectors of %d features", len(p), want, h.Support, h.Features)
	}
	support := make([]int, h.Support)
	for s := range support {
		r := int64(binary.LittleEndian.Uint64(p[8*s:]))
		if r < 0 {
			return bad("support vector %d: training row %d", s+1, r)
		}
		support[s] = int(r)
	}
	p = p[8*h.Support:]
	vals := make([]float64, len(p)/8)
	for i := range vals {
		vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
		if !finite(vals[i]) {
			return bad("value %d is not finite", i+1)
		}
	}
	sv := &lanes{d: h.Features}
	if h.Support > 0 {
		sv = newLanes(mat.NewDense(h.Support, h.Features, vals[h.Support:]), nil)
	}
	m := newModel(kernelFunc{kind: kind, gamma: h.Gamma, coef0: h.Coef0, degree: h.Degree}, sv, support, vals[:h.Support], h.Intercept)
	m.plattA, m.plattB, m.summary, m.means = h.PlattA, h.PlattB, h.Summary, h.Means
	return m, nil
}

// checkHeader checks a payload's header and returns its kernel's kind.
func checkHeader(h *header) (int, error) {
	kind := -1
	for k, name := range kernelNames {
		if name == h.Kernel {
			kind = k
		}
	}
	switch {
	case kind < 0:
		return 0, fmt.Errorf("unknown kernel %q", h.Kernel)
	case !(h.Gamma > 0) || !finite(h.Gamma) || !finite(h.Coef0) || h.Degree < 1 || h.Degree > 1<<20:
		return 0, fmt.Errorf("kernel coefficients gamma %v, coef0 %v, degree %d out of range", h.Gamma, h.Coef0, h.Degree)
	case h.Features < 1 || h.Features > 1<<24 || h.Support < 0:
		return 0, fmt.Errorf("%d features, %d support vectors", h.Features, h.Support)
	case !finite(h.Intercept) || !finite(h.PlattA) || !finite(h.PlattB):
		return 0, fmt.Errorf("intercept or sigmoid not finite")
	case h.Means != nil && len(h.Means) != h.Features:
		return 0, fmt.Errorf("%d training means for %d features", len(h.Means), h.Features)
	}
	for j, v := range h.Means {
		if !finite(v) {
			return 0, fmt.Errorf("training mean %d is not finite", j+1)
		}
	}
	return kind, nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// NumClasses is 2: Model scores the positive class (PositiveProba).
func (m *Model) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (m *Model) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(m, x, dst)
}

package svm

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/quantize"
)

// quant quantises m at precision and checks the copy says so.
func quant(t testing.TB, m *Model, precision string) *Model {
	t.Helper()
	qm, err := m.Quantize(learn.QuantizeOptions{Precision: precision})
	if err != nil {
		t.Fatal(err)
	}
	q := qm.(*Model)
	info, ok := learn.QuantizationOf(q)
	if !ok || info.Precision != precision || info.Trees != 0 || !(info.Bound >= 0 && info.Bound <= 1) {
		t.Fatalf("quantization %+v %v", info, ok)
	}
	if _, ok := learn.QuantizationOf(m); ok && m.quant == nil {
		t.Fatal("the full model says it is quantised")
	}
	return q
}

// maxMove is the largest change of a row's probability between a and b.
func maxMove(t testing.TB, a, b *Model, x *mat.Dense) float64 {
	t.Helper()
	pa, err := a.PositiveProba(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := b.PositiveProba(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	var worst float64
	for i := range pa {
		worst = math.Max(worst, math.Abs(pa[i]-pb[i]))
	}
	return worst
}

// TestQuantize: the quantised RBF model moves no row's probability by
// more than its bound (rows far from the data included), the bound being
// small (int16); its payload is several times smaller,
// loads (Method.Load) to bit-identical predictions and encodes to the
// same bytes; the coefficients are float32 roundings and the support
// vectors within half a step of their feature's scale; int8 is smaller
// still, with a larger bound.
func TestQuantize(t *testing.T) {
	d := problem(t, 400, 20, 31)
	far := mat.DenseCopyOf(d.X)
	for i := range 40 {
		for j := range 20 {
			far.Set(i, j, far.At(i, j)*float64(1+i%7)+float64(i%5-2))
		}
	}
	m := fit(t, d, nil, Settings{}, learn.Env{})
	full := payload(t, m)
	var bounds []float64
	for _, prec := range []string{learn.PrecisionInt16, learn.PrecisionInt8} {
		q := quant(t, m, prec)
		info, _ := q.Quantization()
		bounds = append(bounds, info.Bound)
		for _, x := range []*mat.Dense{d.X, far} {
			if mv := maxMove(t, m, q, x); mv > info.Bound {
				t.Fatalf("%s: a row moved %g > bound %g", prec, mv, info.Bound)
			}
		}
		if !(info.LogitBound > 0) || quantize.SigmoidBound(info.LogitBound) != info.Bound {
			t.Fatalf("%s: bound %v is not the sigmoid of the log-odds bound %v", prec, info.Bound, info.LogitBound)
		}
		b := payload(t, q)
		ratio := float64(len(full)) / float64(len(b))
		if prec == learn.PrecisionInt16 && ratio < 3.3 || prec == learn.PrecisionInt8 && ratio < 5.5 {
			t.Errorf("%s: payload %d bytes, full %d (%.2fx)", prec, len(b), len(full), ratio)
		}
		got, err := NewMethod().Load(b)
		if err != nil {
			t.Fatal(err)
		}
		back := got.(*Model)
		if mv := maxMove(t, q, back, far); mv != 0 || !bytes.Equal(payload(t, back), b) {
			t.Fatalf("%s: the loaded copy moved %g, or encodes differently", prec, mv)
		}
		p1, _ := q.PositiveProba(d.X, nil)
		p2, _ := back.PositiveProba(d.X, nil)
		for i := range p1 {
			if math.Float64bits(p1[i]) != math.Float64bits(p2[i]) {
				t.Fatalf("%s: row %d: %v quantised, %v loaded", prec, i, p1[i], p2[i])
			}
		}
		if bi, _ := back.Quantization(); bi != info {
			t.Fatalf("%s: loaded quantization %+v, want %+v", prec, bi, info)
		}
		levels, _ := quantize.Levels(prec)
		fs, qs := m.SupportVectors(), q.SupportVectors()
		for f := range d.X.RawMatrix().Cols {
			col := mat.Col(nil, f, fs)
			lo, hi := col[0], col[0]
			for _, v := range col {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			step := (hi - lo) / float64(2*levels)
			for s := range col {
				if e := math.Abs(qs.At(s, f) - col[s]); e > step/2*(1+1e-6)+1e-15 {
					t.Fatalf("%s: support vector %d feature %d off by %g, half a step %g", prec, s, f, e, step/2)
				}
			}
		}
		for s, c := range q.DualCoef() {
			if c != float64(float32(m.coef[s])) {
				t.Fatalf("%s: coefficient %d is %v, float32 of %v", prec, s, c, m.coef[s])
			}
		}
		if q.Intercept() != m.Intercept() || !equalFloats(q.means, m.means) || len(q.Support()) != len(m.support) {
			t.Fatalf("%s: intercept, means or support rows changed", prec)
		}
		for s, r := range q.Support() {
			if r != m.support[s] {
				t.Fatalf("%s: support row %d is %d, want %d", prec, s, r, m.support[s])
			}
		}
	}
	if !(bounds[0] > 0 && bounds[0] < 0.01 && bounds[1] > bounds[0]) {
		t.Fatalf("bounds int16 %g, int8 %g", bounds[0], bounds[1])
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestQuantizeKernels: a linear kernel keeps its weights, so every score
// is the full model's bit for bit (bound 0 in log-odds); the polynomial
// kernel has no quantised form; a model without support vectors, and a
// quantised model quantised again (its bound the sum of both roundings'),
// quantise too; an unknown precision is refused.
func TestQuantizeKernels(t *testing.T) {
	d := problem(t, 200, 6, 32)
	lin := fit(t, d, nil, Settings{Kernel: Linear}, learn.Env{})
	q := quant(t, lin, learn.PrecisionInt8)
	p1, _ := lin.PositiveProba(d.X, nil)
	p2, _ := q.PositiveProba(d.X, nil)
	for i := range p1 {
		if math.Float64bits(p1[i]) != math.Float64bits(p2[i]) {
			t.Fatalf("linear row %d: %v full, %v quantised", i, p1[i], p2[i])
		}
	}
	if info, _ := q.Quantization(); info.LogitBound != 0 {
		t.Fatalf("linear log-odds bound %v", info.LogitBound)
	}
	poly := fit(t, d, nil, Settings{Kernel: Polynomial}, learn.Env{})
	if _, err := poly.Quantize(learn.QuantizeOptions{}); !errors.Is(err, learn.ErrNotQuantizable) {
		t.Fatalf("polynomial kernel: %v", err)
	}
	if _, err := lin.Quantize(learn.QuantizeOptions{Precision: "int4"}); !errors.Is(err, learn.ErrParam) {
		t.Fatalf("precision int4: %v", err)
	}
	rbf := fit(t, d, nil, Settings{}, learn.Env{})
	q1 := quant(t, rbf, learn.PrecisionInt8)
	q2 := quant(t, q1, learn.PrecisionInt8)
	i1, _ := q1.Quantization()
	i2, _ := q2.Quantization()
	if !(i2.LogitBound > i1.LogitBound) || maxMove(t, rbf, q2, d.X) > i2.Bound {
		t.Fatalf("quantised twice: %+v, once %+v", i2, i1)
	}
	empty := newModel(rbf.k, &lanes{d: 6}, nil, nil, 0.25)
	empty.plattA, empty.plattB = -1, 0
	qe := quant(t, empty, learn.PrecisionInt16)
	pe, err := qe.PositiveProba(d.X, nil)
	if err != nil || pe[0] != plattProb(0.25, -1, 0) {
		t.Fatalf("no support vectors: %v, %v", pe, err)
	}
	if _, err := decode(payload(t, qe)); err != nil {
		t.Fatal(err)
	}
}

// TestQuantizeAttributions: the quantised model keeps its training means,
// so it explains its own log-odds exactly (base plus attributions).
func TestQuantizeAttributions(t *testing.T) {
	d := problem(t, 200, 8, 33)
	for _, s := range []Settings{{}, {Kernel: Linear}} {
		m := fit(t, d, nil, s, learn.Env{})
		q, err := decode(payload(t, quant(t, m, learn.PrecisionInt8)))
		if err != nil {
			t.Fatal(err)
		}
		a, err := q.Attribute(d.X)
		if err != nil {
			t.Fatal(err)
		}
		lo := logOdds(t, q, d.X)
		for i := range lo {
			if got := a.Output(i); math.Abs(got-lo[i]) > 1e-8*(1+math.Abs(lo[i])) {
				t.Fatalf("%s row %d: base + attributions %v, log-odds %v", s.Kernel, i, got, lo[i])
			}
		}
	}
}

// TestQuantizeOldPayloads: full payloads, with and without the training
// means, still load as full models; a model without means quantises
// without them; a quantised payload with damaged parts (a precision or
// tree count out of range, a bad means flag, trailing bytes, truncation)
// is an error.
func TestQuantizeOldPayloads(t *testing.T) {
	d := problem(t, 100, 4, 34)
	m := fit(t, d, nil, Settings{}, learn.Env{})
	for _, means := range [][]float64{m.means, nil} {
		m.means = means
		got, err := NewMethod().Load(payload(t, m))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := learn.QuantizationOf(got); ok || maxMove(t, m, got.(*Model), d.X) != 0 {
			t.Fatal("a full payload loaded as a quantised or different model")
		}
	}
	// A model without training means quantises without them.
	noMeans, err := decode(payload(t, quant(t, m, learn.PrecisionInt16)))
	if err != nil || noMeans.means != nil {
		t.Fatalf("quantised without means: %v, means %v", err, noMeans.means)
	}
	if _, err := noMeans.Attribute(d.X); !errors.Is(err, learn.ErrNoAttribution) {
		t.Fatalf("quantised without means: %v, want ErrNoAttribution", err)
	}
	m.means = make([]float64, 4)
	b := payload(t, quant(t, m, learn.PrecisionInt16))
	flag := bytes.Clone(b)
	flag[len(flag)-8*4-1] = 2
	bad := [][]byte{flag, b[:len(b)-1], append(bytes.Clone(b), 0), []byte(quantMagic + "\x02{}")}
	edit := func(old, new string) []byte {
		out := bytes.Replace(b, []byte(old), []byte(new), 1)
		if bytes.Equal(out, b) {
			t.Fatalf("%q not in the payload", old)
		}
		return out
	}
	bad = append(bad, edit(`"precision":"int16"`, `"precision":"int32"`), edit(`"trees":0`, `"trees":7`))
	for i, p := range bad {
		if _, err := decode(p); err == nil {
			t.Errorf("damaged payload %d loaded", i)
		}
	}
}

// FuzzDecodeQuant: any bytes after the quantised magic decode to an error
// or to a model that scores rows and encodes to the bytes it came from.
func FuzzDecodeQuant(f *testing.F) {
	d := problem(f, 60, 3, 35)
	for _, s := range []Settings{{}, {Kernel: Linear}} {
		for _, prec := range []string{learn.PrecisionInt16, learn.PrecisionInt8} {
			b := payload(f, quant(f, fit(f, d, nil, s, learn.Env{}), prec))[len(quantMagic):]
			f.Add(b)
			f.Add(b[:len(b)/2])
		}
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		m, err := decode(append([]byte(quantMagic), p...))
		if err != nil {
			return
		}
		if m.NumFeatures() == 3 {
			if _, err := m.PositiveProba(d.X, nil); err != nil {
				t.Fatal(err)
			}
		}
		b, err := m.MarshalBinary()
		if err != nil || !bytes.Equal(b, append([]byte(quantMagic), p...)) {
			t.Fatalf("re-encoding: %v", err)
		}
	})
}

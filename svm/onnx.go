package svm

import "github.com/aer-go/aer/interop/onnx"

// BuildONNX adds the model's graph (onnx.Exporter): the Platt sigmoid of
// the decision function sum_s coef_s K(sv_s, x) + intercept, each kernel
// as the model computes it, on the features imputed and standardised by
// the wrapper in front of it.
func (m *Model) BuildONNX(b *onnx.Builder, in *onnx.Features) (onnx.Value, error) {
	x := in.Values(b)
	kernel, gamma, coef0, degree := m.Kernel()
	coef := m.DualCoef()
	sv := m.SupportVectors()
	pa, pb := m.Platt()
	if err := onnx.CheckFinite("svm coefficient", append([]float64{m.Intercept(), pa, pb, gamma, coef0}, coef...)...); err != nil {
		return "", b.Wrap(err)
	}
	nf := m.NumFeatures()
	var f onnx.Value
	switch {
	case len(coef) == 0:
		f = b.Add(b.Mul(b.ReduceSum(x, true, 1), b.Scalar("zero", 0)), b.Scalar("intercept", m.Intercept()))
	case kernel == Linear:
		// w = sum_s coef_s sv_s, summed as the model sums it.
		w := make([]float64, nf)
		for s, cs := range coef {
			for j := range nf {
				w[j] += cs * sv.At(s, j)
			}
		}
		f = b.Add(b.MatMul(x, b.Doubles("svm_w", []int64{int64(nf), 1}, w)), b.Scalar("intercept", m.Intercept()))
	case kernel == RBF || kernel == Polynomial:
		ns := len(coef)
		svT := make([]float64, nf*ns) // [nf, ns]
		sq := make([]float64, ns)
		for s := range ns {
			for j := range nf {
				v := sv.At(s, j)
				svT[j*ns+s] = v
				sq[s] += v * v
			}
		}
		dot := b.MatMul(x, b.Doubles("sv_t", []int64{int64(nf), int64(ns)}, svT)) // [N, ns]
		var k onnx.Value
		if kernel == RBF {
			sqx := b.ReduceSum(b.Mul(x, x), true, 1) // [N, 1]
			d2 := b.Sub(b.Add(sqx, b.Doubles("sv_sq", []int64{int64(ns)}, sq)), b.Mul(dot, b.Scalar("two", 2)))
			d2 = b.Op("Max", []onnx.Value{d2, b.Scalar("zero", 0)})
			k = b.Op("Exp", []onnx.Value{b.Mul(d2, b.Scalar("neg_gamma", -gamma))})
		} else {
			base := b.Add(b.Mul(dot, b.Scalar("gamma", gamma)), b.Scalar("coef0", coef0))
			k = b.Op("Pow", []onnx.Value{base, b.Scalar("degree", float64(degree))})
		}
		f = b.Add(b.MatMul(k, b.Doubles("dual_coef", []int64{int64(ns), 1}, coef)), b.Scalar("intercept", m.Intercept()))
	default:
		return "", b.Unsupported("svm kernel %q", kernel)
	}
	// 1/(1+exp(A f + B)).
	return b.Sigmoid(b.Add(b.Mul(f, b.Scalar("platt_a", -pa)), b.Scalar("platt_b", -pb))), nil
}

package softmax

import "math"

// Apply replaces z by its softmax, exp(z_j - max z) / sum_j exp(z_j -
// max z) (log-sum-exp: no overflow for large scores). z must not be
// empty.
func Apply(z []float64) {
	hi := z[0]
	for _, v := range z[1:] {
		hi = max(hi, v)
	}
	sum := 0.0
	for j, v := range z {
		z[j] = math.Exp(v - hi)
		sum += z[j]
	}
	for j := range z {
		z[j] /= sum
	}
}

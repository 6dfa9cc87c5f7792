package fit

import (
	"math"
	"math/big"
)

// exactSum sums float64 values exactly, whatever their order: the
// column sums behind the means and standard deviations, so that the
// model does not depend on how the rows are split into files and
// bundles (floating-point addition is not associative). Each value's
// 53-bit significand is added, at its binary point, into 32-bit limbs
// held in int64 slots, which take 2^30 additions before their carries
// must be propagated.
type exactSum struct {
	Limbs []int64 `json:"l"`
	Adds  int     `json:"a"`
	// Special counts infinities and NaNs: their sum is not finite.
	PosInf int `json:"p,omitempty"`
	NegInf int `json:"n,omitempty"`
	NaN    int `json:"q,omitempty"`
}

// nLimbs covers the exponents of every finite float64 (2^-1074 to
// 2^1024) and the carries of up to 2^63 values.
const nLimbs = (1074+1024+64)/32 + 2

func newExactSum() exactSum { return exactSum{Limbs: make([]int64, nLimbs)} }

// add adds v.
func (s *exactSum) add(v float64) {
	switch {
	case v == 0:
		return
	case math.IsNaN(v):
		s.NaN++
		return
	case math.IsInf(v, 1):
		s.PosInf++
		return
	case math.IsInf(v, -1):
		s.NegInf++
		return
	}
	b := math.Float64bits(v)
	exp := int(b>>52) & 0x7ff
	mant := b & (1<<52 - 1)
	if exp == 0 {
		exp = 1 // subnormal
	} else {
		mant |= 1 << 52
	}
	// v = ±mant * 2^(exp-1075); bit 0 of mant sits at position exp-1 of
	// the accumulator, whose bit 0 is 2^-1074.
	pos := exp - 1
	i, off := pos/32, uint(pos%32)
	lo := mant << off        // bits 0..63 of the shifted value
	hi := mant >> (64 - off) // bits 64.. (off > 11 only)
	if off == 0 {
		hi = 0
	}
	sign := int64(1)
	if b>>63 == 1 {
		sign = -1
	}
	s.Limbs[i] += sign * int64(lo&0xffffffff)
	s.Limbs[i+1] += sign * int64(lo>>32)
	s.Limbs[i+2] += sign * int64(hi)
	s.Adds++
	if s.Adds >= 1<<30 {
		s.normalize()
	}
}

// normalize propagates carries so that every limb but the last is in
// [0, 2^32).
func (s *exactSum) normalize() {
	var carry int64
	for i := range s.Limbs {
		v := s.Limbs[i] + carry
		carry = v >> 32 // arithmetic shift: floor division
		s.Limbs[i] = v & 0xffffffff
		if i == len(s.Limbs)-1 {
			s.Limbs[i] = v
		}
	}
	s.Adds = 0
}

// merge adds t into s.
func (s *exactSum) merge(t exactSum) {
	if len(s.Limbs) == 0 {
		s.Limbs = make([]int64, nLimbs)
	}
	s.normalize()
	t.normalize()
	for i := range s.Limbs {
		s.Limbs[i] += t.Limbs[i]
	}
	s.Adds = 1 << 29 // each limb now holds at most two normalized values' worth
	s.PosInf += t.PosInf
	s.NegInf += t.NegInf
	s.NaN += t.NaN
}

// big returns the exact sum (nil when it is not finite).
func (s exactSum) big() *big.Float {
	if s.NaN > 0 || s.PosInf > 0 || s.NegInf > 0 {
		return nil
	}
	c := exactSum{Limbs: append([]int64(nil), s.Limbs...)}
	c.normalize()
	n := new(big.Int)
	for i := len(c.Limbs) - 1; i >= 0; i-- {
		n.Lsh(n, 32)
		n.Add(n, big.NewInt(c.Limbs[i]))
	}
	f := new(big.Float).SetPrec(8192).SetInt(n)
	return f.SetMantExp(f, -1074)
}

// value returns the sum rounded to the nearest float64 (±Inf beyond,
// NaN for NaN or +Inf and -Inf together).
func (s exactSum) value() float64 {
	switch {
	case s.NaN > 0 || s.PosInf > 0 && s.NegInf > 0:
		return math.NaN()
	case s.PosInf > 0:
		return math.Inf(1)
	case s.NegInf > 0:
		return math.Inf(-1)
	}
	v, _ := s.big().Float64()
	return v
}

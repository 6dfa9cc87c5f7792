package dataset

import (
	"math"
	"math/bits"
	"strconv"
)

// pow10u64 holds the powers of ten that fit in a uint64.
var pow10u64 = [20]uint64{
	1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// parseFloat returns what strconv.ParseFloat(s, 64) returns, value and
// error alike. The cells of numeric tables (a sign, at most 19
// significant digits, a decimal exponent within ±19 of them) are read
// by an exact integer computation that allocates nothing; every other
// input (hex, inf, nan, underscores, long mantissas, big exponents,
// malformed text) goes to strconv.ParseFloat itself.
func parseFloat(s string) (float64, error) {
	if v, ok := parseDecimal(s); ok {
		return v, nil
	}
	return strconv.ParseFloat(s, 64)
}

// parseDecimal reads s of the form [+-]digits[.digits][(e|E)[+-]digits]
// (at least one mantissa digit) when its significant digits fit in a
// uint64 and its decimal exponent is within ±19; ok is false for every
// other s. The value is the float64 nearest to the decimal (ties to
// even), as strconv.ParseFloat rounds it: the mantissa times or divided
// by a power of ten is computed exactly in 128 bits and rounded once.
func parseDecimal(s string) (v float64, ok bool) {
	i, n := 0, len(s)
	neg := false
	if i < n && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var m uint64
	sig := 0    // significant digits in m (from the first nonzero one)
	digits := 0 // mantissa digits, zeros included
	exp := 0    // decimal exponent of m
	start := i
	for i < n && s[i] == '0' {
		i++
	}
	m, sig, i, ok = digitRun(s, i, m, sig)
	if !ok {
		return 0, false
	}
	digits = i - start
	if i < n && s[i] == '.' {
		i++
		start = i
		if m == 0 {
			for i < n && s[i] == '0' {
				i++
			}
		}
		m, sig, i, ok = digitRun(s, i, m, sig)
		if !ok {
			return 0, false
		}
		digits += i - start
		exp = start - i
	}
	if digits == 0 {
		return 0, false
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < n && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		e, ed := 0, 0
		for ; i < n && '0' <= s[i] && s[i] <= '9'; i++ {
			if ed == 4 {
				return 0, false
			}
			e = e*10 + int(s[i]-'0')
			ed++
		}
		if ed == 0 {
			return 0, false
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i != n {
		return 0, false
	}
	if m == 0 {
		if neg {
			return math.Copysign(0, -1), true
		}
		return 0, true
	}
	if exp < -19 || exp > 19 {
		return 0, false
	}
	// q (64 bits, top bit set) times 2^b is the value, with sticky
	// telling that bits below q are not all zero.
	var q uint64
	var b int
	var sticky bool
	switch {
	case exp == 0:
		lz := bits.LeadingZeros64(m)
		q, b = m<<lz, -lz
	case exp > 0:
		hi, lo := bits.Mul64(m, pow10u64[exp])
		if hi == 0 {
			lz := bits.LeadingZeros64(lo)
			q, b = lo<<lz, -lz
		} else {
			lz := bits.LeadingZeros64(hi)
			q = hi << lz
			if lz > 0 {
				q |= lo >> (64 - lz)
			}
			b = 64 - lz
			sticky = lo<<lz != 0
		}
	default:
		// m / d with both normalized to 64 bits: m'/d' is in (1/2, 2), so
		// m' * 2^t / d' with t = 64 (m' < d') or 63 has 64 bits.
		d := pow10u64[-exp]
		lm, ld := bits.LeadingZeros64(m), bits.LeadingZeros64(d)
		mn, dn := m<<lm, d<<ld
		var r uint64
		if mn < dn {
			q, r = bits.Div64(mn, 0, dn)
			b = -64
		} else {
			q, r = bits.Div64(mn>>1, mn<<63, dn)
			b = -63
		}
		b += ld - lm
		sticky = r != 0
	}
	// Round q to 53 bits, to nearest, ties to even.
	mant := q >> 11
	rest := q & (1<<11 - 1)
	if rest > 1<<10 || rest == 1<<10 && (sticky || mant&1 == 1) {
		mant++
		if mant == 1<<53 {
			mant >>= 1
			b++
		}
	}
	// mant * 2^(b+11), mant in [2^52, 2^53): always a normal float64
	// here (the value is within 1e-19 * 1 and 1e19 * 2^64).
	f := math.Float64frombits(uint64(b+11+52+1023)<<52 | mant&(1<<52-1))
	if neg {
		f = -f
	}
	return f, true
}

// digitRun appends the decimal digits of s from i on to m, which holds
// sig significant digits (when m is 0, the caller has skipped the zeros
// in front, so every digit is significant): the new m and sig, and the
// index past the digits; ok is false when m would pass 19 digits. Eight
// digits at a time when they are there.
func digitRun(s string, i int, m uint64, sig int) (uint64, int, int, bool) {
	n := len(s)
	for sig <= 11 && i+8 <= n {
		v := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if v&(v+0x0606060606060606)&0xF0F0F0F0F0F0F0F0 != 0x3030303030303030 {
			break
		}
		m = m*1e8 + eightDigits(v)
		i += 8
		sig += 8
	}
	for ; i < n && '0' <= s[i] && s[i] <= '9'; i++ {
		if sig == 19 {
			return 0, 0, i, false
		}
		m = m*10 + uint64(s[i]-'0')
		sig++
	}
	return m, sig, i, true
}

// eightDigits is the value of the eight ASCII digits in v, the first in
// its low byte.
func eightDigits(v uint64) uint64 {
	v -= 0x3030303030303030
	v = v*10 + v>>8
	return ((v&0x000000FF000000FF)*(100+1000000<<32) + (v>>16&0x000000FF000000FF)*(1+10000<<32)) >> 32
}

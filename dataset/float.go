package dataset

import (
	"math"
	"math/bits"
	"strconv"
)

//go:generate go run pow10gen.go

// pow10u64 holds the powers of ten that fit in a uint64.
var pow10u64 = [20]uint64{
	1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// pow10f holds the powers of ten a float64 holds exactly.
var pow10f = [23]float64{
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
}

// parseFloat returns what strconv.ParseFloat(s, 64) returns, value and
// error alike. The cells of numeric tables (a sign, at most 19
// significant digits, a decimal exponent) are read by scanFloat, which
// allocates nothing; every other input (hex, inf, nan, underscores, long
// mantissas, subnormals, overflows, the rare decimal Eisel-Lemire cannot
// round, malformed text) goes to strconv.ParseFloat itself.
func parseFloat(s string) (float64, error) {
	if v, j, ok := scanFloat(s, 0); ok && j == len(s) {
		return v, nil
	}
	return strconv.ParseFloat(s, 64)
}

// scanFloat reads the number that starts s[i:], of the form
// [+-]digits[.digits][(e|E)[+-]digits] with at least one mantissa digit:
// its value, as strconv.ParseFloat rounds it (the float64 nearest, ties
// to even), and j, the index past its text (the caller checks what
// follows). ok is false when the text there is not a number of that form
// with at most 19 significant digits, or its value is not a normal
// float64 or one Eisel-Lemire cannot round; the caller then reads the
// text the slow way. It reads 8 bytes at a time where s has them.
func scanFloat(s string, i int) (v float64, j int, ok bool) {
	// The common shape first: digits, '.', digits, at most 19 digits in
	// all (zeros in front included).
	i0, n := i, len(s)
	neg := false
	if i < n {
		// Without a branch: half the cells of a table are negative.
		c := s[i] - '+'
		neg = c == '-'-'+'
		i += b2i(c&^2 == 0)
	}
	start := i
	var m uint64
	for i < n {
		d := s[i] - '0'
		if d > 9 {
			break
		}
		m = m*10 + uint64(d)
		i++
	}
	nd := i - start
	exp := 0
	if i < n && s[i] == '.' {
		i++
		frac := i
		for i+8 <= n {
			x := load8(s[i:i+8]) ^ 0x3030303030303030
			bad := (x | (x&0x0F0F0F0F0F0F0F0F + 0x0606060606060606)) & 0xF0F0F0F0F0F0F0F0
			if bad == 0 {
				m = m*1e8 + eightDigits(x)
				i += 8
				continue
			}
			k := bits.TrailingZeros64(bad) >> 3
			m = m*pow10u64[k] + eightDigits(x<<(64-8*k))
			i += k
			break
		}
		for i < n {
			d := s[i] - '0'
			if d > 9 {
				break
			}
			m = m*10 + uint64(d)
			i++
		}
		nd += i - frac
		exp = frac - i
	}
	if nd == 0 || nd > 19 {
		return scanFloatLong(s, i0)
	}
	if i < n && s[i]|0x20 == 'e' {
		return scanFloatLong(s, i0)
	}
	if m == 0 {
		if neg {
			return math.Copysign(0, -1), i, true
		}
		return 0, i, true
	}
	// Eisel-Lemire, also where Clinger's fast path would do: a branch on
	// m < 2^53 would be mispredicted every other cell of 16-17 digits.
	v, ok = eiselLemire(m, exp, neg)
	return v, i, ok
}

// scanCells reads numbers of scanFloat's common shape ([-]digits.digits,
// at most 19 digits, not zero), each followed by comma, from s[i:] into
// x, as scanFloat reads them, and the start of each into starts (unless
// nil): the index past the last comma read and the cells read. It stops
// at the first cell of another shape, or whose rounding needs more than
// one 64-bit product (scanFloat then reads it). One loop without calls,
// so that its state stays in registers.
func scanCells(s string, i int, comma byte, x []float64, starts []int32) (int, int) {
	for q := range x {
		j := i
		neg := false
		if j < len(s) {
			c := s[j] - '+'
			neg = c == '-'-'+'
			j += b2i(c&^2 == 0)
		}
		start := j
		var m uint64
		for j < len(s) {
			d := s[j] - '0'
			if d > 9 {
				break
			}
			m = m*10 + uint64(d)
			j++
		}
		nd, exp := j-start, 0
		if j < len(s) && s[j] == '.' {
			j++
			frac := j
			for j+8 <= len(s) {
				y := load8(s[j:j+8]) ^ 0x3030303030303030
				bad := (y | (y&0x0F0F0F0F0F0F0F0F + 0x0606060606060606)) & 0xF0F0F0F0F0F0F0F0
				if bad == 0 {
					m = m*1e8 + eightDigits(y)
					j += 8
					continue
				}
				n := bits.TrailingZeros64(bad) >> 3
				m = m*pow10u64[n] + eightDigits(y<<(64-8*n))
				j += n
				break
			}
			for j < len(s) {
				d := s[j] - '0'
				if d > 9 {
					break
				}
				m = m*10 + uint64(d)
				j++
			}
			nd += j - frac
			exp = frac - j
		}
		if nd == 0 || nd > 19 || m == 0 || j >= len(s) || s[j] != comma {
			return i, q
		}
		// eiselLemire's common case: exp is in [-19, 0] here.
		pow := &pow10Tab[exp-pow10Min]
		clz := bits.LeadingZeros64(m)
		m <<= uint(clz)
		e2 := uint64(1+(exp*108853)>>15+63+1023) - uint64(clz)
		hi, lo := bits.Mul64(m, pow[0])
		if hi&0x1FF == 0x1FF && lo+m < m {
			return i, q
		}
		msb := hi >> 63
		mant := hi >> (msb + 9)
		e2 -= 1 ^ msb
		if lo == 0 && hi&0x1FF == 0 && mant&3 == 1 {
			return i, q
		}
		mant += mant & 1
		mant >>= 1
		if mant>>53 > 0 {
			mant >>= 1
			e2++
		}
		x[q] = math.Float64frombits(uint64(b2i(neg))<<63 | e2<<52 | mant&(1<<52-1))
		if starts != nil {
			starts[q] = int32(i)
		}
		i = j + 1
	}
	return i, len(x)
}

// b2i is 1 for true, 0 for false (a SETcc, no branch).
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// scanFloatLong is scanFloat for every shape: zeros in front, more than
// 19 digits, an exponent.
func scanFloatLong(s string, i int) (v float64, j int, ok bool) {
	n := len(s)
	neg := false
	if i < n && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	for i < n && s[i] == '0' {
		i++
	}
	lead := i // the first significant digit, when m > 0
	m, i := digitRun(s, i, 0)
	nd := i - lead   // digits from the first nonzero one
	any := i > start // a mantissa digit
	exp := 0         // the decimal exponent of m
	if i < n && s[i] == '.' {
		i++
		frac := i
		if m == 0 {
			for i < n && s[i] == '0' {
				i++
			}
		}
		lead = i
		m, i = digitRun(s, i, m)
		nd += i - lead
		exp = frac - i
		any = any || i > frac
	}
	if !any || nd > 19 {
		return 0, i, false
	}
	if i < n && s[i]|0x20 == 'e' {
		i++
		eneg := false
		if i < n && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		e, es := 0, i
		for ; i < n && '0' <= s[i] && s[i] <= '9'; i++ {
			e = e*10 + int(s[i]-'0')
		}
		if i == es || i-es > 4 {
			return 0, i, false
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if m == 0 {
		if neg {
			return math.Copysign(0, -1), i, true
		}
		return 0, i, true
	}
	// Clinger's fast path: m and 10^|exp| are exact float64, so one
	// correctly rounded operation gives the nearest float64.
	if m < 1<<53 && -22 <= exp && exp <= 22 {
		f := float64(m)
		if exp >= 0 {
			f *= pow10f[exp]
		} else {
			f /= pow10f[-exp]
		}
		if neg {
			f = -f
		}
		return f, i, true
	}
	v, ok = eiselLemire(m, exp, neg)
	return v, i, ok
}

// digitRun appends the decimal digits of s from i on to m (m*10+d each,
// wrapping past 19 digits: the caller counts them) and returns m and the
// index past the digits. Eight bytes at a time while s has them.
func digitRun(s string, i int, m uint64) (uint64, int) {
	for i+8 <= len(s) {
		x := load8(s[i:i+8]) ^ 0x3030303030303030
		// A byte is a digit when its high nibble is now 0 and its low
		// one at most 9 (no carry crosses bytes here).
		bad := (x | (x&0x0F0F0F0F0F0F0F0F + 0x0606060606060606)) & 0xF0F0F0F0F0F0F0F0
		if bad == 0 {
			m = m*1e8 + eightDigits(x)
			i += 8
			continue
		}
		// The k digits in front of the first other byte: shifted up,
		// they are the last k of eight with zeros in front.
		k := bits.TrailingZeros64(bad) >> 3
		return m*pow10u64[k] + eightDigits(x<<(64-8*k)), i + k
	}
	for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		m = m*10 + uint64(s[i]-'0')
	}
	return m, i
}

// load8 is the 8 bytes of t (len 8) as a little-endian word: one load.
func load8(t string) uint64 {
	_ = t[7]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}

// eightDigits is the value of the eight digits (0 to 9) in the bytes of
// x, the first in its low byte.
func eightDigits(x uint64) uint64 {
	x = x*10 + x>>8
	return ((x&0x000000FF000000FF)*(100+1000000<<32) + (x>>16&0x000000FF000000FF)*(1+10000<<32)) >> 32
}

// eiselLemire returns the float64 nearest to m*10^exp10 (m > 0), ties to
// even, by the Eisel-Lemire algorithm as strconv implements it
// (https://nigeltao.github.io/blog/2020/eisel-lemire.html): ok is false
// when it cannot tell the rounding from 128 bits of 10^exp10, or the
// value is subnormal, infinite or out of the table's range.
func eiselLemire(m uint64, exp10 int, neg bool) (float64, bool) {
	if exp10 < pow10Min || exp10 > pow10Max {
		return 0, false
	}
	pow := &pow10Tab[exp10-pow10Min]
	exp2 := 1 + (exp10*108853)>>15 // floor(exp10 * log2(10)) + 1
	clz := bits.LeadingZeros64(m)
	m <<= uint(clz)
	retExp2 := uint64(exp2+63+1023) - uint64(clz)
	xHi, xLo := bits.Mul64(m, pow[0])
	if xHi&0x1FF == 0x1FF && xLo+m < m {
		yHi, yLo := bits.Mul64(m, pow[1])
		mergedHi, mergedLo := xHi, xLo+yHi
		if mergedLo < xLo {
			mergedHi++
		}
		if mergedHi&0x1FF == 0x1FF && mergedLo+1 == 0 && yLo+m < m {
			return 0, false
		}
		xHi, xLo = mergedHi, mergedLo
	}
	msb := xHi >> 63
	mant := xHi >> (msb + 9)
	retExp2 -= 1 ^ msb
	if xLo == 0 && xHi&0x1FF == 0 && mant&3 == 1 {
		return 0, false // perhaps a tie, which 128 bits cannot settle
	}
	mant += mant & 1
	mant >>= 1
	if mant>>53 > 0 {
		mant >>= 1
		retExp2++
	}
	if retExp2-1 >= 0x7FF-1 {
		return 0, false // subnormal, zero or infinite
	}
	b := retExp2<<52 | mant&(1<<52-1)
	if neg {
		b |= 1 << 63
	}
	return math.Float64frombits(b), true
}

package hugepage

import "unsafe"

// Threshold is the size in bytes from which a slice is advised to use
// huge pages (NumPy's choice).
const Threshold = 4 << 20

// Float64s returns a zeroed slice of n float64s (see the package doc).
func Float64s(n int) []float64 {
	s := make([]float64, n)
	if n*8 >= Threshold {
		advise(unsafe.Pointer(unsafe.SliceData(s)), n*8)
	}
	return s
}

// Bytes returns a zeroed slice of n bytes (see the package doc).
func Bytes(n int) []byte {
	s := make([]byte, n)
	if n >= Threshold {
		advise(unsafe.Pointer(unsafe.SliceData(s)), n)
	}
	return s
}

// Grow returns s with room for at least n more elements: s itself when it
// has room, else a copy in a new slice of about twice the size from
// Float64s, so a growing buffer keeps the advice.
func Grow(s []float64, n int) []float64 {
	if cap(s)-len(s) >= n {
		return s
	}
	c := max(2*cap(s), len(s)+n, 1024)
	t := Float64s(c)[:len(s)]
	copy(t, s)
	return t
}

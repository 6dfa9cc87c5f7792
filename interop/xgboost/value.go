package xgboost

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/aer-go/aer/internal/quote"
)

// budget bounds the memory a decoded document takes: about 16 bytes per
// byte of the file (and 1 MiB), where an XGBoost model takes two or
// three (its float32s become float64s), so that a file of many tiny
// values (empty objects, one-byte numbers) cannot take a multiple of its
// size large enough to exhaust memory.
type budget struct{ left int }

func newBudget(size int) budget { return budget{left: 16*size + 1<<20} }

// charge takes n bytes from the budget and tells whether it was enough.
func (b *budget) charge(n int) bool {
	b.left -= n
	return b.left >= 0
}

// cost is the memory a decoded value takes beyond the slot that holds it.
func cost(v any) int {
	switch v := v.(type) {
	case float64:
		return 8
	case string:
		return 16 + len(v)
	case map[string]any:
		return 64
	case []float64, []any:
		return 24
	}
	return 0
}

const overBudget = "the document decodes to more than 16 times its size (not a model)"

// field is a decoded value and its path in the document, so that every
// error names where it is (learner.gradient_booster.model.trees[3].
// split_conditions).
type field struct {
	path string
	v    any
	ok   bool // false when the key was absent
}

func (f field) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrFormat, f.path, fmt.Sprintf(format, args...))
}

// kind names a value's type for errors.
func kind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []float64, []any:
		return "an array"
	case float64:
		return "a number"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// key returns the member k of an object (absent: ok false).
func (f field) key(k string) (field, error) {
	p := k
	if f.path != "" {
		p = f.path + "." + k
	}
	obj, isObj := f.v.(map[string]any)
	if !isObj {
		return field{}, f.errorf("want an object, found %s", kind(f.v))
	}
	v, ok := obj[k]
	return field{path: p, v: v, ok: ok}, nil
}

// need returns the member k, which must be present.
func (f field) need(k string) (field, error) {
	c, err := f.key(k)
	if err == nil && !c.ok {
		err = fmt.Errorf("%w: %s: missing", ErrFormat, c.path)
	}
	return c, err
}

// at returns element i of an array.
func (f field) at(i int) field {
	p := fmt.Sprintf("%s[%d]", f.path, i)
	switch a := f.v.(type) {
	case []any:
		return field{path: p, v: a[i], ok: true}
	case []float64:
		return field{path: p, v: a[i], ok: true}
	}
	return field{path: p}
}

// length returns the length of an array.
func (f field) length() (int, error) {
	switch a := f.v.(type) {
	case []any:
		return len(a), nil
	case []float64:
		return len(a), nil
	}
	return 0, f.errorf("want an array, found %s", kind(f.v))
}

// str returns a string.
func (f field) str() (string, error) {
	s, ok := f.v.(string)
	if !ok {
		return "", f.errorf("want a string, found %s", kind(f.v))
	}
	return s, nil
}

// strs returns an array of strings.
func (f field) strs() ([]string, error) {
	n, err := f.length()
	if err != nil {
		return nil, err
	}
	out := make([]string, n)
	for i := range out {
		if out[i], err = f.at(i).str(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// nums returns an array of numbers (booleans read as 0 and 1, as
// XGBoost 1.0 wrote default_left).
func (f field) nums() ([]float64, error) {
	switch a := f.v.(type) {
	case []float64:
		return a, nil
	case []any:
		out := make([]float64, len(a))
		for i, v := range a {
			switch v := v.(type) {
			case float64:
				out[i] = v
			case bool:
				if v {
					out[i] = 1
				}
			default:
				return nil, fmt.Errorf("%w: %s[%d]: want a number, found %s", ErrFormat, f.path, i, kind(v))
			}
		}
		return out, nil
	}
	return nil, f.errorf("want an array of numbers, found %s", kind(f.v))
}

// ints returns an array of integers in [lo, hi].
func (f field) ints(lo, hi int64) ([]int64, error) {
	a, err := f.nums()
	if err != nil {
		return nil, err
	}
	out := make([]int64, len(a))
	for i, v := range a {
		if v != math.Trunc(v) || v < float64(lo) || v > float64(hi) {
			return nil, fmt.Errorf("%w: %s[%d]: %v is not a whole number in [%d, %d]", ErrFormat, f.path, i, v, lo, hi)
		}
		out[i] = int64(v)
	}
	return out, nil
}

// int reads a whole number in [lo, hi], written as a number or, as
// XGBoost writes its parameters, a string ("500").
func (f field) int(lo, hi int64) (int64, error) {
	var v float64
	switch x := f.v.(type) {
	case float64:
		v = x
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		if err != nil {
			return 0, f.errorf("%s is not a whole number", quote.Name(x))
		}
		v = float64(n)
		if n < lo || n > hi {
			return 0, f.errorf("%d is outside [%d, %d]", n, lo, hi)
		}
		return n, nil
	default:
		return 0, f.errorf("want a whole number, found %s", kind(f.v))
	}
	if v != math.Trunc(v) || v < float64(lo) || v > float64(hi) {
		return 0, f.errorf("%v is not a whole number in [%d, %d]", v, lo, hi)
	}
	return int64(v), nil
}

// float32 reads a float as XGBoost stores its parameters: a string
// ("5E-1"), a one-element vector in a string ("[5E-1]", XGBoost 3.1's
// base_score), or a number; rounded to float32.
func (f field) float32() (float32, error) {
	switch x := f.v.(type) {
	case float64:
		return float32(x), nil
	case []float64:
		if len(x) != 1 {
			return 0, f.errorf("want one number, found %d", len(x))
		}
		return float32(x[0]), nil
	case string:
		s := strings.TrimSpace(x)
		if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
			s = strings.TrimSpace(s[1 : len(s)-1])
			if strings.Contains(s, ",") {
				return 0, f.errorf("%s holds more than one value (a model of several outputs)", quote.Name(x))
			}
		}
		v, err := strconv.ParseFloat(s, 32)
		if err != nil && !isRange(err) {
			return 0, f.errorf("%s is not a number", quote.Name(x))
		}
		return float32(v), nil
	}
	return 0, f.errorf("want a number, found %s", kind(f.v))
}

// float32s reads a number or a vector of numbers as float32s: a number,
// an array, or a string holding a number ("5E-1") or a bracketed,
// comma-separated list ("[5E-1,2E-1]", XGBoost 3.1's vector base_score).
func (f field) float32s() ([]float32, error) {
	switch x := f.v.(type) {
	case float64:
		return []float32{float32(x)}, nil
	case []float64:
		if len(x) == 0 {
			return nil, f.errorf("no value")
		}
		out := make([]float32, len(x))
		for i, v := range x {
			out[i] = float32(v)
		}
		return out, nil
	case string:
		s := strings.TrimSpace(x)
		if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
			s = s[1 : len(s)-1]
		}
		parts := strings.Split(s, ",")
		out := make([]float32, len(parts))
		for i, p := range parts {
			v, err := strconv.ParseFloat(strings.TrimSpace(p), 32)
			if err != nil && !isRange(err) {
				return nil, f.errorf("%s is not a number or a list of numbers", quote.Name(x))
			}
			out[i] = float32(v)
		}
		return out, nil
	}
	return nil, f.errorf("want a number, found %s", kind(f.v))
}

package learn

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ErrParam is wrapped by every error of Method.Set: an unknown key or a
// value that does not parse or is out of range.
var ErrParam = errors.New("invalid parameter")

// Param describes one parameter of a Method.
type Param struct {
	Key     string `json:"key"`
	Value   string `json:"value"`
	Default string `json:"default"`
	Help    string `json:"help"`
}

// ParamSpec declares one parameter of a settings struct T: how to read its
// value as text and how to set it from text.
type ParamSpec[T any] struct {
	Key  string
	Help string
	// Get returns the value as text, from settings whose defaults are
	// resolved.
	Get func(*T) string
	// Set parses value into the settings, or says what it wanted.
	Set func(s *T, value string) error
}

// ParamTable is the parameters of a settings struct T, in the order help
// lists them.
type ParamTable[T any] []ParamSpec[T]

// Keys returns the keys in table order.
func (t ParamTable[T]) Keys() []string {
	keys := make([]string, len(t))
	for i, p := range t {
		keys[i] = p.Key
	}
	return keys
}

// Has tells whether key is in the table.
func (t ParamTable[T]) Has(key string) bool {
	return slices.ContainsFunc(t, func(p ParamSpec[T]) bool { return p.Key == key })
}

// Set sets key in s from value. The error wraps ErrParam and names the key
// and value.
func (t ParamTable[T]) Set(s *T, key, value string) error {
	for _, p := range t {
		if p.Key == key {
			if err := p.Set(s, value); err != nil {
				return fmt.Errorf("%w %s=%q: %v", ErrParam, key, value, err)
			}
			return nil
		}
	}
	return fmt.Errorf("%w: %q is unknown (known: %s)", ErrParam, key, strings.Join(t.Keys(), ", "))
}

// List describes every parameter: its value read from cur and its default
// read from def (both with defaults resolved).
func (t ParamTable[T]) List(cur, def *T) []Param {
	out := make([]Param, len(t))
	for i, p := range t {
		out[i] = Param{Key: p.Key, Value: p.Get(cur), Default: p.Get(def), Help: p.Help}
	}
	return out
}

// Upper bounds of count parameters. Every integer parameter declares one
// (Int takes it), so that a mistyped or hostile value such as
// n_estimators=2147483648 fails at Set with ErrParam instead of sizing an
// allocation or a loop from it.
const (
	// MaxRounds bounds counts of fitted parts and passes: trees, boosting
	// rounds, ensemble members, epochs, restarts (a million trees of
	// depth 6 hold about 8 GB).
	MaxRounds = 1_000_000
	// MaxTrees bounds counts of trees a fit grows one after another
	// (n_estimators, boosting rounds): 100,000 trees take 5 to 10 s even
	// on 80 rows (a million took over a minute, and one tree more per
	// row of a large table is hours), and a fit that needs more is
	// better served by a larger learning rate.
	MaxTrees = 100_000
	// MaxIter bounds solver iterations.
	MaxIter = 10_000_000
	// MaxRows bounds parameters counted in rows (a node's fewest rows,
	// rows of a subsample or a batch); larger tables are not held in
	// memory.
	MaxRows = 1_000_000_000
	// MaxDepth bounds tree depths.
	MaxDepth = 10_000
)

// Int declares an integer parameter in [min, max]. Every integer
// parameter has an upper bound (see MaxRounds), so that no value a user
// can write sizes an allocation or a loop beyond it.
func Int[T any](key, help string, min, max int, field func(*T) *int) ParamSpec[T] {
	return ParamSpec[T]{Key: key, Help: help,
		Get: func(s *T) string { return strconv.Itoa(*field(s)) },
		Set: func(s *T, v string) error {
			n, err := ParseInt(v, min, max)
			if err != nil {
				return err
			}
			*field(s) = n
			return nil
		}}
}

// ParseInt parses an integer in [min, max]; integer parameters declared
// without Int use it, so that they are bounded the same way.
func ParseInt(v string, min, max int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	switch {
	case err != nil && errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("want an integer of at most %d", max)
	case err != nil:
		return 0, fmt.Errorf("want an integer")
	case n < min:
		return 0, fmt.Errorf("want an integer of at least %d", min)
	case n > max:
		return 0, fmt.Errorf("want an integer of at most %d", max)
	}
	return n, nil
}

// Float declares a finite number parameter in [lo, hi]; use math.Inf for
// an open side.
func Float[T any](key, help string, lo, hi float64, field func(*T) *float64) ParamSpec[T] {
	return ParamSpec[T]{Key: key, Help: help,
		Get: func(s *T) string { return FormatFloat(*field(s)) },
		Set: func(s *T, v string) error {
			f, err := ParseFloat(v)
			if err != nil {
				return err
			}
			if f < lo || f > hi {
				return fmt.Errorf("want a number in [%v, %v]", lo, hi)
			}
			*field(s) = f
			return nil
		}}
}

// OpenFloat declares a finite number parameter in the open interval
// (lo, hi).
func OpenFloat[T any](key, help string, lo, hi float64, field func(*T) *float64) ParamSpec[T] {
	p := Float(key, help, lo, hi, field)
	set := p.Set
	p.Set = func(s *T, v string) error {
		if f, err := ParseFloat(v); err == nil && (f <= lo || f >= hi) {
			return fmt.Errorf("want a number in (%v, %v)", lo, hi)
		}
		return set(s, v)
	}
	return p
}

// Bool declares a true/false parameter. When negate is set the field
// holds the opposite of the parameter (a NoX field for an x parameter,
// so that the zero value is the default true).
func Bool[T any](key, help string, negate bool, field func(*T) *bool) ParamSpec[T] {
	return ParamSpec[T]{Key: key, Help: help,
		Get: func(s *T) string { return strconv.FormatBool(*field(s) != negate) },
		Set: func(s *T, v string) error {
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return fmt.Errorf("want true or false")
			}
			*field(s) = b != negate
			return nil
		}}
}

// Enum declares a parameter taking one of values.
func Enum[T any](key, help string, values []string, field func(*T) *string) ParamSpec[T] {
	return ParamSpec[T]{Key: key, Help: help + " (" + strings.Join(values, ", ") + ")",
		Get: func(s *T) string { return *field(s) },
		Set: func(s *T, v string) error {
			v = strings.TrimSpace(v)
			if !slices.Contains(values, v) {
				return fmt.Errorf("want one of %s", strings.Join(values, ", "))
			}
			*field(s) = v
			return nil
		}}
}

// ParseFloat parses a finite number.
func ParseFloat(v string) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("want a finite number")
	}
	return f, nil
}

// FormatFloat writes a number in the shortest form that parses back to it.
func FormatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// ParamMap returns the parameters as key: value, for reports.
func ParamMap(ps []Param) map[string]string {
	m := make(map[string]string, len(ps))
	for _, p := range ps {
		m[p.Key] = p.Value
	}
	return m
}

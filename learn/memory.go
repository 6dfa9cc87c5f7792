package learn

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aer-go/aer/internal/memlimit"
)

// ErrMemory is the error of a fit that would need more memory than the
// process may use.
var ErrMemory = errors.New("not enough memory for the fit")

// Shape is what a fit's memory depends on: the sizes of its tables and
// how it may use them.
type Shape struct {
	// Rows and Features of the training table; ValidRows of the
	// validation table (0: none).
	Rows, Features, ValidRows int
	// Workers is the number of fits or goroutines that may hold their own
	// buffers at once (0: GOMAXPROCS).
	Workers int
	// ConsumeTrain is Env.ConsumeTrain: the method may work on the
	// training features in place instead of copying them.
	ConsumeTrain bool
}

// MemoryEstimator is a Method that can say, before a fit, about how many
// bytes of live heap its fit needs at its peak beyond the training and
// validation tables it is given (which the caller already holds). The
// estimate is meant to be within a small factor of the truth, so that a
// fit that cannot finish is refused before it starts instead of being
// killed by the system an hour in.
type MemoryEstimator interface {
	FitMemory(s Shape) int64
}

// FitMemory returns m's estimate of its fit's peak memory beyond the
// tables, and false when m does not estimate it.
func FitMemory(m Method, s Shape) (int64, bool) {
	if e, ok := m.(MemoryEstimator); ok {
		return e.FitMemory(s), true
	}
	return 0, false
}

// CheckMemory returns an error wrapping ErrMemory when m estimates that
// its fit of shape s needs more than available bytes, naming both; nil
// when it fits or m does not estimate its memory.
func CheckMemory(m Method, s Shape, available int64) error {
	need, ok := FitMemory(m, s)
	if !ok || need <= available {
		return nil
	}
	valid := ""
	if s.ValidRows > 0 {
		valid = fmt.Sprintf(" and %d validation rows", s.ValidRows)
	}
	hint := "fit on a sample of the rows (aer split), or on a machine with more memory"
	if sizes := sizeParams(m, s, need); len(sizes) > 0 {
		hint = fmt.Sprintf("lower %s (--param), %s", strings.Join(sizes, ", "), hint)
	}
	return fmt.Errorf("%w: method %s on %d training rows%s of %d features needs about %s beyond the tables, and %s are available; %s",
		ErrMemory, m.Name(), s.Rows, valid, s.Features, memlimit.Format(need), memlimit.Format(available), hint)
}

// sizeParams names the parameters set away from their defaults that size
// the estimate need: those whose default alone would at least halve it,
// as "key=value (default d)". It asks a fresh method of the registry with
// m's parameters; nil when m is not registered.
func sizeParams(m Method, s Shape, need int64) []string {
	params := m.Params()
	var out []string
	for _, p := range params {
		if p.Value == p.Default {
			continue
		}
		fresh, err := New(m.Name())
		if err != nil {
			return nil
		}
		for _, q := range params {
			v := q.Value
			if q.Key == p.Key {
				v = p.Default
			}
			if q.Value != q.Default || q.Key == p.Key {
				if fresh.Set(q.Key, v) != nil {
					return nil
				}
			}
		}
		if e, ok := FitMemory(fresh, s); ok && e <= need/2 {
			out = append(out, fmt.Sprintf("%s=%s (default %s)", p.Key, p.Value, p.Default))
		}
	}
	return out
}

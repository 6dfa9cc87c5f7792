package contaminate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
)

// The kinds of contamination.
const (
	// Flip gives a share of each class's rows another class.
	Flip = "flip"
	// FlipMinority relabels a share of the minority rows as majority.
	FlipMinority = "flip-minority"
	// Outliers replaces a share of each class's rows by gross outliers.
	Outliers = "outliers"
)

// Kinds are the kinds of contamination, in the order the documentation
// gives them.
var Kinds = []string{Flip, FlipMinority, Outliers}

// None is how the clean condition is written.
const None = "none"

// MaxLevel is the largest share of rows a condition may contaminate: past
// half, flipped labels say the opposite of the data.
const MaxLevel = 0.5

// OutlierSDs is how many standard deviations from its mean an outlier's
// feature lies.
const OutlierSDs = 10

// ErrSpec marks a condition or a list of them that cannot be read.
var ErrSpec = errors.New("invalid contamination")

// Condition is one contamination: a kind and the share of rows it
// changes. The zero value is the clean condition.
type Condition struct {
	// Kind is Flip, FlipMinority or Outliers; "" when Level is 0.
	Kind string
	// Level is the share of rows changed, in [0, MaxLevel].
	Level float64
}

// Clean reports whether c changes nothing.
func (c Condition) Clean() bool { return c.Level == 0 }

// String writes c as Parse reads it: "flip:0.1", or "none" when clean.
func (c Condition) String() string {
	if c.Clean() {
		return None
	}
	return c.Kind + ":" + strconv.FormatFloat(c.Level, 'g', -1, 64)
}

// Dir is c as a folder name: "flip-0.1", or "none".
func (c Condition) Dir() string { return strings.ReplaceAll(c.String(), ":", "-") }

// ParseCondition reads one condition: "none", or KIND:LEVEL with KIND one
// of Kinds and LEVEL a share in [0, MaxLevel] (0 is the clean
// condition).
func ParseCondition(s string) (Condition, error) {
	s = strings.TrimSpace(s)
	if s == None {
		return Condition{}, nil
	}
	kind, level, ok := strings.Cut(s, ":")
	if !ok || strings.Contains(level, ":") {
		return Condition{}, fmt.Errorf("%w: %q: want none or KIND:LEVEL (kinds %s)", ErrSpec, s, strings.Join(Kinds, ", "))
	}
	kind = strings.TrimSpace(kind)
	if !slices.Contains(Kinds, kind) {
		return Condition{}, fmt.Errorf("%w: %q: unknown kind %q (want %s)", ErrSpec, s, kind, strings.Join(Kinds, ", "))
	}
	p, err := strconv.ParseFloat(strings.TrimSpace(level), 64)
	if err != nil || !(p >= 0 && p <= MaxLevel) {
		return Condition{}, fmt.Errorf("%w: %q: level %q is not a share from 0 to %g", ErrSpec, s, level, MaxLevel)
	}
	if p == 0 {
		return Condition{}, nil
	}
	return Condition{Kind: kind, Level: p}, nil
}

// Parse reads a comma-separated list of conditions, each "none" or
// KIND:LEVEL[:LEVEL...] ("flip:0.05:0.1" is flip:0.05 and flip:0.1), in
// the order given; a condition given twice (flip:0 and none are the same)
// is kept once.
func Parse(spec string) ([]Condition, error) {
	if strings.TrimSpace(spec) == "" {
		return nil, fmt.Errorf("%w: empty list", ErrSpec)
	}
	var out []Condition
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		kind, levels, ok := strings.Cut(item, ":")
		parts := []string{item}
		if ok {
			parts = parts[:0]
			for _, l := range strings.Split(levels, ":") {
				parts = append(parts, kind+":"+l)
			}
		}
		for _, p := range parts {
			c, err := ParseCondition(p)
			if err != nil {
				return nil, err
			}
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// Apply contaminates the rows of x and their labels y (classes 0 to k-1)
// in place as c says, drawing every random choice from seed, and returns
// the indices of the rows it changed, in increasing order. The clean
// condition changes nothing. x has one row per label; NaN marks a
// missing value (an outlier has none).
func Apply(c Condition, x *mat.Dense, y []int, seed uint64) ([]int, error) {
	if c.Clean() {
		return nil, nil
	}
	if x == nil {
		return nil, fmt.Errorf("contaminate %s: no rows", c)
	}
	if r, _ := x.Dims(); r != len(y) {
		return nil, fmt.Errorf("contaminate %s: %d rows but %d labels", c, r, len(y))
	}
	if !(c.Level > 0 && c.Level <= MaxLevel) {
		return nil, fmt.Errorf("%w: contaminate %s: level outside (0, %g]", ErrSpec, c, MaxLevel)
	}
	k := 0
	for i, v := range y {
		if v < 0 {
			return nil, fmt.Errorf("contaminate %s: row %d: negative label %d", c, i, v)
		}
		k = max(k, v+1)
	}
	byClass := make([][]int, k)
	for i, v := range y {
		byClass[v] = append(byClass[v], i)
	}
	switch c.Kind {
	case Flip:
		return flip(c.Level, y, byClass, seed), nil
	case FlipMinority:
		return flipMinority(c.Level, y, byClass, seed), nil
	case Outliers:
		return outliers(c.Level, x, byClass, seed), nil
	}
	return nil, fmt.Errorf("%w: unknown kind %q", ErrSpec, c.Kind)
}

// Count is how many of n rows a level contaminates: round(p * n).
func Count(p float64, n int) int { return int(math.Round(p * float64(n))) }

// Streams of the random choices, one per kind and purpose.
const (
	streamFlip = iota + 1
	streamMinority
	streamOutliers
	streamNewClass
	streamSigns
)

// chosen returns the first Count(p, len(rows)) rows of a permutation of
// rows drawn from the stream of seed and kind for class class.
func chosen(p float64, rows []int, seed, kind uint64, class int) []int {
	r := rng.Derive(rng.DeriveSeed(seed, kind), uint64(class))
	perm := slices.Clone(rows)
	r.Shuffle(len(perm), func(a, b int) { perm[a], perm[b] = perm[b], perm[a] })
	return perm[:Count(p, len(rows))]
}

func flip(p float64, y []int, byClass [][]int, seed uint64) []int {
	var changed []int
	var classes []int // the classes present
	for c, rows := range byClass {
		if len(rows) > 0 {
			classes = append(classes, c)
		}
	}
	if len(classes) < 2 {
		return nil // nothing to flip to
	}
	for ci, c := range classes {
		for _, i := range chosen(p, byClass[c], seed, streamFlip, c) {
			// Another class present, uniformly, from the row's own stream
			// (so a row's new class does not depend on the level).
			r := rng.Derive(rng.DeriveSeed(seed, streamNewClass), uint64(i))
			t := r.IntN(len(classes) - 1)
			if t >= ci {
				t++
			}
			y[i] = classes[t]
			changed = append(changed, i)
		}
	}
	slices.Sort(changed)
	return changed
}

func flipMinority(p float64, y []int, byClass [][]int, seed uint64) []int {
	minority, majority := -1, -1
	for c, rows := range byClass {
		if len(rows) == 0 {
			continue
		}
		// Of tied classes, the higher is the minority (class 1, the
		// positive one, of two) and the lower the majority.
		if minority < 0 || len(rows) <= len(byClass[minority]) {
			minority = c
		}
		if majority < 0 || len(rows) > len(byClass[majority]) {
			majority = c
		}
	}
	if minority == majority {
		return nil
	}
	changed := slices.Clone(chosen(p, byClass[minority], seed, streamMinority, minority))
	for _, i := range changed {
		y[i] = majority
	}
	slices.Sort(changed)
	return changed
}

func outliers(p float64, x *mat.Dense, byClass [][]int, seed uint64) []int {
	mean, sd := moments(x)
	var changed []int
	for c, rows := range byClass {
		changed = append(changed, chosen(p, rows, seed, streamOutliers, c)...)
	}
	slices.Sort(changed)
	for _, i := range changed {
		r := rng.Derive(rng.DeriveSeed(seed, streamSigns), uint64(i))
		row := x.RawRowView(i)
		for j := range row {
			s := 1.0
			if r.Uint64()&1 == 1 {
				s = -1
			}
			row[j] = mean[j] + s*OutlierSDs*sd[j]
		}
	}
	return changed
}

// moments returns each column's mean and standard deviation (divided by
// n) over its values that are not missing; NaN for a column without any.
func moments(x *mat.Dense) (mean, sd []float64) {
	r, c := x.Dims()
	mean, sd = make([]float64, c), make([]float64, c)
	n := make([]float64, c)
	for i := range r {
		for j, v := range x.RawRowView(i) {
			if v == v {
				n[j]++
				mean[j] += v
			}
		}
	}
	for j := range mean {
		mean[j] /= n[j] // NaN when n is 0
	}
	for i := range r {
		for j, v := range x.RawRowView(i) {
			if v == v {
				d := v - mean[j]
				sd[j] += d * d
			}
		}
	}
	for j := range sd {
		sd[j] = math.Sqrt(sd[j] / n[j])
	}
	return mean, sd
}

package resample

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/aer-go/aer/learn"
)

// Sampler is a configured resampling rule: it turns a labelled table into
// another, for a classifier to train on. Set and Params configure it as a
// learn.Method's do; Resample does not change it, so one Sampler may
// resample from several goroutines.
type Sampler interface {
	// Name is the sampler's name ("smote", "rus").
	Name() string
	// Set sets one parameter from its text form; the error wraps
	// learn.ErrParam.
	Set(key, value string) error
	// Params lists every parameter with its value and default.
	Params() []learn.Param
	// Resample returns new data: the rows of d it keeps, in the order of
	// d, then the rows it makes up, if any. Kept rows carry their label
	// and weight; d is not modified. Every random choice flows from
	// env.Seed, and the result does not depend on env.Workers. Data a
	// sampler cannot use is an error wrapping learn.ErrData that names the
	// row (numbered from 1).
	Resample(ctx context.Context, d *learn.Data, env learn.Env) (*learn.Data, error)
}

// samplers are the samplers New knows, by name.
var samplers = map[string]func() Sampler{
	"rus":         func() Sampler { return &RUS{} },
	"smote":       func() Sampler { return &SMOTE{} },
	"tomek":       func() Sampler { return &Tomek{} },
	"smote-tomek": func() Sampler { return &SMOTETomek{} },
}

// New returns the sampler called name, with default parameters: rus,
// smote, tomek or smote-tomek.
func New(name string) (Sampler, error) {
	f, ok := samplers[name]
	if !ok {
		return nil, fmt.Errorf("resample: unknown sampler %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return f(), nil
}

// Names returns the names New knows, sorted.
func Names() []string {
	names := make([]string, 0, len(samplers))
	for n := range samplers {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Counts are the sizes of a labelled table.
type Counts struct {
	Rows     int `json:"rows"`
	Negative int `json:"negative"` // label 0
	Positive int `json:"positive"` // label 1
}

// CountRows counts the rows of d by label.
func CountRows(d *learn.Data) Counts {
	c := Counts{Rows: len(d.Y)}
	for _, y := range d.Y {
		if y == 1 {
			c.Positive++
		}
	}
	c.Negative = c.Rows - c.Positive
	return c
}

// String is the counts in a few words.
func (c Counts) String() string {
	return fmt.Sprintf("%d rows (%d negative, %d positive)", c.Rows, c.Negative, c.Positive)
}

// classes returns the label of the minority class and the row numbers of
// the minority and the majority class. The minority is the class with
// fewer rows, label 1 on a tie (aer's convention), as imbalanced-learn
// decides it from the counts.
func classes(y []int) (minLabel int, minority, majority []int) {
	var rows [2][]int
	for i, v := range y {
		rows[v] = append(rows[v], i)
	}
	if len(rows[0]) < len(rows[1]) {
		return 0, rows[0], rows[1]
	}
	return 1, rows[1], rows[0]
}

// check validates d for a sampler: learn.Data.Check, and both classes
// present.
func check(name string, d *learn.Data) error {
	if err := d.Check("data to resample"); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	c := CountRows(d)
	if c.Negative == 0 || c.Positive == 0 {
		return fmt.Errorf("%s: %w: data to resample has %d negative and %d positive rows; both classes are needed", name, learn.ErrData, c.Negative, c.Positive)
	}
	return nil
}

// checkFinite refuses missing values in the given rows of d (all rows when
// rows is nil): distances and interpolation need every value.
func checkFinite(name string, d *learn.Data, rows []int) error {
	raw := d.X.RawMatrix()
	c := d.Cols()
	at := func(i int) error {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+c] {
			if math.IsNaN(v) {
				col := fmt.Sprintf("feature %d", j+1)
				if d.Features != nil {
					col += fmt.Sprintf(" (%q)", d.Features[j])
				}
				return fmt.Errorf("%s: %w: data to resample row %d, %s is missing; %s needs every value, so impute first", name, learn.ErrData, i+1, col, name)
			}
		}
		return nil
	}
	if rows == nil {
		for i := range d.Rows() {
			if err := at(i); err != nil {
				return err
			}
		}
		return nil
	}
	for _, i := range rows {
		if err := at(i); err != nil {
			return err
		}
	}
	return nil
}

// strategyParam declares the sampling_strategy parameter (key) of a
// sampler of type t: any form ParseStrategy reads, class indices for
// classes. text holds it; for a sampler with a ratio field (ratio not
// nil), the float form is kept in the ratio with text empty, and "auto"
// sets the ratio to 1 too (auto's meaning on labels 0 and 1). Get shows
// the text, or else the ratio.
func strategyParam[T any](key string, t SamplingType, help string, ratio func(*T) *float64, text func(*T) *string) learn.ParamSpec[T] {
	return learn.ParamSpec[T]{Key: key, Help: help,
		Get: func(s *T) string {
			if v := *text(s); v != "" || ratio == nil {
				if st, err := parseStrategy(v); err == nil {
					return st.String()
				}
				return v
			}
			return learn.FormatFloat(*ratio(s))
		},
		Set: func(s *T, v string) error {
			st, err := parseStrategy(v)
			if err != nil {
				return err
			}
			if st, err = st.indexed(); err != nil {
				return err
			}
			if err := st.check(t); err != nil {
				return err
			}
			switch {
			case st.isRatio() && ratio != nil:
				*ratio(s), *text(s) = st.Ratio, ""
			case ratio == nil:
				*text(s) = st.String()
			case st.Name == "auto":
				*ratio(s), *text(s) = 1, "auto"
			default:
				*ratio(s), *text(s) = 0, st.String()
			}
			return nil
		}}
}

// plan is how a sampler resamples a table: by its two-class rule (binary,
// with the ratio for RUS and SMOTE), or by targets per class.
type plan struct {
	binary  bool
	ratio   float64
	targets []Target
}

// planFor decides how sampler name, of type t, resamples d with the
// sampling_strategy text, or the ratio when text is empty. Labels 0 and 1
// with a ratio, auto (ratio 1), or for cleaning all, keep the two-class
// rule, which checks d itself; every other case is resolved by Targets
// after d is checked for any number of classes.
func planFor(name string, t SamplingType, ratio float64, text string, d *learn.Data) (plan, error) {
	st := Strategy{Ratio: ratio}
	if text != "" {
		var err error
		if st, err = ParseStrategy(text); err != nil {
			return plan{}, fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := st.Check(t); err != nil {
		return plan{}, fmt.Errorf("%s: %w", name, err)
	}
	twoClass := st.isRatio() || st.Name == "auto" || (t == Cleaning && st.Name == "all")
	if twoClass && otherLabel(d) < 0 {
		if st.Name != "" {
			st.Ratio = 1
		}
		return plan{binary: true, ratio: st.Ratio}, nil
	}
	if err := checkClasses(name, d); err != nil {
		return plan{}, err
	}
	if st.isRatio() {
		if stats, _ := countClasses(d.Y); len(stats.class) > 2 {
			i := otherLabel(d)
			return plan{}, fmt.Errorf("%s: %w: data to resample row %d: label %d is not 0 or 1, and sampling_strategy %s, a minority to majority ratio, is for two classes; the data has %d (%s): use auto, not majority, not minority, all or per-class counts CLASS:N,CLASS:N",
				name, learn.ErrData, i+1, d.Y[i], st, len(stats.class), stats)
		}
	}
	targets, err := st.Targets(d.Y, t)
	if err != nil {
		return plan{}, fmt.Errorf("%s: %w", name, err)
	}
	return plan{targets: targets}, nil
}

// otherLabel returns the first row of d whose label is not 0 or 1, or -1.
func otherLabel(d *learn.Data) int {
	if d == nil {
		return -1
	}
	return slices.IndexFunc(d.Y, func(y int) bool { return y != 0 && y != 1 })
}

// checkClasses validates d for a sampler on any number of classes:
// learn.Data.Check, except that labels are class indices 0, 1, 2, ...
func checkClasses(name string, d *learn.Data) error {
	if _, err := countClasses(d.Y); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	c := *d
	c.Y = make([]int, len(d.Y)) // every other check of Check
	if err := c.Check("data to resample"); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// classRows returns the rows of each class of y, by label.
func classRows(y []int) map[int][]int {
	rows := map[int][]int{}
	for i, v := range y {
		rows[v] = append(rows[v], i)
	}
	return rows
}

// keptRows returns the rows 0..n-1 not in drop, in order.
func keptRows(n int, drop map[int]bool) []int {
	rows := make([]int, 0, n-len(drop))
	for i := range n {
		if !drop[i] {
			rows = append(rows, i)
		}
	}
	return rows
}

// Origin says where a row of a sampler's output comes from. Row is the
// row of the input it is (kept), or -1 for a synthetic row, made between
// the input rows A and B as x_A + Gap·(x_B - x_A) (A and B are -1 for a
// kept row).
type Origin struct {
	Row, A, B int
	Gap       float64
}

// Tracer is a Sampler that also reports where each row of its output
// comes from. Every sampler of this package is one.
type Tracer interface {
	Sampler
	// Trace returns what Resample returns and the origin of each of its
	// rows.
	Trace(ctx context.Context, d *learn.Data, env learn.Env) (*learn.Data, []Origin, error)
}

// keptOrigins are the origins of the kept rows.
func keptOrigins(rows []int) []Origin {
	o := make([]Origin, len(rows))
	for k, i := range rows {
		o[k] = Origin{Row: i, A: -1, B: -1}
	}
	return o
}

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

// ratioParam declares a sampling_strategy parameter: the minority to
// majority row ratio after resampling, in (0, 1] (imbalanced-learn's float
// sampling_strategy); "auto" is read as 1.
func ratioParam[T any](help string, field func(*T) *float64) learn.ParamSpec[T] {
	p := learn.Float("sampling_strategy", help, 0, 1, field)
	set := p.Set
	p.Set = func(s *T, v string) error {
		if strings.TrimSpace(v) == "auto" {
			v = "1"
		}
		if f, err := learn.ParseFloat(v); err == nil && !(f > 0 && f <= 1) {
			return fmt.Errorf("want a number in (0, 1] or auto")
		}
		return set(s, v)
	}
	return p
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

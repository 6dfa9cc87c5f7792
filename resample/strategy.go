package resample

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/aer-go/aer/learn"
)

// SamplingType is what a sampler does to the classes a sampling strategy
// names: imbalanced-learn's sampling_type, which decides what each form of
// the strategy means.
type SamplingType int

const (
	// OverSampling adds rows to the named classes (SMOTE).
	OverSampling SamplingType = iota + 1
	// UnderSampling removes rows of the named classes (RUS).
	UnderSampling
	// Cleaning removes rows of the named classes that a rule picks (Tomek
	// links).
	Cleaning
)

// String is imbalanced-learn's name of the type: over-sampling,
// under-sampling or clean-sampling.
func (t SamplingType) String() string {
	switch t {
	case OverSampling:
		return "over-sampling"
	case UnderSampling:
		return "under-sampling"
	case Cleaning:
		return "clean-sampling"
	}
	return fmt.Sprintf("SamplingType(%d)", int(t))
}

// strategyNames are the named forms of a strategy, in imbalanced-learn's
// order.
var strategyNames = []string{"auto", "majority", "not minority", "not majority", "all", "minority"}

// Strategy is imbalanced-learn's sampling_strategy, parsed by
// ParseStrategy: exactly one of its forms is set.
type Strategy struct {
	// Ratio is the float form, in (0, 1]: the minority to majority row
	// ratio after resampling, for two classes only.
	Ratio float64
	// Name is a named form: auto, majority, not minority, not majority,
	// all or minority.
	Name string
	// Counts is the per-class form: the rows each listed class has after
	// resampling (under- and over-sampling only).
	Counts []ClassCount
	// Classes is the list form: the classes to clean (cleaning only).
	Classes []string
}

// ClassCount is one class of a per-class strategy and its row count after
// resampling.
type ClassCount struct {
	// Class is the class as written. Samplers take class indices, 0 to
	// K-1 (the labels of learn.Data); a caller that knows the classes by
	// name maps them to indices first.
	Class string
	N     int
}

// Target is one class a resolved strategy names and imbalanced-learn's
// number for it (its check_sampling_strategy's value): the rows to add
// (over-sampling), the rows to keep (under-sampling), or, for cleaning,
// the rows of the smallest class (cleaning removes what its rule finds;
// only the class matters).
type Target struct {
	Class int `json:"class"`
	N     int `json:"n"`
}

// maxCount bounds a per-class row count, so that the rows a strategy asks
// for can be counted and allocated.
const maxCount = math.MaxInt32

// ParseStrategy reads a sampling_strategy in one of imbalanced-learn's
// forms:
//
//   - a number in (0, 1]: the minority to majority row ratio after
//     resampling, for two classes only ("0.5");
//   - a name: auto, majority, not minority, not majority, all, minority
//     (a hyphen or underscore may stand for the space: not-minority);
//   - per-class counts, "CLASS:N,CLASS:N": the rows each listed class
//     has after resampling (under- and over-sampling);
//   - a list of classes, "CLASS,CLASS", the classes to clean (cleaning
//     only); a list of one class ends with a comma ("2,").
//
// A class is kept as text: samplers take its index (0 to K-1), and
// Strategy.ByName maps the labels of a table to their indices. The error wraps learn.ErrParam and says what was wanted.
func ParseStrategy(text string) (Strategy, error) {
	s, err := parseStrategy(text)
	if err != nil {
		return Strategy{}, fmt.Errorf("%w: sampling_strategy %q: %v", learn.ErrParam, strings.TrimSpace(text), err)
	}
	return s, nil
}

// parseStrategy is ParseStrategy with errors that say only what is wrong
// with text.
func parseStrategy(text string) (Strategy, error) {
	v := strings.TrimSpace(text)
	if v == "" {
		return Strategy{}, fmt.Errorf("empty; %s", strategyForms)
	}
	if name, ok := strategyName(v); ok {
		return Strategy{Name: name}, nil
	}
	if !strings.ContainsAny(v, ",:") {
		f, err := learn.ParseFloat(v)
		if err != nil {
			return Strategy{}, fmt.Errorf("not one of its forms; %s", strategyForms)
		}
		if !(f > 0 && f <= 1) {
			hint := ""
			if c, err := strconv.Atoi(v); err == nil && c >= 0 {
				hint = fmt.Sprintf("; a list of the one class %d is written %q", c, v+",")
			}
			return Strategy{}, fmt.Errorf("want a number in (0, 1] or auto, or another of its forms: majority, not minority, not majority, all, minority, per-class counts CLASS:N,CLASS:N or a list of classes CLASS,CLASS (cleaning)%s", hint)
		}
		return Strategy{Ratio: f}, nil
	}
	items := strings.Split(v, ",")
	if len(items) > 1 && strings.TrimSpace(items[len(items)-1]) == "" {
		items = items[:len(items)-1] // "2," is the list of class 2
	}
	var s Strategy
	seen := map[string]bool{}
	for k, item := range items {
		item = strings.TrimSpace(item)
		class, count, isCount := strings.Cut(item, ":")
		class = strings.TrimSpace(class)
		if class == "" {
			return Strategy{}, fmt.Errorf("item %d names no class; %s", k+1, strategyForms)
		}
		if k > 0 && isCount != (s.Counts != nil) {
			return Strategy{}, errors.New("mixes CLASS:N counts and a list of classes")
		}
		if seen[class] {
			return Strategy{}, fmt.Errorf("names class %s twice", class)
		}
		seen[class] = true
		if !isCount {
			s.Classes = append(s.Classes, class)
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(count))
		switch {
		case err != nil:
			return Strategy{}, fmt.Errorf("class %s: the count %q is not a whole number", class, strings.TrimSpace(count))
		case n < 0:
			return Strategy{}, fmt.Errorf("class %s: the number of rows of a class cannot be negative", class)
		case n > maxCount:
			return Strategy{}, fmt.Errorf("class %s: %d rows is more than a sampler makes (at most %d)", class, n, maxCount)
		}
		if s.Counts == nil {
			s.Counts = []ClassCount{}
		}
		s.Counts = append(s.Counts, ClassCount{Class: class, N: n})
	}
	return s, nil
}

// strategyForms lists the forms, for error messages.
const strategyForms = "want a number in (0, 1] (two classes), auto, majority, not minority, not majority, all, minority, per-class counts CLASS:N,CLASS:N or a list of classes CLASS,CLASS (cleaning)"

// isRatio tells whether s is the float form.
func (s Strategy) isRatio() bool {
	return s.Name == "" && s.Counts == nil && s.Classes == nil
}

// indexed returns s with its classes written as canonical class indices
// (a sampler's classes), or an error naming one that is not.
func (s Strategy) indexed() (Strategy, error) {
	canon := func(class string) (string, error) {
		c, err := strconv.Atoi(class)
		if err != nil || c < 0 {
			return "", fmt.Errorf("class %q is not a class index (0, 1, 2, ...)", class)
		}
		return strconv.Itoa(c), nil
	}
	out := Strategy{Ratio: s.Ratio, Name: s.Name}
	seen := map[string]bool{}
	for _, c := range s.Counts {
		k, err := canon(c.Class)
		if err != nil {
			return Strategy{}, err
		}
		if seen[k] {
			return Strategy{}, fmt.Errorf("names class %s twice", k)
		}
		seen[k] = true
		out.Counts = append(out.Counts, ClassCount{Class: k, N: c.N})
	}
	for _, c := range s.Classes {
		k, err := canon(c)
		if err != nil {
			return Strategy{}, err
		}
		if seen[k] {
			return Strategy{}, fmt.Errorf("names class %s twice", k)
		}
		seen[k] = true
		out.Classes = append(out.Classes, k)
	}
	return out, nil
}

// ByName returns s with the classes its per-class counts or list name
// written as their indices in classes (the labels, index c naming class
// c), the form samplers take. A class is read as a label first, as
// imbalanced-learn reads a dictionary's keys as labels: with labels 1, 2,
// 3 and 4, "1:10" is ten rows of label 1. A whole number is read as an
// index (0 to len(classes)-1) only when no label is itself a whole number,
// so that a number never means one class by name and another by index.
// Any other class is an error wrapping learn.ErrParam that lists the
// classes. The other forms are returned as they are.
func (s Strategy) ByName(classes []string) (Strategy, error) {
	numeric := slices.ContainsFunc(classes, func(c string) bool {
		_, err := strconv.Atoi(strings.TrimSpace(c))
		return err == nil
	})
	index := func(class string) (int, error) {
		if c := slices.Index(classes, class); c >= 0 {
			return c, nil
		}
		if c, err := strconv.Atoi(class); err == nil && !numeric && c >= 0 && c < len(classes) {
			return c, nil
		}
		where := fmt.Sprintf("or their indices 0 to %d", len(classes)-1)
		if numeric {
			where = "named by label: the labels are whole numbers, so a number is never read as an index"
		}
		return 0, fmt.Errorf("%w: sampling_strategy %s: %q is not one of the classes %q (%s)", learn.ErrParam, s, class, classes, where)
	}
	out := Strategy{Ratio: s.Ratio, Name: s.Name}
	seen := map[int]string{}
	add := func(class string) (string, error) {
		c, err := index(class)
		if err != nil {
			return "", err
		}
		if first, dup := seen[c]; dup {
			return "", fmt.Errorf("%w: sampling_strategy %s names class %q twice (as %q and %q)", learn.ErrParam, s, classes[c], first, class)
		}
		seen[c] = class
		return strconv.Itoa(c), nil
	}
	for _, c := range s.Counts {
		k, err := add(c.Class)
		if err != nil {
			return Strategy{}, err
		}
		out.Counts = append(out.Counts, ClassCount{Class: k, N: c.N})
	}
	for _, c := range s.Classes {
		k, err := add(c)
		if err != nil {
			return Strategy{}, err
		}
		out.Classes = append(out.Classes, k)
	}
	return out, nil
}

// strategyName returns the named form v stands for, if any.
func strategyName(v string) (string, bool) {
	v = strings.Join(strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == '\t' || r == '-' || r == '_' }), " ")
	return v, slices.Contains(strategyNames, v)
}

// String writes s in the form ParseStrategy reads back to s.
func (s Strategy) String() string {
	switch {
	case s.Name != "":
		return s.Name
	case s.Counts != nil:
		items := make([]string, len(s.Counts))
		for k, c := range s.Counts {
			items[k] = c.Class + ":" + strconv.Itoa(c.N)
		}
		return strings.Join(items, ",")
	case s.Classes != nil:
		if len(s.Classes) == 1 {
			return s.Classes[0] + ","
		}
		return strings.Join(s.Classes, ",")
	}
	return learn.FormatFloat(s.Ratio)
}

// Check reports whether s can be used by a sampler of type t, before any
// data is seen, as imbalanced-learn refuses: no ratio for cleaning, no
// majority for over-sampling, no minority for under-sampling or cleaning,
// no counts for cleaning, no list but for cleaning. The error wraps
// learn.ErrParam.
func (s Strategy) Check(t SamplingType) error {
	if err := s.check(t); err != nil {
		return fmt.Errorf("%w: sampling_strategy %s: %v", learn.ErrParam, s, err)
	}
	return nil
}

// check is Check with an error that says only what is wrong.
func (s Strategy) check(t SamplingType) error {
	if t != OverSampling && t != UnderSampling && t != Cleaning {
		return fmt.Errorf("unknown sampling type %d", int(t))
	}
	bad := ""
	switch {
	case s.Name == "majority" && t == OverSampling:
		bad = "majority cannot be used with over-sampling (it would add rows to the largest class)"
	case s.Name == "minority" && t != OverSampling:
		bad = "minority cannot be used with " + t.String()
	case s.Name != "" && !slices.Contains(strategyNames, s.Name):
		bad = fmt.Sprintf("%q is not a named strategy (%s)", s.Name, strings.Join(strategyNames, ", "))
	case s.Counts != nil && t == Cleaning:
		bad = "per-class counts cannot be used with cleaning, which removes what it finds: give a list of the classes to clean (CLASS,CLASS)"
	case s.Classes != nil && t != Cleaning:
		bad = "a list of classes is for cleaning only: give per-class counts CLASS:N,CLASS:N"
	case s.isRatio() && t == Cleaning:
		bad = "a ratio cannot be used with cleaning: give auto, all, majority, not minority, not majority or a list of classes"
	case s.isRatio() && !(s.Ratio > 0 && s.Ratio <= 1):
		bad = fmt.Sprintf("the ratio %v is not in (0, 1]", s.Ratio)
	}
	if bad != "" {
		return errors.New(bad)
	}
	return nil
}

// classStats are the classes present in some labels, increasing, and
// their row counts.
type classStats struct {
	class, n []int
}

// countClasses counts the rows of each label of y; a negative label is an
// ErrData error naming its row (from 1).
func countClasses(y []int) (classStats, error) {
	count := map[int]int{}
	for i, v := range y {
		if v < 0 {
			return classStats{}, fmt.Errorf("%w: row %d: label %d is not a class index (0, 1, 2, ...)", learn.ErrData, i+1, v)
		}
		count[v]++
	}
	var st classStats
	for c := range count {
		st.class = append(st.class, c)
	}
	slices.Sort(st.class)
	for _, c := range st.class {
		st.n = append(st.n, count[c])
	}
	return st, nil
}

// minority is the position of the class with the fewest rows, the first
// (smallest label) on a tie, as Python's min over imbalanced-learn's
// class counts.
func (st classStats) minority() int {
	k := 0
	for j, n := range st.n {
		if n < st.n[k] {
			k = j
		}
	}
	return k
}

// majority is the position of the class with the most rows, the first on
// a tie.
func (st classStats) majority() int {
	k := 0
	for j, n := range st.n {
		if n > st.n[k] {
			k = j
		}
	}
	return k
}

// String lists the classes and their rows: "0 (70 rows), 1 (76 rows)".
func (st classStats) String() string {
	items := make([]string, len(st.class))
	for j, c := range st.class {
		items[j] = fmt.Sprintf("%d (%d rows)", c, st.n[j])
	}
	return strings.Join(items, ", ")
}

// find returns the position of class c.
func (st classStats) find(c int) (int, bool) {
	return slices.BinarySearch(st.class, c)
}

// Targets resolves s on labels y (class indices, 0 to K-1) for a sampler
// of type t, as imbalanced-learn 0.10's check_sampling_strategy does: the
// classes s names, increasing, each with its number (see Target). Named
// forms count only the classes present in y; the minority is the class
// with the fewest rows and the majority the one with the most, the
// smaller label on a tie.
//
//   - auto is not majority for over-sampling, not minority otherwise;
//   - over-sampling: each named class gets as many rows as the majority
//     (N = rows to add);
//   - under-sampling and cleaning: each named class gets as many rows as
//     the minority (N = that count; cleaning ignores it);
//   - counts: over-sampling adds N - n_c rows to class c (N below n_c is an
//     error), under-sampling keeps N of them (N above n_c is an error);
//   - a ratio a, for two classes only: over-sampling adds
//     int(a·n_majority - n_minority) minority rows (at least 1),
//     under-sampling keeps int(n_minority / a) majority rows (at most
//     n_majority).
//
// Errors that only the form and type decide wrap learn.ErrParam (see
// Check); errors that depend on y (one class, a class without rows, a
// count out of range, a ratio on more than two classes) wrap
// learn.ErrData and say which class and how many rows.
func (s Strategy) Targets(y []int, t SamplingType) ([]Target, error) {
	if err := s.Check(t); err != nil {
		return nil, err
	}
	st, err := countClasses(y)
	if err != nil {
		return nil, err
	}
	if len(st.class) < 2 {
		return nil, fmt.Errorf("%w: sampling_strategy %s needs labels of more than one class; the data has %d (%s)", learn.ErrData, s, len(st.class), st)
	}
	var out []Target
	switch {
	case s.Name != "":
		out = st.named(s.Name, t)
	case s.Counts != nil:
		for _, c := range s.Counts {
			j, err := st.index(s, c.Class)
			if err != nil {
				return nil, err
			}
			n := st.n[j]
			switch {
			case t == OverSampling && c.N < n:
				return nil, fmt.Errorf("%w: sampling_strategy %s asks for %d rows of class %d, which has %d: over-sampling only adds rows", learn.ErrData, s, c.N, st.class[j], n)
			case t == UnderSampling && c.N > n:
				return nil, fmt.Errorf("%w: sampling_strategy %s asks for %d rows of class %d, which has %d: under-sampling only removes rows", learn.ErrData, s, c.N, st.class[j], n)
			case t == OverSampling:
				out = append(out, Target{Class: st.class[j], N: c.N - n})
			default:
				out = append(out, Target{Class: st.class[j], N: c.N})
			}
		}
	case s.Classes != nil:
		least := st.n[st.minority()]
		for _, c := range s.Classes {
			j, err := st.index(s, c)
			if err != nil {
				return nil, err
			}
			out = append(out, Target{Class: st.class[j], N: least})
		}
	default:
		if out, err = st.ratio(s.Ratio, t); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(a, b Target) int { return a.Class - b.Class })
	return out, nil
}

// index returns the position of the class written class, which must be
// an index present in the data.
func (st classStats) index(s Strategy, class string) (int, error) {
	c, err := strconv.Atoi(class)
	if err != nil || c < 0 {
		return 0, fmt.Errorf("%w: sampling_strategy %s: class %q is not a class index (0, 1, 2, ...)", learn.ErrParam, s, class)
	}
	j, ok := st.find(c)
	if !ok {
		return 0, fmt.Errorf("%w: sampling_strategy %s names class %d, which has no rows in the data (%s)", learn.ErrData, s, c, st)
	}
	return j, nil
}

// named resolves a named strategy (checked for t).
func (st classStats) named(name string, t SamplingType) []Target {
	if name == "auto" {
		name = "not minority"
		if t == OverSampling {
			name = "not majority"
		}
	}
	mi, ma := st.minority(), st.majority()
	var out []Target
	for j, c := range st.class {
		var named bool
		switch name {
		case "majority":
			named = j == ma
		case "not minority":
			named = j != mi
		case "not majority":
			named = j != ma
		case "all":
			named = true
		case "minority":
			named = j == mi
		}
		if !named {
			continue
		}
		n := st.n[mi]
		if t == OverSampling {
			n = st.n[ma] - st.n[j]
		}
		out = append(out, Target{Class: c, N: n})
	}
	return out
}

// ratio resolves the float form a (checked for t) on two classes.
func (st classStats) ratio(a float64, t SamplingType) ([]Target, error) {
	if len(st.class) != 2 {
		return nil, fmt.Errorf("%w: sampling_strategy %s, a minority to majority ratio, is for two classes and the data has %d (%s); use auto, not majority, not minority, all, or per-class counts CLASS:N,CLASS:N",
			learn.ErrData, learn.FormatFloat(a), len(st.class), st)
	}
	// On a tie, Python's min and max both take the first class, so the
	// other one is named.
	if t == OverSampling {
		ma := st.majority()
		mi := 1 - ma
		n := int(float64(st.n[ma])*a - float64(st.n[mi]))
		if n <= 0 {
			return nil, fmt.Errorf("%w: sampling_strategy %s asks for %s × %d rows of class %d, and it has %d already: over-sampling only adds rows; raise it",
				learn.ErrData, learn.FormatFloat(a), learn.FormatFloat(a), st.n[ma], st.class[mi], st.n[mi])
		}
		return []Target{{Class: st.class[mi], N: n}}, nil
	}
	mi := st.minority()
	ma := 1 - mi
	n := int(float64(st.n[mi]) / a)
	if n > st.n[ma] {
		return nil, fmt.Errorf("%w: sampling_strategy %s asks for %d rows of class %d to go with %d of class %d, and there are only %d; raise it",
			learn.ErrData, learn.FormatFloat(a), n, st.class[ma], st.n[mi], st.class[mi], st.n[ma])
	}
	return []Target{{Class: st.class[ma], N: n}}, nil
}

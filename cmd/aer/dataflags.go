package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aer-go/aer/dataset"
)

// dataFlags are the flags every command reading a labelled CSV shares.
type dataFlags struct {
	label     string
	positive  string
	delimiter rune
	na        []string
	drop      []string
	// allowMajority accepts a --positive class that is the majority.
	allowMajority bool
	id            string
	// categorical and maxCategories are registered by registerCategorical.
	categorical   []string
	maxCategories int
}

// registerCategorical adds the flags of commands that read string
// (categorical) feature columns: aer fit and aer info.
func (d *dataFlags) registerCategorical(fs *flag.FlagSet) {
	fs.Func("categorical", "`columns` (comma-separated) to read as categorical even when their cells are numbers (codes); a column with text cells is categorical anyway (repeatable)", func(v string) error {
		for _, c := range strings.Split(v, ",") {
			if c = strings.TrimSpace(c); c != "" {
				d.categorical = append(d.categorical, c)
			}
		}
		return nil
	})
	fs.Func("max-categories", fmt.Sprintf("most distinct values of a categorical column, one-hot encoded (default %d)", dataset.DefaultMaxCategories), func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1<<16 {
			return fmt.Errorf("%q: want a whole number from 1 to 65536", v)
		}
		d.maxCategories = n
		return nil
	})
}

func (d *dataFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&d.label, "label", "", "label column (default: the column named label, else the last column)")
	fs.StringVar(&d.positive, "positive", "", "label value of the positive (minority) class (default: the rarer class)")
	fs.BoolVar(&d.allowMajority, "allow-majority-positive", false, "accept a --positive class that has more rows than the other (refused by default: the methods treat the positive class as the minority)")
	fs.Func("delimiter", "field `separator`: , ; tab or one character (default: the one the header line uses most of , ; and tab)", func(v string) error {
		r, err := parseDelimiter(v)
		d.delimiter = r
		return err
	})
	fs.Func("drop", "`columns` (comma-separated) that are neither features nor label: ids, text, leaking outcomes (repeatable)", func(v string) error {
		for _, c := range strings.Split(v, ",") {
			if c = strings.TrimSpace(c); c != "" {
				d.drop = append(d.drop, c)
			}
		}
		return nil
	})
	fs.StringVar(&d.id, "id", "", "row-identifier `column`: never a feature (aer predict writes it back as its first column)")
	fs.Func("na", "one more cell `value` that means missing, besides empty, ?, NA, NaN, N/A, null, <NA> and #N/A (repeatable)", func(v string) error {
		if v = strings.TrimSpace(v); v == "" {
			return fmt.Errorf("empty token (an empty cell is missing already)")
		}
		d.na = append(d.na, v)
		return nil
	})
}

// parseDelimiter reads --delimiter: ",", ";", "tab" (or a tab), or any
// one character but a quote or a line break.
func parseDelimiter(v string) (rune, error) {
	if strings.EqualFold(v, "tab") || v == `\t` {
		return '\t', nil
	}
	r, n := utf8.DecodeRuneInString(v)
	if n == 0 || n != len(v) || r == '"' || r == '\r' || r == '\n' || r == utf8.RuneError {
		return 0, fmt.Errorf("%q: want one character such as , ; or tab", v)
	}
	return r, nil
}

func (d *dataFlags) options() dataset.Options {
	return dataset.Options{Label: d.label, Positive: d.positive, Delimiter: d.delimiter, NA: d.na, Drop: d.drop, ID: d.id,
		Categorical: d.categorical, MaxCategories: d.maxCategories}
}

// trainingOptions are the options of training data (aer fit, and any
// command that fits models on a file): options plus text columns read as
// categorical and a feature named like the label refused.
func (d *dataFlags) trainingOptions() dataset.Options {
	opt := d.options()
	opt.AutoCategorical = true
	opt.RefuseLabelLike = true
	opt.MultiClass = true
	return opt
}

// passOptions are the options of commands that read a table to describe
// it or write it back (aer info, aer split): text columns read as
// categorical, a column with too many values for that (an id, free
// text) kept as text instead of refused, and the --drop columns kept, so
// that every column of the file passes through.
func (d *dataFlags) passOptions() dataset.Options {
	opt := d.options()
	opt.AutoCategorical = true
	opt.AutoText = true
	opt.KeepDropped = true
	opt.MultiClass = true
	return opt
}

// checkDropped reports the --drop and --id columns the file d was read
// from lacks.
func (d *dataFlags) checkDropped(ds *dataset.Dataset, path string) error {
	for _, c := range d.drop {
		if !slices.Contains(ds.Dropped, c) {
			return fmt.Errorf("--drop %s: %s has no such column", c, path)
		}
	}
	for _, c := range d.categorical {
		if !slices.ContainsFunc(ds.Categories, func(k dataset.Category) bool { return k.Column == c }) {
			return fmt.Errorf("--categorical %s: %s has no such feature column", c, path)
		}
	}
	if d.id != "" && ds.IDColumn != d.id {
		return fmt.Errorf("--id %s: %s has no such column", d.id, path)
	}
	return nil
}

// checkPositive refuses a --positive class that is the majority of ds
// unless --allow-majority-positive was given.
func (d *dataFlags) checkPositive(ds *dataset.Dataset, path string) error {
	if d.positive == "" || d.allowMajority {
		return nil
	}
	if err := ds.CheckMinorityPositive(path); err != nil {
		return fmt.Errorf("--positive %s: %w; the methods treat the positive class as the minority (AER models the majority with its mixture), so the classes look swapped (--allow-majority-positive if meant)", d.positive, err)
	}
	return nil
}

// schemaCategories converts the dataset's categories for the model
// file.
func schemaCategories(cats []dataset.Category) []dataset.Category {
	var out []dataset.Category
	for _, c := range cats {
		out = append(out, dataset.Category{Column: c.Column, Values: c.Values})
	}
	return out
}

// noteMixed tells on w about columns read as categorical although most of
// their cells are numbers.
func noteMixed(w io.Writer, cmd string, d *dataset.Dataset, path string) {
	for _, m := range d.Mixed {
		fmt.Fprintf(w, "%s: %s: column %q read as categorical: %d cells are numbers, but line %d has %q (a typo, or a missing-value token for --na?)\n",
			cmd, path, m.Column, m.Numbers, m.Line, m.Value)
	}
}

// noteSuspects warns on w about the features of d that look like
// something else (dataset.Suspects: a leak of the label, row weights
// read as a feature), which cmd trains on all the same.
func noteSuspects(w io.Writer, cmd string, d *dataset.Dataset, path string) {
	for _, s := range d.Suspects() {
		fmt.Fprintf(w, "%s: warning: %s: feature %q: %s\n", cmd, path, s.Column, s.Reason)
	}
}

// noteText tells on w about the columns read as text because they have
// too many distinct values to be categorical, and what cmd does with
// them.
func noteText(w io.Writer, cmd string, d *dataset.Dataset, path, what string) {
	for _, t := range d.Text {
		if t.Auto {
			hint := ""
			if dataset.IDLike(t.Name) || distinct(t.Cells) {
				hint = fmt.Sprintf(" (a row identifier? --id %s)", t.Name)
			}
			fmt.Fprintf(w, "%s: %s: column %q has more distinct values than --max-categories allows, read as text: %s%s\n", cmd, path, t.Name, what, hint)
		}
	}
}

// distinct reports whether the cells are all different.
func distinct(cells []string) bool {
	seen := make(map[string]bool, len(cells))
	for _, c := range cells {
		if seen[c] {
			return false
		}
		seen[c] = true
	}
	return true
}

func sumInts(v []int) int {
	n := 0
	for _, x := range v {
		n += x
	}
	return n
}

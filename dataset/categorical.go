package dataset

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/aer-go/aer/internal/memlimit"
)

// DefaultMaxCategories is the cap on the distinct values of one
// categorical column when Options.MaxCategories is 0.
const DefaultMaxCategories = 64

// Category is a categorical (string) feature column and its values: it is
// one-hot encoded into one feature per value, named Column=value, in the
// order of Values (sorted when read from data). A cell with a value not
// in Values, and a missing cell, encode to all zeros.
type Category struct {
	Column string   `json:"column"`
	Values []string `json:"values"`
}

// Names returns the one-hot feature names of c: Column=value per value.
func (c Category) Names() []string {
	n := make([]string, len(c.Values))
	for i, v := range c.Values {
		n[i] = c.Column + "=" + v
	}
	return n
}

// Encode writes the one-hot encoding of the cell value into dst (which
// has one slot per value of c): 1 at the value's place, 0 elsewhere. It
// reports false, leaving dst all zeros, when the value is not one of c's
// (an unseen category); a missing value (empty, NA, ...) is all zeros
// too, and reported true. Numbers compare in canonical form, as when
// reading (1.0 is the category 1).
func (c Category) Encode(value string, dst []float64) bool {
	clear(dst[:len(c.Values)])
	s := strings.TrimSpace(value)
	if isMissing(s, nil) {
		return true
	}
	key := categoryKey(s)
	for i, v := range c.Values {
		if v == key {
			dst[i] = 1
			return true
		}
	}
	return false
}

// MixedColumn describes a column read as categorical although most of its
// cells are numbers: often a typo or an unusual missing-value token.
type MixedColumn struct {
	Column  string // the column
	Value   string // its first cell that is not a number
	Line    int    // the line of that cell
	Numbers int    // cells that were numbers
}

// catColumn is the state of one categorical feature column while reading.
type catColumn struct {
	fixed  bool             // values given (a model's schema): no new ones
	codes  map[string]int32 // value -> code (index into values)
	values []string         // code -> value
	unseen int              // cells of a value not in a fixed list
	// A column found categorical part way (AutoCategorical): its first
	// cell that is not a number and how many cells were numbers.
	firstText string
	firstLine int
	numbers   int
}

func newCatColumn(values []string) *catColumn {
	c := &catColumn{codes: make(map[string]int32, len(values))}
	for _, v := range values {
		c.add(v)
	}
	c.fixed = values != nil
	return c
}

func (c *catColumn) add(v string) int32 {
	code := int32(len(c.values))
	c.codes[v] = code
	c.values = append(c.values, v)
	return code
}

// categoryKey is the value a categorical cell stands for: numbers in one
// canonical form (as labels: 1, 1.0 and +1 are one category), any other
// text as it is.
func categoryKey(s string) string { return CanonicalLabel(s) }

// setupCategories marks the categorical feature columns of p.
func (p *parser) setupCategories() {
	p.cats = make([]*catColumn, len(p.features))
	p.maxCat = p.opt.MaxCategories
	if p.maxCat <= 0 {
		p.maxCat = DefaultMaxCategories
	}
	fixed := make(map[string][]string, len(p.opt.Categories))
	for _, c := range p.opt.Categories {
		fixed[c.Column] = c.Values
	}
	for k, f := range p.features {
		switch vals, ok := fixed[f]; {
		case ok:
			p.cats[k] = newCatColumn(append([]string{}, vals...))
			p.anyCat = true
		case slices.Contains(p.opt.Categorical, f):
			p.cats[k] = newCatColumn(nil)
			p.anyCat = true
		}
	}
}

// catCell reads cell s of categorical feature k: its value's code, -1 for
// a value a fixed list lacks, NaN for a missing cell.
func (p *parser) catCell(k int, s string, line int) (float64, error) {
	s = strings.TrimSpace(s)
	if isMissing(s, p.opt.NA) {
		return math.NaN(), nil
	}
	c := p.cats[k]
	if c.firstText != "" {
		if _, err := parseFloat(s); err == nil {
			c.numbers++
		}
	}
	key := intern(p.catCanon, s, categoryKey)
	if code, ok := c.codes[key]; ok {
		return float64(code), nil
	}
	if c.fixed {
		c.unseen++
		return -1, nil
	}
	if len(c.values) >= p.maxCat {
		detail := fmt.Sprintf("more than %d distinct values in a categorical column; raise the cap with --max-categories, or leave the column out with --drop %s or --id %s", p.maxCat, p.features[k], p.features[k])
		if c.numbers > 0 {
			detail += fmt.Sprintf("; its cells are numbers but for %q at line %d: a typo, or a missing-value token (--na)?", clip(c.firstText), c.firstLine)
		}
		err := p.fail(line, p.features[k], s, ErrTooManyCategories, detail)
		err.(*Error).numbers = c.numbers > 0
		return 0, err
	}
	return float64(c.add(key)), nil
}

// makeCategorical turns numeric feature k into a categorical one part way
// through the rows in b (its cell s at line is not a number): the numbers
// read so far become categories of their canonical text.
func (p *parser) makeCategorical(k int, b *rows, s string, line int) {
	c := newCatColumn(nil)
	c.firstText, c.firstLine = strings.Clone(strings.TrimSpace(s)), line
	p.cats[k] = c
	p.anyCat = true
	w := len(p.featCols)
	for i := range b.n {
		v := b.x[i*w+k]
		if v != v {
			continue
		}
		c.numbers++
		key := strconv.FormatFloat(v, 'g', -1, 64)
		code, ok := c.codes[key]
		if !ok {
			code = c.add(key)
		}
		b.x[i*w+k] = float64(code)
	}
}

// checkOneHot fails with ErrTooLarge, naming the widest categorical
// column, when n rows of w one-hot encoded features would not fit in the
// memory the process may still use (half of it, as checkMemory).
func (p *parser) checkOneHot(n, w int64, cats []Category) error {
	bytes := n * w * 8
	if w != 0 && bytes/w/8 != n {
		bytes = math.MaxInt64
	}
	free, over := overReadMemory(bytes)
	if !over {
		return nil
	}
	widest := Category{}
	for _, c := range cats {
		if len(c.Values) > len(widest.Values) {
			widest = c
		}
	}
	return &Error{File: p.name, Column: widest.Column, Err: ErrTooLarge,
		Detail: fmt.Sprintf("one-hot encoding %d rows into %d features needs %s of memory and %s are available; the column has %d values: lower --max-categories, or read it with --drop or --id",
			n, w, memlimit.Format(bytes), memlimit.Format(free), len(widest.Values))}
}

// encode one-hot encodes the categorical columns of the n rows in x
// (row-major, one slot per raw feature): the feature names, the encoded
// rows (in buf's storage when it is large enough) and the missing counts
// per encoded feature. Categories read from data are sorted first.
func (p *parser) encode(x []float64, n int, missing []int, buf []float64) (names []string, out []float64, miss []int, cats []Category, err error) {
	w := len(p.features)
	rank := make([][]int32, w)
	off := make([]int, w)
	for k, f := range p.features {
		off[k] = len(names)
		c := p.cats[k]
		if c == nil {
			names = append(names, f)
			continue
		}
		order := c.values
		if !c.fixed {
			order = slices.Clone(c.values)
			slices.Sort(order)
		}
		rank[k] = make([]int32, len(c.values))
		for i, v := range order {
			rank[k][c.codes[v]] = int32(i)
		}
		cat := Category{Column: f, Values: order}
		cats = append(cats, cat)
		names = append(names, cat.Names()...)
	}
	seen := make(map[string]int, len(names))
	for j, nm := range names {
		if i, dup := seen[nm]; dup {
			return nil, nil, nil, nil, &Error{File: p.name, Line: 1, Column: nm, Err: ErrDuplicate,
				Detail: fmt.Sprintf("one-hot features %d and %d: a column is named as the value of a categorical column", i+1, j+1)}
		}
		seen[nm] = j
	}
	wo := len(names)
	if err := p.checkOneHot(int64(n), int64(wo), cats); err != nil {
		return nil, nil, nil, nil, err
	}
	if cap(buf) >= n*wo {
		out = buf[:n*wo]
		clear(out)
	} else {
		out = make([]float64, n*wo)
	}
	miss = make([]int, wo)
	for k := range p.features {
		if p.cats[k] == nil {
			miss[off[k]] = missing[k]
		}
	}
	for i := range n {
		row, dst := x[i*w:(i+1)*w], out[i*wo:(i+1)*wo]
		for k, v := range row {
			if r := rank[k]; r != nil {
				if v >= 0 { // NaN (missing) and -1 (unseen) stay all zero
					dst[off[k]+int(r[int(v)])] = 1
				}
				continue
			}
			dst[off[k]] = v
		}
	}
	return names, out, miss, cats, nil
}

// mixed lists the columns read as categorical although some of their
// cells were numbers.
func (p *parser) mixed() []MixedColumn {
	var m []MixedColumn
	for k, c := range p.cats {
		if c != nil && c.numbers > 0 {
			m = append(m, MixedColumn{Column: p.features[k], Value: c.firstText, Line: c.firstLine, Numbers: c.numbers})
		}
	}
	return m
}

// unseen returns, per categorical column, the cells whose value a fixed
// list lacked.
func (p *parser) unseen() []int {
	var u []int
	for _, c := range p.cats {
		if c != nil {
			u = append(u, c.unseen)
		}
	}
	return u
}

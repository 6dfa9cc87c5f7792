package fit

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/adaptive"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/pipeline"
)

// Spec is what every stage of the fit needs to know: how to read the
// files, the seed, AER's parameters and the fit's limits. It travels
// inside the stages' functions (JSON), to every worker.
type Spec struct {
	Read    aer.ReadOptions
	Seed    uint64
	Params  []string
	Holdout float64
	AllRows int
}

// Random streams of the row draws (mix's stream argument).
const (
	streamHoldout = 1 + iota
	streamSample
	streamAllRows
	streamLocal = 1 << 20 // + component
)

// staged resolves the spec's AER configuration.
func (s *Spec) staged() (*adaptive.Staged, learn.Method, error) {
	m, err := pipeline.NewMethod(adaptive.MethodName, s.Params)
	if err != nil {
		return nil, nil, err
	}
	am, ok := m.(*adaptive.Method)
	if !ok {
		return nil, nil, fmt.Errorf("aer-beam: method %s is not AER", m.Name())
	}
	cfg := am.Config()
	st, err := adaptive.NewStaged(&cfg, s.Seed)
	return st, m, err
}

// readOptions are the options every file is read with once the schema
// is known: its classes and categories fixed.
func (s *Spec) readOptions(sch *schemaInfo) dataset.Options {
	o := s.Read.Options()
	if sch != nil {
		o.Classes = sch.Classes[:]
		o.Categories = sch.Categories
		o.Positive = ""
	}
	return o
}

// schemaInfo is what the first pass learns of one file, and, merged,
// of them all: the raw columns, the label values' counts, the
// categorical columns' values; Classes once resolved.
type schemaInfo struct {
	Path       string             `json:"path"`
	Raw        []string           `json:"raw"`
	Labels     map[string]int     `json:"labels"`
	Categories []dataset.Category `json:"categories"`
	Classes    [2]string          `json:"classes"`
}

// mergeSchemas merges the files' schemas (any order; the result does
// not depend on it) and resolves the positive class as one read of all
// the rows would: the rarer label unless positive names one.
func mergeSchemas(parts []schemaInfo, positive string) (*schemaInfo, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("aer-beam: no training files")
	}
	slices.SortFunc(parts, func(a, b schemaInfo) int { return cmpString(a.Path, b.Path) })
	out := &schemaInfo{Raw: parts[0].Raw, Labels: map[string]int{}}
	cats := map[string]map[string]bool{}
	var catOrder []string
	for _, p := range parts {
		if !slices.Equal(p.Raw, out.Raw) {
			return nil, fmt.Errorf("aer-beam: %s has the columns %q, %s %q: every file needs the same columns (a column of numbers in one file and text in another needs --categorical)",
				p.Path, p.Raw, parts[0].Path, out.Raw)
		}
		for v, n := range p.Labels {
			out.Labels[v] += n
		}
		for _, c := range p.Categories {
			if cats[c.Column] == nil {
				cats[c.Column] = map[string]bool{}
				catOrder = append(catOrder, c.Column)
			}
			for _, v := range c.Values {
				cats[c.Column][v] = true
			}
		}
	}
	for _, p := range parts {
		if len(p.Categories) != len(cats) {
			return nil, fmt.Errorf("aer-beam: %s reads %d columns as categorical, other files %d: name them with --categorical", p.Path, len(p.Categories), len(cats))
		}
	}
	for _, col := range catOrder {
		vals := make([]string, 0, len(cats[col]))
		for v := range cats[col] {
			vals = append(vals, v)
		}
		slices.Sort(vals)
		out.Categories = append(out.Categories, dataset.Category{Column: col, Values: vals})
	}
	// The categorical columns in the order of the raw columns.
	pos := map[string]int{}
	for i, c := range out.Raw {
		pos[c] = i
	}
	slices.SortStableFunc(out.Categories, func(a, b dataset.Category) int { return pos[a.Column] - pos[b.Column] })
	var labels []string
	for v, n := range out.Labels {
		if n > 0 && v != "" {
			labels = append(labels, v)
		}
	}
	slices.Sort(labels)
	if len(labels) != 2 {
		return nil, fmt.Errorf("aer-beam: the training files hold the labels %q: a binary classifier needs two", labels)
	}
	a, b := labels[0], labels[1]
	p := ""
	switch {
	case positive != "":
		p = positive
		if p != a && p != b {
			return nil, fmt.Errorf("aer-beam: the positive class %q is not among the labels %q", positive, labels)
		}
	case out.Labels[a] < out.Labels[b]:
		p = a
	case out.Labels[b] < out.Labels[a]:
		p = b
	case a == "1" || b == "1":
		p = "1"
	default:
		p = max(a, b)
	}
	out.Classes = [2]string{a, p}
	if a == p {
		out.Classes[0] = b
	}
	return out, nil
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// colSum is one column's exact sums over its observed (not missing)
// cells: count, sum, and the sum of squares as two exact parts (x*x
// rounded, and its rounding error by FMA).
type colSum struct {
	N              int64
	Sum, Sq, SqErr exactSum
}

// stats are the training rows' sums: class counts, class weights and
// each column's sums; exact, so that they do not depend on how the rows
// are split.
type stats struct {
	Rows, Pos, Missing int64
	WPos, WNeg         exactSum
	Cols               []colSum
}

func newStats(cols int) *stats {
	s := &stats{WPos: newExactSum(), WNeg: newExactSum(), Cols: make([]colSum, cols)}
	for j := range s.Cols {
		s.Cols[j] = colSum{Sum: newExactSum(), Sq: newExactSum(), SqErr: newExactSum()}
	}
	return s
}

// addBlock adds a block's rows.
func (s *stats) addBlock(b *block) {
	for i := range b.rows() {
		s.Rows++
		w := b.weight(i)
		if b.Y[i] == 1 {
			s.Pos++
			s.WPos.add(w)
		} else {
			s.WNeg.add(w)
		}
		for j, v := range b.row(i) {
			if v != v {
				s.Missing++
				continue
			}
			c := &s.Cols[j]
			c.N++
			c.Sum.add(v)
			sq := v * v
			c.Sq.add(sq)
			c.SqErr.add(math.FMA(v, v, -sq))
		}
	}
}

func (s *stats) merge(t *stats) {
	s.Rows += t.Rows
	s.Pos += t.Pos
	s.Missing += t.Missing
	s.WPos.merge(t.WPos)
	s.WNeg.merge(t.WNeg)
	for j := range s.Cols {
		c, d := &s.Cols[j], &t.Cols[j]
		c.N += d.N
		c.Sum.merge(d.Sum)
		c.Sq.merge(d.Sq)
		c.SqErr.merge(d.SqErr)
	}
}

// statsJSON is stats on the wire: the exact sums' limbs.
type statsJSON struct {
	Rows, Pos, Missing int64
	WPos, WNeg         exactSum
	N                  []int64
	Sum, Sq, SqErr     []exactSum
}

func (s *stats) encode() []byte {
	w := statsJSON{Rows: s.Rows, Pos: s.Pos, Missing: s.Missing, WPos: s.WPos, WNeg: s.WNeg}
	for _, c := range s.Cols {
		w.N = append(w.N, c.N)
		w.Sum = append(w.Sum, c.Sum)
		w.Sq = append(w.Sq, c.Sq)
		w.SqErr = append(w.SqErr, c.SqErr)
	}
	b, _ := json.Marshal(w)
	return b
}

func decodeStats(p []byte) (*stats, error) {
	var w statsJSON
	if err := json.Unmarshal(p, &w); err != nil {
		return nil, fmt.Errorf("aer-beam: column sums: %w", err)
	}
	s := &stats{Rows: w.Rows, Pos: w.Pos, Missing: w.Missing, WPos: w.WPos, WNeg: w.WNeg, Cols: make([]colSum, len(w.N))}
	if len(w.Sum) != len(w.N) || len(w.Sq) != len(w.N) || len(w.SqErr) != len(w.N) {
		return nil, fmt.Errorf("aer-beam: column sums: damaged")
	}
	for j := range s.Cols {
		s.Cols[j] = colSum{N: w.N[j], Sum: w.Sum[j], Sq: w.Sq[j], SqErr: w.SqErr[j]}
	}
	return s, nil
}

// prepared are the statistics the stages use: the imputation means, the
// scaler, the class counts and the weighted positive share.
type prepared struct {
	Means  []float64
	Scaler *dataset.Scaler
	Rows   int
	Pos    int
	Prior  float64
	// Missing counts the missing cells.
	Missing int
}

// finish turns the exact sums into the means and the scaler: each mean
// is the exact sum over the observed cells rounded once, and each
// standard deviation that of the exact sum of squared deviations over
// every row (a missing cell, imputed by the mean, adds none), as
// dataset.FitScaler computes them on one machine up to rounding.
func (s *stats) finish(standardize bool) (*prepared, error) {
	p := &prepared{Rows: int(s.Rows), Pos: int(s.Pos), Missing: int(s.Missing), Means: make([]float64, len(s.Cols))}
	wp, wn := s.WPos.value(), s.WNeg.value()
	p.Prior = wp / (wp + wn)
	ss := make([]float64, len(s.Cols))
	const prec = 8192
	for j, c := range s.Cols {
		if c.N == 0 {
			continue
		}
		sum, sq, sqe := c.Sum.big(), c.Sq.big(), c.SqErr.big()
		if sum == nil || sq == nil || sqe == nil {
			return nil, fmt.Errorf("aer-beam: feature %d: values too large to sum (infinite)", j+1)
		}
		n := new(big.Float).SetPrec(prec).SetInt64(c.N)
		mean := new(big.Float).SetPrec(prec).Quo(sum, n)
		p.Means[j], _ = mean.Float64()
		// sum of squares - sum^2 / n
		t := new(big.Float).SetPrec(prec).Add(sq, sqe)
		u := new(big.Float).SetPrec(prec).Mul(sum, sum)
		u.Quo(u, n)
		t.Sub(t, u)
		ss[j], _ = t.Float64()
		if ss[j] < 0 {
			ss[j] = 0
		}
	}
	if standardize {
		p.Scaler = dataset.ScalerFrom(p.Means, ss, float64(s.Rows))
		if err := p.Scaler.Check(nil); err != nil {
			return nil, fmt.Errorf("aer-beam: %w", err)
		}
	}
	return p, nil
}

// standardized returns b's rows imputed and standardised.
func (p *prepared) standardized(b *block) *mat.Dense {
	return p.standardize(mat.NewDense(b.rows(), b.Cols, slices.Clone(b.X)))
}

// standardize imputes and standardises x in place and returns it.
func (p *prepared) standardize(x *mat.Dense) *mat.Dense {
	dataset.Impute(x, p.Means)
	if p.Scaler != nil {
		p.Scaler.Transform(x)
	}
	return x
}

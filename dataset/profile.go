package dataset

import (
	"io"
	"math"
	"strings"
)

// ColumnProfile describes one column of a table, as aer info reports it.
type ColumnProfile struct {
	Name string `json:"name"`
	// Type is the column's role: numeric or categorical (features),
	// label, weight, split, id or dropped.
	Type string `json:"type"`
	// Distinct counts the distinct non-missing cells (as text), exactly
	// up to the profile's cap; DistinctCapped says it reached the cap
	// (there are at least Distinct).
	Distinct       int  `json:"distinct"`
	DistinctCapped bool `json:"distinct_capped,omitempty"`
	// Missing is the share of missing cells, in [0, 1].
	Missing float64 `json:"missing_share"`
	// Constant: at most one distinct value. NearConstant: one value
	// fills at least NearConstantShare of the non-missing cells.
	Constant     bool `json:"constant,omitempty"`
	NearConstant bool `json:"near_constant,omitempty"`
	// LabelLike flags a feature that is named like a label (LabelLike)
	// or predicts the label perfectly (PerfectPredictor says how).
	LabelLike bool `json:"label_like,omitempty"`
	// PerfectPredictor is "values" when every value of the column comes
	// with one class only (and values repeat), "threshold" when a
	// threshold on the numbers separates the classes; "" otherwise.
	PerfectPredictor string `json:"perfect_predictor,omitempty"`
}

// NearConstantShare is the share of non-missing cells one value must fill
// for a column to be flagged near-constant.
const NearConstantShare = 0.999

// colStats accumulates the profile of one column.
type colStats struct {
	counts  map[string]int    // distinct text -> cells
	classOf map[string]string // distinct text -> its one class, "\x00" when several
	capped  bool
	missing int
	// min and max of the numbers per class (features with a label).
	lo, hi [2]float64
	seen   [2]bool
}

// profiler observes every accepted row of a parser.
type profiler struct {
	max   int
	stats []colStats
	rows  int
}

func newProfiler(ncol, max int) *profiler {
	pr := &profiler{max: max, stats: make([]colStats, ncol)}
	for j := range pr.stats {
		pr.stats[j].counts = map[string]int{}
		pr.stats[j].classOf = map[string]string{}
	}
	return pr
}

// observe records row rec; label is its label (canonical, "" when none),
// x its feature values (one slot per raw feature, as parsed).
func (pr *profiler) observe(p *parser, rec []string, label string, x []float64) {
	pr.rows++
	for j, cell := range rec {
		st := &pr.stats[j]
		s := strings.TrimSpace(cell)
		if isMissing(s, p.opt.NA) {
			st.missing++
			continue
		}
		if n, ok := st.counts[s]; ok {
			st.counts[s] = n + 1
			if label != "" && st.classOf[s] != label {
				st.classOf[s] = "\x00"
			}
		} else if len(st.counts) < pr.max {
			k := strings.Clone(s)
			st.counts[k] = 1
			st.classOf[k] = label
		} else {
			st.capped = true
		}
	}
	if label == "" {
		return
	}
	for k, j := range p.featCols {
		v := x[k]
		if p.cats[k] != nil || v != v {
			continue
		}
		st := &pr.stats[j]
		c := 0
		if p.classKey(label) {
			c = 1
		}
		if !st.seen[c] {
			st.lo[c], st.hi[c], st.seen[c] = v, v, true
		}
		st.lo[c], st.hi[c] = math.Min(st.lo[c], v), math.Max(st.hi[c], v)
	}
}

// classKey sorts label values into two bins for the threshold check: the
// first label value seen is bin 0.
func (p *parser) classKey(label string) bool {
	if p.firstLabel == "" {
		p.firstLabel = label
	}
	return label != p.firstLabel
}

// profiles turns the statistics into one ColumnProfile per column.
func (pr *profiler) profiles(p *parser, d *Dataset) []ColumnProfile {
	kind := make([]string, len(p.header))
	for j := range kind {
		kind[j] = "dropped"
	}
	for k, j := range p.featCols {
		kind[j] = "numeric"
		if p.cats[k] != nil {
			kind[j] = "categorical"
		}
	}
	for j, role := range map[int]string{p.labelCol: "label", p.weightCol: "weight", p.splitCol: "split", p.idCol: "id"} {
		if j >= 0 {
			kind[j] = role
		}
	}
	label := ""
	if p.labelCol >= 0 {
		label = p.header[p.labelCol]
	}
	out := make([]ColumnProfile, len(p.header))
	for j, name := range p.header {
		st := &pr.stats[j]
		cp := ColumnProfile{Name: name, Type: kind[j], Distinct: len(st.counts), DistinctCapped: st.capped}
		if pr.rows > 0 {
			cp.Missing = float64(st.missing) / float64(pr.rows)
		}
		top := 0
		for _, n := range st.counts {
			top = max(top, n)
		}
		cp.Constant = len(st.counts) <= 1 && !st.capped
		nonMissing := pr.rows - st.missing
		cp.NearConstant = !cp.Constant && nonMissing > 0 && float64(top) >= NearConstantShare*float64(nonMissing)
		if (kind[j] == "numeric" || kind[j] == "categorical") && label != "" {
			pure := !st.capped && len(st.counts) > 1 && 2*len(st.counts) <= nonMissing
			for _, c := range st.classOf {
				if c == "\x00" {
					pure = false
					break
				}
			}
			switch {
			case pure:
				cp.PerfectPredictor = "values"
			case kind[j] == "numeric" && st.seen[0] && st.seen[1] && (st.hi[0] < st.lo[1] || st.hi[1] < st.lo[0]):
				cp.PerfectPredictor = "threshold"
			}
			cp.LabelLike = cp.PerfectPredictor != "" || LabelLike(name, label)
		}
		out[j] = cp
	}
	return out
}

// DecodeProfile reads a table as Decode does and profiles every column
// of the file (in file order) on the way: see ColumnProfile. Distinct
// values are counted exactly up to maxDistinct per column.
func DecodeProfile(r io.Reader, name string, opt Options, maxDistinct int) (*Dataset, []ColumnProfile, error) {
	src, err := openSource(r, name, &opt)
	if err != nil {
		return nil, nil, err
	}
	p, err := newParser(name, src.header(), opt)
	if err != nil {
		return nil, nil, err
	}
	p.prof = newProfiler(len(p.header), max(maxDistinct, 1))
	b, err := p.readAll(src)
	if err != nil {
		return nil, nil, err
	}
	if b.n == 0 {
		return nil, nil, p.fail(0, "", "", ErrNoRows, "")
	}
	d, err := p.dataset(b)
	if err != nil {
		return nil, nil, err
	}
	return d, p.prof.profiles(p, d), nil
}

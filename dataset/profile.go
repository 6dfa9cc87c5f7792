package dataset

import (
	"io"
	"slices"
	"strings"
)

// ColumnProfile describes one column of a table, as aer info reports it.
type ColumnProfile struct {
	Name string `json:"name"`
	// Type is the column's role: numeric or categorical (features),
	// label, weight, split, id, text (kept as text, not a feature: see
	// Options.Text and AutoText) or dropped.
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
	// LikelyID flags a column that looks like a row identifier and is
	// not read as one (Options.ID): named like one (IDLike), or a text
	// or categorical column whose values (10 or more) are all distinct.
	LikelyID bool `json:"likely_id,omitempty"`
}

// minIDValues is the fewest distinct values for which a text column of
// all-distinct values is flagged LikelyID (a tiny table's text column
// is often all distinct by chance).
const minIDValues = 10

// idNames are the column names IDLike takes for an identifier, compared
// without regard to case.
var idNames = []string{"id", "uuid", "guid", "key", "rowid", "row_id", "index", "record", "identifier"}

// IDLike reports whether a column named name looks like a row
// identifier: id, uuid, guid, key, rowid, index, ... (any case), or a
// name ending in _id, -id, " id" or ID after a lower-case letter
// (patient_id, patientID), or starting id_.
func IDLike(name string) bool {
	n := strings.TrimSpace(name)
	low := strings.ToLower(n)
	if slices.Contains(idNames, low) {
		return true
	}
	for _, suffix := range []string{"_id", "-id", " id", ".id", "_uuid", "_key"} {
		if strings.HasSuffix(low, suffix) {
			return true
		}
	}
	if strings.HasPrefix(low, "id_") {
		return true
	}
	if k := len(n) - 2; k > 0 && (n[k:] == "ID" || n[k:] == "Id") && n[k-1] >= 'a' && n[k-1] <= 'z' {
		return true
	}
	return false
}

// NearConstantShare is the share of non-missing cells one value must fill
// for a column to be flagged near-constant.
const NearConstantShare = 0.999

// colStats accumulates the profile of one column.
type colStats struct {
	// counts maps each distinct text to its cells and its one class
	// ("\x00" when several). Its values are pointers so that a cell
	// updates them without storing its string as the key (a map
	// assignment would: the cell's text may be a buffer the reader
	// reuses).
	counts map[string]*distinctCells
	capped bool
	// keys, once the column is capped (counts no longer changes), has a
	// bit set for the textHash of every text in counts: a cell whose bit
	// is clear is not there, without a map lookup.
	keys    []uint64
	missing int
	// min and max of the numbers per class (features with a label).
	lo, hi [2]float64
	seen   [2]bool
}

// distinctCells are the cells of one distinct value of a column.
type distinctCells struct {
	n     int
	class string
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
		pr.stats[j].counts = map[string]*distinctCells{}
	}
	return pr
}

// observe records row rec; label is its label (canonical, "" when none),
// x its feature values (one slot per raw feature, as parsed).
func (pr *profiler) observe(p *parser, rec []string, label string, x []float64) {
	pr.rows++
	for j, cell := range rec {
		pr.observeCell(p, j, cell, label)
	}
	if label == "" {
		return
	}
	for k, j := range p.featCols {
		v := x[k]
		if p.cats[k] != nil || v != v {
			continue
		}
		pr.stats[j].observeValue(v, p.classKey(label))
	}
}

// observeCell records cell of column j in a row labelled label.
func (pr *profiler) observeCell(p *parser, j int, cell, label string) {
	s := strings.TrimSpace(cell)
	if isMissing(s, p.opt.NA) {
		pr.stats[j].missing++
		return
	}
	pr.observeText(j, s, label)
}

// observeText records the text s, trimmed and not missing, of a cell of
// column j in a row labelled label.
func (pr *profiler) observeText(j int, s, label string) {
	st := &pr.stats[j]
	if !st.mayCount(s) {
		return
	}
	if e, ok := st.counts[s]; ok {
		e.n++
		if label != "" && e.class != label {
			e.class = "\x00"
		}
	} else if len(st.counts) < pr.max {
		st.counts[strings.Clone(s)] = &distinctCells{n: 1, class: label}
	} else if !st.capped {
		st.capped = true
		st.keys = keyFilter(st.counts)
	}
}

// mayCount is false when s is surely not counted (the column is
// capped, and s is not among its texts): the cell changes nothing.
func (st *colStats) mayCount(s string) bool {
	if st.keys == nil {
		return true
	}
	return st.mayHave(textHash(s))
}

// mayHave is false when no text in counts has the textHash h. Two bits
// of the filter per text: one in 1000 others passes it with 1000 texts.
func (st *colStats) mayHave(h uint64) bool {
	mask := uint64(len(st.keys) - 1)
	return st.keys[h>>6&mask]&(1<<(h&63)) != 0 && st.keys[h>>38&mask]&(1<<(h>>32&63)) != 0
}

// keyFilter returns the bits of the textHash of every key of counts, in
// a power of two of words with at least 64 bits per key (few false hits;
// at most 2^26 words, which two 26-bit fields of the hash index).
func keyFilter(counts map[string]*distinctCells) []uint64 {
	n := 1024
	for n < len(counts) && n < 1<<26 {
		n *= 2
	}
	keys := make([]uint64, n)
	for s := range counts {
		h := textHash(s)
		keys[h>>6&uint64(n-1)] |= 1 << (h & 63)
		keys[h>>38&uint64(n-1)] |= 1 << (h >> 32 & 63)
	}
	return keys
}

// textHash is a quick hash of s: its length and its first and last 8
// bytes (texts that differ only in between collide, which only costs a
// map lookup).
func textHash(s string) uint64 {
	if n := len(s); n >= 8 {
		return mix(load8(s[:8]), load8(s[n-8:]), n)
	}
	var a uint64
	for i := range len(s) {
		a |= uint64(s[i]) << (8 * i)
	}
	return mix(a, 0, len(s))
}

// mix hashes the words a and b of a text of n bytes.
func mix(a, b uint64, n int) uint64 {
	h := (a*0x9E3779B97F4A7C15 ^ b) * 0xC2B2AE3D27D4EB4F
	h ^= uint64(n)
	return h ^ h>>29
}

// observeValue records the number v of a row of the second class bin
// (see classKey) when second is true.
func (st *colStats) observeValue(v float64, second bool) {
	c := 0
	if second {
		c = 1
	}
	if !st.seen[c] {
		st.lo[c], st.hi[c], st.seen[c] = v, v, true
	}
	// v is never NaN; plain comparisons (math.Min and Max also order -0
	// below 0, which the < tests of profiles cannot tell apart).
	if v < st.lo[c] {
		st.lo[c] = v
	}
	if v > st.hi[c] {
		st.hi[c] = v
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
	for _, j := range p.textCols {
		if !slices.Contains(p.dropped, p.header[j]) {
			kind[j] = "text"
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
		for _, e := range st.counts {
			top = max(top, e.n)
		}
		cp.Constant = len(st.counts) <= 1 && !st.capped
		nonMissing := pr.rows - st.missing
		cp.NearConstant = !cp.Constant && nonMissing > 0 && float64(top) >= NearConstantShare*float64(nonMissing)
		if (kind[j] == "numeric" || kind[j] == "categorical") && label != "" {
			pure := !st.capped && len(st.counts) > 1 && 2*len(st.counts) <= nonMissing
			for _, e := range st.counts {
				if e.class == "\x00" {
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
		switch kind[j] {
		case "numeric", "categorical", "text":
			distinct := (kind[j] == "text" || kind[j] == "categorical") && !st.capped && len(st.counts) >= minIDValues && len(st.counts) == nonMissing
			cp.LikelyID = distinct || IDLike(name)
		}
		out[j] = cp
	}
	return out
}

// DecodeProfile reads a table as Decode does and profiles every column
// of the file (in file order) on the way: see ColumnProfile. Distinct
// values are counted exactly up to maxDistinct per column.
func DecodeProfile(r io.Reader, name string, opt Options, maxDistinct int) (d *Dataset, cols []ColumnProfile, err error) {
	err = rereading(r, &opt, func(r io.Reader, opt Options) error {
		d, cols, err = decodeProfile(r, name, opt, maxDistinct)
		return err
	})
	return d, cols, err
}

func decodeProfile(r io.Reader, name string, opt Options, maxDistinct int) (*Dataset, []ColumnProfile, error) {
	src, err := openSource(r, name, &opt)
	if err != nil {
		return nil, nil, err
	}
	p, err := newParser(name, src.Header(), opt)
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

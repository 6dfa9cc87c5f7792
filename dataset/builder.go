package dataset

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/hugepage"
	"github.com/aer-go/aer/internal/memlimit"
)

// parser turns the text rows of one table into numbers: the column roles
// (features, label, split, weights, dropped) are settled once from the
// header, then each row is parsed into a rows buffer. It is the one place
// where cells become values, for every file format and for whole-file
// reads (Read) and batches (Stream) alike.
type parser struct {
	name      string
	opt       Options
	header    []string
	labelCol  int
	splitCol  int
	weightCol int
	idCol     int
	featCols  []int    // source column of each feature
	features  []string // feature names, in file order
	dropped   []string
	ignored   []string // columns left out by Options.Keep
	// textCols are the columns kept as text (Options.Text, and the
	// dropped ones with Options.KeepDropped), in file order.
	textCols []int
	// canon interns label and split values, so a row costs no allocation
	// and no row keeps its line's text alive.
	canon map[string]string
	lower map[string]string
	// cats[k] is the state of feature k when it is categorical, else nil.
	cats     []*catColumn
	anyCat   bool
	maxCat   int
	catCanon map[string]string
	xbuf     []float64 // the encoded rows of the last batch
	// prof, when set, profiles every accepted row (DecodeProfile).
	prof       *profiler
	firstLabel string
	// inChunk marks a chunk worker's copy (see readChunks): a cell that
	// may turn its column categorical stops it, and its buffers grow
	// unchecked (the join checks the table's).
	inChunk bool
	// plan, in a chunk worker, is how fastRow reads a row (nil: never).
	plan []int
	runs []int // planRuns(plan)
	// keepFields, in a chunk worker for a profile, keeps the cell
	// offsets of the rows fastRow reads.
	keepFields bool
}

// rows accumulates parsed rows: X row-major, the raw labels (canonical
// form) with their lines, split values and weights.
type rows struct {
	x       []float64
	labels  []string
	lines   []int
	split   []string
	w       []float64
	ids     []string
	text    []string // the cells of the text columns, row-major
	missing []int
	n       int
}

// reset empties b for the next batch, keeping its storage.
func (b *rows) reset() {
	b.x, b.labels, b.lines, b.split, b.w, b.ids = b.x[:0], b.labels[:0], b.lines[:0], b.split[:0], b.w[:0], b.ids[:0]
	b.text = b.text[:0]
	clear(b.missing)
	b.n = 0
}

// newParser validates the header and settles the role of every column.
func newParser(name string, header []string, opt Options) (*parser, error) {
	header, seen, err := cleanHeader(name, header)
	if err != nil {
		return nil, err
	}
	p := &parser{name: name, opt: opt, header: header, labelCol: -1, splitCol: -1, weightCol: -1, idCol: -1,
		canon: map[string]string{}, lower: map[string]string{}, catCanon: map[string]string{}}
	if err := p.findLabel(seen); err != nil {
		return nil, err
	}
	if err := p.findSplitWeightID(seen); err != nil {
		return nil, err
	}
	if err := p.assignColumns(seen); err != nil {
		return nil, err
	}
	p.setupCategories()
	if err := p.refuseLabelLike(); err != nil {
		return nil, err
	}
	return p, nil
}

// cleanHeader returns a copy of header with its names trimmed, and each
// name's column; a name not UTF-8, empty or repeated is an error.
func cleanHeader(name string, header []string) ([]string, map[string]int, error) {
	fail := func(col, val string, err error, detail string) error {
		return &Error{File: name, Line: 1, Column: col, Value: val, Err: err, Detail: detail}
	}
	header = append([]string(nil), header...)
	seen := make(map[string]int, len(header))
	for j, h := range header {
		h = strings.TrimSpace(h)
		header[j] = h
		if !utf8.ValidString(h) {
			return nil, nil, fail("", strings.ToValidUTF8(h, "\ufffd"), ErrEncoding, fmt.Sprintf("field %d of the header; save the file as UTF-8", j+1))
		}
		if h == "" {
			return nil, nil, fail("", "", ErrEmptyName, fmt.Sprintf("field %d of the header", j+1))
		}
		if k, dup := seen[h]; dup {
			return nil, nil, fail(h, "", ErrDuplicate, fmt.Sprintf("fields %d and %d", k+1, j+1))
		}
		seen[h] = j
	}
	return header, seen, nil
}

// findLabel settles the label column: Options.Label, else "label", else
// the last column (but the weights), unless the data is unlabeled or the
// label optional.
func (p *parser) findLabel(seen map[string]int) error {
	opt, header := p.opt, p.header
	if opt.Unlabeled {
		return nil
	}
	switch {
	case opt.Label != "":
		j, ok := seen[opt.Label]
		if ok {
			p.labelCol = j
		} else if !opt.LabelOptional {
			return p.fail(1, opt.Label, "", ErrNoLabel, "header has "+quoteList(header))
		}
	default:
		if j, ok := seen["label"]; ok {
			p.labelCol = j
		} else if !opt.LabelOptional {
			p.labelCol = len(header) - 1
			if header[p.labelCol] == opt.Weight && p.labelCol > 0 {
				p.labelCol-- // the last column but the weights
			}
		}
	}
	return nil
}

// findSplitWeightID settles the split, weight and id columns.
func (p *parser) findSplitWeightID(seen map[string]int) error {
	opt, header := p.opt, p.header
	if j, ok := seen[splitColumn]; ok && j != p.labelCol {
		p.splitCol = j
	}
	if opt.Weight != "" {
		j, ok := seen[opt.Weight]
		switch {
		case ok && (j == p.labelCol || j == p.splitCol):
			return p.fail(1, opt.Weight, "", ErrNoWeight, "the weight column cannot be the label or split column")
		case ok:
			p.weightCol = j
		case !opt.WeightOptional:
			return p.fail(1, opt.Weight, "", ErrNoWeight, "header has "+quoteList(header))
		}
	}
	id := opt.ID
	if opt.IDFirstExcept != nil && len(header) > 1 && !slices.Contains(opt.IDFirstExcept, header[0]) {
		id = header[0]
	}
	if id != "" {
		if j, ok := seen[id]; ok {
			if j == p.labelCol || j == p.splitCol || j == p.weightCol {
				return p.fail(1, id, "", ErrIDColumn, "")
			}
			p.idCol = j
		}
	}
	return nil
}

// assignColumns sorts the other columns into dropped, text, ignored and
// features; no feature is an error.
func (p *parser) assignColumns(seen map[string]int) error {
	opt := p.opt
	drop := make(map[string]bool, len(opt.Drop))
	for _, name := range opt.Drop {
		if j, ok := seen[name]; ok && j == p.labelCol {
			return p.fail(1, name, "", ErrDropLabel, "")
		}
		drop[name] = true
	}
	keep := make(map[string]bool, len(opt.Keep))
	for _, name := range opt.Keep {
		keep[name] = true
	}
	for _, name := range opt.Text {
		if j, ok := seen[name]; ok && j == p.labelCol {
			return p.fail(1, name, "", ErrDropLabel, "a text column is not read as a feature nor as the label")
		}
	}
	for j, h := range p.header {
		switch {
		case j == p.labelCol || j == p.splitCol || j == p.weightCol || j == p.idCol:
		case drop[h]:
			p.dropped = append(p.dropped, h)
			if opt.KeepDropped {
				p.textCols = append(p.textCols, j)
			}
		case slices.Contains(opt.Text, h):
			p.textCols = append(p.textCols, j)
		case opt.Keep != nil && !keep[h]:
			p.ignored = append(p.ignored, h)
		default:
			p.features = append(p.features, h)
			p.featCols = append(p.featCols, j)
		}
	}
	if len(p.features) == 0 {
		return p.fail(1, "", "", ErrNoFeatures, "header has "+quoteList(p.header))
	}
	return nil
}

// refuseLabelLike, with Options.RefuseLabelLike, refuses a feature whose
// name says it is a second outcome.
func (p *parser) refuseLabelLike() error {
	if !p.opt.RefuseLabelLike || p.labelCol < 0 {
		return nil
	}
	label := p.header[p.labelCol]
	for _, f := range p.features {
		if LabelLike(f, label) {
			return p.fail(1, f, "", ErrLabelLike, fmt.Sprintf("the label is %q: a second outcome leaks into training; leave it out with --drop %s, or choose it as the label with --label %s", label, f, f))
		}
	}
	return nil
}

func (p *parser) fail(line int, col, val string, err error, detail string) error {
	return &Error{File: p.name, Line: line, Column: col, Value: val, Err: err, Detail: detail}
}

// intern returns the canonical, unshared copy of s from m, computing it
// with f the first time; past a few hundred values it stops remembering
// (a column of all-distinct values must not grow the map without bound).
func intern(m map[string]string, s string, f func(string) string) string {
	if v, ok := m[s]; ok {
		return v
	}
	v := strings.Clone(f(s))
	if len(m) < 256 {
		m[strings.Clone(s)] = v
	}
	return v
}

func identity(s string) string { return s }

// parse appends the row rec, read at line, to b. A blank line (one empty
// field where the header has several) is skipped.
func (p *parser) parse(rec []string, line int, b *rows) error {
	if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" && len(p.header) > 1 {
		return nil // a blank line with spaces
	}
	if len(rec) != len(p.header) {
		return p.fail(line, "", "", ErrRagged, fmt.Sprintf("%d fields, the header has %d", len(rec), len(p.header)))
	}
	if b.missing == nil {
		b.missing = make([]int, len(p.featCols))
	}
	if w := len(p.featCols); cap(b.x)-len(b.x) < w {
		if err := b.grow(w, line, p); err != nil {
			return err
		}
	}
	for k, j := range p.featCols {
		var v float64
		var err error
		if p.cats[k] != nil {
			v, err = p.catCell(k, rec[j], line)
		} else {
			v, err = p.cell(rec[j], line, j)
			if err != nil && p.opt.AutoCategorical && errors.Is(err, ErrNotNumber) {
				if p.inChunk {
					return errSequential
				}
				p.makeCategorical(k, b, rec[j], line)
				v, err = p.catCell(k, rec[j], line)
			}
		}
		if err != nil {
			return err
		}
		if v != v {
			b.missing[k]++
		}
		b.x = append(b.x, v)
	}
	if p.labelCol >= 0 {
		s := strings.TrimSpace(rec[p.labelCol])
		if isMissing(s, p.opt.NA) {
			return p.fail(line, p.header[p.labelCol], s, ErrMissingLabel, "")
		}
		b.labels = append(b.labels, intern(p.canon, s, CanonicalLabel))
		b.lines = append(b.lines, line)
	}
	if p.splitCol >= 0 {
		b.split = append(b.split, intern(p.lower, strings.TrimSpace(rec[p.splitCol]), strings.ToLower))
	}
	if p.idCol >= 0 {
		b.ids = append(b.ids, strings.Clone(strings.TrimSpace(rec[p.idCol])))
	}
	for _, j := range p.textCols {
		b.text = append(b.text, strings.Clone(strings.TrimSpace(rec[j])))
	}
	if p.prof != nil {
		label := ""
		if p.labelCol >= 0 {
			label = b.labels[len(b.labels)-1]
		}
		w := len(p.featCols)
		p.prof.observe(p, rec, label, b.x[len(b.x)-w:])
	}
	if p.weightCol >= 0 {
		s := strings.TrimSpace(rec[p.weightCol])
		v, err := parseFloat(s)
		if err != nil || !(v >= 0) || math.IsInf(v, 0) {
			return p.fail(line, p.header[p.weightCol], s, ErrBadWeight, "")
		}
		b.w = append(b.w, v)
	}
	b.n++
	return nil
}

// cell parses the numeric cell s of column j: NaN for a missing value,
// the float64 strconv.ParseFloat reads otherwise (parseFloat). It does not allocate
// unless it fails.
func (p *parser) cell(s string, line, j int) (float64, error) {
	s = strings.TrimSpace(s)
	if isMissing(s, p.opt.NA) {
		return math.NaN(), nil
	}
	v, err := parseFloat(s)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return 0, p.fail(line, p.header[j], s, ErrInfinite, "out of float64 range")
		}
		return 0, p.fail(line, p.header[j], s, ErrNotNumber, "")
	}
	if math.IsInf(v, 0) {
		return 0, p.fail(line, p.header[j], s, ErrInfinite, "")
	}
	return v, nil
}

// estimateAfter is the number of rows read before the reader sizes its
// buffer for the whole table, when the source can estimate it.
const estimateAfter = 512

// chunkFrom is the rows read one at a time before the rest of a CSV
// table is read in parallel chunks (after the buffer is sized), or -1
// for never (a variable for tests).
var chunkFrom = estimateAfter

// readAll parses every row of src into one buffer.
func (p *parser) readAll(src RowSource) (*rows, error) {
	// Room for 1024 rows, but never more than a few MB up front: a header
	// of millions of columns must not allocate gigabytes before its first
	// row.
	b := &rows{x: make([]float64, 0, min(1024*len(p.featCols), 1<<19))}
	est, _ := src.(rowEstimator)
	// Past the first rows (read here, so the buffer is sized as before),
	// a quote-free CSV table is read in parallel chunks.
	cs, _ := src.(*csvSource)
	for {
		rec, line, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := p.parse(rec, line, b); err != nil {
			return nil, err
		}
		if est != nil && b.n == estimateAfter {
			// Size the buffers once for the whole table (2% over the
			// estimate): no copies as it grows, no page faults twice.
			if n := est.estimateRows(b.n); n > b.n {
				if err := b.reserve(n+n/50+64, len(p.featCols), line, p); err != nil {
					return nil, err
				}
			}
			est = nil
		}
		if cs != nil && chunkFrom >= 0 && b.n >= chunkFrom {
			if p.chunkable(cs) {
				done, err := p.readChunks(cs, b)
				if err != nil {
					return nil, err
				}
				if done {
					break
				}
			}
			cs = nil
		}
	}
	return b, nil
}

// reserve makes room for n rows of w features in b, checking the memory
// it takes against what the process may still use.
func (b *rows) reserve(n, w, line int, p *parser) error {
	if err := p.checkMemory(int64(n)*int64(w)*8, b.n, line); err != nil {
		return err
	}
	x := hugepage.Float64s(n * w)[:len(b.x)]
	copy(x, b.x)
	b.x = x
	if p.labelCol >= 0 && cap(b.labels) < n {
		b.labels = append(make([]string, 0, n), b.labels...)
		b.lines = append(make([]int, 0, n), b.lines...)
	}
	return nil
}

// grow makes room for at least one more row of w features in b, doubling
// its storage.
func (b *rows) grow(w, line int, p *parser) error {
	want := max(2*cap(b.x), len(b.x)+w, 1024)
	if want >= checkFrom/8 && !p.inChunk {
		if err := p.checkMemory(int64(want)*8, b.n, line); err != nil {
			return err
		}
	}
	b.x = hugepage.Grow(b.x, want-len(b.x))
	return nil
}

// checkFrom is the buffer size from which the reader checks its growth
// against the memory the process may still use. Growth doubles, so the
// checks are few (one per doubling: a dozen on a table of gigabytes),
// and they start small: under an address-space limit (ulimit -v) a
// process may have a few hundred MB left, and the Go runtime reserves
// its heap in 64 MB arenas.
const checkFrom = 16 << 20

// readMemory is the memory a read may hold: half of what the process
// may still use (the rest is the fit's that follows), or 2^62 bytes when
// the system does not say.
func readMemory() (free, limit int64) {
	free, ok := memlimit.Available()
	if !ok {
		return 1 << 62, 1 << 62
	}
	return free, free / 2
}

// overReadMemory reports whether a buffer of bytes (at least checkFrom)
// would not fit in readMemory, and the memory available.
func overReadMemory(bytes int64) (free int64, over bool) {
	if bytes < checkFrom {
		return 0, false
	}
	free, limit := readMemory()
	return free, bytes > limit
}

// checkMemory fails with ErrTooLarge when a buffer of bytes would not fit
// in the memory the process may still use (with room for the fit that
// follows a read).
func (p *parser) checkMemory(bytes int64, rowsRead, line int) error {
	free, over := overReadMemory(bytes)
	if !over {
		return nil
	}
	return p.fail(line, "", "", ErrTooLarge, fmt.Sprintf("after %d rows, the feature matrix needs %s of memory and %s are available (half of it may be used to read); sample the rows first (aer split) or use a machine with more memory",
		rowsRead, memlimit.Format(bytes), memlimit.Format(free)))
}

// dataset makes a Dataset of the rows in b (which it may keep), the labels
// mapped to classes by the rules of p.opt.
func (p *parser) dataset(b *rows) (*Dataset, error) {
	c := len(p.features)
	if b.missing == nil {
		b.missing = make([]int, c)
	}
	d := &Dataset{
		Name:            p.name,
		Features:        p.features,
		MissingByColumn: b.missing,
		Dropped:         p.dropped,
		Ignored:         p.ignored,
		Columns:         p.header,
	}
	x := b.x[: b.n*c : b.n*c]
	if p.anyCat {
		names, out, miss, cats, err := p.encode(x, b.n, b.missing, p.xbuf)
		if err != nil {
			return nil, err
		}
		p.xbuf = out
		d.Features, x, d.MissingByColumn, d.Categories = names, out, miss, cats
		d.Unseen, d.Mixed = p.unseen(), p.mixed()
		c = len(names)
		if c == 0 {
			return nil, p.fail(1, "", "", ErrNoFeatures, "every feature column is categorical and holds no value: header has "+quoteList(p.header))
		}
	}
	d.X = mat.NewDense(b.n, c, x)
	if p.splitCol >= 0 {
		d.Split = b.split
	}
	if p.weightCol >= 0 {
		d.W = b.w
		d.WeightColumn = p.header[p.weightCol]
	}
	if p.idCol >= 0 {
		d.IDs = b.ids
		d.IDColumn = p.header[p.idCol]
	}
	if len(p.textCols) > 0 {
		d.Text = p.textColumns(b)
	}
	if p.labelCol >= 0 {
		d.Label = p.header[p.labelCol]
		if err := d.setLabels(b.labels, b.lines, p.opt, p.name); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// build reads a whole table from src: see Read.
func build(src RowSource, name string, opt Options) (*Dataset, error) {
	p, err := newParser(name, src.Header(), opt)
	if err != nil {
		return nil, err
	}
	b, err := p.readAll(src)
	if err != nil {
		return nil, err
	}
	if b.n == 0 {
		return nil, p.fail(0, "", "", ErrNoRows, "")
	}
	return p.dataset(b)
}

// textColumns returns the text columns of the rows in b.
func (p *parser) textColumns(b *rows) []TextColumn {
	t := len(p.textCols)
	out := make([]TextColumn, t)
	for k, j := range p.textCols {
		name := p.header[j]
		cells := make([]string, b.n)
		for i := range cells {
			cells[i] = b.text[i*t+k]
		}
		out[k] = TextColumn{Name: name, Cells: cells, Dropped: slices.Contains(p.dropped, name), Auto: slices.Contains(p.opt.autoText, name)}
	}
	return out
}

package dataset

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// chunkSize is the bytes of text a worker parses at a time (a variable
// so that tests put chunk boundaries everywhere).
var chunkSize = 1 << 18

// errSequential stops a chunk worker at a row only the sequential reader
// may read: a cell that is not a number in a column AutoCategorical may
// turn categorical.
var errSequential = errors.New("dataset: row read sequentially")

// chunk is a run of whole lines of a quote-free table, parsed by one
// worker into its own rows, then joined to the table in file order.
type chunk struct {
	buf  []byte // the text: whole lines (the last one of the file may lack its end)
	line int    // the line before buf's first
	eof  bool   // buf ends the file
	rows rows
	// Per parsed row: its line and the bytes of its text in buf.
	rowLines     []int
	starts, ends []int32
	// For the profile: per parsed row, the index in fields of the
	// starts of its cells (and one past the end of the last) when
	// fastRow read it, else -1.
	fieldAt []int32
	fields  []int32
	// err is the first error in buf, at line errLine; ragged tells it
	// comes before the room check of its row (a ragged row).
	err     error
	errLine int
	ragged  bool
	// seq says the rows from the line at byte seqOff of buf (line
	// seqLine+1) on must be read sequentially (a quote, or a cell
	// AutoCategorical may turn categorical).
	seq     bool
	seqOff  int
	seqLine int
	done    chan struct{}
}

// chunkable reports whether the rest of the table in s may be read in
// parallel chunks: quote-free text so far on the fast path, and no
// categorical column (whose codes depend on the order of the rows).
func (p *parser) chunkable(s *csvSource) bool {
	return !s.fallback && s.comma != 0 && !p.anyCat
}

// workers is the number of goroutines that parse chunks.
func (p *parser) workers() int {
	if p.opt.Workers > 0 {
		return p.opt.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// readChunks reads the rest of the table in s into b: up to workers
// goroutines parse chunks of whole lines, each into its own rows, and
// the chunks are joined to b in file order, so b, the profile and the
// first error are exactly those of the sequential reader. It returns
// done false when it has handed the table back to s from a line only the
// sequential reader may read (its bytes and the rest of the input are
// read from s again), true at the end of the table.
func (p *parser) readChunks(s *csvSource, b *rows) (done bool, err error) {
	workers := p.workers()
	var jobs chan *chunk
	var wg sync.WaitGroup
	if workers > 1 {
		jobs = make(chan *chunk, 2*workers)
		for range workers {
			wp := p.chunkWorker()
			wg.Go(func() {
				for c := range jobs {
					wp.parseChunk(c, s.comma)
					close(c.done)
				}
			})
		}
		defer func() {
			close(jobs)
			wg.Wait()
		}()
	}
	var local *parser
	if workers <= 1 {
		local = p.chunkWorker()
	}
	var queue, free []*chunk
	var carry []byte
	line := s.line
	eof := false
	var readErr error
	for {
		for !eof && readErr == nil && len(queue) < 2*max(workers, 1) {
			var c *chunk
			if n := len(free); n > 0 {
				c, free = free[n-1], free[:n-1]
			} else {
				c = &chunk{}
			}
			c.buf = append(c.buf[:0], carry...)
			carry = carry[:0]
			cut := -1
			for cut < 0 && !eof && readErr == nil {
				from := len(c.buf)
				c.buf = slices.Grow(c.buf, chunkSize)
				n, err := fill(s.br, c.buf[from:from+chunkSize])
				c.buf = c.buf[:from+n]
				switch err {
				case nil:
				case io.EOF:
					eof = true
				default:
					readErr = err
				}
				cut = bytes.LastIndexByte(c.buf[from:], '\n')
				if cut >= 0 {
					cut += from
				}
			}
			if readErr != nil {
				// Every byte read goes back to the sequential reader,
				// which meets the error where it would have.
				carry = append(carry, c.buf...)
				free = append(free, c)
				break
			}
			if !eof {
				carry = append(carry, c.buf[cut+1:]...)
				c.buf = c.buf[:cut+1]
			}
			c.line, c.eof = line, eof
			line += bytes.Count(c.buf, []byte{'\n'})
			c.done = make(chan struct{})
			if workers > 1 {
				jobs <- c
			} else {
				local.parseChunk(c, s.comma)
				close(c.done)
			}
			queue = append(queue, c)
		}
		if len(queue) == 0 {
			break
		}
		c := queue[0]
		queue = queue[1:]
		<-c.done
		if err := p.join(b, c, s.comma); err != nil {
			return false, err
		}
		if c.seq {
			var rest []byte
			rest = append(rest, c.buf[c.seqOff:]...)
			for _, q := range queue {
				<-q.done
				rest = append(rest, q.buf...)
			}
			rest = append(rest, carry...)
			s.handBack(rest, c.seqLine, readErr)
			return false, nil
		}
		free = append(free, c)
	}
	if readErr != nil {
		s.handBack(carry, line, readErr)
		return false, nil
	}
	s.line = line
	return true, nil
}

// fill reads r into buf until buf is full or r fails: unlike
// io.ReadFull, io.ErrUnexpectedEOF then is r's own (a truncated gzip
// stream), never the end of the input.
func fill(r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// handBack makes s read rest, then the rest of its input (or the error
// err), on its line-at-a-time path; line is the line before rest.
func (s *csvSource) handBack(rest []byte, line int, err error) {
	var tail io.Reader = s.br
	if err != nil {
		tail = errReader{err}
	}
	s.br = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(rest), tail), 1<<16)
	s.line = line
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// chunkWorker returns a copy of p that parses chunks on its own: its own
// interning maps, no profile, no memory checks (the join makes them).
func (p *parser) chunkWorker() *parser {
	w := *p
	w.canon, w.lower, w.catCanon = map[string]string{}, map[string]string{}, map[string]string{}
	w.prof = nil
	w.inChunk = true
	w.plan = w.fastPlan()
	w.runs = planRuns(w.plan)
	w.keepFields = p.prof != nil
	return &w
}

// Column kinds of a fastRow plan besides feature indexes (>= 0).
const (
	planLabel = -1
	planSkip  = -2
)

// fastPlan says how fastRow reads each column (the feature index, or
// planLabel, or planSkip for a dropped column), or nil when fastRow does
// not apply: a weight, split, id, text or categorical column, or extra missing
// tokens (which may look like numbers).
func (p *parser) fastPlan() []int {
	if p.weightCol >= 0 || p.splitCol >= 0 || p.idCol >= 0 || len(p.textCols) > 0 || p.anyCat || len(p.opt.NA) > 0 {
		return nil
	}
	plan := make([]int, len(p.header))
	for j := range plan {
		plan[j] = planSkip
	}
	for k, j := range p.featCols {
		plan[j] = k
	}
	if p.labelCol >= 0 {
		plan[p.labelCol] = planLabel
	}
	return plan
}

// planRuns is, for each column of plan, the number of feature columns
// from it on whose features are consecutive, the last column left out
// (its cell ends the line, not a comma), 0 for the others.
func planRuns(plan []int) []int {
	runs := make([]int, len(plan))
	for c := len(plan) - 2; c >= 0; c-- {
		if plan[c] < 0 {
			continue
		}
		runs[c] = 1
		if plan[c+1] == plan[c]+1 {
			runs[c] += runs[c+1]
		}
	}
	return runs
}

// fastRow parses the line of s at off (line number line) into b as
// parse parses its fields, when the line is the common case: every
// feature cell a plain number scanFloat reads, with no spaces around it,
// a label that is not missing, no quote, and a line end ("\n" or "\r\n")
// after exactly the header's fields. It returns the index past the line
// and true then; false, with b untouched, for any other line (which the
// caller parses the general way).
func (p *parser) fastRow(s string, off, line int, comma byte, b *rows, fields *[]int32) (int, bool) {
	w := len(p.featCols)
	if cap(b.x)-len(b.x) < w || b.missing == nil {
		return 0, false
	}
	x := b.x[len(b.x) : len(b.x)+w]
	i := off
	label := ""
	last := len(p.plan) - 1
	for c := 0; c < len(p.plan); c++ {
		k := p.plan[c]
		if r := p.runs[c]; r > 0 {
			// Feature columns c to c+r-1 (features k to k+r-1), each
			// followed by a comma: scanCells, and scanFloat for the
			// cells it leaves.
			xs := x[k : k+r]
			var st []int32
			if p.keepFields {
				n := len(*fields)
				*fields = slices.Grow(*fields, r)[:n+r]
				st = (*fields)[n:]
			}
			for q := 0; ; {
				var d int
				if st != nil {
					i, d = scanCells(s, i, comma, xs[q:], st[q:])
				} else {
					i, d = scanCells(s, i, comma, xs[q:], nil)
				}
				if q += d; q == r {
					break
				}
				if st != nil {
					st[q] = int32(i)
				}
				v, j, ok := scanFloat(s, i)
				if !ok || j >= len(s) || s[j] != comma {
					return 0, false
				}
				xs[q], i = v, j+1
				q++
			}
			c += r - 1
			continue
		}
		if p.keepFields {
			*fields = append(*fields, int32(i))
		}
		j := i
		if k >= 0 {
			v, e, ok := scanFloat(s, i)
			if !ok {
				return 0, false
			}
			x[k], j = v, e
		} else {
			for j < len(s) && s[j] != comma && s[j] != '\n' && s[j] != '"' {
				j++
			}
		}
		if j >= len(s) {
			return 0, false
		}
		if c < last {
			if s[j] != comma {
				return 0, false
			}
			if k == planLabel {
				label = s[i:j]
			}
			i = j + 1
			continue
		}
		// The last field: the line ends here.
		end := j
		switch {
		case s[j] == '\n':
			if k < 0 && j > i && s[j-1] == '\r' {
				end = j - 1
			}
		case s[j] == '\r' && k >= 0 && j+1 < len(s) && s[j+1] == '\n':
			j++
		default:
			return 0, false
		}
		if k == planLabel {
			label = s[i:end]
		}
		if p.keepFields {
			*fields = append(*fields, int32(end+1))
		}
		i = j + 1
	}
	if p.labelCol >= 0 {
		t := strings.TrimSpace(label)
		if isMissing(t, nil) {
			return 0, false
		}
		b.labels = append(b.labels, intern(p.canon, t, CanonicalLabel))
		b.lines = append(b.lines, line)
	}
	b.x = b.x[:len(b.x)+w]
	b.n++
	return i, true
}

// parseChunk parses the lines of c as csvSource's fast path splits them
// (the same fields and lines), stopping at the first error or at the
// first line only the sequential reader may read.
func (p *parser) parseChunk(c *chunk, comma byte) {
	c.rows.reset()
	c.rowLines, c.starts, c.ends = c.rowLines[:0], c.starts[:0], c.ends[:0]
	c.fieldAt, c.fields = c.fieldAt[:0], c.fields[:0]
	c.err, c.ragged, c.seq = nil, false, false
	rec := make([]string, 0, len(p.header))
	buf := c.buf
	line := c.line
	text := unsafe.String(unsafe.SliceData(buf), len(buf))
	for off := 0; off < len(buf); {
		if p.plan != nil {
			f := len(c.fields)
			if end, ok := p.fastRow(text, off, line+1, comma, &c.rows, &c.fields); ok {
				line++
				c.rowLines = append(c.rowLines, line)
				c.starts = append(c.starts, int32(off))
				n := end - 1
				if buf[n-1] == '\r' {
					n--
				}
				c.ends = append(c.ends, int32(n))
				if p.keepFields {
					c.fieldAt = append(c.fieldAt, int32(f))
				}
				off = end
				continue
			}
			c.fields = c.fields[:f]
		}
		end := len(buf)
		if k := bytes.IndexByte(buf[off:], '\n'); k >= 0 {
			end = off + k + 1
		}
		b := buf[off:end]
		line++
		if bytes.IndexByte(b, '"') >= 0 {
			c.seq, c.seqOff, c.seqLine = true, off, line-1
			return
		}
		n := len(b)
		if b[n-1] == '\n' {
			n--
			if n > 0 && b[n-1] == '\r' {
				n--
			}
		} else if b[n-1] == '\r' && c.eof {
			n-- // as encoding/csv: a \r before the end of the file is dropped
		}
		if n == 0 {
			off = end
			continue
		}
		str := unsafe.String(&b[0], n)
		rec = splitFields(rec[:0], str, comma)
		before := c.rows.n
		if err := p.parse(rec, line, &c.rows); err != nil {
			if err == errSequential {
				// The row is read again sequentially: undo the missing
				// cells it counted before the cell that stopped it.
				w := len(p.featCols)
				for k, v := range c.rows.x[before*w:] {
					if v != v {
						c.rows.missing[k]--
					}
				}
				c.rows.x = c.rows.x[:before*w]
				c.seq, c.seqOff, c.seqLine = true, off, line-1
				return
			}
			c.err, c.errLine = err, line
			c.ragged = errors.Is(err, ErrRagged)
			return
		}
		if c.rows.n > before {
			if p.keepFields {
				c.fieldAt = append(c.fieldAt, -1)
			}
			c.rowLines = append(c.rowLines, line)
			c.starts = append(c.starts, int32(off))
			c.ends = append(c.ends, int32(off+n))
		}
		off = end
	}
}

// join appends the rows of c to b as the sequential reader would have
// read them: the room checks at the same rows, the profile in file
// order, then c's error.
func (p *parser) join(b *rows, c *chunk, comma byte) error {
	w := len(p.featCols)
	cb := &c.rows
	for i := 0; i < cb.n; {
		if cap(b.x)-len(b.x) < w {
			if err := b.grow(w, c.rowLines[i], p); err != nil {
				return err
			}
		}
		k := min(cb.n-i, (cap(b.x)-len(b.x))/w)
		b.x = append(b.x, cb.x[i*w:(i+k)*w]...)
		if p.prof != nil {
			p.observeChunk(c, i, i+k, comma)
		}
		b.n += k
		i += k
	}
	if cb.n > 0 {
		if b.missing == nil {
			b.missing = make([]int, w)
		}
		for k, m := range cb.missing {
			b.missing[k] += m
		}
		b.labels = append(b.labels, cb.labels...)
		b.lines = append(b.lines, cb.lines...)
		b.split = append(b.split, cb.split...)
		b.w = append(b.w, cb.w...)
		b.ids = append(b.ids, cb.ids...)
		b.text = append(b.text, cb.text...)
	}
	if c.err != nil {
		if !c.ragged && cap(b.x)-len(b.x) < w {
			if err := b.grow(w, c.errLine, p); err != nil {
				return err
			}
		}
		return c.err
	}
	return nil
}

// observeChunk profiles rows i to j of c, as observe would row by row:
// columns are independent, so up to workers goroutines take a share of
// the columns each, every one in row order.
func (p *parser) observeChunk(c *chunk, i, j int, comma byte) {
	w := len(p.featCols)
	pr := p.prof
	pr.rows += j - i
	if p.labelCol >= 0 && p.firstLabel == "" {
		// classKey's first label: that of the first row with a number
		// (no column is categorical here).
	find:
		for r := i; r < j; r++ {
			for _, v := range c.rows.x[r*w : (r+1)*w] {
				if v == v {
					p.firstLabel = c.rows.labels[r]
					break find
				}
			}
		}
	}
	g := min(p.workers(), len(p.header))
	plan := p.fastPlan()
	text := unsafe.String(unsafe.SliceData(c.buf), len(c.buf))
	observe := func(share int) {
		rec := make([]string, 0, len(p.header))
		var cols, feats []int // this share's columns, and its features
		for col := share; col < len(p.header); col += g {
			cols = append(cols, col)
		}
		for k, col := range p.featCols {
			if col%g == share {
				feats = append(feats, k)
			}
		}
		for r := i; r < j; r++ {
			label := ""
			if p.labelCol >= 0 {
				label = c.rows.labels[r]
			}
			if fa := c.fieldAt[r]; fa >= 0 {
				// A row fastRow read: its feature cells are numbers
				// without spaces around, not missing.
				f := c.fields[fa : int(fa)+len(p.header)+1]
				for _, col := range cols {
					a, e := int(f[col]), int(f[col+1]-1)
					if plan[col] < 0 {
						pr.observeCell(p, col, text[a:e], label)
						continue
					}
					// textHash, inline for the cells of 8 bytes or more.
					if st := &pr.stats[col]; st.keys != nil && e-a >= 8 &&
						!st.mayHave(mix(load8(text[a:a+8]), load8(text[e-8:e]), e-a)) {
						continue
					}
					pr.observeText(col, text[a:e], label)
				}
			} else {
				str := unsafe.String(&c.buf[c.starts[r]], int(c.ends[r]-c.starts[r]))
				rec = splitFields(rec[:0], str, comma)
				for col := share; col < len(rec); col += g {
					pr.observeCell(p, col, rec[col], label)
				}
			}
			if label == "" {
				continue
			}
			second := label != p.firstLabel
			x := c.rows.x[r*w : (r+1)*w]
			for _, k := range feats {
				if v := x[k]; v == v {
					pr.stats[p.featCols[k]].observeValue(v, second)
				}
			}
		}
	}
	if g <= 1 {
		observe(0)
		return
	}
	var wg sync.WaitGroup
	for share := range g {
		wg.Go(func() { observe(share) })
	}
	wg.Wait()
}

// splitFields appends the fields of the quote-free line str, split at
// comma, to rec (which then aliases str) and returns it.
func splitFields(rec []string, str string, comma byte) []string {
	for {
		k := strings.IndexByte(str, comma)
		if k < 0 {
			return append(rec, str)
		}
		rec = append(rec, str[:k])
		str = str[k+1:]
	}
}

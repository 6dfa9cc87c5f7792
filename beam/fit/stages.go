package fit

import (
	"container/heap"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"path"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/adaptive"
	"github.com/aer-go/aer/beam/internal/progress"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/mixture"
)

// readFile reads one training or validation file with o.
func readFile(ctx context.Context, file fileio.ReadableFile, o dataset.Options) (*dataset.Dataset, error) {
	r, err := file.Open(ctx)
	if err != nil {
		return nil, fmt.Errorf("aer-beam: %s: %w", file.Metadata.Path, err)
	}
	defer r.Close()
	d, err := dataset.Decode(r, path.Base(file.Metadata.Path), o)
	if err != nil {
		return nil, fmt.Errorf("aer-beam: %s: %w", file.Metadata.Path, err)
	}
	return d, nil
}

// schemaFn reads a training file for its columns, labels and categories.
type schemaFn struct{ S Spec }

func (f *schemaFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emit func([]byte)) error {
	progress.Begin(stageRead)
	o := f.S.Read.Options()
	o.AllowOneClass = true
	o.Positive = ""
	d, err := readFile(ctx, file, o)
	if err != nil {
		return err
	}
	sch := d.Schema()
	info := schemaInfo{Path: file.Metadata.Path, Raw: sch.RawColumns(), Labels: map[string]int{}, Categories: d.Categories}
	for c, n := range d.ClassCounts() {
		if n > 0 {
			info.Labels[d.LabelName(c)] += n
		}
	}
	b, err := json.Marshal(info)
	if err != nil {
		return err
	}
	emit(b)
	return nil
}

// mergeSchemaFn merges every file's schema.
type mergeSchemaFn struct{ S Spec }

func (f *mergeSchemaFn) ProcessElement(_ int, it func(*[]byte) bool, emit func([]byte)) error {
	parts, err := collectJSON[schemaInfo](it)
	if err != nil {
		return err
	}
	m, err := mergeSchemas(parts, f.S.Read.Positive)
	if err != nil {
		return err
	}
	out, err := json.Marshal(m)
	if err != nil {
		return err
	}
	emit(out)
	return nil
}

// fileSchema is the schema of one file read with the merged schema: the
// model file's (the first file's by path; all are the same).
type fileSchema struct {
	Path   string
	Schema dataset.Schema
}

// readFn reads a file into row blocks: training rows, the rows held out
// for validation (without validation files), and its schema.
type readFn struct {
	S Spec
	// Valid reads validation files: every row goes to valid.
	Valid bool
}

func (f *readFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, schema []byte, train, valid, sch func([]byte)) error {
	var info schemaInfo
	if err := json.Unmarshal(schema, &info); err != nil {
		return err
	}
	o := f.S.readOptions(&info)
	o.AllowOneClass = true
	d, err := readFile(ctx, file, o)
	if err != nil {
		return err
	}
	if !f.Valid {
		fs, err := json.Marshal(fileSchema{Path: file.Metadata.Path, Schema: d.Schema()})
		if err != nil {
			return err
		}
		sch(fs)
	}
	n, cols := d.Rows(), len(d.Features)
	raw := d.X.RawMatrix()
	var tb, vb block
	flush := func(b *block, emit func([]byte)) {
		if b.rows() > 0 {
			emit(b.encode())
		}
		*b = block{}
	}
	one := &block{Cols: cols}
	for i := range n {
		x := raw.Data[i*raw.Stride : i*raw.Stride+cols]
		w := 1.0
		if d.W != nil {
			w = d.W[i]
		}
		id := ""
		if d.IDs != nil {
			id = d.IDs[i]
		}
		key := rowKey(id, d.Y[i], w, x)
		one.Keys, one.Y, one.X = []uint64{key}, []int{d.Y[i]}, x
		one.W = nil
		if d.W != nil {
			one.W = []float64{w}
		}
		toValid := f.Valid || f.S.Holdout > 0 && unit(mix(key, f.S.Seed, streamHoldout)) < f.S.Holdout
		if toValid {
			vb.add(one, 0)
			if vb.rows() == maxBlockRows {
				flush(&vb, valid)
			}
		} else {
			tb.add(one, 0)
			if tb.rows() == maxBlockRows {
				flush(&tb, train)
			}
		}
	}
	flush(&tb, train)
	flush(&vb, valid)
	return nil
}

// statsFn sums a block's rows.
type statsFn struct{}

func (f *statsFn) ProcessElement(p []byte, emit func([]byte)) error {
	b, err := decodeBlock(p)
	if err != nil {
		return err
	}
	s := newStats(b.Cols)
	s.addBlock(b)
	emit(s.encode())
	return nil
}

// mergeStatsFn adds up every block's sums.
type mergeStatsFn struct{}

func (f *mergeStatsFn) ProcessElement(_ int, it func(*[]byte) bool, emit func([]byte)) error {
	var total *stats
	var b []byte
	for it(&b) {
		s, err := decodeStats(b)
		if err != nil {
			return err
		}
		if total == nil {
			total = s
			continue
		}
		if len(s.Cols) != len(total.Cols) {
			return fmt.Errorf("aer-beam: blocks of %d and %d features", len(s.Cols), len(total.Cols))
		}
		total.merge(s)
	}
	if total == nil {
		return fmt.Errorf("aer-beam: no training rows")
	}
	emit(total.encode())
	return nil
}

// context is what a stage knows once the sums (and the mixture) are in.
type stageContext struct {
	st   *adaptive.Staged
	prep *prepared
	mx   *mixtureInfo
}

func (s *Spec) context(statsB, mixB []byte) (*stageContext, error) {
	st, _, err := s.staged()
	if err != nil {
		return nil, err
	}
	raw, err := decodeStats(statsB)
	if err != nil {
		return nil, err
	}
	prep, err := raw.finish(st.Standardize())
	if err != nil {
		return nil, err
	}
	c := &stageContext{st: st, prep: prep}
	if mixB != nil {
		if c.mx, err = decodeMixture(mixB); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *stageContext) majority() int { return c.prep.Rows - c.prep.Pos }

// sampleFn passes on the majority rows of a block that may be in the
// mixture's sample: a draw per row below twice the sample's share, so
// that the exact sample (the MixtureRows smallest draws) is among them
// with overwhelming probability.
type sampleFn struct{ S Spec }

func (f *sampleFn) ProcessElement(p []byte, statsB []byte, emit func([]byte)) error {
	progress.Begin(stageMixture)
	c, b, err := f.S.blockContext(p, statsB, nil)
	if err != nil {
		return err
	}
	rate := 1.0
	if k := c.st.MixtureRows(); k > 0 && c.majority() > k {
		rate = min(1, 2*float64(k)/float64(c.majority())+1e-3)
	}
	var out block
	for i := range b.rows() {
		if b.Y[i] == 0 && unit(mix(b.Keys[i], f.S.Seed, streamSample)) < rate {
			out.add(b, i)
		}
	}
	if out.rows() > 0 {
		emit(out.encode())
	}
	return nil
}

// mixtureInfo is the fitted mixture on the wire.
type mixtureInfo struct {
	Selection *mixture.Selection
	Model     []byte
	Rows      int
	model     *mixture.Model
}

func decodeMixture(p []byte) (*mixtureInfo, error) {
	var m mixtureInfo
	if err := json.Unmarshal(p, &m); err != nil {
		return nil, fmt.Errorf("aer-beam: mixture: %w", err)
	}
	m.model = &mixture.Model{}
	if err := m.model.UnmarshalBinary(m.Model); err != nil {
		return nil, fmt.Errorf("aer-beam: mixture: %w", err)
	}
	m.Selection.Model = m.model
	return &m, nil
}

// mixtureFn fits the mixture on the sample of majority rows: the
// MixtureRows rows of smallest draw, in the order of their draws.
type mixtureFn struct{ S Spec }

func (f *mixtureFn) ProcessElement(ctx context.Context, _ int, it func(*[]byte) bool, statsB []byte, emit func([]byte)) error {
	c, err := f.S.context(statsB, nil)
	if err != nil {
		return err
	}
	blocks, err := readBlocks(it)
	if err != nil {
		return err
	}
	d, keys := sortRows(blocks)
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	draw := func(i int) uint64 { return mix(keys[i], f.S.Seed, streamSample) }
	slices.SortStableFunc(order, func(a, b int) int { return cmpU(draw(a), draw(b)) })
	rows := 0
	if k := c.st.MixtureRows(); k > 0 && len(order) > k {
		order = order[:k]
		rows = k
	}
	if len(order) == 0 {
		return fmt.Errorf("aer-beam: no majority rows for the mixture")
	}
	x := c.prep.standardize(learn.Rows(d.X, order))
	sel, err := c.st.FitMixture(ctx, x, c.majority(), nil, learn.Env{})
	if err != nil {
		return err
	}
	mb, err := sel.Model.MarshalBinary()
	if err != nil {
		return err
	}
	if rows == 0 && c.st.MixtureRows() > 0 && c.majority() > c.st.MixtureRows() {
		rows = len(order)
	}
	out, err := json.Marshal(mixtureInfo{Selection: sel, Model: mb, Rows: rows})
	if err != nil {
		return err
	}
	emit(out)
	return nil
}

// scores returns the block's majority rows (indices) and their scores
// under each component.
func (c *stageContext) scores(b *block) ([]int, *mat.Dense, error) {
	var maj []int
	for i := range b.rows() {
		if b.Y[i] == 0 {
			maj = append(maj, i)
		}
	}
	if len(maj) == 0 {
		return nil, nil, nil
	}
	x := c.prep.standardized(b)
	sc, err := c.st.Scores(c.mx.model, learn.Rows(x, maj))
	return maj, sc, err
}

// rankFn emits, per component, the ranks of a block's majority rows.
type rankFn struct{ S Spec }

func (f *rankFn) ProcessElement(p, statsB, mixB []byte, emit func(int, []byte)) error {
	progress.Begin(stageSubsets)
	c, b, err := f.S.blockContext(p, statsB, mixB)
	if err != nil {
		return err
	}
	maj, sc, err := c.scores(b)
	if err != nil || maj == nil {
		return err
	}
	for l := range c.mx.model.K() {
		out := make([]byte, 0, 16*len(maj))
		for r, i := range maj {
			out = appendRank(out, rankOf(sc.At(r, l), b.Keys[i]))
		}
		emit(l, out)
	}
	return nil
}

func appendRank(b []byte, r rank) []byte {
	b = binary.LittleEndian.AppendUint64(b, r.Hi)
	return binary.LittleEndian.AppendUint64(b, r.Lo)
}

func readRanks(b []byte, f func(rank)) error {
	if len(b)%16 != 0 {
		return fmt.Errorf("aer-beam: damaged ranks (%d bytes)", len(b))
	}
	for i := 0; i < len(b); i += 16 {
		f(rank{binary.LittleEndian.Uint64(b[i:]), binary.LittleEndian.Uint64(b[i+8:])})
	}
	return nil
}

// topK keeps the k largest ranks seen (a min-heap).
type topK struct {
	k int
	h rankHeap
}

type rankHeap []rank

func (h rankHeap) Len() int           { return len(h) }
func (h rankHeap) Less(i, j int) bool { return h[i].less(h[j]) }
func (h rankHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *rankHeap) Push(x any)        { *h = append(*h, x.(rank)) }
func (h *rankHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (t *topK) add(r rank) {
	if t.k <= 0 {
		return
	}
	if len(t.h) < t.k {
		heap.Push(&t.h, r)
		return
	}
	if t.h[0].less(r) {
		t.h[0] = r
		heap.Fix(&t.h, 0)
	}
}

// cut is the smallest of the largest ranks kept (the k-th largest when
// there were more than k): every rank at or above it is in. N is the
// number kept.
type cut struct {
	Rank rank
	N    int
}

func (t *topK) cut() cut {
	if len(t.h) == 0 {
		return cut{}
	}
	return cut{Rank: t.h[0], N: len(t.h)}
}

// in says whether r is at or above the cut.
func (c cut) in(r rank) bool { return c.N > 0 && !r.less(c.Rank) }

// compCuts are a component's cuts: its global and local subsets' top
// majority rows and the draw of its local subset's random rows.
type compCuts struct {
	L             int
	Global, Local cut
	Draw          cut
}

// cutFn finds a component's global and local cuts from every majority
// row's rank.
type cutFn struct{ S Spec }

func (f *cutFn) ProcessElement(l int, it func(*[]byte) bool, statsB, mixB []byte, emit func([]byte)) error {
	c, err := f.S.context(statsB, mixB)
	if err != nil {
		return err
	}
	mn, L := c.majority(), c.mx.model.K()
	g, loc := &topK{k: mn / L}, &topK{k: c.prep.Pos}
	var b []byte
	for it(&b) {
		if err := readRanks(b, func(r rank) {
			g.add(r)
			loc.add(r)
		}); err != nil {
			return err
		}
	}
	out, err := json.Marshal(compCuts{L: l, Global: g.cut(), Local: loc.cut()})
	if err != nil {
		return err
	}
	emit(out)
	return nil
}

// collectCutsFn gathers the components' cuts into one list.
type collectFn struct{}

func (f *collectFn) ProcessElement(_ int, it func(*[]byte) bool, emit func([]byte)) error {
	all, err := collectJSON[compCuts](it)
	if err != nil {
		return err
	}
	slices.SortFunc(all, func(a, b compCuts) int { return a.L - b.L })
	out, err := json.Marshal(all)
	if err != nil {
		return err
	}
	emit(out)
	return nil
}

func decodeCuts(p []byte, L int) ([]compCuts, error) {
	var cs []compCuts
	if err := json.Unmarshal(p, &cs); err != nil {
		return nil, fmt.Errorf("aer-beam: cuts: %w", err)
	}
	if len(cs) != L {
		return nil, fmt.Errorf("aer-beam: cuts of %d components, the mixture has %d", len(cs), L)
	}
	return cs, nil
}

// drawRank orders the draws: the smallest draw first, then the smaller
// key, as a rank (larger better).
func drawRank(d, key uint64) rank { return rank{^d, ^key} }

// drawFn emits, per component, the draws of a block's majority rows
// outside the local subset's top rows (at most as many as the draw
// takes: the block's best draws).
type drawFn struct{ S Spec }

func (f *drawFn) ProcessElement(p, statsB, mixB, cutsB []byte, emit func(int, []byte)) error {
	c, b, err := f.S.blockContext(p, statsB, mixB)
	if err != nil {
		return err
	}
	cuts, err := decodeCuts(cutsB, c.mx.model.K())
	if err != nil {
		return err
	}
	maj, sc, err := c.scores(b)
	if err != nil || maj == nil {
		return err
	}
	r := c.draws()
	for l := range cuts {
		t := &topK{k: r}
		for k, i := range maj {
			if !cuts[l].Local.in(rankOf(sc.At(k, l), b.Keys[i])) {
				t.add(drawRank(mix(b.Keys[i], f.S.Seed, streamLocal+uint64(l)), b.Keys[i]))
			}
		}
		if len(t.h) > 0 {
			out := make([]byte, 0, 16*len(t.h))
			for _, x := range t.h {
				out = appendRank(out, x)
			}
			emit(l, out)
		}
	}
	return nil
}

// draws is the number of rows a local subset draws at random.
func (c *stageContext) draws() int { return int(c.st.LocalRandom() * float64(c.prep.Pos)) }

// drawCutFn finds a component's draw cut.
type drawCutFn struct{ S Spec }

func (f *drawCutFn) ProcessElement(l int, it func(*[]byte) bool, statsB []byte, emit func([]byte)) error {
	c, err := f.S.context(statsB, nil)
	if err != nil {
		return err
	}
	t := &topK{k: c.draws()}
	var b []byte
	for it(&b) {
		if err := readRanks(b, t.add); err != nil {
			return err
		}
	}
	out, err := json.Marshal(compCuts{L: l, Draw: t.cut()})
	if err != nil {
		return err
	}
	emit(out)
	return nil
}

// places: 0..2L-1 the subsets (2l global, 2l+1 local), 2L all rows.

// routeFn sends each row of a block to the places it belongs to,
// imputed and standardised: a majority row to the subsets whose cuts it
// passes, a minority row to every subset; and to the all-rows place
// (every row, or with more than AllRows rows, every minority row and a
// draw of the majority rows, weighted up to stand for them all).
type routeFn struct{ S Spec }

func (f *routeFn) ProcessElement(p, statsB, mixB, cutsB, drawsB []byte, emit func(int, []byte)) error {
	c, b, err := f.S.blockContext(p, statsB, mixB)
	if err != nil {
		return err
	}
	L := c.mx.model.K()
	cuts, err := decodeCuts(cutsB, L)
	if err != nil {
		return err
	}
	draws, err := decodeCuts(drawsB, L)
	if err != nil {
		return err
	}
	maj, sc, err := c.scores(b)
	if err != nil {
		return err
	}
	xs := c.prep.standardized(b)
	std := &block{Keys: b.Keys, Y: b.Y, W: b.W, X: xs.RawMatrix().Data, Cols: b.Cols}
	out := make([]block, 2*L+1)
	for _, i := range std.minorityRows() {
		for k := range 2 * L {
			out[k].add(std, i)
		}
	}
	for k, i := range maj {
		for l := range L {
			r := rankOf(sc.At(k, l), b.Keys[i])
			if cuts[l].Global.in(r) {
				out[2*l].add(std, i)
			}
			if cuts[l].Local.in(r) || draws[l].Draw.in(drawRank(mix(b.Keys[i], f.S.Seed, streamLocal+uint64(l)), b.Keys[i])) {
				out[2*l+1].add(std, i)
			}
		}
	}
	if c.st.Global() || c.st.Peers() > 0 {
		rate := c.allRowsRate(f.S.AllRows)
		all := &out[2*L]
		if rate < 1 {
			all.W = []float64{} // the sampled rows weigh more
		}
		for i := range std.rows() {
			switch {
			case std.Y[i] == 1 || rate == 1:
				all.add(std, i)
			case unit(mix(b.Keys[i], f.S.Seed, streamAllRows)) < rate:
				all.add(std, i)
				all.W[len(all.W)-1] /= rate
			}
		}
	}
	for k := range out {
		if out[k].rows() > 0 {
			emit(k, out[k].encode())
		}
	}
	return nil
}

func (b *block) minorityRows() []int {
	var r []int
	for i, y := range b.Y {
		if y == 1 {
			r = append(r, i)
		}
	}
	return r
}

// allRowsRate is the share of majority rows in the all-rows place: 1
// when the training rows are at most limit (0: no limit).
func (c *stageContext) allRowsRate(limit int) float64 {
	if limit <= 0 || c.prep.Rows <= limit {
		return 1
	}
	return max(float64(limit-c.prep.Pos), 1) / float64(c.majority())
}

// memberOut is one trained member on the wire.
type memberOut struct {
	G       int
	Method  string
	Name    string
	Payload []byte
}

// placeOut is what a place's training made: its members (and the peers,
// on the all-rows place) and its subset's counts.
type placeOut struct {
	Place                            int
	Kind                             string
	Component                        int
	Majority, Minority, TomekRemoved int
	Members, Peers                   []memberOut
}

// trainFn trains every member of one place on its rows, sorted by key.
type trainFn struct{ S Spec }

func (f *trainFn) ProcessElement(ctx context.Context, place int, it func(*[]byte) bool, statsB, mixB []byte, emit func([]byte)) error {
	progress.Begin(stageMembers)
	c, err := f.S.context(statsB, mixB)
	if err != nil {
		return err
	}
	blocks, err := readBlocks(it)
	if err != nil {
		return err
	}
	d, _ := sortRows(blocks)
	L := c.mx.model.K()
	out := placeOut{Place: place, Component: -1}
	if place < 2*L {
		out.Component = place / 2
		out.Kind = "local"
		if place%2 == 0 {
			out.Kind = "global"
		}
	}
	if out.Kind == "global" && c.st.Tomek() {
		rows := make([]int, d.Rows())
		for i := range rows {
			rows[i] = i
		}
		kept, removed, err := c.st.CleanTomek(d.X, d.Y, rows, 0)
		if err != nil {
			return err
		}
		if removed > 0 {
			d = d.Subset(kept)
		}
		out.TomekRemoved = removed
	}
	for _, y := range d.Y {
		if y == 1 {
			out.Minority++
		} else {
			out.Majority++
		}
	}
	env := learn.Env{}
	train := d
	if place == 2*L {
		bal := *d
		bal.W = adaptive.BalancedWeights(d)
		train = &bal
	}
	if place < 2*L || c.st.Global() {
		for g := range c.st.Learners() {
			name := c.st.MemberName(g, out.Kind, out.Component)
			mb, err := c.st.FitMember(ctx, g, place, name, train, env)
			if err != nil {
				return err
			}
			mo, err := encodeMember(g, mb)
			if err != nil {
				return err
			}
			out.Members = append(out.Members, mo)
		}
	}
	if place == 2*L {
		for t := range c.st.Peers() {
			mb, err := c.st.FitPeer(ctx, t, d, env)
			if err != nil {
				return err
			}
			mo, err := encodeMember(t, mb)
			if err != nil {
				return err
			}
			out.Peers = append(out.Peers, mo)
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	emit(b)
	return nil
}

// readBlocks decodes the blocks of a grouped collection.
func readBlocks(it func(*[]byte) bool) ([]*block, error) {
	var blocks []*block
	var p []byte
	for it(&p) {
		b, err := decodeBlock(p)
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// encodeMember is member mb (of setting or peer g) on the wire.
func encodeMember(g int, mb adaptive.Member) (memberOut, error) {
	payload, err := mb.Model.MarshalBinary()
	if err != nil {
		return memberOut{}, fmt.Errorf("aer-beam: member %s: %w", mb.Name, err)
	}
	return memberOut{G: g, Method: mb.Method, Name: mb.Name, Payload: payload}, nil
}

// blockContext is the stage's context (see Spec.context) and the block
// p decoded.
func (s *Spec) blockContext(p, statsB, mixB []byte) (*stageContext, *block, error) {
	c, err := s.context(statsB, mixB)
	if err != nil {
		return nil, nil, err
	}
	b, err := decodeBlock(p)
	if err != nil {
		return nil, nil, err
	}
	return c, b, nil
}

// collectJSON decodes every element of a grouped collection of JSON
// values.
func collectJSON[T any](it func(*[]byte) bool) ([]T, error) {
	var out []T
	var b []byte
	for it(&b) {
		var v T
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

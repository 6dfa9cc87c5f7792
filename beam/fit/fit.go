package fit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/adaptive"
	"github.com/aer-go/aer/beam/internal/progress"
	"github.com/aer-go/aer/engine"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/resample"
)

func init() {
	register.DoFn3x1[context.Context, fileio.ReadableFile, func([]byte), error](&schemaFn{})
	register.DoFn3x1[int, func(*[]byte) bool, func([]byte), error](&mergeSchemaFn{})
	register.DoFn6x1[context.Context, fileio.ReadableFile, []byte, func([]byte), func([]byte), func([]byte), error](&readFn{})
	register.DoFn2x1[[]byte, func([]byte), error](&statsFn{})
	register.DoFn3x1[int, func(*[]byte) bool, func([]byte), error](&mergeStatsFn{})
	register.DoFn3x1[[]byte, []byte, func([]byte), error](&sampleFn{})
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, []byte, func([]byte), error](&mixtureFn{})
	register.DoFn4x1[[]byte, []byte, []byte, func(int, []byte), error](&rankFn{})
	register.DoFn5x1[int, func(*[]byte) bool, []byte, []byte, func([]byte), error](&cutFn{})
	register.DoFn3x1[int, func(*[]byte) bool, func([]byte), error](&collectFn{})
	register.DoFn5x1[[]byte, []byte, []byte, []byte, func(int, []byte), error](&drawFn{})
	register.DoFn4x1[int, func(*[]byte) bool, []byte, func([]byte), error](&drawCutFn{})
	register.DoFn6x1[[]byte, []byte, []byte, []byte, []byte, func(int, []byte), error](&routeFn{})
	register.DoFn6x1[context.Context, int, func(*[]byte) bool, []byte, []byte, func([]byte), error](&trainFn{})
	register.DoFn9x1[context.Context, []byte, func(*[]byte) bool, []byte, []byte, []byte, func(*[]byte) bool, func(*[]byte) bool, func(string), error](&assembleFn{})
	register.Function1x2[[]byte, int, []byte](keyOne)
	register.Emitter1[[]byte]()
	register.Emitter2[int, []byte]()
	register.Emitter1[string]()
	register.Iter1[[]byte]()
}

// Options say what Pipeline fits and where it writes the model.
type Options struct {
	// Train is the pattern of the training files; Valid, when not empty,
	// that of the validation files (else a share Spec.Holdout of the
	// training rows, 0.25 by default, is held out by a draw per row).
	Train, Valid string
	// Out is the model file's path (any file system Beam reaches).
	Out string
	// Spec holds the read options, the seed, AER's parameters and the
	// limits.
	Spec Spec
}

// The stages of Pipeline, in order, as package progress reports them:
// each ends at a barrier of the pipeline (the next waits for all of its
// output, a side input or a GroupByKey).
const (
	stageRead     = "reading the rows and summing the columns"
	stageMixture  = "fitting the mixture"
	stageSubsets  = "ranking the rows and cutting the subsets"
	stageMembers  = "training the members"
	stageAssemble = "weighing and tuning the members, writing the model"
)

// DefaultAllRows is the default Spec.AllRows: the training rows beyond
// which the member on all rows (and the peers) train on a draw of the
// majority rows.
const DefaultAllRows = 2_000_000

// Metrics namespace and counters of a fit.
const (
	Namespace     = "aer"
	RowsCounter   = "train_rows"
	ValidCounter  = "valid_rows"
	MemberCounter = "members"
)

// Pipeline adds to s AER's distributed fit of o.Train's files, writing
// the model file o.Out; the returned collection holds its path once
// written. The stages:
//
//  1. every file is read once for its columns, labels and categories,
//     merged into one schema (the positive class the rarer label over
//     all files, the categories the union of every file's);
//  2. every file is read again into blocks of rows under that schema,
//     each row keyed by a hash of its content; without validation files
//     a draw of the key holds a share of the rows out for validation;
//  3. the columns' sums, exact (so independent of how the rows are
//     split), give the imputation means and the standardisation;
//  4. the mixture is fitted on one worker on the MixtureRows majority
//     rows of smallest draw (all of them when fewer);
//  5. every majority row is ranked under every component, and each
//     component's global and local cuts found (GroupByKey on the
//     component: the top floor(m_n/L) and m_k ranks), then the draw cut
//     of its local subset's random rows;
//  6. the rows go to their places (GroupByKey on the place): each
//     global subset cleaned of its Tomek links and every member trained
//     on one worker, the rows sorted by key;
//  7. one worker weighs and tunes the members on the validation rows,
//     fits the decision layer, and writes the model file aer fit
//     writes.
//
// The model depends on the rows, not on how they are split into files
// or the order they arrive in.
func Pipeline(s beam.Scope, o Options) beam.PCollection {
	s = s.Scope("aer.fit")
	spec := o.Spec
	if o.Valid == "" && spec.Holdout == 0 {
		spec.Holdout = 0.25
	}
	if o.Valid != "" {
		spec.Holdout = 0
	}
	if spec.AllRows == 0 {
		spec.AllRows = DefaultAllRows
	}
	files := fileio.ReadMatches(s, fileio.MatchFiles(s, o.Train, fileio.MatchEmptyDisallow()), fileio.ReadUncompressed())
	schemas := beam.ParDo(s.Scope("schema"), &schemaFn{S: spec}, files)
	schema := collect(s.Scope("merge-schema"), &mergeSchemaFn{S: spec}, schemas)

	train, held, fileSchemas := beam.ParDo3(s.Scope("read"), &readFn{S: spec}, files, beam.SideInput{Input: schema})
	valid := held
	if o.Valid != "" {
		vfiles := fileio.ReadMatches(s, fileio.MatchFiles(s.Scope("valid"), o.Valid, fileio.MatchEmptyDisallow()), fileio.ReadUncompressed())
		_, vrows, _ := beam.ParDo3(s.Scope("read-valid"), &readFn{S: spec, Valid: true}, vfiles, beam.SideInput{Input: schema})
		valid = vrows
	}

	stats := collect(s.Scope("sums"), &mergeStatsFn{}, beam.ParDo(s.Scope("block-sums"), &statsFn{}, train))
	side := func(c beam.PCollection) beam.SideInput { return beam.SideInput{Input: c} }

	sample := beam.ParDo(s.Scope("sample"), &sampleFn{S: spec}, train, side(stats))
	mix := collect(s.Scope("mixture"), &mixtureFn{S: spec}, sample, side(stats))

	ranks := beam.ParDo(s.Scope("rank"), &rankFn{S: spec}, train, side(stats), side(mix))
	cuts := collect(s.Scope("cuts"), &collectFn{},
		beam.ParDo(s.Scope("cut"), &cutFn{S: spec}, beam.GroupByKey(s, ranks), side(stats), side(mix)))
	drawn := beam.ParDo(s.Scope("draw"), &drawFn{S: spec}, train, side(stats), side(mix), side(cuts))
	draws := collect(s.Scope("draws"), &collectFn{},
		beam.ParDo(s.Scope("draw-cut"), &drawCutFn{S: spec}, beam.GroupByKey(s, drawn), side(stats)))

	routed := beam.ParDo(s.Scope("route"), &routeFn{S: spec}, train, side(stats), side(mix), side(cuts), side(draws))
	members := beam.ParDo(s.Scope("train"), &trainFn{S: spec}, beam.GroupByKey(s, routed), side(stats), side(mix))

	return beam.ParDo(s.Scope("assemble"), &assembleFn{S: spec, Out: o.Out}, beam.Impulse(s),
		side(fileSchemas), side(stats), side(mix), side(draws), side(members), side(valid))
}

// collect gathers col on one worker (a fixed key and GroupByKey) and
// runs fn over it with the side inputs.
func collect(s beam.Scope, fn any, col beam.PCollection, sides ...beam.SideInput) beam.PCollection {
	grouped := beam.GroupByKey(s, beam.ParDo(s, keyOne, col))
	var args []beam.Option
	for _, si := range sides {
		args = append(args, si)
	}
	return beam.ParDo(s, fn, grouped, args...)
}

func keyOne(b []byte) (int, []byte) { return 0, b }

// assembleFn weighs and tunes the members on the validation rows and
// writes the model file.
type assembleFn struct {
	S   Spec
	Out string

	rows, valid, members beam.Counter
}

func (f *assembleFn) Setup() {
	f.rows = beam.NewCounter(Namespace, RowsCounter)
	f.valid = beam.NewCounter(Namespace, ValidCounter)
	f.members = beam.NewCounter(Namespace, MemberCounter)
}

func (f *assembleFn) ProcessElement(ctx context.Context, _ []byte, schemas func(*[]byte) bool, statsB, mixB, drawsB []byte,
	places func(*[]byte) bool, validBlocks func(*[]byte) bool, emit func(string)) error {
	progress.Begin(stageAssemble)
	c, err := f.S.context(statsB, mixB)
	if err != nil {
		return err
	}
	st, method, err := f.S.staged()
	if err != nil {
		return err
	}
	// The model's schema: the first file's by path.
	var first *fileSchema
	var b []byte
	for schemas(&b) {
		var fs fileSchema
		if err := json.Unmarshal(b, &fs); err != nil {
			return err
		}
		if first == nil || fs.Path < first.Path {
			first = &fs
		}
	}
	if first == nil {
		return fmt.Errorf("aer-beam: no training files read")
	}
	L := c.mx.model.K()
	draws, err := decodeCuts(drawsB, L)
	if err != nil {
		return err
	}
	nPlaces := 2 * L
	if st.Global() {
		nPlaces++
	}
	p := &adaptive.Parts{Means: c.prep.Means, Scaler: c.prep.Scaler, Mixture: c.mx.Selection,
		Members: make([][]adaptive.Member, st.Learners()), Peers: make([]adaptive.Member, st.Peers()),
		Subsets: make([]resample.Subset, 2*L), TrainRows: c.prep.Rows, TrainPositives: c.prep.Pos, Prior: c.prep.Prior,
		MixtureRows: c.mx.Rows, Warnings: c.mx.Selection.Warnings(0)}
	for g := range p.Members {
		p.Members[g] = make([]adaptive.Member, nPlaces)
	}
	for places(&b) {
		var po placeOut
		if err := json.Unmarshal(b, &po); err != nil {
			return err
		}
		if po.Place < 0 || po.Place > 2*L {
			return fmt.Errorf("aer-beam: member place %d of %d", po.Place, nPlaces)
		}
		if po.Place < 2*L {
			sub := resample.Subset{Component: po.Component, Kind: po.Kind, Majority: po.Majority, Minority: po.Minority, TomekRemoved: po.TomekRemoved}
			if po.Kind == resample.Local {
				sub.Random = draws[po.Component].Draw.N
			}
			p.Subsets[po.Place] = sub
		}
		for _, mo := range po.Members {
			mb, err := loadMember(mo)
			if err != nil {
				return err
			}
			p.Members[mo.G][po.Place] = mb
		}
		for _, mo := range po.Peers {
			mb, err := loadMember(mo)
			if err != nil {
				return err
			}
			p.Peers[mo.G] = mb
		}
	}
	for g, ms := range p.Members {
		for k, mb := range ms {
			if mb.Model == nil {
				return fmt.Errorf("aer-beam: member %d of setting %d was not trained (a subset without rows?)", k, g)
			}
		}
	}
	var vbs []*block
	for validBlocks(&b) {
		vb, err := decodeBlock(b)
		if err != nil {
			return err
		}
		vbs = append(vbs, vb)
	}
	valid, _ := sortRows(vbs)
	if valid.Rows() == 0 {
		return fmt.Errorf("aer-beam: no validation rows")
	}
	valid.Features = first.Schema.Features
	learned, _, err := st.Assemble(ctx, p, valid, learn.Env{})
	if err != nil {
		return err
	}
	fitted := &engine.Fitted{Learned: learned, Method: method, Schema: first.Schema, Prior: c.prep.Prior,
		Train: aer.TrainSummary{Rows: c.prep.Rows, Positives: c.prep.Pos, MissingCells: c.prep.Missing}}
	m, err := engine.Assemble(ctx, fitted, valid, &aer.Settings{Env: aer.Env{Seed: f.S.Seed}})
	if err != nil {
		return err
	}
	if err := writeModel(ctx, m, f.Out); err != nil {
		return fmt.Errorf("aer-beam: %s: %w", f.Out, err)
	}
	f.rows.Inc(ctx, int64(c.prep.Rows))
	f.valid.Inc(ctx, int64(valid.Rows()))
	f.members.Inc(ctx, int64(len(learned.Members())))
	progress.End(stageAssemble)
	emit(f.Out)
	return nil
}

func loadMember(mo memberOut) (adaptive.Member, error) {
	method, err := learn.New(mo.Method)
	if err != nil {
		return adaptive.Member{}, err
	}
	m, err := method.Load(mo.Payload)
	if err != nil {
		return adaptive.Member{}, fmt.Errorf("aer-beam: member %s: %w", mo.Name, err)
	}
	return adaptive.Member{Method: mo.Method, Model: m, Name: mo.Name}, nil
}

// writeModel writes m to out: a local path atomically (a temporary file
// renamed), any other through Beam's file systems.
func writeModel(ctx context.Context, m *aer.Model, out string) error {
	if !strings.Contains(out, "://") {
		return m.Save(ctx, out)
	}
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err != nil {
		return err
	}
	fs, err := filesystem.New(ctx, out)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, out)
	if err != nil {
		return err
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

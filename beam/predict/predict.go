package predict

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/beam/internal/progress"
)

func init() {
	register.DoFn3x1[context.Context, fileio.ReadableFile, func([]byte), error](&scoreFn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(string), error](&manifestFn{})
	register.Function1x2[[]byte, int, []byte](keyOne)
	register.Emitter1[[]byte]()
	register.Emitter1[string]()
	register.Iter1[[]byte]()
}

// Options say what Pipeline scores and where it writes.
type Options struct {
	// Model is the model file's path (any file system Beam reaches).
	Model string
	// Data is the pattern of the data files (fileio.MatchFiles).
	Data string
	// Out is the folder the shards and the manifest are written into.
	Out string
	// ID names the data's id column (the model's by default).
	ID string
	// Shards maps every file Data matches, as Beam's file system lists
	// it, to its shard's file name in Out (ShardNames); a file the
	// pattern matches that it lacks fails the run.
	Shards map[string]string
	// Token tells this run's temporary files from another's (NewToken).
	Token string
}

// NewToken returns a token for Options.Token, different for every run.
func NewToken() string { return fmt.Sprintf("%d-%x", os.Getpid(), time.Now().UnixNano()) }

// ManifestName is the manifest's file name in the output folder.
const ManifestName = "manifest.json"

// Shard is one input file's entry in the manifest.
type Shard struct {
	// Input is the scored file's path, as the pattern matched it.
	Input string `json:"input"`
	// Output is its shard's path, in the output folder.
	Output string `json:"output"`
	// Rows and Positive count the rows scored and those predicted
	// positive.
	Rows     int64 `json:"rows"`
	Positive int64 `json:"positive"`
}

// Manifest lists a run's shards, in the inputs' sorted order, with the
// totals; Commit writes it as OUT/manifest.json.
type Manifest struct {
	Model    string  `json:"model"`
	Data     string  `json:"data"`
	Out      string  `json:"out"`
	Files    int     `json:"files"`
	Rows     int64   `json:"rows"`
	Positive int64   `json:"positive"`
	Shards   []Shard `json:"shards"`
}

// Metrics namespace and counters of a run.
const (
	Namespace   = "aer"
	RowsCounter = "rows"
	PosCounter  = "positive"
	FileCounter = "files"
)

// The stages Pipeline reports through package progress.
const (
	stageModel  = "loading the model"
	stageCommit = "writing the manifest and renaming the shards"
)

func stageScore(n int) string { return fmt.Sprintf("reading, scoring and writing %d files", n) }

// Pipeline adds to s the scoring of o.Data's files with o.Model, each
// into a temporary file in o.Out, and the manifest's temporary file;
// Commit, once the pipeline has run, renames them into place (Abort
// removes them after a failure). The returned collection holds the
// temporary manifest's path.
func Pipeline(s beam.Scope, o Options) beam.PCollection {
	s = s.Scope("aer.predict")
	files := fileio.MatchFiles(s, o.Data, fileio.MatchEmptyDisallow())
	// Uncompressed: aer tells gzip and Parquet by their first bytes.
	readable := fileio.ReadMatches(s, files, fileio.ReadUncompressed())
	scored := beam.ParDo(s, &scoreFn{Model: o.Model, Out: o.Out, ID: o.ID, Shards: o.Shards, Token: o.Token}, readable)
	grouped := beam.GroupByKey(s, beam.ParDo(s, keyOne, scored))
	return beam.ParDo(s.Scope("manifest"), &manifestFn{O: o}, grouped)
}

func keyOne(b []byte) (int, []byte) { return 0, b }

// tempPath is where a run writes file name of folder out before Commit
// renames it: a hidden name in the same folder.
func tempPath(out, name, token string) string { return join(out, "."+name+"."+token+".tmp") }

// scoreFn scores one file into its shard's temporary file and emits its
// manifest entry.
type scoreFn struct {
	Model, Out, ID string
	Shards         map[string]string
	Token          string

	model *aer.Model
	rows  beam.Counter
	pos   beam.Counter
	files beam.Counter
}

// Setup reads the model file once per worker.
func (f *scoreFn) Setup(ctx context.Context) error {
	progress.Begin(stageModel)
	b, err := readAll(ctx, f.Model)
	if err != nil {
		return fmt.Errorf("aer-beam: model %s: %w", f.Model, err)
	}
	if f.model, err = aer.ReadModel(bytes.NewReader(b), path.Base(f.Model)); err != nil {
		return fmt.Errorf("aer-beam: %w", err)
	}
	f.rows = beam.NewCounter(Namespace, RowsCounter)
	f.pos = beam.NewCounter(Namespace, PosCounter)
	f.files = beam.NewCounter(Namespace, FileCounter)
	return nil
}

// ProcessElement scores file into its shard's temporary file and emits
// its manifest entry (JSON).
func (f *scoreFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emit func([]byte)) error {
	progress.Begin(stageScore(len(f.Shards)))
	in := file.Metadata.Path
	name, ok := f.Shards[in]
	if !ok {
		return fmt.Errorf("aer-beam: %s: matched by the pattern but not listed before the run (a file added since?)", in)
	}
	r, err := file.Open(ctx)
	if err != nil {
		return fmt.Errorf("aer-beam: %s: %w", in, err)
	}
	defer r.Close()
	tmp := tempPath(f.Out, name, f.Token)
	fs, err := filesystem.New(ctx, tmp)
	if err != nil {
		return fmt.Errorf("aer-beam: %s: %w", tmp, err)
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, tmp)
	if err != nil {
		return fmt.Errorf("aer-beam: %s: %w", tmp, err)
	}
	sum, err := f.model.PredictStream(ctx, r, path.Base(in), w, &aer.StreamOptions{ID: f.ID})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if rm, ok := fs.(filesystem.Remover); ok {
			rm.Remove(ctx, tmp)
		}
		return fmt.Errorf("aer-beam: %s: %w", in, err)
	}
	f.rows.Inc(ctx, int64(sum.Rows))
	f.pos.Inc(ctx, int64(sum.Positive))
	f.files.Inc(ctx, 1)
	b, err := json.Marshal(Shard{Input: in, Output: join(f.Out, name), Rows: int64(sum.Rows), Positive: int64(sum.Positive)})
	if err != nil {
		return err
	}
	emit(b)
	return nil
}

// manifestFn gathers the entries on one worker and writes the manifest's
// temporary file.
type manifestFn struct{ O Options }

func (f *manifestFn) ProcessElement(ctx context.Context, _ int, it func(*[]byte) bool, emit func(string)) error {
	progress.Begin(stageCommit)
	m := Manifest{Model: f.O.Model, Data: f.O.Data, Out: f.O.Out}
	var b []byte
	for it(&b) {
		var s Shard
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		m.Shards = append(m.Shards, s)
	}
	// Sorted, and one entry per input however often a runner retried it.
	slices.SortFunc(m.Shards, func(a, b Shard) int { return strings.Compare(a.Input, b.Input) })
	m.Shards = slices.CompactFunc(m.Shards, func(a, b Shard) bool { return a.Input == b.Input })
	for _, s := range m.Shards {
		m.Files++
		m.Rows += s.Rows
		m.Positive += s.Positive
	}
	doc, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmp := tempPath(f.O.Out, ManifestName, f.O.Token)
	fs, err := filesystem.New(ctx, tmp)
	if err != nil {
		return err
	}
	defer fs.Close()
	if err := filesystem.Write(ctx, fs, tmp, append(doc, '\n')); err != nil {
		return fmt.Errorf("aer-beam: %s: %w", tmp, err)
	}
	emit(tmp)
	return nil
}

// Commit, after the pipeline of o ran, renames every shard and then the
// manifest from their temporary names into place, and returns the
// manifest. Every file listed in o.Shards must have been scored; until
// the renames, no output file has been touched.
func Commit(ctx context.Context, o Options) (*Manifest, error) {
	progress.Begin(stageCommit)
	tmp := tempPath(o.Out, ManifestName, o.Token)
	fs, err := filesystem.New(ctx, tmp)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	b, err := filesystem.Read(ctx, fs, tmp)
	if err != nil {
		return nil, fmt.Errorf("the run's manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("the run's manifest %s: %w", tmp, err)
	}
	scored := map[string]bool{}
	for _, s := range m.Shards {
		scored[s.Input] = true
	}
	for in := range o.Shards {
		if !scored[in] {
			return nil, fmt.Errorf("%s was listed but not scored (removed since?)", in)
		}
	}
	for _, s := range m.Shards {
		name := o.Shards[s.Input]
		if err := filesystem.Rename(ctx, fs, tempPath(o.Out, name, o.Token), join(o.Out, name)); err != nil {
			return nil, fmt.Errorf("%s: %w", join(o.Out, name), err)
		}
	}
	if err := filesystem.Rename(ctx, fs, tmp, join(o.Out, ManifestName)); err != nil {
		return nil, fmt.Errorf("%s: %w", join(o.Out, ManifestName), err)
	}
	return &m, nil
}

// Abort removes the temporary files a failed run of o may have left in
// o.Out (those a file system can remove), best effort.
func Abort(ctx context.Context, o Options) error {
	names := []string{ManifestName}
	for _, n := range o.Shards {
		names = append(names, n)
	}
	var errs []error
	for _, n := range names {
		tmp := tempPath(o.Out, n, o.Token)
		fs, err := filesystem.New(ctx, tmp)
		if err != nil {
			return err
		}
		rm, ok := fs.(filesystem.Remover)
		if ok {
			if _, err := fs.Size(ctx, tmp); err == nil {
				errs = append(errs, rm.Remove(ctx, tmp))
			}
		}
		fs.Close()
	}
	return errors.Join(errs...)
}

// readAll reads a file through Beam's file systems.
func readAll(ctx context.Context, p string) ([]byte, error) {
	fs, err := filesystem.New(ctx, p)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, p)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

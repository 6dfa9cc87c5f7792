package predict

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"path"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/aer-go/aer"
)

func init() {
	register.DoFn3x1[context.Context, fileio.ReadableFile, func(string), error](&scoreFn{})
	register.Emitter1[string]()
}

// Options say what Pipeline scores and where it writes.
type Options struct {
	// Model is the model file's path (any file system Beam reaches).
	Model string
	// Data is the pattern of the data files (fileio.MatchFiles).
	Data string
	// Out is the prefix of the output shards: PREFIX-HASH.csv.
	Out string
	// ID names the data's id column (the model's by default).
	ID string
}

// Metrics namespace and counters of a run.
const (
	Namespace   = "aer"
	RowsCounter = "rows"
	PosCounter  = "positive"
	FileCounter = "files"
)

// Pipeline adds to s the scoring of o.Data's files with o.Model; the
// returned collection holds the output shards' paths.
func Pipeline(s beam.Scope, o Options) beam.PCollection {
	s = s.Scope("aer.predict")
	files := fileio.MatchFiles(s, o.Data, fileio.MatchEmptyDisallow())
	// Uncompressed: aer tells gzip and Parquet by their first bytes.
	readable := fileio.ReadMatches(s, files, fileio.ReadUncompressed())
	return beam.ParDo(s, &scoreFn{Model: o.Model, Out: o.Out, ID: o.ID}, readable)
}

// Shard is the output shard of the input file at path: PREFIX-HASH.csv,
// HASH the FNV-1a hash of the path in 16 hexadecimal digits.
func Shard(prefix, path string) string {
	h := fnv.New64a()
	io.WriteString(h, path)
	return fmt.Sprintf("%s-%016x.csv", prefix, h.Sum64())
}

// scoreFn scores one file into its shard.
type scoreFn struct {
	Model, Out, ID string

	model *aer.Model
	rows  beam.Counter
	pos   beam.Counter
	files beam.Counter
}

// Setup reads the model file once per worker.
func (f *scoreFn) Setup(ctx context.Context) error {
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

// ProcessElement scores file into its shard and emits the shard's path.
func (f *scoreFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emit func(string)) error {
	in := file.Metadata.Path
	r, err := file.Open(ctx)
	if err != nil {
		return fmt.Errorf("aer-beam: %s: %w", in, err)
	}
	defer r.Close()
	out := Shard(f.Out, in)
	fs, err := filesystem.New(ctx, out)
	if err != nil {
		return fmt.Errorf("aer-beam: %s: %w", out, err)
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, out)
	if err != nil {
		return fmt.Errorf("aer-beam: %s: %w", out, err)
	}
	sum, err := f.model.PredictStream(ctx, r, path.Base(in), w, &aer.StreamOptions{ID: f.ID})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("aer-beam: %s: %w", in, err)
	}
	f.rows.Inc(ctx, int64(sum.Rows))
	f.pos.Inc(ctx, int64(sum.Positive))
	f.files.Inc(ctx, 1)
	emit(out)
	return nil
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

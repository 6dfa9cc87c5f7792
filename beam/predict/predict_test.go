package predict

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/synth"
)

// TestPipeline scores three files (one gzip-compressed) on the Prism
// runner in-process: one shard per file, each byte-identical to what aer
// predict (aer.Model.PredictStream) writes for that file.
func TestPipeline(t *testing.T) {
	dir := t.TempDir()
	g, err := synth.Generate(&synth.Settings{Samples: 900, Features: 6, Informative: 3, Ratio: 5}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var csv bytes.Buffer
	if err := dataset.WriteCSV(&csv, g.Dataset("d")); err != nil {
		t.Fatal(err)
	}
	train := filepath.Join(dir, "train.csv")
	if err := os.WriteFile(train, csv.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	tbl, err := aer.ReadTable(train, nil)
	if err != nil {
		t.Fatal(err)
	}
	gbdt, err := aer.Method("gbdt")
	if err != nil {
		t.Fatal(err)
	}
	m, err := aer.Fit(context.Background(), tbl, nil, nil, gbdt)
	if err != nil {
		t.Fatal(err)
	}
	modelPath := filepath.Join(dir, "m.aer")
	if err := m.Save(context.Background(), modelPath); err != nil {
		t.Fatal(err)
	}
	// Three input files: the header and a third of the rows each.
	lines := bytes.SplitAfter(csv.Bytes(), []byte("\n"))
	head, rows := lines[0], lines[1:len(lines)-1]
	var inputs []string
	for k := range 3 {
		var b bytes.Buffer
		b.Write(head)
		for _, l := range rows[k*len(rows)/3 : (k+1)*len(rows)/3] {
			b.Write(l)
		}
		p := filepath.Join(dir, "in", "part-"+string(rune('a'+k))+".csv")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, p)
	}
	out := filepath.Join(dir, "out", "scores")
	os.MkdirAll(filepath.Dir(out), 0o755)
	p, s := beam.NewPipelineWithRoot()
	Pipeline(s, Options{Model: modelPath, Data: filepath.Join(dir, "in", "*.csv"), Out: out})
	if _, err := prism.Execute(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	shards, _ := filepath.Glob(out + "-*.csv")
	sort.Strings(shards)
	if len(shards) != 3 {
		t.Fatalf("shards %v", shards)
	}
	for _, in := range inputs {
		got, err := os.ReadFile(Shard(out, in))
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(in)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		_, err = m.PredictStream(context.Background(), f, filepath.Base(in), &want, nil)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s: the shard differs from aer predict's output", filepath.Base(in))
		}
	}
}

func TestMain(m *testing.M) {
	beam.Init()
	os.Exit(m.Run())
}

package predict

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/synth"
)

// TestPipeline scores three files on the Prism runner in-process: one
// shard per file, named after it, in place only after Commit, each
// byte-identical to what aer predict (aer.Model.PredictStream) writes
// for that file, its rows in the manifest; and a run that fails on a
// fourth file leaves nothing once aborted.
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
	out := filepath.Join(dir, "out")
	o := Options{Model: modelPath, Data: filepath.Join(dir, "in", "*.csv"), Out: out, Shards: ShardNames(inputs), Token: NewToken()}
	p, s := beam.NewPipelineWithRoot()
	Pipeline(s, o)
	if _, err := prism.Execute(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	// Nothing in place before Commit: temporary files only.
	if shards, _ := filepath.Glob(filepath.Join(out, "*.pred.csv")); len(shards) != 0 {
		t.Fatalf("shards in place before Commit: %v", shards)
	}
	man, err := Commit(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(out)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	if want := []string{"manifest.json", "part-a.pred.csv", "part-b.pred.csv", "part-c.pred.csv"}; !slices.Equal(names, want) {
		t.Fatalf("output folder %v, want %v", names, want)
	}
	var onDisk Manifest
	if b, err := os.ReadFile(filepath.Join(out, ManifestName)); err != nil || json.Unmarshal(b, &onDisk) != nil || !reflect.DeepEqual(&onDisk, man) {
		t.Errorf("manifest.json %v differs from Commit's %+v", err, man)
	}
	if man.Files != 3 || man.Rows != int64(len(rows)) || len(man.Shards) != 3 {
		t.Errorf("manifest %+v, want 3 files, %d rows", man, len(rows))
	}
	for k, in := range inputs {
		sh := man.Shards[k]
		if sh.Input != in || sh.Output != filepath.Join(out, "part-"+string(rune('a'+k))+".pred.csv") {
			t.Errorf("entry %d: %+v for %s", k, sh, in)
		}
		got, err := os.ReadFile(sh.Output)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(in)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		sum, err := m.PredictStream(context.Background(), f, filepath.Base(in), &want, nil)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) || sh.Rows != int64(sum.Rows) || sh.Positive != int64(sum.Positive) {
			t.Errorf("%s: the shard or its counts (%+v) differ from aer predict's output", filepath.Base(in), sh)
		}
	}

	// A file that cannot be scored fails the run; Abort leaves the
	// folder as it was: no shard, no temporary file.
	bad := filepath.Join(dir, "in", "part-d.csv")
	if err := os.WriteFile(bad, []byte("nosuch,columns\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out2 := filepath.Join(dir, "out2")
	o = Options{Model: modelPath, Data: filepath.Join(dir, "in", "*.csv"), Out: out2, Shards: ShardNames(append(inputs, bad)), Token: NewToken()}
	p, s = beam.NewPipelineWithRoot()
	Pipeline(s, o)
	if _, err := prism.Execute(context.Background(), p); err == nil {
		t.Fatal("a file without the model's columns scored")
	}
	if err := Abort(context.Background(), o); err != nil {
		t.Error(err)
	}
	if left, _ := filepath.Glob(filepath.Join(out2, "*")); len(left) != 0 {
		t.Errorf("a failed run left %v", left)
	}
	if left, _ := filepath.Glob(filepath.Join(out2, ".*")); len(left) != 0 {
		t.Errorf("a failed run left %v", left)
	}
}

func TestMain(m *testing.M) {
	beam.Init()
	os.Exit(m.Run())
}

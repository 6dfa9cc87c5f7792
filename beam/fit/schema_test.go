package fit

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/aer-go/aer"
)

// writeParts writes a table with an id, a text column whose values
// differ between the files, a weight column and a label named "fraud"
// with values no/yes, in two training files and a validation file.
func writeParts(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "train"), 0o755)
	r := rand.New(rand.NewPCG(7, 7))
	file := func(name string, n int, cities []string) {
		var b strings.Builder
		b.WriteString("id,amount,hour,city,w,fraud\n")
		for i := range n {
			fraud := r.Float64() < 0.1
			amount := r.NormFloat64()
			if fraud {
				amount += 2
			}
			city := cities[r.IntN(len(cities))]
			label := "no"
			if fraud {
				label = "yes"
			}
			fmt.Fprintf(&b, "%s-%d,%.4f,%d,%s,%.1f,%s\n", name, i, amount, r.IntN(24), city, 1+float64(r.IntN(2)), label)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file("train/a.csv", 700, []string{"oslo", "rome"})
	file("train/b.csv", 700, []string{"rome", "lima"})
	file("valid.csv", 500, []string{"oslo", "rome", "lima"})
	return dir
}

// TestDistributedFitSchema checks the read options and the merged
// schema: categories are the union of the files' values, sorted; the id
// and weight columns are not features; the label values are kept, the
// rarer positive; and aer predict reads the model.
func TestDistributedFitSchema(t *testing.T) {
	dir := writeParts(t)
	out := filepath.Join(dir, "m.aer")
	spec := Spec{Seed: 1, Read: aer.ReadOptions{ID: "id", Weight: "w"}, Params: []string{"components=2", "n_estimators=10"}}
	p, s := beam.NewPipelineWithRoot()
	Pipeline(s, Options{Train: filepath.Join(dir, "train", "*.csv"), Valid: filepath.Join(dir, "valid.csv"), Out: out, Spec: spec})
	if _, err := prism.Execute(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	m, err := aer.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	sch := m.Schema()
	want := []string{"amount", "hour", "city=lima", "city=oslo", "city=rome"}
	if !slices.Equal(sch.Features, want) {
		t.Errorf("features %q, want %q", sch.Features, want)
	}
	if !slices.Equal(sch.Classes, []string{"no", "yes"}) || sch.Label != "fraud" || sch.ID != "id" || sch.Weight != "w" {
		t.Errorf("schema %+v", sch)
	}
	f, err := os.Open(filepath.Join(dir, "valid.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var pred bytes.Buffer
	sum, err := m.PredictStream(context.Background(), f, "valid.csv", &pred, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rows != 500 || !strings.HasPrefix(pred.String(), "id,") {
		t.Errorf("predicted %d rows, output starting %.40q", sum.Rows, pred.String())
	}
}

// TestMergeSchemas checks the merge's refusals and the positive class.
func TestMergeSchemas(t *testing.T) {
	a := schemaInfo{Path: "a", Raw: []string{"x", "label"}, Labels: map[string]int{"0": 90, "1": 10}}
	b := schemaInfo{Path: "b", Raw: []string{"x", "label"}, Labels: map[string]int{"0": 5, "1": 30}}
	m, err := mergeSchemas([]schemaInfo{b, a}, "")
	if err != nil {
		t.Fatal(err)
	}
	if m.Classes != [2]string{"0", "1"} {
		t.Errorf("classes %q: 40 ones against 95 zeros, want 1 positive", m.Classes)
	}
	if m, _ := mergeSchemas([]schemaInfo{a, b}, "0"); m == nil || m.Classes != [2]string{"1", "0"} {
		t.Errorf("--positive 0: %+v", m)
	}
	if _, err := mergeSchemas([]schemaInfo{a, b}, "2"); err == nil {
		t.Error("an unknown positive class was accepted")
	}
	c := schemaInfo{Path: "c", Raw: []string{"y", "label"}, Labels: map[string]int{"0": 1}}
	if _, err := mergeSchemas([]schemaInfo{a, c}, ""); err == nil || !strings.Contains(err.Error(), "same columns") {
		t.Errorf("different columns: %v", err)
	}
	d := schemaInfo{Path: "d", Raw: []string{"x", "label"}, Labels: map[string]int{"0": 1, "1": 1, "2": 1}}
	if _, err := mergeSchemas([]schemaInfo{a, d}, ""); err == nil {
		t.Error("three labels were accepted")
	}
}

// TestDistributedFitMemfs fits from files on a file system other than
// the local one (Beam's memfs) and writes the model there: the paths go
// through Beam's file systems, as gs:// and s3:// do.
func TestDistributedFitMemfs(t *testing.T) {
	dir := writeParts(t)
	for _, name := range []string{"train/a.csv", "train/b.csv", "valid.csv"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		memfs.Write("memfs://fit/"+name, b)
	}
	spec := Spec{Seed: 1, Read: aer.ReadOptions{ID: "id", Weight: "w"}, Params: []string{"components=2", "n_estimators=10"}}
	p, s := beam.NewPipelineWithRoot()
	Pipeline(s, Options{Train: "memfs://fit/train/*.csv", Valid: "memfs://fit/valid.csv", Out: "memfs://fit/m.aer", Spec: spec})
	if _, err := prism.Execute(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	fs, err := filesystem.New(ctx, "memfs://fit/m.aer")
	if err != nil {
		t.Fatal(err)
	}
	r, err := fs.OpenRead(ctx, "memfs://fit/m.aer")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	m, err := aer.ReadModel(r, "m.aer")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Schema().Classes, []string{"no", "yes"}) {
		t.Errorf("classes %q", m.Schema().Classes)
	}
}

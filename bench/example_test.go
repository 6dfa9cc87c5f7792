package bench_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/aer-go/aer/bench"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/atomicfile"
	"github.com/aer-go/aer/synth"
)

// Run benchmarks two methods of the registry on a synthetic task over
// three seeds, then again: the second bench finds every run done.
func ExampleRun() {
	dir, err := os.MkdirTemp("", "bench")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	d, err := synth.Generate(&synth.Settings{Samples: 400, Features: 6, Informative: 3, Ratio: 6}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	data := filepath.Join(dir, "task.csv")
	if err := atomicfile.Write(data, func(w io.Writer) error { return dataset.WriteCSV(w, d.Dataset("task")) }); err != nil {
		fmt.Println(err)
		return
	}
	specs, err := bench.ParseSpecs("logreg,tree:max_depth=3")
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg := bench.Config{Datasets: []string{data}, Seeds: []uint64{0, 1, 2}, Methods: specs, Out: filepath.Join(dir, "out")}
	for range 2 {
		sum, err := bench.Run(context.Background(), cfg)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%d runs: %d ran, %d skipped; %v ...\n", sum.Runs, sum.Ran, sum.Skipped, sum.Files[:5])
	}
	// Output:
	// 6 runs: 6 ran, 0 skipped; [runs.csv tests.csv report.md report.html figures/task_roc.svg] ...
	// 6 runs: 0 ran, 6 skipped; [runs.csv tests.csv report.md report.html figures/task_roc.svg] ...
}

func ExampleParseSpec() {
	s, err := bench.ParseSpec("gbdt:n_estimators=50:max_depth=3")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Name, s.Params)
	_, err = bench.ParseSpec("gbdt:depth=3")
	fmt.Println(err != nil)
	// Output:
	// gbdt [{n_estimators 50} {max_depth 3}]
	// true
}

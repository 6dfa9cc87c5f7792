package dataset

import (
	"os"
	"runtime"
	"testing"
)

// BenchmarkLoadCSV reads the CSV file $AER_BENCH_CSV (skipped when
// unset) as aer fit reads its training data, on -cpu workers: the
// reading speed on real data, file and page faults included.
func BenchmarkLoadCSV(b *testing.B) {
	path := os.Getenv("AER_BENCH_CSV")
	if path == "" {
		b.Skip("AER_BENCH_CSV names no file")
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	for b.Loop() {
		if _, err := Load(path, Options{Workers: runtime.GOMAXPROCS(0)}); err != nil {
			b.Fatal(err)
		}
	}
}

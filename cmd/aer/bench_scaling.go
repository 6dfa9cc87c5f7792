package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/aer-go/aer/bench"
)

// runBenchScaling is aer bench --scaling.
func runBenchScaling(ctx context.Context, sizes, methods, seeds, out string, threads int, hasDatasets, asJSON bool, stdout, stderr io.Writer) error {
	switch {
	case hasDatasets:
		return usageErrorf("bench: --scaling generates its data: drop --datasets")
	case out == "":
		return usageErrorf("bench: --out is required")
	case threads < 0:
		return usageErrorf("bench: --threads must be at least 0, not %d", threads)
	}
	n, err := parseSizes(sizes)
	if err != nil {
		return usageErrorf("bench: --scaling: %v", err)
	}
	seedList, err := bench.ParseSeeds(seeds)
	if err != nil {
		return usageErrorf("bench: --seeds: %v", err)
	}
	var specs []string
	if methods != "" {
		specs = strings.Split(methods, ",")
	}
	res, err := bench.Scaling(ctx, bench.ScalingConfig{
		Sizes: n, Methods: specs, Seed: seedList[0], Workers: threads, Out: out,
		Progress: func(method string, rows int) {
			fmt.Fprintf(stderr, "bench: scaling: %s on %d training rows\n", method, rows)
		},
	})
	if err != nil {
		if strings.Contains(err.Error(), "unknown method") {
			return usageErrorf("bench: --methods: %v", err)
		}
		return fmt.Errorf("bench: %w", err)
	}
	if asJSON {
		return writeJSON(stdout, res)
	}
	fmt.Fprintf(stdout, "%-24s %12s %10s %12s %12s %8s\n", "method", "train rows", "fit s", "peak heap MB", "estimate MB", "ROC-AUC")
	for _, r := range res.Rows {
		fmt.Fprintf(stdout, "%-24s %12d %10.2f %12.1f %12.1f %8.4f\n", r.Method, r.Rows, r.Seconds, float64(r.PeakBytes)/(1<<20), float64(r.EstimateBytes)/(1<<20), r.ROCAUC)
	}
	for _, s := range res.Slopes {
		fmt.Fprintf(stdout, "%s: log-log slope of fit time %.2f, of peak heap %.2f\n", s.Method, s.Time, s.Memory)
	}
	fmt.Fprintf(stdout, "wrote %s under %s\n", strings.Join(res.Files, ", "), out)
	return nil
}

// parseSizes reads a comma-separated list of row counts, each a whole
// number with an optional k (thousand) or M (million) suffix.
func parseSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		mult := 1.0
		switch {
		case strings.HasSuffix(f, "k") || strings.HasSuffix(f, "K"):
			mult, f = 1e3, f[:len(f)-1]
		case strings.HasSuffix(f, "M") || strings.HasSuffix(f, "m"):
			mult, f = 1e6, f[:len(f)-1]
		}
		v, err := strconv.ParseFloat(f, 64)
		n := v * mult
		if err != nil || n != math.Trunc(n) || n < 100 || n > 1e8 {
			return nil, fmt.Errorf("%q: want row counts from 100 to 100M, such as 10k,100k,1M", strings.TrimSpace(f))
		}
		out = append(out, int(n))
	}
	return out, nil
}

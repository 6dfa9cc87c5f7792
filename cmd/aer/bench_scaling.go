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

// scalingArgs are the flags of aer bench --scaling.
type scalingArgs struct {
	sizes, methods, seeds, out, threadList string
	threads                                int
	hasDatasets, asJSON                    bool
}

// runBenchScaling is aer bench --scaling.
func runBenchScaling(ctx context.Context, a scalingArgs, stdout, stderr io.Writer) error {
	switch {
	case a.hasDatasets:
		return usageErrorf("bench: --scaling generates its data: drop --datasets")
	case a.out == "":
		return usageErrorf("bench: --out is required")
	case a.threads < 0:
		return usageErrorf("bench: --threads must be at least 0, not %d", a.threads)
	}
	n, err := parseSizes(a.sizes)
	if err != nil {
		return usageErrorf("bench: --scaling: %v", err)
	}
	seedList, err := bench.ParseSeeds(a.seeds)
	if err != nil {
		return usageErrorf("bench: --seeds: %v", err)
	}
	var threads []int
	if a.threadList != "" {
		for _, f := range strings.Split(a.threadList, ",") {
			t, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || t < 1 || t > 4096 {
				return usageErrorf("bench: --scaling-threads: %q: want thread counts from 1 to 4096, such as 1,2,4,8,16", f)
			}
			threads = append(threads, t)
		}
	}
	var specs []string
	if a.methods != "" {
		specs = strings.Split(a.methods, ",")
	}
	res, err := bench.Scaling(ctx, bench.ScalingConfig{
		Sizes: n, Methods: specs, Seed: seedList[0], Workers: a.threads, Threads: threads, Out: a.out,
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
	if a.asJSON {
		return writeJSON(stdout, res)
	}
	fmt.Fprintf(stdout, "%-24s %12s %8s %10s %8s %12s %12s %8s\n", "method", "train rows", "threads", "fit s", "speedup", "peak heap MB", "estimate MB", "ROC-AUC")
	for _, r := range res.Rows {
		fmt.Fprintf(stdout, "%-24s %12d %8d %10.2f %8.2f %12.1f %12.1f %8.4f\n", r.Method, r.Rows, r.Threads, r.Seconds, r.Speedup, float64(r.PeakBytes)/(1<<20), float64(r.EstimateBytes)/(1<<20), r.ROCAUC)
	}
	for _, s := range res.Slopes {
		fmt.Fprintf(stdout, "%s, threads %d: log-log slope of fit time %.2f, of peak heap %.2f\n", s.Method, s.Threads, s.Time, s.Memory)
	}
	fmt.Fprintf(stdout, "wrote %s under %s\n", strings.Join(res.Files, ", "), a.out)
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

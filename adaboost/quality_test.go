package adaboost_test

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/aer-go/aer/adaboost"
	"github.com/aer-go/aer/internal/anchortest"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
)

var (
	quality        = flag.String("quality", "", "TestQuality: comma-separated shared datasets, or all")
	qualityWorkers = flag.Int("quality-workers", 1, "TestQuality: workers of each fit (the anchors ran on one core)")
	qualityFits    = flag.Int("quality-fits", 1, "TestQuality: fits of each split with other seeds, to average out the methods' own randomness")
)

// TestQuality compares rusboost and easy-ensemble with their defaults
// with the Python anchors RUSBoost and EasyEnsemble (imbalanced-learn
// 0.10) on the anchors' splits, seeds 0-4: go test -run TestQuality
// -quality all. With -quality-fits n, each split is also fitted with n-1
// other seeds and the means are over all fits.
func TestQuality(t *testing.T) {
	if *quality == "" {
		t.Skip("run with -quality all (or a list of shared datasets)")
	}
	names := anchortest.Datasets
	if *quality != "all" {
		names = strings.Split(*quality, ",")
	}
	env := learn.Env{Workers: *qualityWorkers}
	for _, c := range []struct {
		m      learn.Method
		anchor string
	}{{adaboost.NewEasyEnsemble(), "EasyEnsemble"}, {adaboost.NewRUSBoost(), "RUSBoost"}} {
		if *qualityFits > 1 {
			manyFits(t, c.m, c.anchor, names, env)
			continue
		}
		dBA, dAUC := anchortest.Table(t, os.Stdout, c.m, c.anchor, names, 5, env)
		// Other random draws: single datasets move by a few points either
		// way (RUSBoost's by up to 0.05: its stumps see few rows); the mean
		// over datasets must not be much worse.
		if dBA < -0.025 || dAUC < -0.01 {
			t.Errorf("%s: mean balanced accuracy %+.4f, AUC %+.4f against the anchors'", c.m.Name(), dBA, dAUC)
		}
	}
}

// manyFits prints the means over -quality-fits fits of each of the
// anchors' splits, with their standard errors, beside the anchors'.
func manyFits(t *testing.T, m learn.Method, anchor string, names []string, env learn.Env) {
	ref := anchortest.Anchors(t, anchor)
	fmt.Printf("\n%s (aer, %d fits of each split) vs %s (Python, one fit)\n", m.Name(), *qualityFits, anchor)
	fmt.Printf("| dataset | BA aer (sem) | BA Python | AUC aer (sem) | AUC Python |\n|---|---|---|---|---|\n")
	for _, name := range names {
		var ba, auc []float64
		for f := range *qualityFits {
			r := anchortest.Run(t, reseeded{m, uint64(f)}, name, 5, env)
			ba, auc = append(ba, r.BA), append(auc, r.AUC)
		}
		a := ref[name]
		mb, sb := meanSEM(ba)
		ma, sa := meanSEM(auc)
		fmt.Printf("| %s | %.3f (%.3f) | %.3f | %.3f (%.3f) | %.3f |\n", name, mb, sb, a.BA, ma, sa, a.AUC)
	}
}

// meanSEM returns the mean of v and its standard error.
func meanSEM(v []float64) (mean, sem float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		sem += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sem / float64(len(v)-1) / float64(len(v)))
}

// reseeded fits its method with seeds derived from the Env's: fit 0 is
// the method itself.
type reseeded struct {
	learn.Method
	fit uint64
}

func (r reseeded) Fit(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Scorer, error) {
	if r.fit > 0 {
		env.Seed = rng.DeriveSeed(env.Seed, r.fit)
	}
	return r.Method.Fit(ctx, train, valid, env)
}

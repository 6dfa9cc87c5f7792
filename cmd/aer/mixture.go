package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/mixture"
)

func init() {
	register(&command{
		name:    "mixture",
		summary: "fit Gaussian mixtures to one class for a pool of L and choose L by BIC",
		usage: `usage: aer mixture --data FILE.csv [--class majority|minority|all] [--standardize=true]
                   [--components 2-8] [--covariance auto|full|diag|tied|spherical] [--n-init 5]
                   [--seed 0] [--params] [--save MODEL.json] [--json]

The defaults are those of AER's own mixture stage: missing values imputed
with the column means of every row of the file, features standardised
(mean 0, variance 1) over every row of the file, both classes, as AER
standardises its training rows; covariance auto (full up to 32 features,
else diag); L from 2 to 8 by BIC, each with 5 EM restarts; and an L kept
only when the modelled rows give each component enough rows to stand on
(d+1 with full or tied covariances, else 2). A warning goes to stderr
(and under "warnings" in --json) when BIC picks the smallest or largest L
of the pool (the best L may lie outside it) and when a component of the
chosen mixture collapsed (less than one row's worth of weight, or a
variance at the covariance ridge).`,
		run: runMixture,
	})
}

type mixtureReport struct {
	File         string              `json:"file"`
	Class        string              `json:"class"`
	Rows         int                 `json:"rows"`
	Features     int                 `json:"features"`
	Standardized bool                `json:"standardized"`
	Covariance   string              `json:"covariance"`
	NInit        int                 `json:"n_init"`
	Seed         uint64              `json:"seed"`
	Candidates   []mixture.Candidate `json:"candidates"`
	Chosen       int                 `json:"chosen_components"`
	// SampleRows is the subsample the candidates were fitted on (0: all
	// rows); the chosen L was then refitted on all rows, with this mean
	// log-likelihood.
	SampleRows       int            `json:"sample_rows,omitempty"`
	ChosenMeanLogLik float64        `json:"chosen_mean_loglik,omitempty"`
	Criterion        string         `json:"criterion"`
	Timing           mixtureTiming  `json:"timing"`
	Notes            []string       `json:"notes,omitempty"`
	ImputedCells     int            `json:"imputed_cells,omitempty"`
	Warnings         []string       `json:"warnings,omitempty"`
	Unlabelled       bool           `json:"unlabelled,omitempty"`
	Params           *mixtureParams `json:"params,omitempty"`
}

type mixtureTiming struct {
	FitSeconds       float64 `json:"fit_seconds"`
	EMIterations     int     `json:"em_iterations"`
	IterationsPerSec float64 `json:"em_iterations_per_second"`
}

// mixtureParams shows the chosen model with covariances in their natural
// shapes: full d x d per component, diag d per component, tied one d x d,
// spherical one number per component.
type mixtureParams struct {
	Weights     []float64   `json:"weights"`
	Means       [][]float64 `json:"means"`
	Covariances any         `json:"covariances"`
}

func runMixture(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["mixture"]
	fs := newFlagSet(c, stderr)
	var df dataFlags
	df.register(fs)
	data := fs.String("data", "", "CSV file (required); labelled unless --class all")
	class := fs.String("class", "majority", "rows to model: majority (label 0), minority (label 1) or all\n"+
		"(all: the label column, a column named label or given by --label, is optional\n"+
		"and may hold one class; without one every column but split is a feature)")
	standardize := fs.Bool("standardize", true, "standardise features (mean 0, variance 1 over every row of the file, as AER does) first; --standardize=false fits the raw values")
	comps := fs.String("components", "2-8", `numbers of components L to try: "3", "2-8" or "2,4,6"`)
	covName := fs.String("covariance", "auto", "covariance type: auto (full up to 32 features, else diag), full, diag, tied or spherical")
	nInit := fs.Int("n-init", 5, "EM restarts per L; the best log-likelihood is kept")
	selectRows := fs.Int("select-rows", mixture.DefaultSelectRows, "with more rows, compare the L on this many rows drawn at random\n"+
		"and refit only the chosen L on all rows (-1: always all rows)")
	maxIter := fs.Int("max-iter", mixture.DefaultMaxIter, "EM iterations per restart at most")
	tol := fs.Float64("tol", mixture.DefaultTol, "stop when the mean log-likelihood changes by less than this (0: always run --max-iter iterations)")
	reg := fs.Float64("reg-covar", mixture.DefaultRegCovar, "ridge added to covariance diagonals (0: none)")
	initName := fs.String("init", "kmeans", "initialisation: kmeans (k-means++ then k-means) or kmeans++ (seeds only)")
	seed := fs.Uint64("seed", 0, "random seed")
	workers := fs.Int("workers", 0, "worker goroutines (0: all cores)")
	params := fs.Bool("params", false, "also print the chosen model's weights, means and covariances")
	save := fs.String("save", "", "write the chosen model as JSON to this file")
	asJSON := fs.Bool("json", false, "print one JSON document")
	if rest, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return usageErrorf("mixture: unexpected argument %q (flags after it would be ignored)", rest[0])
	}
	if *data == "" {
		return usageErrorf("mixture: --data is required")
	}
	pool, err := parseComponents(*comps)
	if err != nil {
		return usageErrorf("mixture: --components: %v", err)
	}
	cov, err := mixture.ParseCovarianceType(*covName)
	if err != nil {
		return usageErrorf("mixture: --covariance: %v", err)
	}
	var init mixture.Init
	switch *initName {
	case "kmeans", "k-means":
		init = mixture.InitKMeans
	case "kmeans++", "k-means++":
		init = mixture.InitKMeansPP
	default:
		return usageErrorf("mixture: --init %q: want kmeans or kmeans++", *initName)
	}
	if *nInit < 1 || *maxIter < 1 {
		return usageErrorf("mixture: --n-init and --max-iter must be at least 1")
	}
	regCovar := *reg
	if regCovar == 0 {
		regCovar = -1 // the library's "no ridge"
	} else if !(regCovar >= 0) || math.IsInf(regCovar, 0) {
		return usageErrorf("mixture: --reg-covar must be a finite number, not negative, not %v", *reg)
	}
	if !(*tol >= 0) || math.IsInf(*tol, 0) {
		return usageErrorf("mixture: --tol must be a finite number, not negative, not %v", *tol)
	}
	if *workers < 0 {
		return usageErrorf("mixture: --workers must be 0 (all cores) or more, not %d", *workers)
	}

	switch *class {
	case "majority", "minority", "all":
	default:
		return usageErrorf("mixture: --class %q: want majority, minority or all", *class)
	}
	if err := refuseOverwrite("mixture", "--save", *save, input{"--data", *data}); err != nil {
		return err
	}
	d, err := loadMixtureData(*data, *class, df)
	if err != nil {
		if !strings.HasPrefix(err.Error(), "mixture: ") {
			err = fmt.Errorf("mixture: %w", err)
		}
		return err
	}
	if err := df.checkPositive(d, *data); err != nil {
		return usageErrorf("mixture: %v", err)
	}
	var rows []int
	for i := 0; i < d.Rows(); i++ {
		if *class == "all" || *class == "majority" && d.Y[i] == 0 || *class == "minority" && d.Y[i] == 1 {
			rows = append(rows, i)
		}
	}
	if len(rows) == 0 {
		return fmt.Errorf("mixture: %s has no %s rows", *data, *class)
	}
	// As AER prepares its training rows: every row of the file, of both
	// classes, gives the means that fill missing cells and the scale.
	all := mat.DenseCopyOf(d.X)
	imputed := dataset.Impute(all, dataset.ColumnMeans(all))
	if *standardize {
		sc := dataset.FitScaler(all)
		if err := sc.Check(d.Features); err != nil {
			return fmt.Errorf("mixture: %s: %w", *data, err)
		}
		sc.Transform(all)
	}
	x := mat.NewDense(len(rows), d.Cols(), nil)
	for r, i := range rows {
		x.SetRow(r, all.RawRowView(i))
	}
	var warnings []string
	if imputed > 0 {
		warnings = append(warnings, fmt.Sprintf("%d missing cells imputed with column means, as AER does", imputed))
	}
	// As AER does, keep the L that give every component enough rows.
	cov = cov.Resolve(d.Cols(), 0)
	perComponent := 2
	if cov == mixture.Full || cov == mixture.Tied {
		perComponent = d.Cols() + 1
	}
	var kept, dropped []string
	for _, l := range pool {
		if l*perComponent <= len(rows) {
			kept = append(kept, strconv.Itoa(l))
		} else {
			dropped = append(dropped, strconv.Itoa(l))
		}
	}
	if len(kept) == 0 {
		return fmt.Errorf("mixture: %s: %d %s rows are too few for any L in %s (%s covariance needs %d rows per component)",
			*data, len(rows), *class, *comps, cov, perComponent)
	}
	if len(dropped) > 0 {
		warnings = append(warnings, fmt.Sprintf("L = %s left out: %d rows are too few (%s covariance needs %d rows per component)",
			strings.Join(dropped, ","), len(rows), cov, perComponent))
	}
	pool = pool[:len(kept)] // pool is increasing: the kept L come first
	tolv := *tol
	if tolv == 0 {
		tolv = -1 // never stop early
	}
	settings := &mixture.Settings{Covariance: cov, NInit: *nInit, MaxIter: *maxIter, Tol: tolv,
		RegCovar: regCovar, Init: init, Seed: *seed, Workers: *workers, SelectRows: *selectRows}
	if *selectRows == 0 || *selectRows < -1 {
		return usageErrorf("mixture: --select-rows %d: want -1 (all rows) or a positive number of rows", *selectRows)
	}
	sel, err := mixture.Select(ctx, x, pool, settings)
	if err != nil {
		return err
	}
	rep := mixtureReport{File: *data, Class: *class, Rows: len(rows), Features: d.Cols(), Unlabelled: d.Y == nil,
		Standardized: *standardize, Covariance: sel.Result.Covariance.String(), NInit: *nInit, Seed: *seed,
		Candidates: sel.Candidates, Chosen: sel.Components, Criterion: "bic",
		SampleRows: sel.SampleRows,
		Timing:     mixtureTiming{FitSeconds: sel.Seconds, EMIterations: sel.Iterations}}
	if sel.SampleRows > 0 {
		rep.ChosenMeanLogLik = sel.Result.MeanLogLik
	}
	if sel.Seconds > 0 {
		rep.Timing.IterationsPerSec = float64(sel.Iterations) / sel.Seconds
	}
	for _, cand := range sel.Candidates {
		for _, n := range cand.Result.Notes {
			rep.Notes = append(rep.Notes, fmt.Sprintf("L=%d: %s", cand.Components, n))
		}
	}
	if len(pool) > 1 && sel.Components == pool[0] {
		warnings = append(warnings, fmt.Sprintf("BIC chose L = %d, the smallest of the pool: fewer components may fit as well (--components)", sel.Components))
	}
	if len(pool) > 1 && sel.Components == pool[len(pool)-1] {
		warnings = append(warnings, fmt.Sprintf("BIC chose L = %d, the largest of the pool: more components may fit better (--components)", sel.Components))
	}
	for _, c := range sel.Model.Collapsed(len(rows), regCovar) {
		warnings = append(warnings, fmt.Sprintf("component %d of the chosen mixture collapsed: %s", c.Component, c.Reason))
	}
	rep.Warnings, rep.ImputedCells = warnings, imputed
	for _, w := range warnings {
		fmt.Fprintf(stderr, "mixture: warning: %s\n", w)
	}
	if *params {
		rep.Params = shapeParams(sel.Model)
	}
	if *save != "" {
		if err := writeFileAtomic(ctx, *save, func(w io.Writer) error { return writeJSON(w, sel.Model) }); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	std := ""
	if rep.Unlabelled {
		std = " (no label column)"
	}
	if rep.Standardized {
		std += ", standardized"
	}
	fmt.Fprintf(stdout, "%s rows of %s: %d rows x %d features%s; covariance %s, %d restarts, seed %d\n",
		rep.Class, rep.File, rep.Rows, rep.Features, std, rep.Covariance, rep.NInit, rep.Seed)
	fmt.Fprintf(stdout, "%4s %8s %14s %14s %12s %6s %s\n", "L", "params", "BIC", "AIC", "mean loglik", "iter", "converged")
	for i, cand := range rep.Candidates {
		mark := ""
		if i == sel.Best {
			mark = "  <- smallest BIC"
		}
		fmt.Fprintf(stdout, "%4d %8d %14.4f %14.4f %12.6f %6d %v%s\n", cand.Components, cand.NParameters,
			cand.BIC, cand.AIC, cand.MeanLogLik, cand.Iterations, cand.Converged, mark)
	}
	if rep.SampleRows > 0 {
		fmt.Fprintf(stdout, "(candidates fitted on %d random rows; the chosen L refitted on all %d rows: mean loglik %.6f)\n",
			rep.SampleRows, rep.Rows, rep.ChosenMeanLogLik)
	}
	fmt.Fprintf(stdout, "chosen L = %d\n", rep.Chosen)
	for _, n := range rep.Notes {
		fmt.Fprintf(stdout, "note: %s\n", n)
	}
	if rep.Params != nil {
		fmt.Fprintf(stdout, "weights %v\n", rep.Params.Weights)
		for l, m := range rep.Params.Means {
			fmt.Fprintf(stdout, "mean %d %v\n", l, m)
		}
		fmt.Fprintf(stdout, "covariances %v\n", rep.Params.Covariances)
	}
	fmt.Fprintf(stdout, "fit %.3f s, %d EM iterations (%.0f per second)\n",
		rep.Timing.FitSeconds, rep.Timing.EMIterations, rep.Timing.IterationsPerSec)
	return nil
}

// loadMixtureData reads the file for --class. A mixture needs no labels,
// so for "all" the label column is optional (a column named "label", or the
// one --label names, which must then exist) and may hold a single class;
// without it every column but the split column is a feature. "majority"
// and "minority" need a two-class label column.
func loadMixtureData(path, class string, df dataFlags) (*dataset.Dataset, error) {
	opt := df.options()
	if class == "all" {
		opt.LabelOptional = df.label == ""
		opt.AllowOneClass = true
		return dataset.Load(path, opt)
	}
	d, err := dataset.Load(path, opt)
	if err == nil {
		return d, nil
	}
	if errors.Is(err, dataset.ErrOneClass) {
		return nil, fmt.Errorf("mixture: --class %s needs two classes (--class all models one): %w", class, err)
	}
	if df.label != "" {
		return nil, err
	}
	// Without --label the last column is taken as the label; if the file
	// has no column named "label", say that the data look unlabelled rather
	// than only that the last column is not a two-class label.
	if u, uerr := dataset.Load(path, dataset.Options{LabelOptional: true}); uerr == nil && u.Y == nil {
		return nil, fmt.Errorf("mixture: --class %s needs labels (name the label column with --label, "+
			"or use --class all for unlabelled data); %s has no column named \"label\" and its last column "+
			"is not a label: %w", class, path, err)
	}
	return nil, err
}

func shapeParams(m *mixture.Model) *mixtureParams {
	p := &mixtureParams{Weights: m.Weights, Means: m.Means}
	d := m.Dim()
	square := func(flat []float64) [][]float64 {
		out := make([][]float64, d)
		for i := range out {
			out[i] = flat[i*d : (i+1)*d]
		}
		return out
	}
	switch m.Covariance {
	case mixture.Full:
		c := make([][][]float64, len(m.Covariances))
		for l, f := range m.Covariances {
			c[l] = square(f)
		}
		p.Covariances = c
	case mixture.Tied:
		p.Covariances = square(m.Covariances[0])
	case mixture.Diag:
		p.Covariances = m.Covariances
	case mixture.Spherical:
		c := make([]float64, len(m.Covariances))
		for l, f := range m.Covariances {
			c[l] = f[0]
		}
		p.Covariances = c
	}
	return p
}

// parseComponents reads "3", "2-8", "2,4,6" or mixtures such as "2-4,8"
// into an increasing list without duplicates.
func parseComponents(s string) ([]int, error) {
	seen := map[int]bool{}
	var out []int
	add := func(v int) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil || a < 1 {
			return nil, fmt.Errorf("%q is not a positive number or range", part)
		}
		b := a
		if isRange {
			b, err = strconv.Atoi(strings.TrimSpace(hi))
			if err != nil || b < a {
				return nil, fmt.Errorf("%q is not a range like 2-8", part)
			}
		}
		if b-a > 1000 {
			return nil, errors.New("range too large")
		}
		for v := a; v <= b; v++ {
			add(v)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, nil
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/mixture"
)

func init() {
	register(&command{
		name:    "mixture",
		summary: "fit Gaussian mixtures to one class for a pool of L and choose L by BIC",
		usage: `usage: aer mixture --data FILE.csv [--class majority|minority|all] [--standardize=true]
                   [--components 2-8] [--covariance auto|full|diag|tied|spherical] [--family gaussian|t]
                   [--n-init 5] [--nu 0] [--seed 0] [--params] [--save MODEL.json] [--json]

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
variance at the covariance ridge).

--family t fits a mixture of multivariate t-distributions instead (heavy
tails: outlying rows pull the means and covariances less), each component
with its own degrees of freedom nu, estimated by ECM or fixed by --nu; the
BIC counts one more parameter per component when nu is estimated. The
report gives the family and the chosen model's nu per component.`,
		run: runMixture,
	})
}

type mixtureReport struct {
	File         string `json:"file"`
	Class        string `json:"class"`
	Rows         int    `json:"rows"`
	Features     int    `json:"features"`
	Standardized bool   `json:"standardized"`
	Covariance   string `json:"covariance"`
	// Family and Nu appear for --family t only (Gaussian reports are as before).
	Family     string              `json:"family,omitempty"`
	Nu         []float64           `json:"nu,omitempty"`
	NInit      int                 `json:"n_init"`
	Seed       uint64              `json:"seed"`
	Candidates []mixture.Candidate `json:"candidates"`
	Chosen     int                 `json:"chosen_components"`
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

// mixtureOptions are aer mixture's flags.
type mixtureOptions struct {
	df                                  dataFlags
	data, class, comps, save            string
	pool                                []int
	cov                                 mixture.CovarianceType
	family                              mixture.Family
	nu                                  float64
	init                                mixture.Init
	nInit, selectRows, maxIter, workers int
	tol, regCovar                       float64 // as the library takes them: -1 for none
	seed                                uint64
	standardize, params, asJSON         bool
}

// parseMixtureFlags reads and checks aer mixture's flags.
func parseMixtureFlags(args []string, stderr io.Writer) (*mixtureOptions, error) {
	fs := newFlagSet(commands["mixture"], stderr)
	var o mixtureOptions
	o.df.register(fs)
	fs.StringVar(&o.data, "data", "", "CSV file (required); labelled unless --class all")
	fs.StringVar(&o.class, "class", "majority", "rows to model: majority (label 0), minority (label 1) or all\n"+
		"(all: the label column, a column named label or given by --label, is optional\n"+
		"and may hold one class; without one every column but split is a feature)")
	fs.BoolVar(&o.standardize, "standardize", true, "standardise features (mean 0, variance 1 over every row of the file, as AER does) first; --standardize=false fits the raw values")
	fs.StringVar(&o.comps, "components", "2-8", `numbers of components L to try: "3", "2-8" or "2,4,6"`)
	covName := fs.String("covariance", "auto", "covariance type: auto (full up to 32 features, else diag), full, diag, tied or spherical")
	familyName := fs.String("family", "gaussian", "component distribution: gaussian or t (multivariate t, heavy tails)")
	fs.Float64Var(&o.nu, "nu", 0, "with --family t, fix every component's degrees of freedom (0: estimate them)")
	fs.IntVar(&o.nInit, "n-init", 5, "EM restarts per L; the best log-likelihood is kept")
	fs.IntVar(&o.selectRows, "select-rows", mixture.DefaultSelectRows, "with more rows, compare the L on this many rows drawn at random\n"+
		"and refit only the chosen L on all rows (-1: always all rows)")
	fs.IntVar(&o.maxIter, "max-iter", mixture.DefaultMaxIter, "EM iterations per restart at most")
	fs.Float64Var(&o.tol, "tol", mixture.DefaultTol, "stop when the mean log-likelihood changes by less than this (0: always run --max-iter iterations)")
	fs.Float64Var(&o.regCovar, "reg-covar", mixture.DefaultRegCovar, "ridge added to covariance diagonals (0: none)")
	initName := fs.String("init", "kmeans", "initialisation: kmeans (k-means++ then k-means) or kmeans++ (seeds only)")
	fs.Uint64Var(&o.seed, "seed", 0, "random seed")
	fs.IntVar(&o.workers, "workers", 0, "worker goroutines (0: all cores)")
	fs.BoolVar(&o.params, "params", false, "also print the chosen model's weights, means and covariances")
	fs.StringVar(&o.save, "save", "", "write the chosen model as JSON to this file")
	fs.BoolVar(&o.asJSON, "json", false, "print one JSON document")
	rest, err := parseFlags(fs, args)
	switch {
	case err != nil:
		return nil, err
	case len(rest) > 0:
		return nil, usageErrorf("mixture: unexpected argument %q (flags after it would be ignored)", rest[0])
	case o.data == "":
		return nil, usageErrorf("mixture: --data is required")
	}
	if o.pool, err = mixture.ParsePool(o.comps); err != nil {
		return nil, usageErrorf("mixture: --components: %v", err)
	}
	if o.cov, err = mixture.ParseCovarianceType(*covName); err != nil {
		return nil, usageErrorf("mixture: --covariance: %v", err)
	}
	if o.family, err = mixture.ParseFamily(*familyName); err != nil {
		return nil, usageErrorf("mixture: --family: %v", err)
	}
	if o.nu < 0 || math.IsNaN(o.nu) || math.IsInf(o.nu, 0) {
		return nil, usageErrorf("mixture: --nu %v: want a positive number, or 0 to estimate", o.nu)
	}
	if o.nu > 0 && o.family != mixture.T {
		return nil, usageErrorf("mixture: --nu applies to --family t only")
	}
	if o.init, err = mixture.ParseInit(*initName); err != nil {
		return nil, usageErrorf("mixture: --init %v", err)
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	return &o, refuseOverwrite("mixture", "--save", o.save, input{"--data", o.data})
}

// check refuses numbers out of range and turns 0 --reg-covar and --tol
// into the library's "none" (-1).
func (o *mixtureOptions) check() error {
	switch {
	case o.nInit < 1 || o.maxIter < 1:
		return usageErrorf("mixture: --n-init and --max-iter must be at least 1")
	case o.nInit > mixture.MaxNInit:
		return usageErrorf("mixture: --n-init %d: at most %d restarts", o.nInit, mixture.MaxNInit)
	case !(o.regCovar >= 0) || math.IsInf(o.regCovar, 0):
		return usageErrorf("mixture: --reg-covar must be a finite number, not negative, not %v", o.regCovar)
	case !(o.tol >= 0) || math.IsInf(o.tol, 0):
		return usageErrorf("mixture: --tol must be a finite number, not negative, not %v", o.tol)
	case o.workers < 0:
		return usageErrorf("mixture: --workers must be 0 (all cores) or more, not %d", o.workers)
	case o.class != "majority" && o.class != "minority" && o.class != "all":
		return usageErrorf("mixture: --class %q: want majority, minority or all", o.class)
	case o.selectRows == 0 || o.selectRows < -1:
		return usageErrorf("mixture: --select-rows %d: want -1 (all rows) or a positive number of rows", o.selectRows)
	}
	if o.regCovar == 0 {
		o.regCovar = -1 // the library's "no ridge"
	}
	if o.tol == 0 {
		o.tol = -1 // never stop early
	}
	return nil
}

func runMixture(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseMixtureFlags(args, stderr)
	if err != nil {
		return err
	}
	d, err := loadMixtureData(o.data, o.class, o.df)
	if err != nil {
		if !strings.HasPrefix(err.Error(), "mixture: ") {
			err = fmt.Errorf("mixture: %w", err)
		}
		return err
	}
	if err := o.df.checkPositive(d, o.data); err != nil {
		return usageErrorf("mixture: %v", err)
	}
	x, imputed, err := mixtureRows(d, o)
	if err != nil {
		return err
	}
	n, _ := x.Dims()
	var warnings []string
	if imputed > 0 {
		warnings = append(warnings, fmt.Sprintf("%d missing cells imputed with column means, as AER does", imputed))
	}
	// As AER does, keep the L that give every component enough rows.
	cov := o.cov.Resolve(d.Cols(), 0)
	pool, dropped := mixture.FeasiblePool(o.pool, cov, d.Cols(), n)
	if per := mixture.RowsPerComponent(cov, d.Cols()); len(pool) == 0 {
		return fmt.Errorf("mixture: %s: %d %s rows are too few for any L in %s (%s covariance needs %d rows per component)",
			o.data, n, o.class, o.comps, cov, per)
	} else if w := mixture.LeftOutWarning(dropped, n, d.Cols(), cov); w != "" {
		warnings = append(warnings, w)
	}
	sel, err := mixture.Select(ctx, x, pool, &mixture.Settings{Covariance: cov, NInit: o.nInit, MaxIter: o.maxIter, Tol: o.tol,
		RegCovar: o.regCovar, Init: o.init, Seed: o.seed, Workers: o.workers, SelectRows: o.selectRows,
		Family: o.family, Nu: o.nu})
	if err != nil {
		return err
	}
	rep := mixtureReportOf(o, d, sel, n, warnings)
	rep.ImputedCells = imputed
	for _, w := range rep.Warnings {
		fmt.Fprintf(stderr, "mixture: warning: %s\n", w)
	}
	if o.save != "" {
		if err := writeFileAtomic(ctx, o.save, func(w io.Writer) error { return writeJSON(w, sel.Model) }); err != nil {
			return err
		}
	}
	if o.asJSON {
		return writeJSON(stdout, rep)
	}
	writeMixtureText(stdout, rep, sel.Best)
	return nil
}

// mixtureRows returns the rows of d that --class picks, prepared as AER
// prepares its training rows: every row of the file, of both classes,
// gives the means that fill missing cells (their number is returned) and
// the scale.
func mixtureRows(d *dataset.Dataset, o *mixtureOptions) (*mat.Dense, int, error) {
	var rows []int
	for i := 0; i < d.Rows(); i++ {
		if o.class == "all" || o.class == "majority" && d.Y[i] == 0 || o.class == "minority" && d.Y[i] == 1 {
			rows = append(rows, i)
		}
	}
	if len(rows) == 0 {
		return nil, 0, fmt.Errorf("mixture: %s has no %s rows", o.data, o.class)
	}
	all := mat.DenseCopyOf(d.X)
	imputed := dataset.Impute(all, dataset.ColumnMeans(all))
	if o.standardize {
		sc := dataset.FitScaler(all)
		if err := sc.Check(d.Features); err != nil {
			return nil, 0, fmt.Errorf("mixture: %s: %w", o.data, err)
		}
		sc.Transform(all)
	}
	return learn.Rows(all, rows), imputed, nil
}

// mixtureReportOf is the report of a selection on n rows of d, with the
// selection's warnings (a chosen L at an end of the pool, collapsed
// components) added to warnings.
func mixtureReportOf(o *mixtureOptions, d *dataset.Dataset, sel *mixture.Selection, n int, warnings []string) *mixtureReport {
	rep := &mixtureReport{File: o.data, Class: o.class, Rows: n, Features: d.Cols(), Unlabelled: d.Y == nil,
		Standardized: o.standardize, Covariance: sel.Result.Covariance.String(), NInit: o.nInit, Seed: o.seed,
		Candidates: sel.Candidates, Chosen: sel.Components, Criterion: "bic",
		SampleRows: sel.SampleRows,
		Timing:     mixtureTiming{FitSeconds: sel.Seconds, EMIterations: sel.Iterations}}
	if sel.Model.Family == mixture.T {
		rep.Family, rep.Nu = sel.Model.Family.String(), sel.Model.Nu
	}
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
	warnings = append(warnings, sel.Warnings(o.regCovar)...)
	rep.Warnings = warnings
	if o.params {
		rep.Params = shapeParams(sel.Model)
	}
	return rep
}

// writeMixtureText writes the report as text; best indexes the chosen
// candidate.
func writeMixtureText(w io.Writer, rep *mixtureReport, best int) {
	std := ""
	if rep.Unlabelled {
		std = " (no label column)"
	}
	if rep.Standardized {
		std += ", standardized"
	}
	fmt.Fprintf(w, "%s rows of %s: %d rows x %d features%s; covariance %s, %d restarts, seed %d\n",
		rep.Class, rep.File, rep.Rows, rep.Features, std, rep.Covariance, rep.NInit, rep.Seed)
	fmt.Fprintf(w, "%4s %8s %14s %14s %12s %6s %s\n", "L", "params", "BIC", "AIC", "mean loglik", "iter", "converged")
	for i, cand := range rep.Candidates {
		mark := ""
		if i == best {
			mark = "  <- smallest BIC"
		}
		fmt.Fprintf(w, "%4d %8d %14.4f %14.4f %12.6f %6d %v%s\n", cand.Components, cand.NParameters,
			cand.BIC, cand.AIC, cand.MeanLogLik, cand.Iterations, cand.Converged, mark)
	}
	if rep.SampleRows > 0 {
		fmt.Fprintf(w, "(candidates fitted on %d random rows; the chosen L refitted on all %d rows: mean loglik %.6f)\n",
			rep.SampleRows, rep.Rows, rep.ChosenMeanLogLik)
	}
	fmt.Fprintf(w, "chosen L = %d\n", rep.Chosen)
	if rep.Family != "" {
		fmt.Fprintf(w, "family %s, degrees of freedom nu %.4g\n", rep.Family, rep.Nu)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if rep.Params != nil {
		fmt.Fprintf(w, "weights %v\n", rep.Params.Weights)
		for l, m := range rep.Params.Means {
			fmt.Fprintf(w, "mean %d %v\n", l, m)
		}
		fmt.Fprintf(w, "covariances %v\n", rep.Params.Covariances)
	}
	fmt.Fprintf(w, "fit %.3f s, %d EM iterations (%.0f per second)\n",
		rep.Timing.FitSeconds, rep.Timing.EMIterations, rep.Timing.IterationsPerSec)
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

package bench

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/atomicfile"
	"github.com/aer-go/aer/learn"
	aermetrics "github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/synth"
)

// ScalingConfig sets up a scaling experiment: every method fitted on
// synthetic data of growing size, fit time and peak heap against training
// rows. The zero value of each field but Out is its documented default.
type ScalingConfig struct {
	// Sizes are the training row counts; nil means 10k, 30k, 100k, 300k
	// and 1M. Each size generates Size x 5/3 rows, split 3:1:1
	// (stratified) into training, validation and test rows.
	Sizes []int
	// Methods are the method specs (NAME or NAME:key=value,...); nil
	// means aer and gbdt.
	Methods []string
	// Features, Informative and Clusters shape the data as aer gen does;
	// zero means 20, 10 and 4. Ratio is negatives per positive; 0 means 99.
	Features, Informative, Clusters int
	Ratio                           float64
	// Seed draws the data and seeds the fits.
	Seed uint64
	// Workers of each fit; 0 means all cores.
	Workers int
	// Threads, when not empty, fits every method at every size once per
	// worker count listed, in turn, instead of once with Workers: fit
	// time against threads, and each fit's speedup over the first count's
	// (ScalingRow.Speedup).
	Threads []int
	// Out is the directory of scaling.csv and the figures (required).
	Out string
	// Progress, when set, is told of each fit as it starts.
	Progress func(method string, rows int)
}

// ScalingRow is one fit of a scaling experiment.
type ScalingRow struct {
	Method string `json:"method"`
	// Threads is the fit's worker count.
	Threads   int     `json:"threads"`
	Rows      int     `json:"train_rows"`
	Features  int     `json:"features"`
	Seconds   float64 `json:"fit_seconds"`
	PeakBytes uint64  `json:"heap_peak_bytes"` // heap objects above the level before the fit (the data excluded)
	// EstimateBytes is the method's own estimate of that peak made before
	// the fit (learn.FitMemory), 0 when it makes none.
	EstimateBytes int64 `json:"estimate_bytes,omitempty"`
	// Stages holds the seconds per stage the method's fit summary
	// reports under "seconds" (AER: prepare, mixture, subsets, members,
	// weights, tune), if any.
	Stages map[string]float64 `json:"stages,omitempty"`
	// ROCAUC on the test rows, a check that the fit did its job.
	ROCAUC float64 `json:"test_roc_auc"`
	// Speedup is the fit time of the same method and size at the first
	// of ScalingConfig.Threads over this fit's (1 for that first one, and
	// without a thread list).
	Speedup float64 `json:"speedup"`
}

// ScalingSlope is the least-squares slope of log(fit time) and of
// log(peak heap) against log(rows) of one method at one thread count: 1
// is linear.
type ScalingSlope struct {
	Method  string  `json:"method"`
	Threads int     `json:"threads"`
	Time    float64 `json:"time_slope"`
	Memory  float64 `json:"memory_slope"`
}

// ScalingResult is what Scaling measured.
type ScalingResult struct {
	Rows    []ScalingRow   `json:"fits"`
	Slopes  []ScalingSlope `json:"slopes"`
	Files   []string       `json:"files"`
	Workers int            `json:"workers"`
}

// Scaling runs the experiment: for each size, smallest first, it
// generates the data once and fits every method on it, and writes
// scaling.csv and the log-log figures figures/scaling-time and
// figures/scaling-memory (SVG and PNG) under Out.
func Scaling(ctx context.Context, cfg ScalingConfig) (*ScalingResult, error) {
	if cfg.Out == "" {
		return nil, fmt.Errorf("bench: scaling: no output directory")
	}
	sizes := slices.Clone(cfg.Sizes)
	if sizes == nil {
		sizes = []int{10_000, 30_000, 100_000, 300_000, 1_000_000}
	}
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	for _, n := range sizes {
		if n < 100 || n > 100_000_000 {
			return nil, fmt.Errorf("bench: scaling: %d training rows: want 100 to 100000000", n)
		}
	}
	specs := cfg.Methods
	if specs == nil {
		specs = []string{"aer", "gbdt"}
	}
	parsed := make([]Spec, len(specs))
	for i, s := range specs {
		sp, err := ParseSpec(s)
		if err != nil {
			return nil, err
		}
		if _, err := sp.New(); err != nil {
			return nil, err
		}
		parsed[i] = sp
	}
	if err := os.MkdirAll(filepath.Join(cfg.Out, FiguresDir), 0o755); err != nil {
		return nil, fmt.Errorf("bench: scaling: %w", err)
	}
	set := synth.Settings{Features: or(cfg.Features, 20), Informative: or(cfg.Informative, 10), Clusters: or(cfg.Clusters, 4), Ratio: cfg.Ratio}
	if set.Ratio == 0 {
		set.Ratio = 99
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	threads := cfg.Threads
	for _, t := range threads {
		if t < 1 {
			return nil, fmt.Errorf("bench: scaling: %d threads: want 1 or more", t)
		}
	}
	if len(threads) == 0 {
		threads = []int{workers}
	}
	res := &ScalingResult{Workers: workers}
	for _, n := range sizes {
		s := set
		s.Samples = n * 5 / 3
		g, err := synth.Generate(&s, cfg.Seed)
		if err != nil {
			return nil, fmt.Errorf("bench: scaling: generating %d rows: %w", s.Samples, err)
		}
		parts, err := dataset.StratifiedSplit(g.Y, []float64{3, 1, 1}, cfg.Seed)
		if err != nil {
			return nil, fmt.Errorf("bench: scaling: %w", err)
		}
		all := &learn.Data{X: g.X, Y: g.Y, Features: g.Features}
		train, valid, test := all.Subset(parts[0]), all.Subset(parts[1]), all.Subset(parts[2])
		g, all = nil, nil
		for _, sp := range parsed {
			var first float64
			for k, t := range threads {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				if cfg.Progress != nil {
					cfg.Progress(sp.String(), len(train.Y))
				}
				row, err := scalingFit(ctx, sp, train, valid, test, cfg.Seed, t)
				if err != nil {
					return nil, fmt.Errorf("bench: scaling: %s at %d rows on %d threads: %w", sp, len(train.Y), t, err)
				}
				if k == 0 {
					first = row.Seconds
				}
				row.Speedup = first / row.Seconds
				res.Rows = append(res.Rows, *row)
			}
		}
	}
	for _, sp := range parsed {
		for _, t := range threads {
			var lr, lt, lm []float64
			for _, r := range res.Rows {
				if r.Method == sp.String() && r.Threads == t {
					lr = append(lr, math.Log(float64(r.Rows)))
					lt = append(lt, math.Log(r.Seconds))
					lm = append(lm, math.Log(float64(max(r.PeakBytes, 1))))
				}
			}
			res.Slopes = append(res.Slopes, ScalingSlope{Method: sp.String(), Threads: t, Time: slope(lr, lt), Memory: slope(lr, lm)})
		}
	}
	if err := writeScaling(cfg.Out, res, len(cfg.Threads) > 1); err != nil {
		return nil, err
	}
	return res, nil
}

func or(v, d int) int {
	if v == 0 {
		return d
	}
	return v
}

// scalingFit fits one method and measures it.
func scalingFit(ctx context.Context, sp Spec, train, valid, test *learn.Data, seed uint64, workers int) (*ScalingRow, error) {
	m, err := sp.New()
	if err != nil {
		return nil, err
	}
	_, d := train.X.Dims()
	estimate, _ := learn.FitMemory(m, learn.Shape{Rows: len(train.Y), Features: d, ValidRows: len(valid.Y), Workers: workers})
	runtime.GC()
	mem := startHeapSampler()
	start := time.Now()
	model, err := m.Fit(ctx, train, valid, learn.Env{Seed: seed, Workers: workers})
	secs := time.Since(start).Seconds()
	peak := mem.stop()
	if err != nil {
		return nil, err
	}
	row := &ScalingRow{Method: sp.String(), Threads: workers, Rows: len(train.Y), Features: d, Seconds: secs, PeakBytes: peak, EstimateBytes: estimate, ROCAUC: math.NaN()}
	if s := learn.SummaryOf(model); s != nil {
		row.Stages = stageSeconds(s)
	}
	score, err := learn.Predict(ctx, model, test.X, workers)
	if err != nil {
		return nil, err
	}
	row.ROCAUC = aermetrics.ROCAUC(test.Y, score, nil)
	return row, nil
}

// stageSeconds reads the numbers under "seconds" of a fit summary.
func stageSeconds(summary any) map[string]float64 {
	b, err := json.Marshal(summary)
	if err != nil {
		return nil
	}
	var v struct {
		Seconds map[string]any `json:"seconds"`
	}
	if json.Unmarshal(b, &v) != nil || len(v.Seconds) == 0 {
		return nil
	}
	out := make(map[string]float64, len(v.Seconds))
	for k, x := range v.Seconds {
		if f, ok := x.(float64); ok {
			out[k] = f
		}
	}
	return out
}

// slope is the least-squares slope of y against x (NaN with fewer than
// two distinct x).
func slope(x, y []float64) float64 {
	n := float64(len(x))
	if len(x) < 2 {
		return math.NaN()
	}
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
	}
	if sxx == 0 {
		return math.NaN()
	}
	return sxy / sxx
}

// writeScaling writes scaling.csv and the two figures.
func writeScaling(out string, res *ScalingResult, byThreads bool) error {
	stages := map[string]bool{}
	for _, r := range res.Rows {
		for k := range r.Stages {
			stages[k] = true
		}
	}
	names := make([]string, 0, len(stages))
	for k := range stages {
		names = append(names, k)
	}
	sort.Strings(names)
	write := func(w io.Writer) error {
		cw := csv.NewWriter(w)
		head := []string{"method", "train_rows", "features", "fit_seconds", "heap_peak_bytes", "test_roc_auc", "estimate_bytes", "threads", "speedup"}
		for _, k := range names {
			head = append(head, "stage_"+k+"_seconds")
		}
		if err := cw.Write(head); err != nil {
			return err
		}
		for _, r := range res.Rows {
			rec := []string{r.Method, strconv.Itoa(r.Rows), strconv.Itoa(r.Features), dataset.FormatFloat(r.Seconds),
				strconv.FormatUint(r.PeakBytes, 10), dataset.FormatFloat(r.ROCAUC), strconv.FormatInt(r.EstimateBytes, 10),
				strconv.Itoa(r.Threads), dataset.FormatFloat(r.Speedup)}
			for _, k := range names {
				v, ok := r.Stages[k]
				if !ok {
					rec = append(rec, "")
					continue
				}
				rec = append(rec, dataset.FormatFloat(v))
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	}
	if err := atomicfile.Write(filepath.Join(out, "scaling.csv"), write); err != nil {
		return err
	}
	res.Files = append(res.Files, "scaling.csv")
	for _, fig := range []struct {
		name, y string
		val     func(ScalingRow) float64
		slope   func(ScalingSlope) float64
	}{
		{"scaling-time", "fit seconds", func(r ScalingRow) float64 { return r.Seconds }, func(s ScalingSlope) float64 { return s.Time }},
		{"scaling-memory", "peak heap MB (above the data)", func(r ScalingRow) float64 { return float64(r.PeakBytes) / (1 << 20) }, func(s ScalingSlope) float64 { return s.Memory }},
	} {
		p := newPlot("", "training rows", fig.y)
		p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
		p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		var legendNames []string
		for i, s := range res.Slopes {
			var xy plotter.XYs
			for _, r := range res.Rows {
				if r.Method == s.Method && r.Threads == s.Threads && fig.val(r) > 0 {
					xy = append(xy, plotter.XY{X: float64(r.Rows), Y: fig.val(r)})
				}
			}
			for _, q := range xy {
				p.X.Min, p.X.Max = min(p.X.Min, q.X), max(p.X.Max, q.X)
				p.Y.Min, p.Y.Max = min(p.Y.Min, q.Y), max(p.Y.Max, q.Y)
			}
			if err := addLine(p, xy, nil, i); err != nil {
				return err
			}
			name := s.Method
			if byThreads {
				name = fmt.Sprintf("%s, %d threads", s.Method, s.Threads)
			}
			legendNames = append(legendNames, fmt.Sprintf("%s (slope %.2f)", name, fig.slope(s)))
		}
		if math.IsInf(p.X.Min, 0) || math.IsInf(p.Y.Min, 0) {
			continue
		}
		if p.X.Min == p.X.Max {
			p.X.Min, p.X.Max = p.X.Min/2, p.X.Max*2
		}
		if p.Y.Min == p.Y.Max {
			p.Y.Min, p.Y.Max = p.Y.Min/2, p.Y.Max*2
		}
		r, err := renderWithLegend(p, legendNames)
		if err != nil {
			return err
		}
		f, err := writeFigure(out, fig.name, "", r)
		if err != nil {
			return err
		}
		res.Files = append(res.Files, f.svg, f.png)
	}
	return nil
}

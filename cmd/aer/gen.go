package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/memlimit"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/synth"
)

func init() {
	register(&command{
		name:    "gen",
		summary: "generate a synthetic imbalanced data set (scikit-learn's make_classification)",
		usage: `usage: aer gen --out FILE [--rows N] [--ratio R] [--clusters C] [--features F]
               [--informative I] [--redundant D] [--repeated P] [--flip Y]
               [--class-sep S] [--split 3:1:1] [--seed N] [--json]

Writes a CSV with columns x0..x{F-1}, an optional split column and the
label (1 = minority). Unlike scikit-learn (flip_y = 0.01), --flip defaults
to 0 so that --ratio is exact: label noise reassigns random rows, mostly
majority ones, and --flip 0.01 with --ratio 79 ends near 59:1. The paper's
synthetic task (7900 majority, 100 minority rows):
  aer gen --rows 8000 --ratio 79 --clusters 10 --features 20 --informative 10 --seed 0 --out gmm.csv

--samples is the old name of --rows: deprecated, still accepted.`,
		run: runGen,
	})
}

// splitNames names the parts of --split by their number.
var splitNames = map[int][]string{
	2: {"train", "test"},
	3: {"train", "valid", "test"},
}

// splitSeedStream is the rng stream of the --split shuffle, apart from the
// stream that generates the data, so adding --split never changes the data.
const splitSeedStream = 1

type genSummary struct {
	File           string                `json:"file"`
	Rows           int                   `json:"rows"`
	Features       int                   `json:"features"`
	Seed           uint64                `json:"seed"`
	NegRows        int                   `json:"negative_rows"`
	PosRows        int                   `json:"positive_rows"`
	Ratio          float64               `json:"imbalance_ratio"` // negative rows per positive row
	RequestedRatio float64               `json:"requested_ratio"`
	Planned        [2]int                `json:"rows_before_label_noise"` // negative, positive
	FlippedLabels  int                   `json:"flipped_labels"`
	Informative    []int                 `json:"informative_columns"`
	Redundant      []int                 `json:"redundant_columns"`
	Repeated       []int                 `json:"repeated_columns"`
	RepeatedFrom   []int                 `json:"repeated_from"`
	Noise          []int                 `json:"noise_columns"`
	Split          map[string]splitCount `json:"split,omitempty"`
	Settings       genSettings           `json:"settings"`
}

type splitCount struct {
	Rows     int `json:"rows"`
	Positive int `json:"positive_rows"`
}

type genSettings struct {
	Samples     int     `json:"samples"`
	Features    int     `json:"features"`
	Informative int     `json:"informative"`
	Redundant   int     `json:"redundant"`
	Repeated    int     `json:"repeated"`
	Clusters    int     `json:"clusters_per_class"`
	Ratio       float64 `json:"ratio"`
	Flip        float64 `json:"flip"`
	ClassSep    float64 `json:"class_sep"`
	Polytope    bool    `json:"polytope"`
	Shift       string  `json:"shift"`
	Scale       string  `json:"scale"`
	Shuffle     bool    `json:"shuffle"`
	Split       string  `json:"split,omitempty"`
}

// genOptions are aer gen's flags.
type genOptions struct {
	rows, features, informative, redundant, repeated, clusters int
	ratio, flip, classSep, shift, scale                        float64
	polytope, randShift, randScale, noShuffle, asJSON          bool
	split, out                                                 string
	seed                                                       uint64
	rowsFlag                                                   string    // "samples" when --rows came by its old name
	ratios                                                     []float64 // of --split; nil without it
}

// parseGenFlags reads and checks aer gen's flags.
func parseGenFlags(args []string, stderr io.Writer) (*genOptions, error) {
	fs := newFlagSet(commands["gen"], stderr)
	var o genOptions
	fs.IntVar(&o.rows, "rows", 100, "number of rows")
	var samples int
	fs.IntVar(&samples, "samples", 100, "deprecated: the old name of --rows, still accepted")
	fs.IntVar(&o.features, "features", 20, "number of feature columns")
	fs.IntVar(&o.informative, "informative", 2, "informative features (the dimension of the cluster hypercube)")
	fs.IntVar(&o.redundant, "redundant", 2, "redundant features: random linear combinations of the informative ones")
	fs.IntVar(&o.repeated, "repeated", 0, "repeated features: copies of informative or redundant ones")
	fs.IntVar(&o.clusters, "clusters", 2, "Gaussian clusters per class")
	fs.Float64Var(&o.ratio, "ratio", 1, "imbalance ratio R: majority:minority = R:1 (label 1 is the minority)")
	fs.Float64Var(&o.flip, "flip", 0, "fraction of rows given a random label (scikit-learn's flip_y; 0.01 there)")
	fs.Float64Var(&o.classSep, "class-sep", 1, "half the side of the hypercube: larger separates classes more")
	fs.BoolVar(&o.polytope, "polytope", false, "put clusters on a random polytope instead of the hypercube")
	fs.Float64Var(&o.shift, "shift", 0, "value added to every feature")
	fs.BoolVar(&o.randShift, "random-shift", false, "shift each feature by a random value in [-class-sep, class-sep)")
	fs.Float64Var(&o.scale, "scale", 1, "factor multiplying every feature, after the shift")
	fs.BoolVar(&o.randScale, "random-scale", false, "scale each feature by a random factor in [1, 101)")
	fs.BoolVar(&o.noShuffle, "no-shuffle", false, "keep rows in cluster order and columns informative, redundant, repeated, noise")
	fs.StringVar(&o.split, "split", "", "add a stratified split column: train:test or train:valid:test ratios, e.g. 3:1:1")
	fs.Uint64Var(&o.seed, "seed", 0, "random seed")
	fs.StringVar(&o.out, "out", "", "output CSV file, - for standard output (required)")
	fs.BoolVar(&o.asJSON, "json", false, "print a JSON summary on standard output")
	err := parseNoArgs(fs, args)
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["samples"] {
		if set["rows"] && samples != o.rows {
			return nil, usageErrorf("gen: --rows %d and --samples %d differ: give --rows alone (--samples is its old name)", o.rows, samples)
		}
		o.rows, o.rowsFlag = samples, "samples"
	}
	if err := o.check(set); err != nil {
		return nil, err
	}
	if o.split != "" {
		if o.ratios, err = parseSplit(o.split); err != nil {
			return nil, err
		}
	}
	return &o, nil
}

// check refuses flags out of range; set holds the flags given.
func (o *genOptions) check(set map[string]bool) error {
	switch {
	case o.out == "":
		return usageErrorf("gen: --out is required (- writes standard output)")
	case o.asJSON && o.out == "-":
		return usageErrorf("gen: --json prints on standard output, so --out needs a file, not -")
	}
	for _, c := range []struct {
		name     string
		v, least int
	}{
		{o.rowsName(), o.rows, 1}, {"features", o.features, 1}, {"informative", o.informative, 1},
		{"clusters", o.clusters, 1}, {"redundant", o.redundant, 0}, {"repeated", o.repeated, 0},
	} {
		if c.v < c.least {
			return usageErrorf("gen: --%s must be at least %d, got %d", c.name, c.least, c.v)
		}
	}
	switch {
	case !(o.flip >= 0 && o.flip <= 1):
		return usageErrorf("gen: --flip must be in [0, 1], got %v", o.flip)
	case !(o.classSep > 0):
		return usageErrorf("gen: --class-sep must be positive, got %v", o.classSep)
	case !(o.scale > 0):
		return usageErrorf("gen: --scale must be positive, got %v", o.scale)
	case o.randShift && set["shift"]:
		return usageErrorf("gen: give --shift or --random-shift, not both")
	case o.randScale && set["scale"]:
		return usageErrorf("gen: give --scale or --random-scale, not both")
	}
	return nil
}

// rowsName is the name the number of rows was given by, for messages:
// rows, or samples, its old name.
func (o *genOptions) rowsName() string {
	if o.rowsFlag != "" {
		return o.rowsFlag
	}
	return "rows"
}

// settings are the synth settings of the flags.
func (o *genOptions) settings() *synth.Settings {
	s := &synth.Settings{
		Samples: o.rows, Features: o.features, Informative: o.informative, Redundant: o.redundant,
		Repeated: o.repeated, Clusters: o.clusters, Ratio: o.ratio, FlipY: o.flip, ClassSep: o.classSep,
		Polytope: o.polytope, Shift: o.shift, Scale: o.scale, RandomShift: o.randShift,
		RandomScale: o.randScale, NoShuffle: o.noShuffle,
	}
	if o.redundant == 0 {
		s.Redundant = synth.None
	}
	if o.flip == 0 {
		s.FlipY = synth.None
	}
	if o.randScale {
		s.Scale = 0
	}
	return s
}

func runGen(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseGenFlags(args, stderr)
	if err != nil {
		return err
	}
	s := o.settings()
	planned, err := s.ClassSizes()
	if err != nil {
		return settingsError(err)
	}
	// The table, its CSV text and the split copy it makes: about 3
	// float64 a cell. Past the memory available, say so instead of
	// exhausting it.
	if avail, ok := availableMemory(); ok && avail > 0 {
		if need := int64(o.rows) * int64(o.features) * 24; need > avail {
			return fmt.Errorf("gen: --%s %d x --features %d needs about %s, and %s are available: ask for fewer", o.rowsName(), o.rows, o.features, memlimit.Format(need), memlimit.Format(avail))
		}
	}
	data, err := synth.Generate(s, o.seed)
	if err != nil {
		return settingsError(err)
	}
	name := "synthetic"
	if o.out != "-" {
		name = strings.TrimSuffix(filepath.Base(o.out), filepath.Ext(o.out))
	}
	ds := data.Dataset(name)
	parts, err := genSplit(ds, o.ratios, o.seed)
	if err != nil {
		return err
	}
	write := func(w io.Writer) error { return dataset.WriteCSV(w, ds) }
	if o.out == "-" {
		bw := bufio.NewWriter(stdout)
		if err := write(bw); err != nil {
			return fmt.Errorf("gen: write standard output: %w", err)
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("gen: write standard output: %w", err)
		}
	} else if err := writeFileAtomic(ctx, o.out, write); err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	sum := genReport(o, data, ds, planned, parts)
	if o.asJSON {
		return writeJSON(stdout, sum)
	}
	dest := o.out
	if dest == "-" {
		dest = "standard output"
	}
	fmt.Fprintf(stderr, "gen: wrote %d rows x %d features to %s: %d label 0, %d label 1 (ratio %.2f:1, %d labels flipped)\n",
		sum.Rows, sum.Features, dest, sum.NegRows, sum.PosRows, sum.Ratio, sum.FlippedLabels)
	return nil
}

// genSplit fills the split column of ds with a stratified split of
// ratios (none when nil) and returns each part's counts.
func genSplit(ds *dataset.Dataset, ratios []float64, seed uint64) (map[string]splitCount, error) {
	if ratios == nil {
		return nil, nil
	}
	idx, err := dataset.StratifiedSplit(ds.Y, ratios, rng.DeriveSeed(seed, splitSeedStream))
	if err != nil {
		return nil, usageErrorf("gen: --split: %v", err)
	}
	ds.Split = make([]string, ds.Rows())
	parts := map[string]splitCount{}
	for k, rows := range idx {
		pn := splitNames[len(ratios)][k]
		sc := splitCount{Rows: len(rows)}
		for _, i := range rows {
			ds.Split[i] = pn
			sc.Positive += ds.Y[i]
		}
		parts[pn] = sc
	}
	return parts, nil
}

// genReport summarises what aer gen wrote.
func genReport(o *genOptions, data *synth.Data, ds *dataset.Dataset, planned [2]int, parts map[string]splitCount) genSummary {
	n := ds.ClassCounts()
	neg, pos := n[0], n[1]
	actual := 0.0
	if pos > 0 {
		actual = float64(neg) / float64(pos)
	}
	shiftDesc, scaleDesc := strconv.FormatFloat(o.shift, 'g', -1, 64), strconv.FormatFloat(o.scale, 'g', -1, 64)
	if o.randShift {
		shiftDesc = "random"
	}
	if o.randScale {
		scaleDesc = "random"
	}
	return genSummary{
		File: o.out, Rows: ds.Rows(), Features: ds.Cols(), Seed: o.seed,
		NegRows: neg, PosRows: pos, Ratio: actual, RequestedRatio: o.ratio, Planned: planned,
		FlippedLabels: data.Flipped(),
		Informative:   data.Informative, Redundant: data.Redundant,
		Repeated: data.Repeated, RepeatedFrom: data.RepeatedFrom, Noise: data.Noise,
		Split: parts,
		Settings: genSettings{
			Samples: o.rows, Features: o.features, Informative: o.informative,
			Redundant: o.redundant, Repeated: o.repeated, Clusters: o.clusters,
			Ratio: o.ratio, Flip: o.flip, ClassSep: o.classSep, Polytope: o.polytope,
			Shift: shiftDesc, Scale: scaleDesc, Shuffle: !o.noShuffle, Split: o.split,
		},
	}
}

// settingsError reports invalid synth settings as a usage error: they come
// straight from the flags, so synth's samples (scikit-learn's n_samples)
// are called rows, as the flag is.
func settingsError(err error) error {
	if errors.Is(err, synth.ErrSettings) {
		msg := strings.ReplaceAll(strings.TrimPrefix(err.Error(), "synth: "), "samples (", "rows (")
		return usageErrorf("gen: %s", msg)
	}
	return fmt.Errorf("gen: %w", err)
}

// parseSplit reads "3:1:1" (train:valid:test) or "4:1" (train:test).
func parseSplit(s string) ([]float64, error) {
	fields := strings.Split(s, ":")
	if _, ok := splitNames[len(fields)]; !ok {
		return nil, usageErrorf("gen: --split %q: want train:test or train:valid:test ratios, e.g. 3:1:1", s)
	}
	ratios := make([]float64, len(fields))
	for i, f := range fields {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(v > 0) || v > 1e9 {
			return nil, usageErrorf("gen: --split %q: %q is not a positive number", s, f)
		}
		ratios[i] = v
	}
	return ratios, nil
}

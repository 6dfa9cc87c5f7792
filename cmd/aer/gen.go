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
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/synth"
)

func init() {
	register(&command{
		name:    "gen",
		summary: "generate a synthetic imbalanced data set (scikit-learn's make_classification)",
		usage: `usage: aer gen --out FILE [--samples N] [--ratio R] [--clusters C] [--features F]
               [--informative I] [--redundant D] [--repeated P] [--flip Y]
               [--class-sep S] [--split 3:1:1] [--seed N] [--json]

Writes a CSV with columns x0..x{F-1}, an optional split column and the
label (1 = minority). Unlike scikit-learn (flip_y = 0.01), --flip defaults
to 0 so that --ratio is exact: label noise reassigns random rows, mostly
majority ones, and --flip 0.01 with --ratio 79 ends near 59:1. The paper's
synthetic task (7900 majority, 100 minority rows):
  aer gen --samples 8000 --ratio 79 --clusters 10 --features 20 --informative 10 --seed 0 --out gmm.csv`,
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

func runGen(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["gen"]
	fs := newFlagSet(c, stderr)
	var (
		samples     = fs.Int("samples", 100, "number of rows")
		features    = fs.Int("features", 20, "number of feature columns")
		informative = fs.Int("informative", 2, "informative features (the dimension of the cluster hypercube)")
		redundant   = fs.Int("redundant", 2, "redundant features: random linear combinations of the informative ones")
		repeated    = fs.Int("repeated", 0, "repeated features: copies of informative or redundant ones")
		clusters    = fs.Int("clusters", 2, "Gaussian clusters per class")
		ratio       = fs.Float64("ratio", 1, "imbalance ratio R: majority:minority = R:1 (label 1 is the minority)")
		flip        = fs.Float64("flip", 0, "fraction of rows given a random label (scikit-learn's flip_y; 0.01 there)")
		classSep    = fs.Float64("class-sep", 1, "half the side of the hypercube: larger separates classes more")
		polytope    = fs.Bool("polytope", false, "put clusters on a random polytope instead of the hypercube")
		shift       = fs.Float64("shift", 0, "value added to every feature")
		randShift   = fs.Bool("random-shift", false, "shift each feature by a random value in [-class-sep, class-sep)")
		scale       = fs.Float64("scale", 1, "factor multiplying every feature, after the shift")
		randScale   = fs.Bool("random-scale", false, "scale each feature by a random factor in [1, 101)")
		noShuffle   = fs.Bool("no-shuffle", false, "keep rows in cluster order and columns informative, redundant, repeated, noise")
		split       = fs.String("split", "", "add a stratified split column: train:test or train:valid:test ratios, e.g. 3:1:1")
		seed        = fs.Uint64("seed", 0, "random seed")
		out         = fs.String("out", "", "output CSV file, - for standard output (required)")
		asJSON      = fs.Bool("json", false, "print a JSON summary on standard output")
	)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErrorf("gen: unexpected argument %q", rest[0])
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case *out == "":
		return usageErrorf("gen: --out is required (- writes standard output)")
	case *asJSON && *out == "-":
		return usageErrorf("gen: --json prints on standard output, so --out needs a file, not -")
	}
	for _, c := range []struct {
		name     string
		v, least int
	}{
		{"samples", *samples, 1}, {"features", *features, 1}, {"informative", *informative, 1},
		{"clusters", *clusters, 1}, {"redundant", *redundant, 0}, {"repeated", *repeated, 0},
	} {
		if c.v < c.least {
			return usageErrorf("gen: --%s must be at least %d, got %d", c.name, c.least, c.v)
		}
	}
	if !(*flip >= 0 && *flip <= 1) {
		return usageErrorf("gen: --flip must be in [0, 1], got %v", *flip)
	}
	if !(*classSep > 0) {
		return usageErrorf("gen: --class-sep must be positive, got %v", *classSep)
	}
	if !(*scale > 0) {
		return usageErrorf("gen: --scale must be positive, got %v", *scale)
	}
	if *randShift && set["shift"] {
		return usageErrorf("gen: give --shift or --random-shift, not both")
	}
	if *randScale && set["scale"] {
		return usageErrorf("gen: give --scale or --random-scale, not both")
	}
	var ratios []float64
	if *split != "" {
		if ratios, err = parseSplit(*split); err != nil {
			return err
		}
	}

	s := &synth.Settings{
		Samples:     *samples,
		Features:    *features,
		Informative: *informative,
		Redundant:   *redundant,
		Repeated:    *repeated,
		Clusters:    *clusters,
		Ratio:       *ratio,
		FlipY:       *flip,
		ClassSep:    *classSep,
		Polytope:    *polytope,
		Shift:       *shift,
		Scale:       *scale,
		RandomShift: *randShift,
		RandomScale: *randScale,
		NoShuffle:   *noShuffle,
	}
	if *redundant == 0 {
		s.Redundant = synth.None
	}
	if *flip == 0 {
		s.FlipY = synth.None
	}
	if *randScale {
		s.Scale = 0
	}
	planned, err := s.ClassSizes()
	if err != nil {
		return settingsError(err)
	}
	data, err := synth.Generate(s, *seed)
	if err != nil {
		return settingsError(err)
	}
	name := "synthetic"
	if *out != "-" {
		name = strings.TrimSuffix(filepath.Base(*out), filepath.Ext(*out))
	}
	ds := data.Dataset(name)
	var parts map[string]splitCount
	if ratios != nil {
		idx, err := dataset.StratifiedSplit(ds.Y, ratios, rng.DeriveSeed(*seed, splitSeedStream))
		if err != nil {
			return usageErrorf("gen: --split: %v", err)
		}
		ds.Split = make([]string, ds.Rows())
		parts = map[string]splitCount{}
		for k, rows := range idx {
			pn := splitNames[len(ratios)][k]
			sc := splitCount{Rows: len(rows)}
			for _, i := range rows {
				ds.Split[i] = pn
				sc.Positive += ds.Y[i]
			}
			parts[pn] = sc
		}
	}

	write := func(w io.Writer) error { return dataset.WriteCSV(w, ds) }
	if *out == "-" {
		bw := bufio.NewWriter(stdout)
		if err := write(bw); err != nil {
			return fmt.Errorf("gen: write standard output: %w", err)
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("gen: write standard output: %w", err)
		}
	} else if err := writeFileAtomic(ctx, *out, write); err != nil {
		return fmt.Errorf("gen: %w", err)
	}

	neg, pos := ds.ClassCounts()
	flipped := 0
	for i, y := range data.Y {
		if y != data.Cluster[i]%2 {
			flipped++
		}
	}
	actual := 0.0
	if pos > 0 {
		actual = float64(neg) / float64(pos)
	}
	if !*asJSON {
		dest := *out
		if dest == "-" {
			dest = "standard output"
		}
		fmt.Fprintf(stderr, "gen: wrote %d rows x %d features to %s: %d label 0, %d label 1 (ratio %.2f:1, %d labels flipped)\n",
			ds.Rows(), ds.Cols(), dest, neg, pos, actual, flipped)
		return nil
	}
	shiftDesc, scaleDesc := strconv.FormatFloat(*shift, 'g', -1, 64), strconv.FormatFloat(*scale, 'g', -1, 64)
	if *randShift {
		shiftDesc = "random"
	}
	if *randScale {
		scaleDesc = "random"
	}
	return writeJSON(stdout, genSummary{
		File:           *out,
		Rows:           ds.Rows(),
		Features:       ds.Cols(),
		Seed:           *seed,
		NegRows:        neg,
		PosRows:        pos,
		Ratio:          actual,
		RequestedRatio: *ratio,
		Planned:        planned,
		FlippedLabels:  flipped,
		Informative:    data.Informative,
		Redundant:      data.Redundant,
		Repeated:       data.Repeated,
		RepeatedFrom:   data.RepeatedFrom,
		Noise:          data.Noise,
		Split:          parts,
		Settings: genSettings{
			Samples: *samples, Features: *features, Informative: *informative,
			Redundant: *redundant, Repeated: *repeated, Clusters: *clusters,
			Ratio: *ratio, Flip: *flip, ClassSep: *classSep, Polytope: *polytope,
			Shift: shiftDesc, Scale: scaleDesc, Shuffle: !*noShuffle, Split: *split,
		},
	})
}

// settingsError reports invalid synth settings as a usage error: they come
// straight from the flags.
func settingsError(err error) error {
	if errors.Is(err, synth.ErrSettings) {
		return usageErrorf("gen: %s", strings.TrimPrefix(err.Error(), "synth: "))
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

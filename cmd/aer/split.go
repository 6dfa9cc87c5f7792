package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/atomicfile"
)

func init() {
	register(&command{
		name:    "split",
		summary: "stratified train/valid/test split or k-fold partition of a CSV dataset",
		usage: `usage: aer split --data FILE.csv [--ratio 3:1:1] [--seed 0] [--out-dir DIR] [--json]
       aer split --data FILE.csv --protocol sklearn [--seed 0] [--out-dir DIR] [--json]
       aer split --data FILE.csv --folds K [--seed 0] [--out-dir DIR] [--json]

With --ratio, writes NAME.train.csv, NAME.valid.csv and NAME.test.csv (two
ratios write train and test only); every part keeps the class balance. With
--folds, writes NAME.foldI.train.csv and NAME.foldI.test.csv for I = 1..K.
With --column, writes one file NAME.split.csv with a split column instead.

--protocol sklearn draws the 3:1:1 split of the Python anchors instead of
aer's own: scikit-learn 1.2.1 train_test_split(test_size=0.4, stratify=y,
random_state=SEED), then the 40% halved the same way (valid, test), with
y = 1 for the positive class and 0 otherwise. The parts hold exactly the rows
scikit-learn picks, written in its order; --seed must be below 2^32 (numpy's
limit) and --ratio, if given, must be 3:1:1.`,
		run: runSplit,
	})
}

type splitPart struct {
	File     string `json:"file,omitempty"`
	Part     string `json:"part"`
	Rows     int    `json:"rows"`
	Positive int    `json:"positive_rows"`
}

func runSplit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["split"]
	fs := newFlagSet(c, stderr)
	var df dataFlags
	df.register(fs)
	df.registerCategorical(fs)
	data := fs.String("data", "", "CSV file to split (required)")
	ratio := fs.String("ratio", "3:1:1", "part sizes train:valid:test (or train:test)")
	folds := fs.Int("folds", 0, "write K stratified folds instead of a ratio split")
	protocol := fs.String("protocol", "aer", "split rule: aer, or sklearn for the Python anchors' 3:1:1 split (scikit-learn 1.2.1 order)")
	column := fs.Bool("column", false, "write one file with a split column (train/valid/test) instead of one file per part")
	seed := fs.Uint64("seed", 0, "random seed")
	outDir := fs.String("out-dir", ".", "directory for the output files")
	asJSON := fs.Bool("json", false, "print one JSON document describing the parts")
	if rest, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return usageErrorf("split: unexpected argument %q (flags after it would be ignored)", rest[0])
	}
	if *data == "" {
		return usageErrorf("split: --data is required")
	}
	if *folds < 0 || *folds == 1 {
		return usageErrorf("split: --folds must be at least 2, not %d", *folds)
	}
	var ratios []float64
	if *folds == 0 {
		for _, f := range strings.Split(*ratio, ":") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || !(v > 0) {
				return usageErrorf("split: --ratio %q: want positive numbers like 3:1:1", *ratio)
			}
			ratios = append(ratios, v)
		}
		if len(ratios) < 2 || len(ratios) > 3 {
			return usageErrorf("split: --ratio %q: want 2 or 3 parts", *ratio)
		}
		sum := 0.0
		for _, v := range ratios {
			sum += v
		}
		if math.IsInf(sum, 0) {
			return usageErrorf("split: --ratio %q: numbers too large (their sum overflows)", *ratio)
		}
	} else if *column {
		return usageErrorf("split: --column works with --ratio, not --folds")
	}
	switch *protocol {
	case "aer":
	case "sklearn":
		if *folds != 0 {
			return usageErrorf("split: --protocol sklearn makes a 3:1:1 split, not --folds")
		}
		if len(ratios) != 3 || ratios[0] != 3*ratios[2] || ratios[1] != ratios[2] {
			return usageErrorf("split: --protocol sklearn makes a 3:1:1 split, not --ratio %q", *ratio)
		}
		if *seed > math.MaxUint32 {
			return usageErrorf("split: --protocol sklearn: --seed %d is above numpy's limit 2^32-1", *seed)
		}
	default:
		return usageErrorf("split: --protocol %q: want aer or sklearn", *protocol)
	}
	opt := df.options()
	// Text columns pass through as text (read as categorical, written
	// back as their values).
	opt.AutoCategorical = true
	d, err := loadData(ctx, *data, opt)
	if err != nil {
		return fmt.Errorf("split: %w", err)
	}
	if err := df.checkPositive(d, *data); err != nil {
		return usageErrorf("split: %v", err)
	}
	base := filepath.Join(*outDir, d.Name)
	type out struct {
		name string
		rows []int
	}
	var outs []out
	if *folds > 0 {
		fl, err := dataset.StratifiedKFold(d.Y, *folds, *seed)
		if err != nil {
			return fmt.Errorf("split: %s: %w", *data, err)
		}
		for k, test := range fl {
			var train []int
			for m, f := range fl {
				if m != k {
					train = append(train, f...)
				}
			}
			slices.Sort(train)
			outs = append(outs, out{fmt.Sprintf("fold%d.train", k+1), train}, out{fmt.Sprintf("fold%d.test", k+1), test})
		}
	} else if *protocol == "sklearn" {
		train, valid, test, err := dataset.AnchorSplit(d.Y, uint32(*seed))
		if err != nil {
			return fmt.Errorf("split: %s: %w", *data, err)
		}
		outs = append(outs, out{"train", train}, out{"valid", valid}, out{"test", test})
	} else {
		parts, err := dataset.StratifiedSplit(d.Y, ratios, *seed)
		if err != nil {
			return fmt.Errorf("split: %s: %w", *data, err)
		}
		names := []string{"train", "valid", "test"}
		if len(parts) == 2 {
			names = []string{"train", "test"}
		}
		for k, p := range parts {
			outs = append(outs, out{names[k], p})
		}
	}
	var report []splitPart
	if *column {
		split := make([]string, d.Rows())
		for _, o := range outs {
			for _, i := range o.rows {
				split[i] = o.name
			}
		}
		whole := d.Subset(allRows(d.Rows()))
		whole.Split = split
		path := base + ".split.csv"
		if err := writeFileAtomic(ctx, path, func(w io.Writer) error { return dataset.WriteCSV(w, whole) }); err != nil {
			return err
		}
		for _, o := range outs {
			report = append(report, splitPart{File: path, Part: o.name, Rows: len(o.rows), Positive: countPos(d.Y, o.rows)})
		}
	} else {
		// The parts are written as one: all to temporary files, renamed
		// into place only when every one is complete, so a failure leaves
		// no partial set and no earlier file removed.
		var paths []string
		var writes []func(io.Writer) error
		for _, o := range outs {
			sub := d.Subset(o.rows)
			sub.Split = nil
			path := base + "." + o.name + ".csv"
			paths = append(paths, path)
			writes = append(writes, func(w io.Writer) error { return dataset.WriteCSV(w, sub) })
			report = append(report, splitPart{File: path, Part: o.name, Rows: len(o.rows), Positive: countPos(d.Y, o.rows)})
		}
		if err := atomicfile.WriteAllContext(ctx, paths, writes); err != nil {
			return err
		}
	}
	// A part without a minority row can neither tune a threshold nor
	// measure recall: say so, one line per part.
	for _, p := range report {
		if p.Positive == 0 {
			fmt.Fprintf(stderr, "split: warning: part %s has no row of the positive (minority) class %q (%d rows): it cannot tune or evaluate a classifier\n", p.Part, d.Classes[1], p.Rows)
		}
	}
	if *asJSON {
		return writeJSON(stdout, map[string]any{"data": *data, "seed": *seed, "protocol": *protocol, "parts": report})
	}
	for _, p := range report {
		fmt.Fprintf(stdout, "%-12s %6d rows %5d positive  %s\n", p.Part, p.Rows, p.Positive, p.File)
	}
	return nil
}

func countPos(y []int, rows []int) int {
	n := 0
	for _, i := range rows {
		n += y[i]
	}
	return n
}

func allRows(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

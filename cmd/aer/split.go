package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
Every column of the file is written back in the file's order, cells as they
were (numbers in shortest form): an id or text column needs no flag (a
column with more distinct values than --max-categories passes through as
text, with a note naming it), and --drop columns pass through too. A part
with no row of a class (the positive one, of two) is named with the
classes in a warning on stderr, and in --json's "warnings".

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
	// ClassRows counts the rows of each class of a multi-class label
	// (Positive is then 0).
	ClassRows []int `json:"class_rows,omitempty"`
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
	pt := dataset.Partition{Folds: *folds, Protocol: *protocol, Seed: *seed}
	if err := splitCheck(&pt, *ratio, *column); err != nil {
		return err
	}
	d, err := loadData(ctx, *data, df.passOptions())
	if err != nil {
		return fmt.Errorf("split: %w", err)
	}
	if err := df.checkDropped(d, *data); err != nil {
		return usageErrorf("split: %v", err)
	}
	if err := df.checkPositive(d, *data); err != nil {
		return usageErrorf("split: %v", err)
	}
	noteText(stderr, "split", d, *data, "passed through as text")
	parts, err := pt.Parts(d.Y)
	if err != nil {
		return fmt.Errorf("split: %s: %w", *data, err)
	}
	// The folder is made as needed (as users expect of an output folder).
	if err := os.MkdirAll(*outDir, 0o777); err != nil {
		return fmt.Errorf("split: --out-dir: %w", err)
	}
	report, err := writeSplit(ctx, d, parts, filepath.Join(*outDir, d.Name), *column, *data)
	if err != nil {
		return err
	}
	if d.NumClasses() > 2 {
		for k := range report {
			report[k].Positive, report[k].ClassRows = 0, make([]int, d.NumClasses())
			for _, i := range parts[k].Rows {
				report[k].ClassRows[d.Y[i]]++
			}
		}
	}
	warnings := splitWarnings(d, report)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "split: warning: %s\n", w)
	}
	if *asJSON {
		doc := map[string]any{"data": *data, "seed": *seed, "protocol": *protocol, "parts": report}
		if warnings != nil {
			doc["warnings"] = warnings
		}
		return writeJSON(stdout, doc)
	}
	for _, p := range report {
		if p.ClassRows != nil {
			fmt.Fprintf(stdout, "%-12s %6d rows  classes %v  %s\n", p.Part, p.Rows, p.ClassRows, p.File)
			continue
		}
		fmt.Fprintf(stdout, "%-12s %6d rows %5d positive  %s\n", p.Part, p.Rows, p.Positive, p.File)
	}
	return nil
}

// splitWarnings names, one per part, the classes a part has no row of:
// such a part can neither tune a decision nor measure that class. Of two
// classes, the positive (minority) class missing is said as such.
func splitWarnings(d *dataset.Dataset, report []splitPart) []string {
	var out []string
	for _, p := range report {
		if d.NumClasses() == 2 {
			switch {
			case p.Positive == 0:
				out = append(out, fmt.Sprintf("part %s has no row of the positive (minority) class %q (%d rows): it cannot tune or evaluate a classifier", p.Part, d.LabelName(1), p.Rows))
			case p.Positive == p.Rows:
				out = append(out, fmt.Sprintf("part %s has no row of the negative class %q (%d rows): it cannot tune or evaluate a classifier", p.Part, d.LabelName(0), p.Rows))
			}
			continue
		}
		var missing []string
		for c, n := range p.ClassRows {
			if n == 0 {
				missing = append(missing, strconv.Quote(d.Classes[c]))
			}
		}
		switch len(missing) {
		case 0:
		case 1:
			out = append(out, fmt.Sprintf("part %s has no row of the class %s (%d rows, %d classes): it cannot evaluate or tune for that class", p.Part, missing[0], p.Rows, d.NumClasses()))
		default:
			out = append(out, fmt.Sprintf("part %s has no row of the classes %s (%d rows, %d classes): it cannot evaluate or tune for them", p.Part, strings.Join(missing, ", "), p.Rows, d.NumClasses()))
		}
	}
	return out
}

// splitCheck completes pt with the --ratio of a ratio split and checks
// it (a usage error naming the flags).
func splitCheck(pt *dataset.Partition, ratio string, column bool) error {
	if pt.Folds == 0 || pt.Protocol == dataset.ProtocolSklearn {
		r, err := dataset.ParseRatio(ratio)
		if err != nil {
			return usageErrorf("split: --ratio: %v", err)
		}
		if pt.Folds == 0 {
			pt.Ratios = r
		}
	} else if column {
		return usageErrorf("split: --column works with --ratio, not --folds")
	}
	if err := pt.Check(); err != nil {
		given := fmt.Sprintf("--ratio %s", ratio)
		if pt.Folds != 0 {
			given = fmt.Sprintf("--folds %d", pt.Folds)
		}
		return usageErrorf("split: %v (%s, --protocol %s, --seed %d)", err, given, pt.Protocol, pt.Seed)
	}
	return nil
}

// writeSplit writes the parts of d: one file BASE.PART.csv each, or with
// column one file BASE.split.csv with a split column. The files are
// written as one: a failure leaves no partial set and no earlier file
// removed. No file may be the input file (a link at BASE.train.csv to
// the data, say).
func writeSplit(ctx context.Context, d *dataset.Dataset, parts []dataset.Part, base string, column bool, data string) ([]splitPart, error) {
	var report []splitPart
	if column {
		whole := d.Subset(allRows(d.Rows()))
		whole.Split = dataset.SplitColumn(parts, d.Rows())
		path := base + ".split.csv"
		if err := refuseOverwrite("split", "output", path, input{"--data", data}); err != nil {
			return nil, err
		}
		if err := writeFileAtomic(ctx, path, func(w io.Writer) error { return dataset.WriteCSV(w, whole) }); err != nil {
			return nil, fmt.Errorf("split: %w", err)
		}
		for _, p := range parts {
			report = append(report, splitPart{File: path, Part: p.Name, Rows: len(p.Rows), Positive: countPos(d.Y, p.Rows)})
		}
		return report, nil
	}
	var paths []string
	var writes []func(io.Writer) error
	for _, p := range parts {
		sub := d.Subset(p.Rows)
		sub.Split = nil
		path := base + "." + p.Name + ".csv"
		if err := refuseOverwrite("split", "output", path, input{"--data", data}); err != nil {
			return nil, err
		}
		paths = append(paths, path)
		writes = append(writes, func(w io.Writer) error { return dataset.WriteCSV(w, sub) })
		report = append(report, splitPart{File: path, Part: p.Name, Rows: len(p.Rows), Positive: countPos(d.Y, p.Rows)})
	}
	if err := atomicfile.WriteAllContext(ctx, paths, writes); err != nil {
		return nil, fmt.Errorf("split: %w", err)
	}
	return report, nil
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

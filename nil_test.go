package aer_test

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
)

// TestNilArguments calls every exported function and method of package
// aer with nil (and zero) models, tables, readers and writers: those that
// return an error return one wrapping learn.ErrData (aer.ErrImport for
// Import's table), those that do not return zero values, and none
// panics. The list is checked against the package's source, so a new
// entry point must be added here.
func TestNilArguments(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	train := clinicTable(t, "train")
	logreg, err := aer.Method("logreg")
	if err != nil {
		t.Fatal(err)
	}
	model, err := aer.Fit(ctx, train, nil, nil, logreg)
	if err != nil {
		t.Fatal(err)
	}
	var (
		nilModel  *aer.Model
		zeroModel = &aer.Model{}
		nilTable  *aer.Table
		zeroTable = &aer.Table{}
		nilPred   *aer.Predictions
	)
	file := filepath.Join(dir, "m.aer")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	models := map[string]*aer.Model{"nil model": nilModel, "zero model": zeroModel}
	tables := map[string]*aer.Table{"nil table": nilTable, "zero table": zeroTable}

	// errs are the calls that must return an error wrapping learn.ErrData
	// (or want).
	type call struct {
		entry string // Func or Type.Method
		what  string
		fn    func() error
		want  error
	}
	var errs []call
	add := func(entry, what string, fn func() error) { errs = append(errs, call{entry, what, fn, learn.ErrData}) }
	for what, m := range models {
		add("Model.Predict", what, func() error { _, err := m.Predict(ctx, train, nil); return err })
		add("Model.Explain", what, func() error { _, err := m.Explain(ctx, train, 0); return err })
		add("Model.ONNXInput", what, func() error { _, err := m.ONNXInput(train); return err })
		add("Model.PredictStream", what, func() error {
			_, err := m.PredictStream(ctx, strings.NewReader("a\n1\n"), "x.csv", io.Discard, nil)
			return err
		})
		add("Model.Decide", what, func() error { _, err := m.Decide(ctx, train, decision.Options{}, aer.Env{}); return err })
		add("Model.ExportONNX", what, func() error { return m.ExportONNX(io.Discard) })
		add("Model.ExportONNXFile", what, func() error { return m.ExportONNXFile(ctx, out) })
		add("Model.Save", what, func() error { return m.Save(ctx, out) })
		add("Model.WriteTo", what, func() error { _, err := m.WriteTo(io.Discard); return err })
		add("Model.ReadTable", what, func() error { _, err := m.ReadTable(file); return err })
		add("Model.Quantize", what, func() error { _, err := m.Quantize(aer.QuantizeOptions{}); return err })
		add("Model.FitDensity", what, func() error { _, err := m.FitDensity(ctx, train, nil, nil); return err })
	}
	for what, tb := range tables {
		add("Model.Predict", what, func() error { _, err := model.Predict(ctx, tb, nil); return err })
		add("Model.Explain", what, func() error { _, err := model.Explain(ctx, tb, 0); return err })
		add("Model.ONNXInput", what, func() error { _, err := model.ONNXInput(tb); return err })
		add("Model.Decide", what, func() error { _, err := model.Decide(ctx, tb, decision.Options{}, aer.Env{}); return err })
		add("Fit", what, func() error { _, err := aer.Fit(ctx, tb, nil, nil, logreg); return err })
		add("CrossValidate", what, func() error { _, err := aer.CrossValidate(ctx, tb, nil, logreg, nil, nil); return err })
		add("Table.Parts", what, func() error { _, _, _, err := tb.Parts(); return err })
		add("Model.FitDensity", what, func() error {
			m, err := aer.Fit(ctx, train, nil, &aer.Settings{NoOODDensity: true}, logreg)
			if err != nil {
				return err
			}
			_, err = m.FitDensity(ctx, tb, nil, nil)
			return err
		})
		errs = append(errs,
			call{"Import", what, func() error {
				_, err := aer.Import(ctx, strings.NewReader("{}"), aer.FromXGBoost, tb)
				return err
			}, aer.ErrImport},
			call{"ImportFile", what, func() error { _, err := aer.ImportFile(ctx, file, aer.FromXGBoost, tb); return err }, aer.ErrImport})
	}
	// A nil validation table means none; an empty one is an error.
	add("Fit", "zero validation table", func() error { _, err := aer.Fit(ctx, train, zeroTable, nil, logreg); return err })
	add("Model.PredictStream", "nil reader", func() error { _, err := model.PredictStream(ctx, nil, "x.csv", io.Discard, nil); return err })
	add("Model.PredictStream", "nil writer", func() error {
		_, err := model.PredictStream(ctx, strings.NewReader("a\n1\n"), "x.csv", nil, nil)
		return err
	})
	add("Model.ExportONNX", "nil writer", func() error { return model.ExportONNX(nil) })
	add("Model.WriteTo", "nil writer", func() error { _, err := model.WriteTo(nil); return err })
	add("ReadModel", "nil reader", func() error { _, err := aer.ReadModel(nil, "m.aer"); return err })
	add("Import", "nil reader", func() error { _, err := aer.Import(ctx, nil, aer.FromXGBoost, train); return err })
	add("DecodeTable", "nil reader", func() error { _, err := aer.DecodeTable(nil, "t.csv", nil); return err })
	add("NewTable", "nil columns", func() error { _, err := aer.NewTable(nil, nil); return err })
	add("TableFromRows", "nil rows", func() error { _, err := aer.TableFromRows(nil, nil); return err })
	add("Predictions.WriteCSV", "nil predictions", func() error { return nilPred.WriteCSV(io.Discard) })
	add("Predictions.WriteCSV", "nil writer", func() error {
		p, err := model.Predict(ctx, train, nil)
		if err != nil {
			return fmt.Errorf("no predictions: %v", err) // not ErrData: fails
		}
		return p.WriteCSV(nil)
	})

	// Calls that must not fail: entry points whose nil arguments mean
	// defaults or whose errors are not about them (a missing file).
	type check struct {
		entry string
		fn    func() error // nil error: the zero values came back
	}
	zero := func(ok bool, format string, a ...any) error {
		if ok {
			return nil
		}
		return fmt.Errorf(format, a...)
	}
	var checks []check
	for what, m := range models {
		checks = append(checks,
			check{"Model.Checksum", func() error { return zero(m.Checksum() == "", "%s: Checksum %q", what, m.Checksum()) }},
			check{"Model.Classes", func() error { return zero(m.Classes() == nil, "%s: Classes", what) }},
			check{"Model.Header", func() error { return zero(m.Header() == nil, "%s: Header", what) }},
			check{"Model.ImportedFrom", func() error { return zero(m.ImportedFrom() == nil, "%s: ImportedFrom", what) }},
			check{"Model.Layer", func() error { return zero(m.Layer() == nil, "%s: Layer", what) }},
			check{"Model.Quantization", func() error { _, ok := m.Quantization(); return zero(!ok, "%s: Quantization", what) }},
			check{"Model.OOD", func() error { o, ok := m.OOD(); return zero(!ok && o == nil, "%s: OOD", what) }},
			check{"Model.Learned", func() error { return zero(m.Learned() == nil, "%s: Learned", what) }},
			check{"Model.Method", func() error { return zero(m.Method() == "", "%s: Method", what) }},
			check{"Model.NumClasses", func() error { return zero(m.NumClasses() == 0, "%s: NumClasses", what) }},
			check{"Model.ReadOptions", func() error { m.ReadOptions(); return nil }},
			check{"Model.Report", func() error { return zero(m.Report() == nil, "%s: Report", what) }},
			check{"Model.Schema", func() error { return zero(m.Schema().Features == nil, "%s: Schema", what) }},
			check{"Model.Scores", func() error { return zero(m.Scores() == aer.ScoresRaw, "%s: Scores %q", what, m.Scores()) }},
			check{"Model.Threshold", func() error { th, from := m.Threshold(); return zero(th == 0 && from == "", "%s: Threshold", what) }},
		)
	}
	for what, tb := range tables {
		checks = append(checks,
			check{"Table.ClassCounts", func() error { return zero(tb.ClassCounts() == nil, "%s: ClassCounts", what) }},
			check{"Table.Classes", func() error { return zero(tb.Classes() == nil, "%s: Classes", what) }},
			check{"Table.Dataset", func() error { return zero(tb.Dataset() == nil, "%s: Dataset", what) }},
			check{"Table.Features", func() error { return zero(tb.Features() == nil, "%s: Features", what) }},
			check{"Table.IDs", func() error { return zero(tb.IDs() == nil, "%s: IDs", what) }},
			check{"Table.Labelled", func() error { return zero(!tb.Labelled(), "%s: Labelled", what) }},
			check{"Table.Name", func() error { return zero(tb.Name() == "", "%s: Name", what) }},
			check{"Table.Rows", func() error { return zero(tb.Rows() == 0, "%s: Rows", what) }},
			check{"Table.Schema", func() error { return zero(tb.Schema().Features == nil, "%s: Schema", what) }},
			check{"Table.Subset", func() error { return zero(tb.Subset([]int{0}) == nil, "%s: Subset", what) }},
		)
	}
	checks = append(checks,
		check{"Table.Subset", func() error { return zero(train.Subset([]int{train.Rows()}) == nil, "Subset out of range") }},
		check{"Predictions.Class", func() error { return zero(nilPred.Class(0) == "", "nil Predictions.Class") }},
		check{"Predictions.Positives", func() error { return zero(nilPred.Positives() == 0, "nil Predictions.Positives") }},
		check{"Predictions.OODFlagged", func() error { return zero(nilPred.OODFlagged() == 0, "nil Predictions.OODFlagged") }},
		check{"Predictions.Probability", func() error {
			return zero(math.IsNaN(nilPred.Probability(0, 1)), "nil Predictions.Probability")
		}},
		check{"ReadOptions.Options", func() error { (*aer.ReadOptions)(nil).Options(); return nil }},
		check{"TableOf", func() error { return zero(aer.TableOf(nil).Rows() == 0, "TableOf(nil)") }},
		check{"Method", func() error { _, err := aer.Method("gbdt"); return err }},
		check{"DefaultMethod", func() error { return zero(aer.DefaultMethod() != nil, "DefaultMethod") }},
		check{"Load", func() error {
			_, err := aer.Load(filepath.Join(dir, "absent.aer"))
			return zero(errors.Is(err, os.ErrNotExist), "Load of an absent file: %v", err)
		}},
		check{"ReadTable", func() error {
			_, err := aer.ReadTable(filepath.Join(dir, "absent.csv"), nil)
			return zero(err != nil, "ReadTable of an absent file")
		}},
	)
	p, err := model.Predict(ctx, train, nil)
	if err != nil {
		t.Fatal(err)
	}
	checks = append(checks,
		check{"Predictions.Class", func() error {
			return zero(p.Class(-1) == "" && p.Class(p.Positives()+train.Rows()) == "", "Class out of range")
		}},
		check{"Predictions.Probability", func() error {
			return zero(math.IsNaN(p.Probability(train.Rows(), 0)) && math.IsNaN(p.Probability(0, 2)), "Probability out of range")
		}},
	)

	covered := map[string]bool{}
	for _, c := range errs {
		covered[c.entry] = true
		err := noPanic(c.fn)
		if !errors.Is(err, c.want) {
			t.Errorf("%s with a %s: got %v, want an error wrapping %v", c.entry, c.what, err, c.want)
		}
	}
	for _, c := range checks {
		covered[c.entry] = true
		if err := noPanic(c.fn); err != nil {
			t.Errorf("%s: %v", c.entry, err)
		}
	}
	for _, e := range exportedEntries(t) {
		if !covered[e] {
			t.Errorf("%s is not called by this test", e)
		}
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed call wrote %s", out)
	}
}

// noPanic calls fn, turning a panic into an error.
func noPanic(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return fn()
}

// exportedEntries lists the exported functions and methods (of exported
// types) of the package's source, as Func or Type.Method.
func exportedEntries(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if af.Name.Name != "aer" {
			continue
		}
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() {
				continue
			}
			name := fd.Name.Name
			if fd.Recv != nil {
				typ := fd.Recv.List[0].Type
				if s, ok := typ.(*ast.StarExpr); ok {
					typ = s.X
				}
				id, ok := typ.(*ast.Ident)
				if !ok || !id.IsExported() {
					continue
				}
				name = id.Name + "." + name
			}
			out = append(out, name)
		}
	}
	slices.Sort(out)
	if len(out) < 40 {
		t.Fatalf("only %d exported entry points found: %v", len(out), out)
	}
	return out
}

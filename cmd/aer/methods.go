package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	aerlib "github.com/aer-go/aer"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	_ "github.com/aer-go/aer/methods" // every method, by name
	"github.com/aer-go/aer/modelfile"
	"github.com/aer-go/aer/pipeline"
)

// param is one --param key=value.
type param struct{ Key, Value string }

// newMethod returns the registered method name with params set; mistakes
// are usage errors.
func newMethod(cmd, name string, params []param) (learn.Method, error) {
	m, err := learn.New(name)
	if err != nil {
		return nil, usageErrorf("%s: %v", cmd, err)
	}
	if err := pipeline.SetParams(m, paramFlags(params).texts()); err != nil {
		return nil, usageErrorf("%s: --param: %v (aer help fit --method %s lists the parameters)", cmd, err, name)
	}
	return m, nil
}

// loadModel reads a model file and decodes its model through the method
// registry, behind its decision layer when it has one.
func loadModel(path string) (*modelfile.Header, learn.Scorer, error) {
	m, err := aerlib.Load(path)
	if err != nil {
		return nil, nil, err
	}
	s, ok := m.Learned().(learn.Scorer)
	if !ok || m.NumClasses() != 2 {
		return nil, nil, fmt.Errorf("%s: a model of %d classes has no single score", path, m.NumClasses())
	}
	return m.Header(), s, nil
}

// loadFor reads data to score with a model: its feature columns in model
// order, the label when present, the weight column and the columns the
// model does not use ignored.
func loadFor(ctx context.Context, path string, h *modelfile.Header, modelPath, id string) (*dataset.Dataset, error) {
	opt := h.Schema.ReadOptions()
	opt.Keep = h.Schema.RawColumns()
	if id != "" {
		opt.ID = id
	}
	d, err := loadData(ctx, path, opt)
	if err != nil {
		return nil, err
	}
	if id != "" && d.IDColumn != id {
		return nil, fmt.Errorf("--id %s: %s has no such column", id, path)
	}
	x, err := d.Matrix(h.Schema.Features)
	if err != nil {
		return nil, fmt.Errorf("%s does not fit model %s: %w", path, modelPath, err)
	}
	d.X, d.Features = x, h.Schema.Features
	return d, nil
}

// learnData is the learn.Data of a dataset.
func learnData(d *dataset.Dataset) *learn.Data {
	if d == nil {
		return nil
	}
	return &learn.Data{X: d.X, Y: d.Y, W: d.W, Features: d.Features}
}

// isParamError tells whether err is a method parameter mistake (a usage
// error).
func isParamError(err error) bool { return errors.Is(err, learn.ErrParam) }

// writeMethodHelp lists the registered methods, or one method's parameters
// generated from the method itself.
func writeMethodHelp(w io.Writer, name string) error {
	if name == "" {
		fmt.Fprintln(w, "\nMethods (aer help fit --method NAME lists a method's parameters):")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, n := range learn.Names() {
			m, _ := learn.New(n)
			fmt.Fprintf(tw, "  %s\t%s\n", n, learn.Describe(m))
		}
		return tw.Flush()
	}
	m, err := learn.New(name)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nMethod %s: %s\n\nParameters (--param key=value):\n", name, learn.Describe(m))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  key\tdefault\thelp\n")
	for _, p := range m.Params() {
		def := p.Default
		if def == "" {
			def = `""`
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", p.Key, def, strings.TrimSpace(p.Help))
	}
	return tw.Flush()
}

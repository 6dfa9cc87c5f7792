package main

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	aermodel "github.com/aer-go/aer"
	"github.com/aer-go/aer/modelfile"
)

// The AER method and the paper's Dynamic Ensemble baseline (the same model
// with lambda fixed at 1) join the method table of aer fit / aer predict.
func init() {
	methods["aer"] = &method{
		name:    "aer",
		summary: "the AER adaptive ensemble (mixture subsets, boosted members, static and likelihood weights)",
		fit:     func(ctx context.Context, req *fitRequest) (*fitResult, error) { return fitAER(ctx, req, false) },
		load:    loadAER,
	}
	methods["dynens"] = &method{
		name:    "dynens",
		summary: "the paper's Dynamic Ensemble baseline: AER members with likelihood weights only (lambda = 1)",
		fit:     func(ctx context.Context, req *fitRequest) (*fitResult, error) { return fitAER(ctx, req, true) },
		load:    loadAER,
	}
}

// aerInfo is the AER part of aer fit --json.
type aerInfo struct {
	*aermodel.Report
}

func aerConfig(req *fitRequest, dynamic bool) (*aermodel.Config, error) {
	cfg := &aermodel.Config{}
	for _, p := range req.Params {
		if err := cfg.Set(p.Key, p.Value); err != nil {
			return nil, fmt.Errorf("%w: %v", errBadParam, err)
		}
	}
	if dynamic {
		cfg.DynamicEnsemble = true
	}
	if err := cfg.Check(); err != nil {
		return nil, fmt.Errorf("%w: %v", errBadParam, err)
	}
	cfg.Seed = req.Seed
	cfg.Workers = req.Threads
	return cfg, nil
}

func fitAER(ctx context.Context, req *fitRequest, dynamic bool) (*fitResult, error) {
	cfg, err := aerConfig(req, dynamic)
	if err != nil {
		return nil, err
	}
	bar := newProgress(req.Log, "aer fit")
	cfg.Progress = bar.update
	var xv *mat.Dense
	var yv []int
	if req.Valid != nil {
		xv, yv = req.Valid.X, req.Valid.Y
	} else {
		fmt.Fprintf(req.Log, "fit: no --valid data: lambda and delta are tuned on a stratified 25%% of the training rows held out (--param holdout=F)\n")
	}
	m, rep, err := aermodel.Fit(ctx, req.Train.X, req.Train.Y, xv, yv, cfg)
	bar.done()
	if err != nil {
		return nil, err
	}
	payload, err := m.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return &fitResult{Payload: payload, Config: rep.Config, Info: aerInfo{rep}}, nil
}

// aerPredictor adapts an AER model to aer predict.
type aerPredictor struct{ m *aermodel.Model }

func (p aerPredictor) PredictProba(x *mat.Dense) ([]float64, error) {
	s, _, err := p.m.PredictProba(x)
	return s, err
}

// Threshold is the tuned delta, aer predict's default threshold.
func (p aerPredictor) Threshold() float64 { return p.m.Threshold() }

func loadAER(h *modelfile.Header, payload []byte, threads int) (predictor, error) {
	m := new(aermodel.Model)
	if err := m.UnmarshalBinary(payload); err != nil {
		return nil, err
	}
	if m.NumFeatures() != len(h.Schema.Features) {
		return nil, fmt.Errorf("aer model has %d features, its header names %d", m.NumFeatures(), len(h.Schema.Features))
	}
	m.Config.Workers = threads
	return aerPredictor{m}, nil
}

// loadAERModel opens a model file that must hold an AER model.
func loadAERModel(path string) (*modelfile.Header, *aermodel.Model, error) {
	h, payload, err := modelfile.Load(path)
	if err != nil {
		return nil, nil, err
	}
	if h.Method != "aer" && h.Method != "dynens" {
		return nil, nil, errors.New(path + ": holds a " + h.Method + " model; explain needs an aer or dynens model")
	}
	m := new(aermodel.Model)
	if err := m.UnmarshalBinary(payload); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, m, nil
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/modelfile"
)

// A method is one classifier aer fit can train and aer predict can run.
// Methods are added to the methods table below; each gives a fit function
// and a load function for its saved payload.
type method struct {
	name    string
	summary string
	// fit trains on req and returns what goes into the model file.
	fit func(ctx context.Context, req *fitRequest) (*fitResult, error)
	// load decodes the payload written by fit.
	load func(h *modelfile.Header, payload []byte, threads int) (predictor, error)
}

// fitRequest is what aer fit hands a method.
type fitRequest struct {
	Train   *dataset.Dataset
	Valid   *dataset.Dataset // nil without a validation set
	Params  []param          // --param key=value, in command-line order
	Seed    uint64
	Threads int
	Log     io.Writer // progress and notes (stderr)
}

// param is one --param key=value.
type param struct{ Key, Value string }

// fitResult is what a method returns from fit.
type fitResult struct {
	Payload    []byte
	Config     any // the resolved configuration, saved in the header and printed
	Preprocess modelfile.Preprocess
	// Info holds method-specific results for aer fit --json (trees,
	// validation curve, ...); no timings.
	Info any
}

// predictor gives positive-class probabilities for rows of x (in the
// model's feature order, preprocessing applied).
type predictor interface {
	PredictProba(x *mat.Dense) ([]float64, error)
}

// thresholder is a predictor with its own tuned decision threshold, which
// aer predict uses unless --threshold is given.
type thresholder interface {
	Threshold() float64
}

var methods = map[string]*method{
	"gbdt": {
		name:    "gbdt",
		summary: "gradient-boosted trees (histogram-based, XGBoost's hist algorithm)",
		fit:     fitGBDT,
		load:    loadGBDT,
	},
}

// methodNames lists the methods, sorted, for messages.
func methodNames() string {
	names := make([]string, 0, len(methods))
	for n := range methods {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// errBadParam marks a --param mistake: aer turns it into a usage error.
var errBadParam = errors.New("--param")

// gbdtConfig is saved in the header of a gbdt model file.
type gbdtConfig struct {
	Params boost.Settings `json:"params"` // resolved; includes the seed
}

// gbdtInfo is the gbdt part of aer fit --json.
type gbdtInfo struct {
	Trees         int       `json:"trees"`
	Leaves        int       `json:"leaves"`
	EvalMetric    string    `json:"eval_metric,omitempty"`
	ValidCurve    []float64 `json:"valid_curve,omitempty"`
	BestIteration *int      `json:"best_iteration,omitempty"`
	BestScore     *float64  `json:"best_score,omitempty"`
	StoppedEarly  bool      `json:"stopped_early,omitempty"`
	// Importance lists the features the trees split on, by total gain
	// (loss reduction summed over their splits), largest first.
	Importance []gbdtImportance `json:"importance"`
}

type gbdtImportance struct {
	Feature   string  `json:"feature"`
	TotalGain float64 `json:"total_gain"`
	Splits    int     `json:"splits"`
}

func fitGBDT(ctx context.Context, req *fitRequest) (*fitResult, error) {
	var s boost.Settings
	for _, p := range req.Params {
		if err := s.Set(p.Key, p.Value); err != nil {
			return nil, fmt.Errorf("%w: %v", errBadParam, err)
		}
	}
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("%w: %v", errBadParam, err)
	}
	if s.EarlyStoppingRounds > 0 && req.Valid == nil {
		return nil, fmt.Errorf("%w: early_stopping_rounds needs a validation set (--valid, or valid rows in a split column)", errBadParam)
	}
	s.Seed = req.Seed
	s.Threads = req.Threads
	train := boost.Data{X: req.Train.X, Y: req.Train.Y}
	var valid *boost.Data
	if req.Valid != nil {
		valid = &boost.Data{X: req.Valid.X, Y: req.Valid.Y}
	}
	m, err := boost.Train(ctx, train, valid, &s)
	if err != nil {
		return nil, err
	}
	payload, err := m.MarshalBinary()
	if err != nil {
		return nil, err
	}
	info := gbdtInfo{Trees: len(m.Trees)}
	for i := range m.Trees {
		info.Leaves += m.Trees[i].NumLeaves()
	}
	gain, _ := m.Importance(boost.TotalGain)
	count, _ := m.Importance(boost.Count)
	for j, f := range req.Train.Features {
		if count[j] > 0 {
			info.Importance = append(info.Importance, gbdtImportance{Feature: f, TotalGain: gain[j], Splits: int(count[j])})
		}
	}
	sort.SliceStable(info.Importance, func(a, b int) bool { return info.Importance[a].TotalGain > info.Importance[b].TotalGain })
	if ev := m.Eval; ev != nil {
		info.EvalMetric = ev.Metric
		info.ValidCurve = ev.Curve
		info.BestIteration = &ev.BestIteration
		info.BestScore = &ev.BestScore
		info.StoppedEarly = ev.Stopped
	}
	return &fitResult{
		Payload: payload,
		Config:  gbdtConfig{Params: m.Settings},
		Info:    info,
	}, nil
}

type gbdtPredictor struct{ m *boost.Model }

func (p gbdtPredictor) PredictProba(x *mat.Dense) ([]float64, error) { return p.m.Predict(x, nil), nil }

func loadGBDT(h *modelfile.Header, payload []byte, threads int) (predictor, error) {
	m := new(boost.Model)
	if err := m.UnmarshalBinary(payload); err != nil {
		return nil, err
	}
	if m.NumFeatures != len(h.Schema.Features) {
		return nil, fmt.Errorf("gbdt model has %d features, its header names %d", m.NumFeatures, len(h.Schema.Features))
	}
	m.SetThreads(threads)
	return gbdtPredictor{m}, nil
}

// configJSON encodes a method's configuration for the model header.
func configJSON(c any) (json.RawMessage, error) {
	if c == nil {
		return nil, nil
	}
	return json.Marshal(c)
}

package learn

import (
	"context"
	"fmt"
	"io"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// Method is a configured algorithm. Set and Params configure it; Fit and
// Load do not change it, so one Method can fit many data sets, from
// several goroutines.
type Method interface {
	// Name is the name the method is registered under ("gbdt", "aer").
	Name() string
	// Set sets one parameter from its text form, as --param key=value
	// does; an unknown key or a value that does not parse is an error
	// wrapping ErrParam.
	Set(key, value string) error
	// Params lists every parameter: its key, current value (defaults
	// resolved), default and a one-line help.
	Params() []Param
	// Fit trains a model on train; valid, when not nil, is data the
	// method may tune on (thresholds, early stopping). Fit stops with
	// ctx's error when ctx is cancelled.
	Fit(ctx context.Context, train, valid *Data, env Env) (Scorer, error)
	// Load decodes a payload written by a model's MarshalBinary.
	Load(payload []byte) (Scorer, error)
}

// Describer is a Method with a one-paragraph description, for help texts.
type Describer interface {
	Describe() string
}

// Gridder is a Method with the grid of parameter values the paper's
// appendix tunes it over, as "key=v1,v2" axes (or "key=v1|v2" for values
// with commas), for aer fit --grid paper.
type Gridder interface {
	PaperGrid() []string
}

// Model is a fitted classifier of NumClasses() classes (two or more),
// safe for concurrent use: the probability of each class for every row.
// Classes are numbered 0..NumClasses()-1, as the labels of the Data it
// was fitted on. A two-class model is also a Scorer.
type Model interface {
	// PredictProba writes the class probabilities of every row of x
	// (features in training order, NaN = missing) into dst, row-major,
	// NumClasses() per row (allocated when too short), and returns it.
	// Each row's probabilities sum to 1. It uses one goroutine.
	PredictProba(x *mat.Dense, dst []float64) ([]float64, error)
	// NumClasses is the number of classes.
	NumClasses() int
	// NumFeatures is the number of features the model expects.
	NumFeatures() int
	// MarshalBinary encodes the model for its method's Load (LoadClasses
	// for a native multi-class one).
	MarshalBinary() ([]byte, error)
}

// ClassFitter is a Method that fits three or more classes itself
// (softmax boosted trees, multinomial logistic regression, a tree's class
// shares), rather than through a decomposition into two-class problems
// (package decompose): the native model of k classes.
type ClassFitter interface {
	// FitClasses trains a model on train, whose labels are 0..k-1 (k >= 2);
	// valid, when not nil, is data the method may tune on.
	FitClasses(ctx context.Context, train, valid *Data, k int, env Env) (Model, error)
	// LoadClasses decodes a payload written by the MarshalBinary of a
	// model FitClasses returned.
	LoadClasses(payload []byte) (Model, error)
}

// ScorerProba is the PredictProba of a two-class model whose
// PositiveProba gives class 1's probability: for every row of x, class
// 0's probability 1-p then class 1's p, written into dst (allocated when
// shorter than two per row).
func ScorerProba(m interface {
	PositiveProba(x *mat.Dense, dst []float64) ([]float64, error)
}, x *mat.Dense, dst []float64) ([]float64, error) {
	p, err := m.PositiveProba(x, nil)
	if err != nil {
		return nil, err
	}
	if cap(dst) < 2*len(p) {
		dst = make([]float64, 2*len(p))
	}
	dst = dst[:2*len(p)]
	for i, v := range p {
		dst[2*i], dst[2*i+1] = 1-v, v
	}
	return dst, nil
}

// Scorer is a two-class Model with a fast path: the probability of
// class 1 (the positive, minority class) alone, one number per row.
// Every binary method's model is one; the decision layer, cross-fitting
// and the binary reports score through it.
type Scorer interface {
	Model
	// PositiveProba writes the positive-class probability of every row of
	// x (features in training order, NaN = missing) into dst, allocated
	// when too short, and returns it. It uses one goroutine: Predict
	// spreads rows over workers.
	PositiveProba(x *mat.Dense, dst []float64) ([]float64, error)
}

// Thresholder is a Model with its own tuned decision threshold: a row is
// predicted positive when its probability is at least Threshold.
type Thresholder interface {
	Threshold() float64
}

// A Deferrer is a Thresholder whose threshold gives way to a decision
// layer: one its method found by the same rule the layer would use (AER's
// Bayes delta), kept for a model used without a layer. A decision layer
// fitted in front of it by default replaces its threshold, where one in
// front of any other Thresholder keeps that threshold unless told to
// override it.
type Deferrer interface {
	Thresholder
	DefersThreshold() bool
}

// A HeldOuter is a model whose method tuned on training rows scored by
// a model that had not seen them: given no validation rows, a share of
// the training rows it held out (AER's weights, lambda and delta). HeldOut
// returns those rows' labels, scores and weights (nil when the fit tuned
// on validation rows alone): a decision layer is fitted on them
// (decision.Layered), beside the validation rows when there are some,
// rather than cross-fitted at the cost of more fits.
type HeldOuter interface {
	HeldOut() (y []int, score, w []float64)
}

// FoldHeldOuter is a HeldOuter whose held-out scores may be out-of-fold
// scores of every training row: HeldOutFolds is the number of folds, 0
// for one held-out share of the rows. Only such scores (HeldOutFolds
// above 0) join validation rows: a held-out share is what a fit without
// validation rows tunes on.
type FoldHeldOuter interface {
	HeldOuter
	HeldOutFolds() int
}

// OODScorer is a Model that can tell how far rows lie from its training
// data: OODScore writes one score per row of x (raw features in training
// order, NaN = missing; higher = farther), into dst when long enough,
// and OODThreshold returns the score above which a row is flagged out of
// distribution, with false when the model has no such threshold (a model
// file written before it had one). Find it with OODOf.
type OODScorer interface {
	OODScore(x *mat.Dense, dst []float64) ([]float64, error)
	OODThreshold() (threshold float64, ok bool)
}

// Explainer is a Model that can break down the score of one row (raw
// features, in training order).
type Explainer interface {
	Explain(row []float64) (Explanation, error)
}

// Explanation is a per-row breakdown of a score. It encodes to JSON and
// writes a readable form of itself.
type Explanation interface {
	WriteText(w io.Writer) error
}

// Summarizer is a Model that reports what its fit found (sizes, chosen
// settings, validation scores), for aer fit --json. The summary encodes
// to JSON; it may be nil for a model loaded from a file.
type Summarizer interface {
	Summary() any
}

// Warner is a Model whose fit found what its user should know, in words
// (a mixture size at the edge of its pool, a collapsed component): aer
// fit prints them on stderr and lists them in --json. A model loaded
// from a file has none: warnings are not saved.
type Warner interface {
	Warnings() []string
}

// Sizer is a Model that reports its number of free parameters (leaves,
// for trees): the k of an AIC or BIC.
type Sizer interface {
	NumParams() int
}

// predictBlock is the number of rows one goroutine scores at a time.
const predictBlock = 1024

// Predict returns the probabilities of the rows of x, rows spread over
// workers goroutines (0: GOMAXPROCS) in fixed blocks, so the result does
// not depend on workers. It checks the number of features and that no
// probability is NaN, and stops early when ctx is cancelled.
func Predict(ctx context.Context, m Scorer, x *mat.Dense, workers int) ([]float64, error) {
	if x == nil || x.IsEmpty() {
		return nil, fmt.Errorf("%w: no rows to predict", ErrData)
	}
	n, c := x.Dims()
	if c != m.NumFeatures() {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", ErrData, c, m.NumFeatures())
	}
	out := make([]float64, n)
	blocks := (n + predictBlock - 1) / predictBlock
	workers = Env{Workers: workers}.Threads()
	errs := make([]error, blocks)
	score := func(b int) {
		if errs[b] = Interrupted(ctx); errs[b] != nil {
			return
		}
		r0, r1 := b*predictBlock, min(n, (b+1)*predictBlock)
		p, err := m.PositiveProba(x.Slice(r0, r1, 0, c).(*mat.Dense), out[r0:r1])
		if err == nil && len(p) != r1-r0 {
			err = fmt.Errorf("the model gave %d probabilities for %d rows", len(p), r1-r0)
		}
		errs[b] = err
		copy(out[r0:r1], p) // a no-op when p is dst, as it should be
	}
	if workers <= 1 || blocks == 1 {
		// In the caller's goroutine: a served request's rows are scored
		// without a hand-off to another goroutine.
		for b := range blocks {
			score(b)
		}
	} else {
		var wg sync.WaitGroup
		next := make(chan int)
		for range min(workers, blocks) {
			wg.Go(func() {
				for b := range next {
					score(b)
				}
			})
		}
		for b := range blocks {
			next <- b
		}
		close(next)
		wg.Wait()
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	for i, p := range out {
		if math.IsNaN(p) {
			return nil, fmt.Errorf("the probability of row %d is NaN", i+1)
		}
	}
	return out, nil
}

// Inspector is a Model made of other models (an ensemble) that lists its
// members, for aer info --model.
type Inspector interface {
	MemberTable() []MemberInfo
}

// MemberInfo describes one member of an ensemble.
type MemberInfo struct {
	// Component is the mixture component the member belongs to, from 0,
	// or -1 when it belongs to none.
	Component int `json:"component"`
	// Method is the registered method that fitted the member.
	Method string `json:"method"`
	// Name says what the member was trained on ("global 2", "local 2").
	Name string `json:"name"`
	// StaticWeight is the member's learned static weight (0 when unknown).
	StaticWeight float64 `json:"static_weight"`
	// Settings are the member's parameters as key=value, when known.
	Settings []string `json:"settings,omitempty"`
}

package decision

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
)

// Options say how a decision layer is fitted on validation rows in front
// of a method's models (see Layered). The zero value is the default: for
// balanced accuracy, a sigmoid calibration of the scores, kept, so that
// the model's scores are probabilities, and the Bayes-optimal threshold
// on them, the training rows' positive share (RuleBayes); a model that
// tunes its own threshold (a learn.Thresholder, such as AER's paper
// delta) is left as it is, unless its threshold defers to a layer
// (learn.Deferrer, AER's default Bayes delta). docs/decision.md gives the
// evidence for this default.
type Options struct {
	// Objective is what the threshold is chosen for; nil means balanced
	// accuracy.
	Objective *Objective
	// Rule is how the threshold is found: RuleTuned (the best of the
	// candidates on the validation rows) or RuleBayes; "" means RuleBayes
	// for an objective with a Bayes-optimal threshold (balanced accuracy
	// and costs), RuleTuned for the others.
	Rule string
	// Calibrate is Sigmoid, Isotonic or None: how the scores are
	// calibrated on the validation rows before the threshold is found. ""
	// means Sigmoid under RuleBayes, None under RuleTuned. Under RuleBayes
	// with None, a sigmoid calibration finds the threshold but is not
	// kept: the model's scores stay as they are.
	Calibrate string
	// Override fits the layer in front of a model that tunes its own
	// threshold too. The command line sets it when a threshold flag is
	// given.
	Override bool
	// CrossFit is the number of folds of cross-fitting: the layer is then
	// fitted on the out-of-fold scores of the training rows (the method
	// fitted once more per fold, on the training rows without that fold)
	// together with the model's scores on the validation rows, as
	// scikit-learn's CalibratedClassifierCV(ensemble=False) calibrates;
	// the model itself is the one fitted on all training rows. 0 means
	// the default rule (Folds): DefaultFolds folds when the validation
	// rows hold fewer than CrossFitBelow positive rows, unless the model
	// tuned a threshold of its own (AER, gbdt-tuned), which has used the
	// validation rows already; negative, never. It costs one fit per
	// fold.
	CrossFit int
}

// Goal returns the objective of the threshold (and of a grid search): Objective, balanced accuracy when nil.
func (o Options) Goal() Objective {
	if o.Objective != nil {
		return *o.Objective
	}
	return MetricObjective(metrics.BalancedAccuracy)
}

// ThresholdRule returns the rule the options resolve to: Rule, or for ""
// RuleBayes where the objective has a Bayes-optimal threshold and
// RuleTuned where not.
func (o Options) ThresholdRule() string {
	if o.Rule != "" {
		return o.Rule
	}
	if _, err := BayesProbability(o.Goal(), 0.5); err == nil {
		return RuleBayes
	}
	return RuleTuned
}

// Calibration returns the calibration the options resolve to: Sigmoid,
// Isotonic or None.
func (o Options) Calibration() string {
	switch {
	case o.Calibrate != "":
		return o.Calibrate
	case o.ThresholdRule() == RuleBayes:
		return Sigmoid
	}
	return None
}

// Check reports options that cannot be used: an unknown rule or
// calibration, or a Bayes rule for an objective without a Bayes-optimal
// threshold. Errors wrap learn.ErrParam.
func (o Options) Check() error {
	switch o.Calibrate {
	case "", Sigmoid, Isotonic, None:
	default:
		return fmt.Errorf("%w: calibration %q: want sigmoid, isotonic or none", learn.ErrParam, o.Calibrate)
	}
	if o.CrossFit == 1 {
		return fmt.Errorf("%w: cross-fitting needs 2 or more folds", learn.ErrParam)
	}
	switch o.Rule {
	case "", RuleTuned, RuleArgmax, RuleCost:
	case RuleBayes:
		if g := o.Goal(); g.Matrix == nil {
			if _, err := BayesProbability(g, 0.5); err != nil {
				return fmt.Errorf("%w: threshold rule bayes: %v", learn.ErrParam, err)
			}
		}
	default:
		if _, ok := lookupRule(o.Rule); !ok {
			return fmt.Errorf("%w: threshold rule %q: want %s", learn.ErrParam, o.Rule, strings.Join(RuleNames(), ", "))
		}
	}
	return nil
}

// twoClassRule reports a rule or objective that decides between three or
// more classes only, for a fit of two.
func (o Options) twoClassRule() error {
	switch {
	case o.Goal().Matrix != nil:
		return fmt.Errorf("%w: a cost matrix is for three or more classes; two classes' costs are fn and fp (decision.ParseCost)", learn.ErrParam)
	case o.Rule != "" && o.Rule != RuleTuned && o.Rule != RuleBayes:
		return fmt.Errorf("%w: rule %s decides between three or more classes; two take tuned or bayes", learn.ErrParam, o.Rule)
	}
	return nil
}

// Layered is a learn.Method that fits another and then, given validation
// rows, a decision layer in front of its model: the composition every
// fit of the command line, cross-validation and the benchmark runs (the
// decision layer as a wrapper, not as code of its own in each of them).
// Its name, parameters and payloads are the inner method's: the layer is
// not part of the payload (a model file keeps it in its header).
type Layered struct {
	learn.WrappedMethod // Unwrap, Name, Describe, Set and Params: the inner method's
	opt                 Options
}

// Wrap returns inner behind a decision layer fitted as opt says.
func Wrap(inner learn.Method, opt Options) *Layered {
	return &Layered{WrappedMethod: learn.WrappedMethod{Inner: inner}, opt: opt}
}

// Options returns the options the layer is fitted with.
func (l *Layered) Options() Options { return l.opt }

// Load decodes an inner model's payload.
func (l *Layered) Load(payload []byte) (learn.Scorer, error) { return l.Inner.Load(payload) }

// FitMemory is the inner method's estimate: the layer needs the
// validation rows' scores only.
func (l *Layered) FitMemory(s learn.Shape) int64 {
	n, _ := learn.FitMemory(l.Inner, s)
	return n
}

// PaperGrid is the inner method's, if it has one.
func (l *Layered) PaperGrid() []string {
	if g, ok := l.Inner.(learn.Gridder); ok {
		return g.PaperGrid()
	}
	return nil
}

// ErrNoValid is returned (wrapped) by FinishPrior, which cannot fit a
// layer without validation rows, when its options ask for one
// (Override) and there are none.
var ErrNoValid = errors.New("decision: the decision layer needs validation data")

// Fit fits the inner method, then, with validation rows, the layer in
// front of its model (decision.Attach); a model with a threshold of its
// own keeps it unless Options.Override or it defers to a layer
// (learn.Deferrer). Without validation rows the layer is fitted on the
// training rows (see FitLayer).
func (l *Layered) Fit(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Scorer, error) {
	fenv, err := l.Begin(valid, env)
	if err != nil {
		return nil, err
	}
	m, err := l.Inner.Fit(ctx, train, valid, fenv)
	if err != nil {
		return nil, err
	}
	return l.Finish(ctx, m, l.Inner, train, valid, env)
}

// Begin checks, before the inner method fits, what the layer's fit
// needs: options that can be used. It returns the environment of the
// inner fit: env, with the training rows kept (not
// learn.Env.ConsumeTrain) when cross-fitting will fit folds of them
// after. Fit, pipeline.Fit and FinishPrior all begin with it.
func (l *Layered) Begin(valid *learn.Data, env learn.Env) (learn.Env, error) {
	if err := l.opt.Check(); err != nil {
		return env, err
	}
	if l.opt.Folds(valid) > 0 || valid == nil {
		env.ConsumeTrain = false // folds may be fitted on train after
	}
	return env, nil
}

// keeps says whether m goes without a layer: a threshold of its own
// that does not defer to a layer and that the options do not override,
// or no validation rows and no way to fit a layer without them
// (cross-fitting refused, Options.CrossFit < 0, and no held-out rows of
// the model's own).
func (l *Layered) keeps(m learn.Scorer, valid *learn.Data) bool {
	_, own := learn.TunedThreshold(m)
	if own && !l.opt.Override && !learn.DefersThreshold(m) {
		return true
	}
	return valid == nil && l.opt.CrossFit < 0 && !heldOut(m)
}

// heldOut says whether m holds the scores of rows its fit held out
// (learn.HeldOuter).
func heldOut(m learn.Scorer) bool {
	h, ok := learn.Find[learn.HeldOuter](m, learn.ScoreChanged)
	if !ok {
		return false
	}
	y, _, _ := h.HeldOut()
	return y != nil
}

// foldHeldOut returns the out-of-fold scores of the training rows that
// m's fit tuned on (learn.FoldHeldOuter) and their number of folds; 0
// folds when m has none.
func foldHeldOut(m learn.Scorer) (y []int, score, w []float64, folds int) {
	h, ok := learn.Find[learn.HeldOuter](m, learn.ScoreChanged)
	if !ok {
		return nil, nil, nil, 0
	}
	fh, ok := h.(learn.FoldHeldOuter)
	if !ok || fh.HeldOutFolds() < 1 {
		return nil, nil, nil, 0
	}
	if y, score, w = h.HeldOut(); y == nil {
		return nil, nil, nil, 0
	}
	return y, score, w, fh.HeldOutFolds()
}

// Finish puts the layer in front of m, a model that method fitted on
// train: fitted on valid, unless valid is nil or m has a threshold of its
// own that does not defer to a layer and the options do not override it
// (m is then returned as it is). Cross-fitting (Options.CrossFit) fits
// method on folds of train (which m's fit must have left unchanged: no
// learn.Env.ConsumeTrain). Fit is the inner method's Fit followed by
// Finish.
func (l *Layered) Finish(ctx context.Context, m learn.Scorer, method learn.Method, train, valid *learn.Data, env learn.Env) (learn.Scorer, error) {
	if l.keeps(m, valid) {
		return m, nil
	}
	layer, err := l.FitLayer(ctx, m, method, train, valid, env)
	if err != nil || layer == nil {
		return m, err
	}
	return Attach(m, layer), nil
}

// FitLayer fits the layer alone, in front of a model m that method fitted
// on train, on the validation rows valid, and with cross-fitting on the
// out-of-fold scores of train's rows too (train gives the positive share
// of the Bayes rule's prior); by default, when m is a learn.FoldHeldOuter
// with out-of-fold scores of the training rows, on those beside valid's. Without validation rows (valid nil) it is
// fitted on the scores of the rows a learn.HeldOuter model's fit held out
// of train for its own tuning (unless Options.CrossFit asks for folds),
// or else on the out-of-fold scores of train's rows alone
// (Options.CrossFit folds, DefaultFolds when 0, fewer when a class has
// fewer rows): Layer.Source says which. It returns no layer (nil, and
// no error) when a class has fewer than 2 training rows to cross-fit.
func (l *Layered) FitLayer(ctx context.Context, m learn.Scorer, method learn.Method, train, valid *learn.Data, env learn.Env) (*Layer, error) {
	if valid == nil {
		return l.fitWithoutValid(ctx, m, method, train, env)
	}
	score, err := learn.Predict(ctx, m, valid.X, env.Workers)
	if err != nil {
		return nil, fmt.Errorf("scoring the validation rows: %w", err)
	}
	y, w := valid.Y, valid.W
	k := l.opt.Folds(valid)
	if hy, hs, hw, folds := foldHeldOut(m); folds > 0 && l.opt.CrossFit == 0 {
		// The model tuned on its training rows' out-of-fold scores beside
		// the validation rows (AER's cross_tune): so does the layer, with
		// no more fits.
		y, score, w = appendRows(hy, hs, hw, valid.Y, score, valid.W)
		k = folds
	} else {
		if _, own := learn.TunedThreshold(m); own && l.opt.CrossFit == 0 {
			// The default rule leaves out a model that tuned a threshold
			// of its own on the validation rows (AER, gbdt-tuned):
			// measured on AER, cross-fitting cost 4x the fit and gained
			// nothing (docs/decision.md).
			k = 0
		}
		if k > 0 && l.opt.CrossFit == 0 && !fillsFolds(train.Y, k) {
			k = 0 // by default, too few training rows of a class is no error
		}
		if k > 0 {
			oof, err := outOfFold(ctx, method, train, valid, k, env)
			if err != nil {
				return nil, err
			}
			y, score, w = appendRows(train.Y, oof, train.W, valid.Y, score, valid.W)
		}
	}
	layer, err := l.fitOn(y, score, w, train.PositiveShare())
	if err != nil {
		return nil, err
	}
	layer.Folds = k
	return layer, nil
}

// fitWithoutValid is FitLayer without validation rows.
func (l *Layered) fitWithoutValid(ctx context.Context, m learn.Scorer, method learn.Method, train *learn.Data, env learn.Env) (*Layer, error) {
	prior := train.PositiveShare()
	if heldOut(m) && l.opt.CrossFit <= 0 {
		h, _ := learn.Find[learn.HeldOuter](m, learn.ScoreChanged)
		y, score, w := h.HeldOut()
		layer, err := l.fitOn(y, score, w, prior)
		if err != nil {
			return nil, err
		}
		layer.Source = SourceHoldout
		if fh, ok := h.(learn.FoldHeldOuter); ok && fh.HeldOutFolds() > 0 {
			layer.Source, layer.Folds = SourceCrossFit, fh.HeldOutFolds()
		}
		return layer, nil
	}
	k := l.opt.CrossFit
	if k == 0 {
		pos := positives(train.Y)
		k = min(DefaultFolds, pos, len(train.Y)-pos)
	}
	if k < 2 {
		env.Log().Warn("no decision layer: without validation rows it is cross-fitted on the training rows, and a class has fewer than 2 of them; the model decides at its own threshold")
		return nil, nil
	}
	oof, err := outOfFold(ctx, method, train, nil, k, env)
	if err != nil {
		return nil, err
	}
	layer, err := l.fitOn(train.Y, oof, train.W, prior)
	if err != nil {
		return nil, err
	}
	layer.Folds, layer.Source = k, SourceCrossFit
	return layer, nil
}

// fitOn fits the layer on scores with labels y and weights w; prior is
// the training rows' positive share (the Bayes rule's prior).
func (l *Layered) fitOn(y []int, score, w []float64, prior float64) (*Layer, error) {
	if err := l.opt.twoClassRule(); err != nil {
		return nil, err
	}
	var layer *Layer
	var err error
	if cal := l.opt.Calibration(); l.opt.ThresholdRule() == RuleBayes {
		layer, err = FitBayes(y, score, w, l.opt.Goal(), prior, cal)
	} else {
		if cal == None {
			cal = ""
		}
		layer, err = FitLayer(y, score, w, l.opt.Goal(), cal)
	}
	if err != nil {
		return nil, fmt.Errorf("decision layer on the validation rows: %w", err)
	}
	return layer, nil
}

// FinishPrior is Finish for a model m fitted where its training rows
// are not at hand (a distributed fit): prior is their weighted positive
// share, and there is no cross-fitting (an Options.CrossFit above 0 is
// an error).
func (l *Layered) FinishPrior(ctx context.Context, m learn.Scorer, valid *learn.Data, prior float64, env learn.Env) (learn.Scorer, error) {
	if _, err := l.Begin(valid, env); err != nil {
		return nil, err
	}
	if valid == nil {
		if l.opt.Override {
			return nil, ErrNoValid
		}
		return m, nil // no rows to fit a layer on
	}
	if l.keeps(m, valid) {
		return m, nil
	}
	if l.opt.CrossFit > 0 {
		return nil, fmt.Errorf("%w: cross-fitting needs the training rows in one place", learn.ErrParam)
	}
	score, err := learn.Predict(ctx, m, valid.X, env.Workers)
	if err != nil {
		return nil, fmt.Errorf("scoring the validation rows: %w", err)
	}
	layer, err := l.fitOn(valid.Y, score, valid.W, prior)
	if err != nil {
		return nil, err
	}
	return Attach(m, layer), nil
}

// LayerOf returns the decision layer attached in front of m (by Attach or
// a Layered fit), or nil when m has none.
func LayerOf(m learn.Model) *Layer {
	if a, ok := learn.As[*attached](m); ok {
		return a.layer
	}
	if c, ok := learn.As[*calibrating](m); ok {
		return c.layer
	}
	if e, ok := learn.As[*explaining](m); ok {
		return e.layer
	}
	return nil
}

// Detach returns the model in front of which m's decision layer sits (m
// itself when it has none): what a model file's payload holds.
func Detach(m learn.Scorer) learn.Scorer {
	switch a := m.(type) {
	case *attached:
		return a.Inner
	case *calibrating:
		return a.Inner
	case *explaining:
		return a.Inner
	}
	return m
}

// CheckClasses is Check for a fit of k classes: the rule, objective and
// calibration must decide between that many (a cost matrix of k rows, a
// cost fn,fp or a recall floor for two only), so a fit refuses them
// before it trains.
func (o Options) CheckClasses(k int) error {
	if err := o.Check(); err != nil {
		return err
	}
	if k == 2 {
		return o.twoClassRule()
	}
	if _, _, err := o.classRule(k); err != nil {
		return err
	}
	if m := o.Goal().Matrix; m != nil {
		if err := checkCost(m, k); err != nil {
			return fmt.Errorf("%w: %v", learn.ErrParam, err)
		}
	}
	return nil
}

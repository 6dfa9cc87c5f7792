package boost

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

// Objective names accepted in Settings.Objective.
const (
	Logistic = "logistic" // binary logistic loss (XGBoost's binary:logistic)
	Focal    = "focal"    // focal loss, Lin et al. 2017
	Weighted = "weighted" // cross-entropy with the positive class weighted by WeightedAlpha
	Custom   = "custom"   // Settings.Gradient supplies gradients and hessians
)

// Growth policies accepted in Settings.GrowPolicy.
const (
	DepthWise = "depthwise" // grow level by level up to MaxDepth (XGBoost)
	LeafWise  = "leafwise"  // always split the leaf with the largest gain, up to MaxLeaves
)

// Evaluation metrics accepted in Settings.EvalMetric.
const (
	LogLoss = "logloss"
	AUC     = "auc"
)

// GradFunc returns the gradient and hessian of a loss with respect to the
// raw margin of one row whose label is y (0 or 1). Sample weights are
// applied by the caller. The hessian should be positive.
type GradFunc func(margin float64, y int) (grad, hess float64)

// Settings holds the training parameters. The zero value means XGBoost's
// defaults; each field says what its zero value selects. Where zero is a
// meaningful setting but not the default (Lambda, MinChildWeight), a
// negative value selects zero.
type Settings struct {
	// NEstimators is the number of boosting rounds (trees). Zero selects 100.
	NEstimators int `json:"n_estimators"`
	// Eta is the learning rate (shrinkage) applied to every leaf value.
	// Zero selects 0.3.
	Eta float64 `json:"eta"`
	// MaxDepth bounds the depth of a tree (the root has depth 0). Zero
	// selects 6 for depth-wise growth and no bound for leaf-wise growth;
	// a negative value means no bound.
	MaxDepth int `json:"max_depth"`
	// MaxLeaves bounds the number of leaves of a tree. Zero selects no bound
	// for depth-wise growth and 31 for leaf-wise growth; a negative value
	// means no bound (leaf-wise growth keeps one histogram per open leaf,
	// so an unbounded leaf-wise tree can take much memory).
	MaxLeaves int `json:"max_leaves"`
	// GrowPolicy is DepthWise or LeafWise. Empty selects DepthWise.
	GrowPolicy string `json:"grow_policy"`
	// Lambda is the L2 penalty on leaf values. Zero selects 1; a negative
	// value selects 0.
	Lambda float64 `json:"lambda"`
	// Alpha is the L1 penalty on leaf values. Zero means none.
	Alpha float64 `json:"alpha"`
	// Gamma is the minimum loss reduction a split must reach (XGBoost's
	// gamma, min_split_loss). Zero means none.
	Gamma float64 `json:"gamma"`
	// MinChildWeight is the minimum hessian sum in each child of a split.
	// Zero selects 1; a negative value selects 0.
	MinChildWeight float64 `json:"min_child_weight"`
	// Subsample is the fraction of rows drawn (without replacement, each row
	// independently) for each tree. Zero selects 1 (all rows).
	Subsample float64 `json:"subsample"`
	// ColsampleByTree is the fraction of features drawn for each tree. Zero
	// selects 1 (all features).
	ColsampleByTree float64 `json:"colsample_bytree"`
	// ScalePosWeight multiplies the weight of every positive row. Zero
	// selects 1.
	ScalePosWeight float64 `json:"scale_pos_weight"`
	// BaseScore is the initial prediction, a probability; every margin
	// starts at logit(BaseScore). Zero selects 0.5 (margin 0).
	BaseScore float64 `json:"base_score"`
	// MaxBin is the largest number of histogram bins per feature, at most
	// 256. A feature with missing values uses at most MaxBin-1 value bins
	// when MaxBin is 256. Zero selects 256.
	MaxBin int `json:"max_bin"`

	// Objective is Logistic, Focal, Weighted or Custom. Empty selects
	// Logistic, or Custom when Gradient is set.
	Objective string `json:"objective"`
	// FocalGamma is the focusing parameter of the focal loss. Zero selects
	// 2 (Lin et al.'s choice); a negative value selects 0 (logistic loss).
	FocalGamma float64 `json:"focal_gamma,omitempty"`
	// FocalAlpha, in (0, 1), weights positive rows by FocalAlpha and
	// negative rows by 1-FocalAlpha in the focal loss. Zero means no
	// class weighting.
	FocalAlpha float64 `json:"focal_alpha,omitempty"`
	// WeightedAlpha is the weight of positive rows in the weighted
	// cross-entropy objective (Imbalance-XGBoost's imbalance_alpha). Zero
	// selects 1.
	WeightedAlpha float64 `json:"weighted_alpha,omitempty"`
	// Gradient is the loss for the Custom objective. It is not saved with a
	// model.
	Gradient GradFunc `json:"-"`

	// EarlyStoppingRounds stops training when the validation metric has not
	// improved for this many rounds; the model keeps the trees up to the
	// best round. Zero means no early stopping (the validation curve is
	// still recorded when a validation set is given).
	EarlyStoppingRounds int `json:"early_stopping_rounds,omitempty"`
	// EvalMetric is LogLoss or AUC, measured on the validation set. Empty
	// selects LogLoss.
	EvalMetric string `json:"eval_metric,omitempty"`

	// Progress, when set, is called after every boosting round with the
	// number of rounds done and the number asked for.
	Progress func(done, total int) `json:"-"`

	// Seed drives row and feature sampling.
	Seed uint64 `json:"seed"`
	// Threads is the number of goroutines used for training and batch
	// prediction. Zero selects runtime.GOMAXPROCS(0). The model does not
	// depend on it.
	Threads int `json:"-"`
}

// resolved returns a copy of s with every zero value replaced by its
// default, or an error naming the first invalid field.
func (s *Settings) resolved() (Settings, error) {
	var r Settings
	if s != nil {
		r = *s
	}
	if r.NEstimators == 0 {
		r.NEstimators = 100
	}
	if r.Eta == 0 {
		r.Eta = 0.3
	}
	if r.GrowPolicy == "" {
		r.GrowPolicy = DepthWise
	}
	if r.MaxDepth == 0 {
		if r.GrowPolicy == DepthWise {
			r.MaxDepth = 6
		} else {
			r.MaxDepth = -1
		}
	}
	if r.MaxLeaves == 0 && r.GrowPolicy == LeafWise {
		r.MaxLeaves = 31
	} else if r.MaxLeaves < 0 {
		r.MaxLeaves = 0
	}
	if r.Lambda == 0 {
		r.Lambda = 1
	} else if r.Lambda < 0 {
		r.Lambda = 0
	}
	if r.MinChildWeight == 0 {
		r.MinChildWeight = 1
	} else if r.MinChildWeight < 0 {
		r.MinChildWeight = 0
	}
	if r.Subsample == 0 {
		r.Subsample = 1
	}
	if r.ColsampleByTree == 0 {
		r.ColsampleByTree = 1
	}
	if r.ScalePosWeight == 0 {
		r.ScalePosWeight = 1
	}
	if r.BaseScore == 0 {
		r.BaseScore = 0.5
	}
	if r.MaxBin == 0 {
		r.MaxBin = 256
	}
	if r.Objective == "" {
		r.Objective = Logistic
		if r.Gradient != nil {
			r.Objective = Custom
		}
	}
	if r.Objective == Focal && r.FocalGamma == 0 {
		r.FocalGamma = 2
	} else if r.FocalGamma < 0 {
		r.FocalGamma = 0
	}
	if r.WeightedAlpha == 0 {
		r.WeightedAlpha = 1
	}
	if r.EvalMetric == "" {
		r.EvalMetric = LogLoss
	}
	if r.Threads <= 0 {
		r.Threads = runtime.GOMAXPROCS(0)
	}

	bad := func(name string, v any, want string) error {
		return fmt.Errorf("boost: %s = %v: %s", name, v, want)
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case r.NEstimators < 0:
		return r, bad("n_estimators", r.NEstimators, "must be positive")
	case !finite(r.Eta) || r.Eta < 0:
		return r, bad("eta", r.Eta, "must be positive")
	case r.GrowPolicy != DepthWise && r.GrowPolicy != LeafWise:
		return r, bad("grow_policy", r.GrowPolicy, `must be "depthwise" or "leafwise"`)
	case r.MaxLeaves == 1:
		return r, bad("max_leaves", r.MaxLeaves, "must be at least 2 (or 0 for no bound)")
	case !finite(r.Lambda):
		return r, bad("lambda", r.Lambda, "must be finite")
	case !finite(r.Alpha) || r.Alpha < 0:
		return r, bad("alpha", r.Alpha, "must be non-negative")
	case !finite(r.Gamma) || r.Gamma < 0:
		return r, bad("gamma", r.Gamma, "must be non-negative")
	case !finite(r.MinChildWeight):
		return r, bad("min_child_weight", r.MinChildWeight, "must be finite")
	case !(r.Subsample > 0 && r.Subsample <= 1):
		return r, bad("subsample", r.Subsample, "must be in (0, 1]")
	case !(r.ColsampleByTree > 0 && r.ColsampleByTree <= 1):
		return r, bad("colsample_bytree", r.ColsampleByTree, "must be in (0, 1]")
	case !finite(r.ScalePosWeight) || r.ScalePosWeight < 0:
		return r, bad("scale_pos_weight", r.ScalePosWeight, "must be positive")
	case !(r.BaseScore > 0 && r.BaseScore < 1):
		return r, bad("base_score", r.BaseScore, "must be a probability in (0, 1)")
	case r.MaxBin < 2 || r.MaxBin > 256:
		return r, bad("max_bin", r.MaxBin, "must be in [2, 256]")
	case r.Objective != Logistic && r.Objective != Focal && r.Objective != Weighted && r.Objective != Custom:
		return r, bad("objective", r.Objective, `must be "logistic", "focal", "weighted" or "custom"`)
	case r.Objective == Custom && r.Gradient == nil:
		return r, bad("objective", r.Objective, "needs Settings.Gradient")
	case !finite(r.FocalGamma):
		return r, bad("focal_gamma", r.FocalGamma, "must be finite")
	case !finite(r.FocalAlpha) || r.FocalAlpha < 0 || r.FocalAlpha >= 1:
		return r, bad("focal_alpha", r.FocalAlpha, "must be in [0, 1)")
	case !finite(r.WeightedAlpha) || r.WeightedAlpha < 0:
		return r, bad("weighted_alpha", r.WeightedAlpha, "must be positive")
	case r.EarlyStoppingRounds < 0:
		return r, bad("early_stopping_rounds", r.EarlyStoppingRounds, "must be non-negative")
	case r.EvalMetric != LogLoss && r.EvalMetric != AUC:
		return r, bad("eval_metric", r.EvalMetric, `must be "logloss" or "auc"`)
	}
	return r, nil
}

// ErrUnknownParam is returned (wrapped) by Settings.Set for a key it does
// not know.
var ErrUnknownParam = errors.New("unknown parameter")

type param struct {
	help string
	set  func(s *Settings, v string) error
}

// intParam parses an integer; zeroAs is stored when the user writes 0,
// and values below min are refused.
func intParam(help string, min, zeroAs int, dst func(*Settings) *int) param {
	return param{help, func(s *Settings, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("%q is not an integer", v)
		}
		if n < min {
			return fmt.Errorf("%d is below the minimum %d", n, min)
		}
		if n == 0 {
			n = zeroAs
		}
		*dst(s) = n
		return nil
	}}
}

// floatParam parses a number; zeroAs is stored when the user writes 0 for
// a field whose zero value means a non-zero default; positive refuses
// values <= 0.
func floatParam(help string, zeroAs float64, dst func(*Settings) *float64) param {
	return numParam(help, zeroAs, false, dst)
}

func positiveParam(help string, dst func(*Settings) *float64) param {
	return numParam(help, 0, true, dst)
}

func numParam(help string, zeroAs float64, positive bool, dst func(*Settings) *float64) param {
	return param{help, func(s *Settings, v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%q is not a finite number", v)
		}
		if positive && f <= 0 {
			return fmt.Errorf("%v must be positive", f)
		}
		if f == 0 {
			f = zeroAs
		}
		*dst(s) = f
		return nil
	}}
}

func stringParam(help string, dst func(*Settings) *string) param {
	return param{help, func(s *Settings, v string) error { *dst(s) = v; return nil }}
}

var params = map[string]param{
	"n_estimators":          intParam("number of trees", 1, 0, func(s *Settings) *int { return &s.NEstimators }),
	"eta":                   positiveParam("learning rate", func(s *Settings) *float64 { return &s.Eta }),
	"learning_rate":         positiveParam("learning rate (alias of eta)", func(s *Settings) *float64 { return &s.Eta }),
	"max_depth":             intParam("maximum tree depth (0: no bound, as in XGBoost)", -1, -1, func(s *Settings) *int { return &s.MaxDepth }),
	"max_leaves":            intParam("maximum leaves per tree (0: no bound)", 0, -1, func(s *Settings) *int { return &s.MaxLeaves }),
	"grow_policy":           stringParam("depthwise or leafwise", func(s *Settings) *string { return &s.GrowPolicy }),
	"lambda":                floatParam("L2 penalty on leaf values", -1, func(s *Settings) *float64 { return &s.Lambda }),
	"reg_lambda":            floatParam("L2 penalty (alias of lambda)", -1, func(s *Settings) *float64 { return &s.Lambda }),
	"alpha":                 floatParam("L1 penalty on leaf values", 0, func(s *Settings) *float64 { return &s.Alpha }),
	"reg_alpha":             floatParam("L1 penalty (alias of alpha)", 0, func(s *Settings) *float64 { return &s.Alpha }),
	"gamma":                 floatParam("minimum split gain", 0, func(s *Settings) *float64 { return &s.Gamma }),
	"min_split_loss":        floatParam("minimum split gain (alias of gamma)", 0, func(s *Settings) *float64 { return &s.Gamma }),
	"min_child_weight":      floatParam("minimum hessian sum per child", -1, func(s *Settings) *float64 { return &s.MinChildWeight }),
	"subsample":             positiveParam("row fraction per tree", func(s *Settings) *float64 { return &s.Subsample }),
	"colsample_bytree":      positiveParam("feature fraction per tree", func(s *Settings) *float64 { return &s.ColsampleByTree }),
	"scale_pos_weight":      floatParam("weight multiplier of positive rows", 0, func(s *Settings) *float64 { return &s.ScalePosWeight }),
	"base_score":            positiveParam("initial probability", func(s *Settings) *float64 { return &s.BaseScore }),
	"max_bin":               intParam("histogram bins per feature", 2, 0, func(s *Settings) *int { return &s.MaxBin }),
	"objective":             stringParam("logistic, focal or weighted", func(s *Settings) *string { return &s.Objective }),
	"focal_gamma":           floatParam("focal loss focusing parameter", -1, func(s *Settings) *float64 { return &s.FocalGamma }),
	"focal_alpha":           floatParam("focal loss positive-class weight", 0, func(s *Settings) *float64 { return &s.FocalAlpha }),
	"weighted_alpha":        floatParam("weighted cross-entropy positive weight", 0, func(s *Settings) *float64 { return &s.WeightedAlpha }),
	"imbalance_alpha":       floatParam("alias of weighted_alpha", 0, func(s *Settings) *float64 { return &s.WeightedAlpha }),
	"early_stopping_rounds": intParam("rounds without validation improvement before stopping", 0, 0, func(s *Settings) *int { return &s.EarlyStoppingRounds }),
	"eval_metric":           stringParam("logloss or auc", func(s *Settings) *string { return &s.EvalMetric }),
}

// Params lists the keys Settings.Set accepts, sorted.
func Params() []string {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Set sets the parameter key, named as in XGBoost (eta, max_depth,
// n_estimators, lambda, alpha, gamma, min_child_weight, subsample,
// colsample_bytree, scale_pos_weight, base_score, max_bin, ...), from its
// text value, with XGBoost's meaning: a written 0 means zero for lambda,
// min_child_weight and focal_gamma, and no bound for max_depth and
// max_leaves. The value is checked fully when training starts; Set
// returns an error for an unknown key or a value that does not parse or
// is out of range.
func (s *Settings) Set(key, value string) error {
	p, ok := params[key]
	if !ok {
		return fmt.Errorf("boost: %w %q (known: %s)", ErrUnknownParam, key, strings.Join(Params(), ", "))
	}
	if err := p.set(s, value); err != nil {
		return fmt.Errorf("boost: parameter %s: %w", key, err)
	}
	return nil
}

// Check reports whether the settings are valid, naming the first invalid
// parameter.
func (s *Settings) Check() error {
	_, err := s.resolved()
	return err
}

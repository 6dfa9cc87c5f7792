package boost

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"

	"github.com/aer-go/aer/learn"
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
	// NEstimators is the number of boosting rounds (trees), at most
	// MaxEstimators. Zero selects 100.
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
	// BalancedPosWeight sets ScalePosWeight, when training starts, to the
	// total weight of the negative rows over that of the positive rows
	// (XGBoost's usual advice for imbalanced data); the trained model's
	// Settings hold the number used.
	BalancedPosWeight bool `json:"balanced_pos_weight,omitempty"`
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

	// Seed drives row and feature sampling. It is the caller's run-time
	// choice and is not saved with a model.
	Seed uint64 `json:"-"`
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
	r.treeDefaults()
	r.objectiveDefaults()
	if err := r.validate(); err != nil {
		return r, err
	}
	return r, nil
}

// treeDefaults fills in the zero values of the boosting and tree growth
// settings.
func (s *Settings) treeDefaults() {
	if s.NEstimators == 0 {
		s.NEstimators = 100
	}
	if s.Eta == 0 {
		s.Eta = 0.3
	}
	if s.GrowPolicy == "" {
		s.GrowPolicy = DepthWise
	}
	if s.MaxDepth == 0 {
		if s.GrowPolicy == DepthWise {
			s.MaxDepth = 6
		} else {
			s.MaxDepth = -1
		}
	}
	if s.MaxLeaves == 0 && s.GrowPolicy == LeafWise {
		s.MaxLeaves = 31
	} else if s.MaxLeaves < 0 {
		s.MaxLeaves = 0
	}
	if s.Lambda == 0 {
		s.Lambda = 1
	} else if s.Lambda < 0 {
		s.Lambda = 0
	}
	if s.MinChildWeight == 0 {
		s.MinChildWeight = 1
	} else if s.MinChildWeight < 0 {
		s.MinChildWeight = 0
	}
	if s.Subsample == 0 {
		s.Subsample = 1
	}
	if s.ColsampleByTree == 0 {
		s.ColsampleByTree = 1
	}
	if s.ScalePosWeight == 0 {
		s.ScalePosWeight = 1
	}
	if s.BaseScore == 0 {
		s.BaseScore = 0.5
	}
	if s.MaxBin == 0 {
		s.MaxBin = 256
	}
}

// objectiveDefaults fills in the zero values of the objective, the
// evaluation metric and the threads.
func (s *Settings) objectiveDefaults() {
	if s.Objective == "" {
		s.Objective = Logistic
		if s.Gradient != nil {
			s.Objective = Custom
		}
	}
	if s.Objective == Focal && s.FocalGamma == 0 {
		s.FocalGamma = 2
	} else if s.FocalGamma < 0 {
		s.FocalGamma = 0
	}
	if s.WeightedAlpha == 0 {
		s.WeightedAlpha = 1
	}
	if s.EvalMetric == "" {
		s.EvalMetric = LogLoss
	}
	if s.Threads <= 0 {
		s.Threads = runtime.GOMAXPROCS(0)
	}
}

// validate returns an error naming the first invalid field of the resolved
// settings s.
func (s *Settings) validate() error {
	bad := func(name string, v any, want string) error {
		return fmt.Errorf("boost: %s = %v: %s", name, v, want)
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case s.NEstimators < 0:
		return bad("n_estimators", s.NEstimators, "must be positive")
	case s.NEstimators > MaxEstimators:
		return bad("n_estimators", s.NEstimators, fmt.Sprintf("at most %d trees", MaxEstimators))
	case !finite(s.Eta) || s.Eta < 0:
		return bad("eta", s.Eta, "must be positive")
	case s.GrowPolicy != DepthWise && s.GrowPolicy != LeafWise:
		return bad("grow_policy", s.GrowPolicy, `must be "depthwise" or "leafwise"`)
	case s.MaxLeaves == 1:
		return bad("max_leaves", s.MaxLeaves, "must be at least 2 (or 0 for no bound)")
	case !finite(s.Lambda):
		return bad("lambda", s.Lambda, "must be finite")
	case !finite(s.Alpha) || s.Alpha < 0:
		return bad("alpha", s.Alpha, "must be non-negative")
	case !finite(s.Gamma) || s.Gamma < 0:
		return bad("gamma", s.Gamma, "must be non-negative")
	case !finite(s.MinChildWeight):
		return bad("min_child_weight", s.MinChildWeight, "must be finite")
	case !(s.Subsample > 0 && s.Subsample <= 1):
		return bad("subsample", s.Subsample, "must be in (0, 1]")
	case !(s.ColsampleByTree > 0 && s.ColsampleByTree <= 1):
		return bad("colsample_bytree", s.ColsampleByTree, "must be in (0, 1]")
	case !finite(s.ScalePosWeight) || s.ScalePosWeight < 0:
		return bad("scale_pos_weight", s.ScalePosWeight, "must be positive")
	case !(s.BaseScore > 0 && s.BaseScore < 1):
		return bad("base_score", s.BaseScore, "must be a probability in (0, 1)")
	case s.MaxBin < 2 || s.MaxBin > 256:
		return bad("max_bin", s.MaxBin, "must be in [2, 256]")
	case s.Objective != Logistic && s.Objective != Focal && s.Objective != Weighted && s.Objective != Custom:
		return bad("objective", s.Objective, `must be "logistic", "focal", "weighted" or "custom"`)
	case s.Objective == Custom && s.Gradient == nil:
		return bad("objective", s.Objective, "needs Settings.Gradient")
	case !finite(s.FocalGamma):
		return bad("focal_gamma", s.FocalGamma, "must be finite")
	case !finite(s.FocalAlpha) || s.FocalAlpha < 0 || s.FocalAlpha >= 1:
		return bad("focal_alpha", s.FocalAlpha, "must be in [0, 1)")
	case !finite(s.WeightedAlpha) || s.WeightedAlpha < 0:
		return bad("weighted_alpha", s.WeightedAlpha, "must be positive")
	case s.EarlyStoppingRounds < 0:
		return bad("early_stopping_rounds", s.EarlyStoppingRounds, "must be non-negative")
	case s.EvalMetric != LogLoss && s.EvalMetric != AUC:
		return bad("eval_metric", s.EvalMetric, `must be "logloss" or "auc"`)
	}
	return nil
}

// ErrUnknownParam is returned (wrapped) by Settings.Set for a key it does
// not know.
var ErrUnknownParam = errors.New("unknown parameter")

// intParam declares an integer parameter in [lo, hi]; zeroAs is stored
// when the user writes 0 (XGBoost's "no bound"), and a stored negative
// value reads as 0.
func intParam(key, help string, lo, hi, zeroAs int, field func(*Settings) *int) learn.ParamSpec[Settings] {
	p := storeZeroAs(learn.Int(key, help, lo, hi, field), field, zeroAs)
	p.Get = func(s *Settings) string { return strconv.Itoa(max(0, *field(s))) }
	return p
}

// floatParam declares a number parameter of at least lo; zeroAs is stored
// when the user writes 0 for a field whose zero value means a non-zero
// default (a written 0 means zero, as in XGBoost).
func floatParam(key, help string, lo, zeroAs float64, field func(*Settings) *float64) learn.ParamSpec[Settings] {
	return storeZeroAs(learn.Float(key, help, lo, math.Inf(1), field), field, zeroAs)
}

// storeZeroAs makes p store zeroAs in its field when the user writes 0.
func storeZeroAs[T int | float64](p learn.ParamSpec[Settings], field func(*Settings) *T, zeroAs T) learn.ParamSpec[Settings] {
	set := p.Set
	p.Set = func(s *Settings, v string) error {
		if err := set(s, v); err != nil {
			return err
		}
		if *field(s) == 0 {
			*field(s) = zeroAs
		}
		return nil
	}
	return p
}

// positiveParam declares a number parameter that must be positive.
func positiveParam(key, help string, field func(*Settings) *float64) learn.ParamSpec[Settings] {
	p := learn.Float(key, help, math.Inf(-1), math.Inf(1), field)
	set := p.Set
	p.Set = func(s *Settings, v string) error {
		if f, err := learn.ParseFloat(v); err == nil && f <= 0 {
			return fmt.Errorf("want a positive number")
		}
		return set(s, v)
	}
	return p
}

// params declares every parameter, named as in XGBoost.
var params = learn.ParamTable[Settings]{
	intParam("n_estimators", "number of trees (boosting rounds), at most 100000 (100,000 trees take seconds even on a tiny table)", 1, MaxEstimators, 0, func(s *Settings) *int { return &s.NEstimators }),
	positiveParam("eta", "learning rate (alias learning_rate)", func(s *Settings) *float64 { return &s.Eta }),
	intParam("max_depth", "maximum tree depth (0: no bound)", 0, learn.MaxDepth, -1, func(s *Settings) *int { return &s.MaxDepth }),
	intParam("max_leaves", "maximum leaves per tree (0: no bound)", 0, learn.MaxRows, -1, func(s *Settings) *int { return &s.MaxLeaves }),
	learn.Enum("grow_policy", "tree growth", []string{DepthWise, LeafWise}, func(s *Settings) *string { return &s.GrowPolicy }),
	floatParam("lambda", "L2 penalty on leaf values (alias reg_lambda)", 0, -1, func(s *Settings) *float64 { return &s.Lambda }),
	floatParam("alpha", "L1 penalty on leaf values (alias reg_alpha)", 0, 0, func(s *Settings) *float64 { return &s.Alpha }),
	floatParam("gamma", "minimum loss reduction of a split (alias min_split_loss)", 0, 0, func(s *Settings) *float64 { return &s.Gamma }),
	floatParam("min_child_weight", "minimum hessian sum in each child", 0, -1, func(s *Settings) *float64 { return &s.MinChildWeight }),
	positiveParam("subsample", "fraction of rows drawn for each tree, in (0, 1]", func(s *Settings) *float64 { return &s.Subsample }),
	positiveParam("colsample_bytree", "fraction of features drawn for each tree, in (0, 1]", func(s *Settings) *float64 { return &s.ColsampleByTree }),
	{Key: "scale_pos_weight", Help: "weight multiplier of positive rows, or balanced (negative over positive weight)",
		Get: func(s *Settings) string {
			if s.BalancedPosWeight {
				return "balanced"
			}
			return learn.FormatFloat(s.ScalePosWeight)
		},
		Set: func(s *Settings, v string) error {
			if strings.TrimSpace(v) == "balanced" {
				s.BalancedPosWeight, s.ScalePosWeight = true, 0
				return nil
			}
			f, err := learn.ParseFloat(v)
			if err != nil || f <= 0 {
				return fmt.Errorf("want a positive number or balanced")
			}
			s.BalancedPosWeight, s.ScalePosWeight = false, f
			return nil
		}},
	positiveParam("base_score", "initial probability, in (0, 1)", func(s *Settings) *float64 { return &s.BaseScore }),
	intParam("max_bin", "histogram bins per feature, 2 to 256", 2, 256, 0, func(s *Settings) *int { return &s.MaxBin }),
	learn.Enum("objective", "loss", []string{Logistic, Focal, Weighted}, func(s *Settings) *string { return &s.Objective }),
	floatParam("focal_gamma", "focal loss focusing parameter", 0, -1, func(s *Settings) *float64 { return &s.FocalGamma }),
	floatParam("focal_alpha", "focal loss weight of positive rows, in [0, 1) (0: none)", 0, 0, func(s *Settings) *float64 { return &s.FocalAlpha }),
	floatParam("weighted_alpha", "weight of positive rows in the weighted cross-entropy (alias imbalance_alpha)", 0, 0, func(s *Settings) *float64 { return &s.WeightedAlpha }),
	intParam("early_stopping_rounds", "rounds without validation improvement before stopping (0: never)", 0, MaxEstimators, 0, func(s *Settings) *int { return &s.EarlyStoppingRounds }),
	learn.Enum("eval_metric", "validation metric", []string{LogLoss, AUC}, func(s *Settings) *string { return &s.EvalMetric }),
}

// aliases maps XGBoost's alternative names to the keys of params.
var aliases = map[string]string{
	"learning_rate":   "eta",
	"reg_lambda":      "lambda",
	"reg_alpha":       "alpha",
	"min_split_loss":  "gamma",
	"imbalance_alpha": "weighted_alpha",
	"num_leaves":      "max_leaves", // LightGBM's name
	"num_round":       "n_estimators",
}

// Params lists the keys Settings.Set accepts (without aliases), in help
// order.
func Params() []string { return params.Keys() }

// Set sets the parameter key, named as in XGBoost (eta, max_depth,
// n_estimators, lambda, alpha, gamma, min_child_weight, subsample,
// colsample_bytree, scale_pos_weight, base_score, max_bin, ...), from its
// text value, with XGBoost's meaning: a written 0 means zero for lambda,
// min_child_weight and focal_gamma, and no bound for max_depth and
// max_leaves. The value is checked fully when training starts; Set
// returns an error wrapping learn.ErrParam (and ErrUnknownParam for an
// unknown key) for a key it does not know or a value that does not parse
// or is out of range.
func (s *Settings) Set(key, value string) error {
	if k, ok := aliases[key]; ok {
		key = k
	}
	if !params.Has(key) {
		return fmt.Errorf("%w: %q is an %w (known: %s)", learn.ErrParam, key, ErrUnknownParam, strings.Join(Params(), ", "))
	}
	return params.Set(s, key, value)
}

// List describes every parameter with its value in s and its default,
// defaults resolved.
func (s *Settings) List() []learn.Param {
	cur, _ := s.resolved()
	def, _ := (&Settings{}).resolved()
	return params.List(&cur, &def)
}

// Check reports whether the settings are valid, naming the first invalid
// parameter.
func (s *Settings) Check() error {
	_, err := s.resolved()
	return err
}

// MaxEstimators bounds NEstimators (learn.MaxTrees: 100,000 trees take
// 5 to 10 s even on 80 rows; a million of depth 6 hold about 8 GB).
const MaxEstimators = learn.MaxTrees

package adaptive

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/ensemble"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/mixture"
)

// Config sets up an AER fit. The zero value is the "plus" preset: L in 2..8
// by BIC with 5 restarts, automatic covariance, density ranking, Tomek
// cleaning, boosted-tree members over a 2x2 grid of learning rate and
// depth all pooled into one ensemble, with one member per setting trained
// on every row, combined in logit space, static weights by gradient
// descent, tempered likelihood weights, and the temperature and lambda
// chosen at the best validation threshold among the final threshold's
// candidates (PresetPlus). Preset "paper" is the faithful method of
// NOTES.md (PresetPaper). Each part of the preset can be switched on its
// own; a part left at its zero value takes the preset's choice. Seed,
// workers, progress and logging are the caller's run-time choices: they
// come with the learn.Env of Fit and are not part of the configuration a
// model keeps.
type Config struct {
	// Preset fills every part below left at its zero value: "plus"
	// (default) or "paper". See PresetPlus and PresetPaper.
	Preset string `json:"preset"`
	// Pool keeps the members of every setting of the member grid in one
	// ensemble, a component's likelihood weight split evenly over its
	// members, instead of keeping the setting whose ensemble does best on
	// validation (the paper's tuning). nil means the preset's choice.
	Pool *bool `json:"pool,omitempty"`
	// Global adds, per member setting, one member trained on all the
	// training rows with the classes balanced by row weights (minority
	// rows weighted #majority/#minority, XGBoost's scale_pos_weight for
	// boosted trees). It takes part through its static weight only. nil
	// means the preset's choice.
	Global *bool `json:"global,omitempty"`
	// Peers are registered methods (learn.New) each trained once with its
	// own defaults on all the training rows and added to the ensemble as a
	// member with a static weight only, e.g. "logreg" or "balanced-rf":
	// where a simpler model is better, the static weights can lean on it.
	// Nil means the preset's choice (plus: logreg; paper: none), empty
	// none.
	Peers []string `json:"peers"`
	// Space is where the members' outputs are combined: "probability"
	// (the paper's w.f(x)) or "logit" (sigmoid(w.logit f(x))); empty means
	// the preset's choice.
	Space string `json:"space"`
	// Thresholds are the threshold candidates of the validation tuning:
	// "grid" (DeltaStep, 2 DeltaStep, ..., the paper) or "fine" (0.01,
	// ..., 0.99 and the validation scores' quantiles 0.5%, ..., 99.5%,
	// the decision layer's candidates); empty means the preset's choice.
	// Lambda and the likelihood rule are chosen by the metric at their
	// best threshold among the same candidates.
	Thresholds string `json:"thresholds"`
	// DeltaRule is how the threshold delta is chosen once the likelihood
	// rule and lambda are: "tuned" (the candidate best for Metric on the
	// validation rows, the paper) or "bayes" (a sigmoid calibration of the
	// validation scores, and delta where the calibrated probability equals
	// the training rows' positive share, the Bayes-optimal threshold for
	// balanced accuracy; with another Metric, tuned); empty means the
	// preset's choice.
	DeltaRule string `json:"delta_rule"`
	// Select is what chooses the likelihood rule and lambda on the
	// validation rows: "threshold" (the metric at its best threshold, the
	// paper) or "auc" (the validation ROC-AUC, which averages over every
	// threshold; the threshold is then the metric's best); empty means the
	// preset's choice.
	Select string `json:"select"`

	// Components is the pool of mixture sizes L; nil means 2..8.
	Components []int `json:"components"`
	// Covariance is the mixture's covariance type: "full" (the paper),
	// "diag", "tied", "spherical" or "auto"; empty means "auto" (full up to
	// 32 features, diag beyond, as the paper's discussion recommends).
	Covariance string `json:"covariance"`
	// NInit is the number of EM restarts per L; 0 means 5 (the paper).
	NInit int `json:"n_init"`
	// SelectRows bounds the majority rows on which the pool of mixture
	// sizes is compared by BIC: with more majority rows, every L is fitted
	// on that many rows drawn at random and only the chosen L again on all
	// of them (mixture.Settings.SelectRows). 0 means the preset's choice:
	// 20,000 for plus (the shared datasets, all smaller, get the full
	// procedure), all rows for paper; -1 means all rows.
	SelectRows int `json:"select_rows,omitempty"`
	// RefitRestarts refits the chosen L on all majority rows with NInit
	// restarts from scratch, when SelectRows subsampled; by default the
	// refit is one EM run started from the subsample's fit
	// (mixture.Settings.RefitRestarts).
	RefitRestarts bool `json:"refit_restarts,omitempty"`
	// MixtureRows bounds the majority rows the mixture is fitted on: with
	// more, it is fitted on that many drawn uniformly at random (the
	// subsets still rank every majority row under it). Its parameters, a
	// few hundred per component, are then estimated from tens of
	// thousands of rows each, while time and memory stop growing with
	// the data. 0 means the preset's choice: 200,000 for plus, all rows
	// for paper; -1 means all rows.
	MixtureRows int `json:"mixture_rows,omitempty"`
	// Rank orders the majority rows of each component for the subsets:
	// "density" (log N(x | mu_l, Sigma_l), the paper) or "responsibility".
	// Empty means "density".
	Rank string `json:"rank"`
	// LocalRandom is the share of m_k majority rows drawn at random into
	// each local subset; 0 means 0.5 (the paper).
	LocalRandom float64 `json:"local_random"`
	// NoTomek keeps the global subsets uncleaned.
	NoTomek bool `json:"no_tomek,omitempty"`

	// Member is the registered method (learn.New) every member is
	// trained with; empty means "gbdt", boosted trees, which is always
	// available.
	Member string `json:"member"`
	// MemberParams are the members' parameters as "key=value", applied
	// in order to a fresh Member method (for gbdt, XGBoost's names:
	// "eta=0.1", "max_depth=3").
	MemberParams []string `json:"member_params,omitempty"`
	// Grid lists alternative member settings, each a list of "key=value"
	// applied after MemberParams: every entry is fitted (members, static
	// weights, tuning) and the one with the best validation metric kept,
	// as the paper tunes its members. Nil means DefaultGrid() for gbdt
	// members (none for other methods) unless NoGrid is set.
	Grid [][]string `json:"grid,omitempty"`
	// NoGrid trains the members with MemberParams alone. Setting a member
	// parameter with Set sets it too.
	NoGrid bool `json:"no_grid,omitempty"`
	// Learners, when not empty, replaces Member, MemberParams and Grid:
	// configured methods, each tried as a grid point (members, static
	// weights, tuning) and the best on validation kept. A model whose
	// members' methods are not registered cannot be loaded back.
	Learners []learn.Method `json:"-"`

	// Outputs is "proba" (members' probabilities, default) or "binary"
	// (0/1 predictions at 0.5, the paper's text) for the static weights.
	Outputs string `json:"outputs"`
	// Projection maps each descent step back to the simplex: "minmax" (the
	// paper's Eq. 14) or "simplex" (the Euclidean projection); empty means
	// the preset's choice.
	// Min-max rescaling is not a projection (it zeroes the smallest weight
	// at every step), yet measured on the paper's 8 datasets (seeds 0-4,
	// members on the union of the subsets) it gives sparser weights and a
	// mean test balanced accuracy of 0.795 against 0.779 for the Euclidean
	// projection, better on 6 of 8 datasets; so it is the default.
	Projection string `json:"projection"`
	// Init is "info" (1/(0.6 AIC + 0.4 BIC) of each member, default) or
	// "uniform".
	Init string `json:"init"`
	// WeightData is the data the static weights are fitted on: "union"
	// (the union of the 2L subsets, the paper) or "valid" (the validation
	// rows, on which the members are not over-confident); empty means the
	// preset's choice.
	WeightData string `json:"weight_data"`
	// Schedule is the step-size rule of the descent: "backtracking"
	// (default), "constant" (the paper's c/||g||) or "invsqrt".
	Schedule string `json:"schedule"`
	// StepScale is c of the step c/||g||, in (0, 1); 0 means 0.5.
	StepScale float64 `json:"step_scale"`
	// Tol stops the descent when the loss changes by at most this share
	// in a pass; 0 means 1e-6, a negative value runs MaxIter passes.
	Tol float64 `json:"tol"`
	// MaxIter bounds the passes of the descent; 0 means 1000.
	MaxIter int `json:"max_iter"`
	// BatchSize > 0 takes one step per mini-batch of that many rows; 0
	// is full-batch.
	BatchSize int `json:"batch_size,omitempty"`

	// Likelihood is the dynamic weight rule: "exp", "log" (the paper's
	// literal ratio, with a per-row fallback to exp), "tempered"
	// (softmax(log N / T), T tuned on validation jointly with lambda among
	// TemperedGrid(d) and uniform weights) or "uniform"; empty means the
	// preset's choice.
	Likelihood string `json:"likelihood"`
	// MixtureWeights adds log pi_l to the component log-densities of the
	// dynamic weights.
	MixtureWeights bool `json:"mixture_weights,omitempty"`
	// DynamicEnsemble fixes lambda = 1 (likelihood weights only): the
	// paper's "Dynamic Ensemble" baseline.
	DynamicEnsemble bool `json:"dynamic_ensemble,omitempty"`
	// DeltaStep is the spacing of the threshold grid delta = DeltaStep,
	// 2 DeltaStep, ... < 1; 0 means 0.05 (the lambda grid's spacing too).
	DeltaStep float64 `json:"delta_step"`
	// Metric is what lambda and delta maximise on validation data:
	// "balanced_accuracy" (default), "gmean", "f1", "mcc" or any name
	// metrics.ParseMetric knows.
	Metric string `json:"metric"`
	// Holdout is the share of training rows held out (stratified) for
	// tuning when Fit gets no validation data; 0 means 0.25, i.e. the
	// 3:1 proportion of train to valid in a 3:1:1 split.
	Holdout float64 `json:"holdout"`
	// NoStandardize skips standardisation (means are still imputed).
	NoStandardize bool `json:"no_standardize,omitempty"`
}

// DefaultGrid returns the member settings tried by default for boosted-tree
// members: learning rate {0.1, 0.3} x depth {3, 6}, the grid of the Python
// reference implementation. Measured on the paper's 8 datasets (seeds 0-4),
// it raises mean test balanced accuracy from 0.770 (XGBoost's defaults
// alone) to 0.779.
func DefaultGrid() [][]string {
	var g [][]string
	for _, eta := range []string{"0.1", "0.3"} {
		for _, depth := range []string{"3", "6"} {
			g = append(g, []string{"eta=" + eta, "max_depth=" + depth})
		}
	}
	return g
}

// Preset names.
const (
	// PresetPlus is the default ("AER+", beyond the paper): the members of
	// every grid setting pooled into one ensemble, a member per setting
	// trained on all rows with balanced class weights, a logistic
	// regression on all rows as a peer member, logit-space combination,
	// static weights fitted on the validation rows, tempered likelihood
	// weights with the temperature chosen jointly with lambda by the
	// validation ROC-AUC, and the threshold among the decision layer's
	// candidates. Each part rests on a reason that holds beyond the data
	// it was measured on: a grid setting picked on a few validation
	// minority rows is noisy, averaging them is not; the local experts see
	// few rows, a member that sees them all covers what they miss; trees
	// approximate smooth, additive structure poorly from few minority rows,
	// a linear model captures it at little cost; members trained on all
	// rows are over-confident on them, so their static weights are fitted
	// where no member has seen the rows; a confident member should outvote
	// unsure ones, which averaging probabilities prevents; log-densities
	// grow with the number of features, so the likelihood weights'
	// sharpness must be tuned, on a scale proportional to it; with a few
	// dozen validation minority rows, the best of hundreds of
	// (T, lambda, threshold) triples by balanced accuracy is mostly noise,
	// while ROC-AUC averages over every threshold; and a threshold from a
	// coarse grid is one the decision layer would not pick.
	PresetPlus = "plus"
	// PresetPaper is the method of the paper as NOTES.md reads it: one grid
	// setting chosen on validation, probability-space combination of 2L
	// members, exp likelihood weights, static weights on the union of the
	// subsets with the paper's min-max rescaling, lambda and delta on 0.05
	// grids.
	PresetPaper = "paper"
)

// DefaultMixtureRows is the plus preset's MixtureRows.
const DefaultMixtureRows = 200_000

// preset holds the choices a preset makes for the parts a Config leaves
// unset.
type preset struct {
	pool, global                                          bool
	selectRows, mixtureRows                               int
	space, thresholds, weightData, projection, likelihood string
	selection, deltaRule                                  string
	peers                                                 []string
}

var presets = map[string]preset{
	PresetPlus: {pool: true, global: true, selectRows: mixture.DefaultSelectRows, mixtureRows: DefaultMixtureRows, space: "logit", thresholds: "fine",
		weightData: "valid", projection: "minmax", likelihood: "tempered", selection: "auc", deltaRule: "bayes",
		peers: []string{"logreg"}},
	PresetPaper: {selectRows: -1, mixtureRows: -1, space: "probability", thresholds: "grid",
		weightData: "union", projection: "minmax", likelihood: "exp", selection: "threshold", deltaRule: "tuned"},
}

// TemperedGrid returns the temperatures the tempered likelihood rule
// chooses among for d features: 1 (the exp rule) and 0.03 d, 0.1 d, 0.3 d
// and d, sorted, without repeats. A log-density is a sum over the
// features, so its spread, and the temperature that tempers it, grows
// with d. Uniform weights (T -> infinity) are a candidate too.
func TemperedGrid(d int) []float64 {
	fd := float64(max(d, 1))
	ts := []float64{1}
	for _, f := range []float64{0.03, 0.1, 0.3, 1} {
		ts = append(ts, math.Round(f*fd*1e9)/1e9)
	}
	slices.Sort(ts)
	return slices.Compact(ts)
}

// resolvedConfig holds the parsed options of a Config.
type resolvedConfig struct {
	Config
	cov        mixture.CovarianceType
	metric     metrics.Metric
	rule       ensemble.Rule
	outputs    ensemble.OutputKind
	projection ensemble.Projection
	init       ensemble.InitRule
	schedule   ensemble.Schedule
	space      ensemble.Space
	selection  ensemble.Select
	// learners are the member methods of the grid points, configured.
	learners []learn.Method
	// points names the settings of each grid point.
	points [][]string
}

// Choices of the enumerated options, the default first.
var (
	rankNames       = []string{"density", "responsibility"}
	outputsNames    = []string{"proba", "binary"}
	projectionNames = []string{"minmax", "simplex"}
	initNames       = []string{"info", "uniform"}
	weightDataNames = []string{"union", "valid"}
	likelihoodNames = []string{"exp", "log", "tempered", "uniform"}
	presetNames     = []string{PresetPlus, PresetPaper}
	spaceNames      = []string{"probability", "logit"}
	thresholdNames  = []string{"grid", "fine"}
	selectNames     = []string{"threshold", "auc"}
	deltaRuleNames  = []string{"tuned", "bayes"}
	covNames        = []string{"auto", "full", "diag", "tied", "spherical"}
	scheduleNames   = []string{"backtracking", "constant", "invsqrt"}
)

// enumDefault fills an empty choice with the default and checks it.
func enumDefault(key string, v *string, names []string) error {
	if *v == "" {
		*v = names[0]
	}
	for _, n := range names {
		if *v == n {
			return nil
		}
	}
	return fmt.Errorf("aer: %s %q: want one of %s", key, *v, strings.Join(names, ", "))
}

func (c *Config) resolve() (*resolvedConfig, error) {
	r := &resolvedConfig{}
	if c != nil {
		r.Config = *c
	}
	if err := enumDefault("preset", &r.Preset, presetNames); err != nil {
		return nil, err
	}
	ps := presets[r.Preset]
	if r.Pool == nil {
		r.Pool = &ps.pool
	}
	if r.Global == nil {
		r.Global = &ps.global
	}
	if r.Peers == nil {
		r.Peers = slices.Clone(ps.peers)
		if r.Peers == nil {
			r.Peers = []string{}
		}
	}
	for _, e := range []struct {
		v   *string
		def string
	}{
		{&r.Space, ps.space}, {&r.Thresholds, ps.thresholds}, {&r.WeightData, ps.weightData},
		{&r.Projection, ps.projection}, {&r.Likelihood, ps.likelihood}, {&r.Select, ps.selection}, {&r.DeltaRule, ps.deltaRule},
	} {
		if *e.v == "" {
			*e.v = e.def
		}
	}
	if r.Components == nil {
		r.Components = []int{2, 3, 4, 5, 6, 7, 8}
	}
	if len(r.Components) == 0 {
		return nil, fmt.Errorf("aer: empty pool of mixture sizes")
	}
	for _, l := range r.Components {
		if l < 1 {
			return nil, fmt.Errorf("aer: mixture size %d in the pool is not positive", l)
		}
	}
	for _, e := range []struct {
		key   string
		v     *string
		names []string
	}{
		{"covariance", &r.Covariance, covNames}, {"rank", &r.Rank, rankNames}, {"outputs", &r.Outputs, outputsNames},
		{"projection", &r.Projection, projectionNames}, {"init", &r.Init, initNames},
		{"weight_data", &r.WeightData, weightDataNames}, {"likelihood", &r.Likelihood, likelihoodNames},
		{"schedule", &r.Schedule, scheduleNames}, {"space", &r.Space, spaceNames}, {"thresholds", &r.Thresholds, thresholdNames}, {"select", &r.Select, selectNames}, {"delta_rule", &r.DeltaRule, deltaRuleNames},
	} {
		if err := enumDefault(e.key, e.v, e.names); err != nil {
			return nil, err
		}
	}
	var err error
	if r.cov, err = mixture.ParseCovarianceType(r.Covariance); err != nil {
		return nil, fmt.Errorf("aer: covariance: %w", err)
	}
	if r.NInit == 0 {
		r.NInit = 5
	}
	if r.NInit < 0 {
		return nil, fmt.Errorf("aer: n_init %d is negative", r.NInit)
	}
	if r.SelectRows == 0 {
		r.SelectRows = ps.selectRows
	}
	if r.SelectRows < -1 {
		return nil, fmt.Errorf("aer: select_rows %d: want -1 (all rows) or a positive number of rows", r.SelectRows)
	}
	if r.MixtureRows == 0 {
		r.MixtureRows = ps.mixtureRows
	}
	if r.MixtureRows < -1 {
		return nil, fmt.Errorf("aer: mixture_rows %d: want -1 (all rows) or a positive number of rows", r.MixtureRows)
	}
	if r.LocalRandom == 0 {
		r.LocalRandom = 0.5
	}
	if r.LocalRandom < 0 {
		return nil, fmt.Errorf("aer: local_random %v is negative", r.LocalRandom)
	}
	r.outputs = map[string]ensemble.OutputKind{"proba": ensemble.Probabilities, "binary": ensemble.Labels}[r.Outputs]
	r.projection = map[string]ensemble.Projection{"minmax": ensemble.MinMax, "simplex": ensemble.Euclidean}[r.Projection]
	r.init = map[string]ensemble.InitRule{"info": ensemble.InitInfo, "uniform": ensemble.InitUniform}[r.Init]
	r.rule = map[string]ensemble.Rule{"exp": ensemble.Exp, "log": ensemble.Log, "tempered": ensemble.Tempered, "uniform": ensemble.Uniform}[r.Likelihood]
	if err := r.selection.UnmarshalText([]byte(r.Select)); err != nil {
		return nil, fmt.Errorf("aer: %w", err)
	}
	if err := r.space.UnmarshalText([]byte(r.Space)); err != nil {
		return nil, fmt.Errorf("aer: %w", err)
	}
	if err := r.schedule.UnmarshalText([]byte(r.Schedule)); err != nil {
		return nil, fmt.Errorf("aer: %w", err)
	}
	// The descent's defaults, written out so the configuration shows them
	// (ensemble.FitStatic would fill in the same values).
	if r.StepScale == 0 {
		r.StepScale = 0.5
	}
	if r.Tol == 0 {
		r.Tol = 1e-6
	}
	if r.MaxIter == 0 {
		r.MaxIter = 1000
	}
	if !(r.StepScale > 0 && r.StepScale < 1) {
		return nil, fmt.Errorf("aer: step_scale %v is not in (0, 1)", r.StepScale)
	}
	if r.MaxIter < 0 || r.BatchSize < 0 {
		return nil, fmt.Errorf("aer: max_iter %d or batch_size %d is negative", r.MaxIter, r.BatchSize)
	}
	if r.Metric == "" {
		r.Metric = "balanced_accuracy"
	}
	if r.metric, err = metrics.ParseMetric(r.Metric); err != nil {
		return nil, fmt.Errorf("aer: metric: %w", err)
	}
	r.Metric = r.metric.String()
	if r.DeltaStep == 0 {
		r.DeltaStep = 0.05
	}
	if !(r.DeltaStep > 0 && r.DeltaStep < 0.5) {
		return nil, fmt.Errorf("aer: delta_step %v is not in (0, 0.5)", r.DeltaStep)
	}
	if r.Holdout == 0 {
		r.Holdout = 0.25
	}
	if !(r.Holdout > 0 && r.Holdout < 1) {
		return nil, fmt.Errorf("aer: holdout %v is not in (0, 1)", r.Holdout)
	}
	if err := r.resolveMembers(); err != nil {
		return nil, err
	}
	return r, nil
}

// resolveMembers configures the member method of every grid point.
func (r *resolvedConfig) resolveMembers() error {
	if len(r.Learners) > 0 {
		r.learners = r.Learners
		for _, l := range r.Learners {
			r.points = append(r.points, []string{"method=" + l.Name()})
		}
		return nil
	}
	if r.Member == "" {
		r.Member = boost.MethodName
	}
	grid := r.Grid
	switch {
	case r.NoGrid:
		grid = [][]string{nil}
	case grid == nil && r.Member == boost.MethodName:
		grid = DefaultGrid()
	case grid == nil:
		grid = [][]string{nil}
	}
	for _, point := range grid {
		m, err := newMember(r.Member)
		if err != nil {
			return err
		}
		for _, kv := range append(append([]string(nil), r.MemberParams...), point...) {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return fmt.Errorf("aer: member parameter %q: want key=value", kv)
			}
			if err := m.Set(k, v); err != nil {
				return fmt.Errorf("aer: member %s: %w", r.Member, err)
			}
		}
		r.learners = append(r.learners, m)
		r.points = append(r.points, point)
	}
	return nil
}

// newMember returns a fresh member method by name: any registered method,
// and boosted trees, AER's default member, even when nothing registered
// them.
func newMember(name string) (learn.Method, error) {
	if !learn.Registered(name) {
		// The members and peers the presets use are there even when the
		// caller registered no methods.
		switch name {
		case boost.MethodName:
			return boost.NewMethod(), nil
		case logreg.MethodName:
			return logreg.NewStandardized(), nil
		}
	}
	m, err := learn.New(name)
	if err != nil {
		return nil, fmt.Errorf("aer: member: %w", err)
	}
	return m, nil
}

// params declares AER's own parameters; keys not among them are the
// members' (see Config.Set).
var params = learn.ParamTable[Config]{
	learn.Enum("preset", "defaults of the parts below left unset: plus (beyond the paper) or paper (the faithful method)", presetNames, func(c *Config) *string { return &c.Preset }),
	triBool("pool", "pool every member setting's members into one ensemble (false: keep the best setting on validation, the paper)", func(c *Config) **bool { return &c.Pool }),
	triBool("global", "add per member setting one member trained on all rows with balanced class weights (static weight only)", func(c *Config) **bool { return &c.Global }),
	{Key: "peers", Help: "registered methods trained on all rows and added as static-weight members, e.g. logreg,balanced-rf (none: no peers)",
		Get: func(c *Config) string {
			if len(c.Peers) == 0 {
				return "none"
			}
			return strings.Join(c.Peers, ",")
		},
		Set: func(c *Config, v string) error {
			c.Peers = []string{}
			if v = strings.TrimSpace(v); v == "" || v == "none" {
				return nil
			}
			for _, name := range strings.Split(v, ",") {
				name = strings.TrimSpace(name)
				if _, err := newMember(name); err != nil {
					return err
				}
				c.Peers = append(c.Peers, name)
			}
			return nil
		}},
	learn.Enum("space", "combine the members' probabilities (the paper) or their logits", spaceNames, func(c *Config) *string { return &c.Space }),
	learn.Enum("select", "what chooses the likelihood rule and lambda on validation: the metric at its best threshold (the paper) or ROC-AUC", selectNames, func(c *Config) *string { return &c.Select }),
	learn.Enum("delta_rule", "the threshold: best for the metric among the candidates (the paper), or bayes: where a sigmoid calibration on validation reaches the training positive share (balanced accuracy's Bayes-optimal threshold)", deltaRuleNames, func(c *Config) *string { return &c.DeltaRule }),
	learn.Enum("thresholds", "threshold candidates of the tuning: the delta_step grid (the paper) or fine (0.01 grid and validation quantiles)", thresholdNames, func(c *Config) *string { return &c.Thresholds }),
	{Key: "components", Help: "pool of mixture sizes L, BIC picks one: 3, 2-8 or 2,4,6",
		Get: func(c *Config) string { return formatPool(c.Components) },
		Set: func(c *Config, v string) error {
			pool, err := ParsePool(v)
			if err != nil {
				return err
			}
			c.Components = pool
			return nil
		}},
	learn.Enum("covariance", "mixture covariance; auto is full up to 32 features, diag beyond", covNames, func(c *Config) *string { return &c.Covariance }),
	learn.Int("n_init", "EM restarts per L", 1, func(c *Config) *int { return &c.NInit }),
	learn.Int("select_rows", "majority rows on which BIC compares the mixture sizes (more: a random subsample, then the chosen L refitted on all rows); -1 = all rows; 0 = the preset's (plus 20000, paper all)", -1,
		func(c *Config) *int { return &c.SelectRows }),
	learn.Int("mixture_rows", "majority rows the mixture is fitted on (more: a random subsample of that many; every row is still ranked); -1 = all rows; 0 = the preset's (plus 200000, paper all)", -1,
		func(c *Config) *int { return &c.MixtureRows }),
	learn.Bool("refit_restarts", "refit the chosen L on all majority rows with n_init restarts, not one EM run from the subsample's fit (only when select_rows subsampled)", false, func(c *Config) *bool { return &c.RefitRestarts }),
	learn.Enum("rank", "how majority rows are ranked per component", rankNames, func(c *Config) *string { return &c.Rank }),
	learn.Float("local_random", "share of m_k random majority rows in each local subset", 0, math.Inf(1), func(c *Config) *float64 { return &c.LocalRandom }),
	learn.Bool("tomek", "remove Tomek links from the global subsets", true, func(c *Config) *bool { return &c.NoTomek }),
	{Key: "member", Help: "registered method of the members; its parameters are set as member parameters",
		Get: func(c *Config) string { return c.Member },
		Set: func(c *Config, v string) error {
			if _, err := newMember(v); err != nil {
				return err
			}
			c.Member = v
			return nil
		}},
	{Key: "grid", Help: `member settings, pooled (pool=true) or tried with the best on validation kept: default, none, or "eta:0.1,max_depth:3;eta:0.3,max_depth:6"`,
		Get: func(c *Config) string { return formatGrid(c.Grid, c.NoGrid) },
		Set: func(c *Config, v string) error {
			c.Grid, c.NoGrid = nil, false
			switch strings.TrimSpace(v) {
			case "none":
				c.NoGrid = true
				return nil
			case "", "default":
				return nil
			}
			for _, point := range strings.Split(v, ";") {
				var kvs []string
				for _, kv := range strings.Split(point, ",") {
					k, val, ok := strings.Cut(strings.TrimSpace(kv), ":")
					if !ok {
						return fmt.Errorf("want entries like eta:0.1,max_depth:3;eta:0.3,max_depth:6")
					}
					kvs = append(kvs, k+"="+val)
				}
				c.Grid = append(c.Grid, kvs)
			}
			return nil
		}},
	learn.Enum("outputs", "members' outputs the static weights see: probabilities or 0/1 (paper)", outputsNames, func(c *Config) *string { return &c.Outputs }),
	learn.Enum("projection", "back to the simplex after each step: the paper's min-max rescaling or the Euclidean projection", projectionNames, func(c *Config) *string { return &c.Projection }),
	learn.Enum("init", "static weights start at 1/(0.6 AIC + 0.4 BIC) of each member or uniform", initNames, func(c *Config) *string { return &c.Init }),
	learn.Enum("weight_data", "rows the static weights are fitted on", weightDataNames, func(c *Config) *string { return &c.WeightData }),
	learn.Enum("schedule", "step size rule of the descent", scheduleNames, func(c *Config) *string { return &c.Schedule }),
	learn.OpenFloat("step_scale", "c of the step c/||g||", 0, 1, func(c *Config) *float64 { return &c.StepScale }),
	learn.Int("max_iter", "passes of the descent at most", 1, func(c *Config) *int { return &c.MaxIter }),
	learn.Float("tol", "stop when the loss changes by at most this share (negative: run max_iter passes)", math.Inf(-1), math.Inf(1), func(c *Config) *float64 { return &c.Tol }),
	learn.Int("batch_size", "rows per descent step (0: all)", 0, func(c *Config) *int { return &c.BatchSize }),
	learn.Enum("likelihood", "dynamic weight rule; log is the paper's literal ratio", likelihoodNames, func(c *Config) *string { return &c.Likelihood }),
	learn.Bool("mixture_weights", "include log pi_l in the likelihood weights", false, func(c *Config) *bool { return &c.MixtureWeights }),
	learn.Bool("dynamic_ensemble", "fix lambda = 1 (the paper's Dynamic Ensemble)", false, func(c *Config) *bool { return &c.DynamicEnsemble }),
	learn.OpenFloat("delta_step", "spacing of the threshold grid", 0, 0.5, func(c *Config) *float64 { return &c.DeltaStep }),
	learn.Enum("metric", "what lambda and delta maximise on validation", metricNames(), func(c *Config) *string { return &c.Metric }),
	learn.OpenFloat("holdout", "share of training rows held out for tuning without validation data", 0, 1, func(c *Config) *float64 { return &c.Holdout }),
	learn.Bool("standardize", "standardise features inside the model", true, func(c *Config) *bool { return &c.NoStandardize }),
}

// triBool declares a boolean parameter whose unset (nil) value takes the
// preset's choice.
func triBool(key, help string, field func(*Config) **bool) learn.ParamSpec[Config] {
	return learn.ParamSpec[Config]{Key: key, Help: help,
		Get: func(c *Config) string {
			if p := *field(c); p != nil {
				return strconv.FormatBool(*p)
			}
			return ""
		},
		Set: func(c *Config, v string) error {
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return fmt.Errorf("want true or false, not %q", v)
			}
			*field(c) = &b
			return nil
		}}
}

func metricNames() []string {
	var names []string
	for _, m := range metrics.AllMetrics() {
		names = append(names, m.String())
	}
	return names
}

// Set sets the option named key from its text form, as the command line's
// --param key=value does. Keys not of AER are the members' parameters
// (for boosted trees eta=0.1 or max_depth=3): they are checked against the
// member method and appended to MemberParams, and, outside a grid given
// with the grid key, train the members with them alone (NoGrid). Errors
// wrap learn.ErrParam.
func (c *Config) Set(key, value string) error {
	if params.Has(key) {
		if err := params.Set(c, key, value); err != nil {
			return fmt.Errorf("aer: %w", err)
		}
		return nil
	}
	name := c.Member
	if name == "" {
		name = boost.MethodName
	}
	m, err := newMember(name)
	if err != nil {
		return fmt.Errorf("%w: %v", learn.ErrParam, err)
	}
	for _, kv := range c.MemberParams {
		k, v, _ := strings.Cut(kv, "=")
		_ = m.Set(k, v) // checked when set
	}
	if err := m.Set(key, value); err != nil {
		return fmt.Errorf("aer: %q is neither an AER parameter nor one of the %s members: %w", key, name, err)
	}
	c.MemberParams = append(c.MemberParams, key+"="+strings.TrimSpace(value))
	if c.Grid == nil {
		c.NoGrid = true // member settings given: train with them alone
	}
	return nil
}

// List describes every parameter, AER's and then its members' (with the
// first grid point's settings), with values and defaults resolved.
func (c *Config) List() []learn.Param { return c.listAgainst(&Config{}) }

// listAgainst is List with the defaults of base (the Dynamic Ensemble's
// differ from AER's).
func (c *Config) listAgainst(base *Config) []learn.Param {
	cur, err := c.resolve()
	if err != nil {
		cur = &resolvedConfig{Config: *c}
	}
	def, _ := base.resolve()
	out := params.List(&cur.Config, &def.Config)
	if len(c.Learners) > 0 {
		return out
	}
	// The members' parameters: values from MemberParams (a grid point sets
	// its own on top), defaults the member method's own.
	member, err := newMember(cur.Member)
	if err != nil {
		return out
	}
	defaults := learn.ParamMap(member.Params())
	for _, kv := range cur.MemberParams {
		k, v, _ := strings.Cut(kv, "=")
		_ = member.Set(k, v) // checked when set
	}
	for _, p := range member.Params() {
		p.Help = "member: " + p.Help
		p.Default = defaults[p.Key]
		out = append(out, p)
	}
	return out
}

// ParsePool reads a pool of mixture sizes: "3", "2-8" or "2,4,6"
// (mixture.ParsePool: increasing, without duplicates).
func ParsePool(s string) ([]int, error) { return mixture.ParsePool(s) }

// formatPool writes a pool as ParsePool reads it, runs as ranges.
func formatPool(pool []int) string {
	var parts []string
	for i := 0; i < len(pool); {
		j := i
		for j+1 < len(pool) && pool[j+1] == pool[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", pool[i], pool[j]))
		} else {
			parts = append(parts, strconv.Itoa(pool[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// formatGrid writes a grid as the grid parameter reads it.
func formatGrid(grid [][]string, none bool) string {
	switch {
	case none:
		return "none"
	case grid == nil:
		return "default"
	}
	points := make([]string, len(grid))
	for i, p := range grid {
		kvs := make([]string, len(p))
		for j, kv := range p {
			kvs[j] = strings.Replace(kv, "=", ":", 1)
		}
		points[i] = strings.Join(kvs, ",")
	}
	return strings.Join(points, ";")
}

// Check reports the first invalid option of c, as Fit would.
func (c *Config) Check() error {
	_, err := c.resolve()
	return err
}

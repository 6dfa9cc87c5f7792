package adaptive

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/aer-go/aer/ensemble"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/mixture"
	"github.com/aer-go/aer/svm"
)

// Config sets up an AER fit. The zero value is the "plus" preset: L in 2..8
// by BIC with 1 restart, automatic covariance, density ranking, Tomek
// cleaning, boosted-tree members with the member's own settings (no grid),
// with one member trained on every row, combined in logit space, static weights by gradient
// descent, tempered likelihood weights, and the temperature and lambda
// chosen at the best validation threshold among the final threshold's
// candidates (PresetPlus). Preset "paper" is the faithful method of
// NOTES.md (PresetPaper). Each part of the preset can be switched on its
// own; a part left at its zero value takes the preset's choice. Seed,
// workers, progress and logging are the caller's run-time choices: they
// come with the learn.Env of Fit and are not part of the configuration a
// model keeps.
//
// A Config encodes to JSON with the members' and peers' methods by name
// (and their settings as text), as models and reports record it.
type Config struct {
	// Preset fills every part below left at its zero value: PresetPlus
	// (the default) or PresetPaper.
	Preset Preset
	// Pool keeps the members of every setting of the member grid in one
	// ensemble, a component's likelihood weight split evenly over its
	// members, instead of keeping the setting whose ensemble does best on
	// validation (the paper's tuning). nil means the preset's choice.
	Pool *bool
	// Global adds, per member setting, one member trained on all the
	// training rows with the classes balanced by row weights (minority
	// rows weighted #majority/#minority, XGBoost's scale_pos_weight for
	// boosted trees). It takes part through its static weight only. nil
	// means the preset's choice.
	Global *bool
	// Peers are methods each trained once, with its own settings, on all
	// the training rows and added to the ensemble as a member with a
	// static weight only, e.g. logistic regression or a balanced random
	// forest: where a simpler model is better, the static weights can lean
	// on it. A peer must be registered (learn.Register) under its name for
	// a saved model to load. Nil means the preset's choice (plus: logreg
	// and svm, logreg alone for three or more classes; paper: none),
	// empty none.
	Peers []learn.Method
	// Space is where the members' outputs are combined; empty means the
	// preset's choice.
	Space Space
	// Thresholds are the threshold candidates of the validation tuning;
	// empty means the preset's choice. Lambda and the likelihood rule are
	// chosen by the metric at their best threshold among the same
	// candidates.
	Thresholds Thresholds
	// DeltaRule is how the threshold delta is chosen once the likelihood
	// rule and lambda are: DeltaTuned (the candidate best for Metric on
	// the validation rows, the paper) or DeltaBayes (a sigmoid calibration
	// of the validation scores, and delta where the calibrated probability
	// equals the training rows' positive share, the Bayes-optimal
	// threshold for balanced accuracy; with another Metric, tuned); empty
	// means the preset's choice.
	DeltaRule DeltaRule
	// Select is what chooses the likelihood rule and lambda on the
	// validation rows: SelectThreshold (the metric at its best threshold,
	// the paper) or SelectAUC (the validation ROC-AUC, which averages over
	// every threshold; the threshold is then the metric's best); empty
	// means the preset's choice.
	Select Select

	// Components is the pool of mixture sizes L; nil means 2..8.
	Components []int
	// Covariance is the mixture's covariance type; empty means
	// CovarianceAuto (full up to 32 features, diag beyond, as the paper's
	// discussion recommends).
	Covariance Covariance
	// Mixture is the family of the mixture's components; empty means
	// MixtureGaussian (the paper's). It stays empty when resolved, so a
	// Gaussian configuration saves as it did before the option existed.
	Mixture MixtureFamily
	// NInit is the number of EM restarts per L; 0 means the preset's
	// choice: 5 for paper (the paper's), 1 for plus. On the 13
	// development datasets x 10 seeds one restart did as well as five
	// (balanced accuracy +0.0002, standard error 0.0022; ROC-AUC +0.0014,
	// 0.0015) at a quarter to a third of the mixture's time
	// (docs/decision.md).
	NInit int
	// SelectRows bounds the majority rows on which the pool of mixture
	// sizes is compared by BIC: with more majority rows, every L is fitted
	// on that many rows drawn at random and only the chosen L again on all
	// of them (mixture.Settings.SelectRows). 0 means the preset's choice:
	// 3,000 for plus, all rows for paper; -1 means all rows. Over the 13
	// development datasets x 10 seeds, 3,000 against 20,000 changed
	// balanced accuracy by +0.0002 (standard error 0.0012) and ROC-AUC by
	// -0.0004 (0.0006), on the four tables with more majority rows than
	// that, and cut pen_digits' mixture from 0.27 to 0.11 s; at 1M
	// training rows the mixture stage took 0.22 s against 0.61 s, with
	// the same test ROC-AUC (docs/speed.md).
	SelectRows int
	// SelectPCs, on tables with more than four times as many features, makes
	// BIC compare the pool of mixture sizes on the majority rows' first
	// SelectPCs principal components with full covariances; the chosen L
	// is then fitted on the features (mixture.Settings.SelectProjection).
	// With diagonal covariances on many features the comparison is
	// decided by components collapsing onto binary features, and costs
	// most of a wide table's fit; on fewer features the full covariances
	// cost more than the diagonal ones they replace (satimage's 36
	// features: 0.11 s against 0.22 s). Over the 13 development datasets
	// x 10 seeds, on the five it changes (64 to 294 features), balanced
	// accuracy moved by -0.0008 per dataset on average, ROC-AUC by -0.003
	// (both within noise: standard errors 0.005 and 0.003), and scene's
	// fit fell from 1.9 to 1.4 s (docs/speed.md). 0 means the preset's
	// choice: 16 for plus, none for paper; -1 means none.
	SelectPCs int
	// RefitRestarts refits the chosen L on all majority rows with NInit
	// restarts from scratch, when SelectRows subsampled; by default the
	// refit is one EM run started from the subsample's fit
	// (mixture.Settings.RefitRestarts).
	RefitRestarts bool
	// MixtureRows bounds the majority rows the mixture is fitted on: with
	// more, it is fitted on that many drawn uniformly at random (the
	// subsets still rank every majority row under it). Its parameters, a
	// few hundred per component, are then estimated from tens of
	// thousands of rows each, while time and memory stop growing with
	// the data. 0 means the preset's choice: 200,000 for plus, all rows
	// for paper; -1 means all rows.
	MixtureRows int
	// PeerRows bounds the training rows each peer is fitted on: with
	// more, a random subsample of that many, every positive row kept up
	// to half of them (a kernel machine's fit grows with the square of
	// its rows). 0 means the preset's choice: 10,000 for plus, all rows
	// for paper (which has no peers); -1 means all rows.
	PeerRows int
	// Fallback lets the ensemble fall back on one member that is not a
	// component's (a global member or a peer) when, on the validation
	// rows, that member's calibrated, class-balanced log-loss is below
	// the ensemble's by more than Fallback paired standard errors: the
	// static weights then put all their weight on it and lambda is 0.
	// 0 means the preset's choice (plus: 2; paper: never); -1 never.
	Fallback float64
	// CrossTune tunes on every training row as well as on the
	// validation rows (without them, instead of a held-out share): the
	// members are fitted CrossTune more times, each without one
	// stratified fold of the rows, and their out-of-fold outputs are
	// tuning rows beside the validation rows (the static weights,
	// lambda, the fallback and the decision layer are fitted on both);
	// the members kept are those fitted on every row. 0 means the
	// preset's choice (plus: 4; paper: never); -1 never (tune on the
	// validation rows alone, or without them hold out Holdout of the
	// rows).
	CrossTune int
	// CrossTuneComponents is the folds of the component members' and
	// the peers' refits when the fit cross-tunes, at most CrossTune: the
	// global members are refitted CrossTune times, the component members
	// (a dozen or two, most of a fit's time) and the peers on stratified
	// folds of their own, fewer times on fewer rows. 0 means the preset's
	// choice (plus: 2); -1 as many as CrossTune (every member on the same
	// folds).
	CrossTuneComponents int
	// CrossTuneMaxBin caps the histogram bins (the member method's
	// max_bin, where it has one) of the members' cross-tuning refits:
	// their outputs only tune the weights and the decision layer, and
	// coarser bins cost those little. 0 means the preset's choice (plus:
	// 32); -1 the members' own.
	CrossTuneMaxBin int
	// CrossTuneBelow limits CrossTune, with validation rows, to those
	// holding fewer than this many positive rows: with more, tuning on
	// them alone is steady enough to skip the CrossTune more member fits
	// (a large table with a large validation file). 0 means the preset's
	// choice (plus: 1,000, above any of the 13 development datasets'
	// 5-211); -1 no limit.
	CrossTuneBelow int
	// Rank orders the majority rows of each component for the subsets;
	// empty means RankDensity.
	Rank Rank
	// LocalRandom is the share of m_k majority rows drawn at random into
	// each local subset; 0 means 0.5 (the paper).
	LocalRandom float64
	// NoTomek keeps the global subsets uncleaned.
	NoTomek bool

	// Member is the method every member is trained with, configured; nil
	// means DefaultMember(), boosted trees. Each grid point trains a fresh
	// method of Member's name set to Member's settings, then MemberParams,
	// then the point's, so Member must be registered under its name
	// (learn.Register) when settings are applied to it, and for a saved
	// model to load.
	Member learn.Method
	// MemberParams are further member parameters as "key=value", applied
	// in order after Member's own settings (for boosted trees, XGBoost's
	// names: "eta=0.1", "max_depth=3"). The fitted configuration records
	// Member's own settings here too.
	MemberParams []string
	// Grid lists alternative member settings, each a list of "key=value"
	// applied after MemberParams: every entry is fitted (members, static
	// weights, tuning) and the one with the best validation metric kept,
	// as the paper tunes its members. Nil means the preset's choice:
	// DefaultGrid() for members of DefaultMember's method (none for
	// others) under paper, no grid (the member's own settings) under plus,
	// unless NoGrid is set. On 13 datasets x 10 seeds plus without the
	// grid scored as well (balanced accuracy +0.0025, standard error
	// 0.0021; ROC-AUC +0.0008, 0.0009) with a quarter of the members
	// (docs/decision.md).
	Grid [][]string
	// NoGrid trains the members with MemberParams alone. Setting a member
	// parameter with Set sets it too.
	NoGrid bool
	// Learners, when not empty, replaces Member, MemberParams and Grid:
	// configured methods, each tried as a grid point (members, static
	// weights, tuning) and the best on validation kept. A model whose
	// members' methods are not registered cannot be loaded back.
	Learners []learn.Method

	// Outputs are the members' outputs the static weights see; empty
	// means OutputsProba.
	Outputs Outputs
	// Projection maps each descent step back to the simplex; empty means
	// the preset's choice.
	// Min-max rescaling is not a projection (it zeroes the smallest weight
	// at every step), yet measured on the paper's 8 datasets (seeds 0-4,
	// members on the union of the subsets) it gives sparser weights and a
	// mean test balanced accuracy of 0.795 against 0.779 for the Euclidean
	// projection, better on 6 of 8 datasets; so it is the default.
	Projection Projection
	// Init is where the static weights start; empty means InitInfo.
	Init Init
	// WeightData is the data the static weights are fitted on: WeightUnion
	// (the union of the 2L subsets, the paper) or WeightValid (the
	// validation rows, on which the members are not over-confident);
	// empty means the preset's choice.
	WeightData WeightData
	// Schedule is the step-size rule of the descent; empty means
	// ScheduleBacktracking.
	Schedule Schedule
	// StepScale is c of the step c/||g||, in (0, 1); 0 means 0.5.
	StepScale float64
	// Tol stops the descent when the loss changes by at most this share
	// in a pass; 0 means 1e-6, a negative value runs MaxIter passes.
	Tol float64
	// MaxIter bounds the passes of the descent; 0 means 1000.
	MaxIter int
	// BatchSize > 0 takes one step per mini-batch of that many rows; 0
	// is full-batch.
	BatchSize int

	// Likelihood is the dynamic weight rule: LikelihoodTempered
	// (softmax(log N / T), T tuned on validation jointly with lambda among
	// TemperedGrid(d) and uniform weights), for instance; empty means the
	// preset's choice.
	Likelihood Likelihood
	// MixtureWeights adds log pi_l to the component log-densities of the
	// dynamic weights.
	MixtureWeights bool
	// DynamicEnsemble fixes lambda = 1 (likelihood weights only): the
	// paper's "Dynamic Ensemble" baseline.
	DynamicEnsemble bool
	// DeltaStep is the spacing of the threshold grid delta = DeltaStep,
	// 2 DeltaStep, ... < 1; 0 means 0.05 (the lambda grid's spacing too).
	DeltaStep float64
	// Metric is what lambda and delta maximise on validation data:
	// "balanced_accuracy" (default), "gmean", "f1", "mcc" or any name
	// metrics.ParseMetric knows.
	Metric string
	// Holdout is the share of training rows held out (stratified) for
	// tuning when Fit gets no validation data; 0 means 0.25, i.e. the
	// 3:1 proportion of train to valid in a 3:1:1 split.
	Holdout float64
	// NoStandardize skips standardisation (means are still imputed).
	NoStandardize bool
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

// DefaultPeerRows is the plus preset's PeerRows.
const DefaultPeerRows = 10_000

// DefaultMixtureRows is the plus preset's MixtureRows.
const DefaultMixtureRows = 200_000

// DefaultSelectRows is the plus preset's SelectRows.
const DefaultSelectRows = 3000

// DefaultSelectPCs is the plus preset's SelectPCs.
const DefaultSelectPCs = 16

// preset holds the choices a preset makes for the parts a Config leaves
// unset.
type preset struct {
	pool, global            bool
	selectRows, mixtureRows int
	selectPCs               int
	peerRows                int
	fallback                float64
	crossTune               int
	crossTuneBelow          int
	crossTuneComponents     int
	crossTuneMaxBin         int
	nInit                   int
	// memberGrid trains the members over DefaultGrid when Config.Grid is
	// nil (the paper); without it, one setting, the member's defaults.
	memberGrid bool
	space      Space
	thresholds Thresholds
	weightData WeightData
	projection Projection
	likelihood Likelihood
	selection  Select
	deltaRule  DeltaRule
	// peers are the names of the peer methods.
	peers []string
	// memberParams are settings of the default member (DefaultMember,
	// when Config.Member is nil), applied before Config.MemberParams.
	memberParams []string
}

var presets = map[Preset]preset{
	PresetPlus: {pool: true, global: true, selectRows: DefaultSelectRows, selectPCs: DefaultSelectPCs, mixtureRows: DefaultMixtureRows, peerRows: DefaultPeerRows, fallback: 2, crossTune: 4, crossTuneComponents: 2, crossTuneMaxBin: 32, crossTuneBelow: 1000, nInit: 1, space: SpaceLogit, thresholds: ThresholdsFine,
		weightData: WeightValid, projection: ProjectionMinMax, likelihood: LikelihoodTempered, selection: SelectAUC, deltaRule: DeltaBayes,
		peers: []string{logreg.MethodName, svm.MethodName}, memberParams: []string{"max_depth=4", "n_estimators=60"}},
	PresetPaper: {selectRows: -1, selectPCs: -1, mixtureRows: -1, nInit: 5, memberGrid: true, space: SpaceProbability, thresholds: ThresholdsGrid,
		weightData: WeightUnion, projection: ProjectionMinMax, likelihood: LikelihoodExp, selection: SelectThreshold, deltaRule: DeltaTuned},
}

// presetPeers returns fresh peer methods of preset p ("" is plus).
func presetPeers(p Preset) ([]learn.Method, error) {
	if p == "" {
		p = PresetPlus
	}
	ps, ok := presets[p]
	if !ok {
		return nil, fmt.Errorf("aer: preset %q: want one of %s", p, joinNames(presetNames))
	}
	peers, err := methodsByName(ps.peers)
	if peers == nil && err == nil {
		peers = []learn.Method{}
	}
	return peers, err
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
	family     mixture.Family
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

// resolve fills in the preset's and the defaults' choices and checks
// every option.
func (c *Config) resolve() (*resolvedConfig, error) {
	r := &resolvedConfig{}
	if c != nil {
		r.Config = *c
	}
	if err := enumDefault("preset", &r.Preset, "", presetNames); err != nil {
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
		peers, err := presetPeers(r.Preset)
		if err != nil {
			return nil, err
		}
		r.Peers = peers
	}
	if err := r.resolveEnums(ps); err != nil {
		return nil, err
	}
	if err := r.resolveMixture(ps); err != nil {
		return nil, err
	}
	if err := r.resolveWeights(); err != nil {
		return nil, err
	}
	if err := r.resolveMembers(ps); err != nil {
		return nil, err
	}
	return r, nil
}

// resolveEnums fills in and checks the enumerated options and parses
// those the ensemble package takes.
func (r *resolvedConfig) resolveEnums(ps preset) error {
	errs := []error{
		enumDefault("covariance", &r.Covariance, "", covNames),
		enumDefault("rank", &r.Rank, "", rankNames),
		enumDefault("outputs", &r.Outputs, "", outputsNames),
		enumDefault("projection", &r.Projection, ps.projection, projectionNames),
		enumDefault("init", &r.Init, "", initNames),
		enumDefault("weight_data", &r.WeightData, ps.weightData, weightDataNames),
		enumDefault("likelihood", &r.Likelihood, ps.likelihood, likelihoodNames),
		enumDefault("schedule", &r.Schedule, "", scheduleNames),
		enumDefault("space", &r.Space, ps.space, spaceNames),
		enumDefault("thresholds", &r.Thresholds, ps.thresholds, thresholdNames),
		enumDefault("select", &r.Select, ps.selection, selectNames),
		enumDefault("delta_rule", &r.DeltaRule, ps.deltaRule, deltaRuleNames),
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	var err error
	if r.cov, err = mixture.ParseCovarianceType(string(r.Covariance)); err != nil {
		return fmt.Errorf("aer: covariance: %w", err)
	}
	if r.Mixture != "" {
		if !slices.Contains(mixtureNames, r.Mixture) {
			return fmt.Errorf("aer: mixture %q: want one of %s", r.Mixture, joinNames(mixtureNames))
		}
		if r.family, err = mixture.ParseFamily(string(r.Mixture)); err != nil {
			return fmt.Errorf("aer: mixture: %w", err)
		}
	}
	r.outputs = map[Outputs]ensemble.OutputKind{OutputsProba: ensemble.Probabilities, OutputsBinary: ensemble.Labels}[r.Outputs]
	r.projection = map[Projection]ensemble.Projection{ProjectionMinMax: ensemble.MinMax, ProjectionSimplex: ensemble.Euclidean}[r.Projection]
	r.init = map[Init]ensemble.InitRule{InitInfo: ensemble.InitInfo, InitUniform: ensemble.InitUniform}[r.Init]
	r.rule = map[Likelihood]ensemble.Rule{LikelihoodExp: ensemble.Exp, LikelihoodLog: ensemble.Log, LikelihoodTempered: ensemble.Tempered, LikelihoodUniform: ensemble.Uniform}[r.Likelihood]
	if err := r.selection.UnmarshalText([]byte(r.Select)); err != nil {
		return fmt.Errorf("aer: %w", err)
	}
	if err := r.space.UnmarshalText([]byte(r.Space)); err != nil {
		return fmt.Errorf("aer: %w", err)
	}
	if err := r.schedule.UnmarshalText([]byte(r.Schedule)); err != nil {
		return fmt.Errorf("aer: %w", err)
	}
	return nil
}

// resolveMixture fills in and checks the options of the mixture and the
// subsets.
func (r *resolvedConfig) resolveMixture(ps preset) error {
	if r.Components == nil {
		r.Components = []int{2, 3, 4, 5, 6, 7, 8}
	}
	if len(r.Components) == 0 {
		return fmt.Errorf("aer: empty pool of mixture sizes")
	}
	for _, l := range r.Components {
		if l < 1 {
			return fmt.Errorf("aer: mixture size %d in the pool is not positive", l)
		}
	}
	if r.NInit == 0 {
		r.NInit = ps.nInit
	}
	if r.Grid == nil && !r.NoGrid && len(r.Learners) == 0 && !ps.memberGrid {
		r.NoGrid = true
	}
	if r.NInit < 0 {
		return fmt.Errorf("aer: n_init %d is negative", r.NInit)
	}
	for _, n := range []struct {
		v                *int
		preset           int
		key, minus, unit string
	}{
		{&r.SelectRows, ps.selectRows, "select_rows", "all rows", "rows"},
		{&r.SelectPCs, ps.selectPCs, "select_pcs", "none", "components"},
		{&r.MixtureRows, ps.mixtureRows, "mixture_rows", "all rows", "rows"},
		{&r.PeerRows, ps.peerRows, "peer_rows", "all rows", "rows"},
	} {
		// 0 takes the preset's; -1 is the value minus says.
		if *n.v == 0 {
			*n.v = n.preset
		}
		if *n.v < -1 {
			return fmt.Errorf("aer: %s %d: want -1 (%s) or a positive number of %s", n.key, *n.v, n.minus, n.unit)
		}
	}
	if r.CrossTune == 0 {
		r.CrossTune = ps.crossTune
	}
	if r.CrossTune == 0 {
		r.CrossTune = -1
	}
	if r.CrossTune < -1 || r.CrossTune == 1 {
		return fmt.Errorf("aer: cross_tune %d: want -1 (never) or 2 or more folds", r.CrossTune)
	}
	if r.CrossTuneComponents == 0 {
		r.CrossTuneComponents = ps.crossTuneComponents
	}
	if r.CrossTuneComponents < -1 || r.CrossTuneComponents == 1 {
		return fmt.Errorf("aer: cross_tune_components %d: want -1 (as many as cross_tune) or 2 or more folds", r.CrossTuneComponents)
	}
	if r.CrossTuneComponents <= 0 || r.CrossTuneComponents > r.CrossTune {
		r.CrossTuneComponents = r.CrossTune
	}
	if r.CrossTuneMaxBin < -1 || r.CrossTuneMaxBin == 1 {
		return fmt.Errorf("aer: cross_tune_max_bin %d: want -1 (the members' own) or 2 or more bins", r.CrossTuneMaxBin)
	}
	if r.CrossTuneMaxBin == 0 {
		r.CrossTuneMaxBin = ps.crossTuneMaxBin
	}
	if r.CrossTuneMaxBin == 0 || r.CrossTune < 2 {
		r.CrossTuneMaxBin = -1
	}
	if r.CrossTuneBelow == 0 {
		r.CrossTuneBelow = ps.crossTuneBelow
	}
	if r.CrossTuneBelow == 0 {
		r.CrossTuneBelow = -1
	}
	if r.CrossTuneBelow < -1 {
		return fmt.Errorf("aer: cross_tune_below %d: want -1 (no limit) or a positive number of validation positives", r.CrossTuneBelow)
	}
	if r.Fallback == 0 {
		r.Fallback = ps.fallback
	}
	if r.Fallback == 0 {
		r.Fallback = -1
	}
	if r.Fallback < 0 && r.Fallback != -1 || math.IsNaN(r.Fallback) {
		return fmt.Errorf("aer: fallback %v: want -1 (never) or a positive number of standard errors", r.Fallback)
	}
	if r.LocalRandom == 0 {
		r.LocalRandom = 0.5
	}
	if r.LocalRandom < 0 {
		return fmt.Errorf("aer: local_random %v is negative", r.LocalRandom)
	}
	return nil
}

// resolveWeights fills in and checks the options of the static weights
// and the tuning.
func (r *resolvedConfig) resolveWeights() error {
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
		return fmt.Errorf("aer: step_scale %v is not in (0, 1)", r.StepScale)
	}
	if r.MaxIter < 0 || r.BatchSize < 0 {
		return fmt.Errorf("aer: max_iter %d or batch_size %d is negative", r.MaxIter, r.BatchSize)
	}
	if r.Metric == "" {
		r.Metric = "balanced_accuracy"
	}
	var err error
	if r.metric, err = metrics.ParseMetric(r.Metric); err != nil {
		return fmt.Errorf("aer: metric: %w", err)
	}
	r.Metric = r.metric.String()
	if r.DeltaStep == 0 {
		r.DeltaStep = 0.05
	}
	if !(r.DeltaStep >= 1e-4 && r.DeltaStep < 0.5) {
		return fmt.Errorf("aer: delta_step %v is not in [0.0001, 0.5) (each step is a candidate threshold)", r.DeltaStep)
	}
	if r.Holdout == 0 {
		r.Holdout = 0.25
	}
	if !(r.Holdout > 0 && r.Holdout < 1) {
		return fmt.Errorf("aer: holdout %v is not in (0, 1)", r.Holdout)
	}
	return nil
}

// resolveMembers configures the member method of every grid point: a
// fresh method of Member's name set to Member's own settings, then
// MemberParams, then the point's settings. Member's own settings, or the
// preset's settings of the default member when Member is nil, join
// MemberParams, which the fitted configuration records.
func (r *resolvedConfig) resolveMembers(ps preset) error {
	if len(r.Learners) > 0 {
		r.learners = r.Learners
		for _, l := range r.Learners {
			r.points = append(r.points, []string{"method=" + l.Name()})
		}
		return nil
	}
	own := presetMemberParams(ps.memberParams, r.MemberParams)
	if r.Member == nil {
		r.Member = DefaultMember()
	} else {
		own = settingsOf(r.Member)
	}
	if len(own) > 0 {
		r.MemberParams = append(slices.Clone(own), r.MemberParams...)
	}
	grid := r.Grid
	switch {
	case r.NoGrid:
		grid = [][]string{nil}
	case grid == nil && r.Member.Name() == DefaultMember().Name():
		grid = DefaultGrid()
	case grid == nil:
		grid = [][]string{nil}
	}
	for _, point := range grid {
		m := r.Member
		if len(r.MemberParams) > 0 || len(point) > 0 {
			var err error
			if m, err = configured(r.Member.Name(), r.MemberParams, point); err != nil {
				return err
			}
		}
		r.learners = append(r.learners, m)
		r.points = append(r.points, point)
	}
	return nil
}

// presetMemberParams returns the settings of preset that params (later,
// the caller's) leave unset: a member parameter the caller gives is not
// recorded twice.
func presetMemberParams(preset, params []string) []string {
	var out []string
	for _, kv := range preset {
		key, _, _ := strings.Cut(kv, "=")
		if !slices.ContainsFunc(params, func(p string) bool {
			k, _, _ := strings.Cut(p, "=")
			return strings.TrimSpace(k) == key
		}) {
			out = append(out, kv)
		}
	}
	return out
}

// Check reports the first invalid option of c, as Fit would.
func (c *Config) Check() error {
	_, err := c.resolve()
	return err
}

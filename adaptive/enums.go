package adaptive

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aer-go/aer/learn"
)

// The enumerated options of a Config are named string types: the zero
// value "" takes the preset's choice (or the option's default), and the
// JSON form is the name itself, as in files and reports written before
// the types existed.

// Preset names a set of defaults for the parts of a Config left unset.
type Preset string

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
	PresetPlus Preset = "plus"
	// PresetPaper is the method of the paper as NOTES.md reads it: one grid
	// setting chosen on validation, probability-space combination of 2L
	// members, exp likelihood weights, static weights on the union of the
	// subsets with the paper's min-max rescaling, lambda and delta on 0.05
	// grids.
	PresetPaper Preset = "paper"
)

// Space is where the members' outputs are combined (Config.Space).
type Space string

// Spaces.
const (
	// SpaceProbability combines probabilities, w.f(x) (the paper).
	SpaceProbability Space = "probability"
	// SpaceLogit combines logits, sigmoid(w.logit f(x)).
	SpaceLogit Space = "logit"
)

// Thresholds are the threshold candidates of the validation tuning
// (Config.Thresholds).
type Thresholds string

// Threshold candidate sets.
const (
	// ThresholdsGrid is DeltaStep, 2 DeltaStep, ... (the paper).
	ThresholdsGrid Thresholds = "grid"
	// ThresholdsFine is 0.01, ..., 0.99 and the validation scores'
	// quantiles 0.5%, ..., 99.5% (the decision layer's candidates).
	ThresholdsFine Thresholds = "fine"
)

// DeltaRule is how the threshold delta is chosen (Config.DeltaRule).
type DeltaRule string

// Threshold rules.
const (
	// DeltaTuned is the candidate best for the metric on validation (the
	// paper).
	DeltaTuned DeltaRule = "tuned"
	// DeltaBayes is where a sigmoid calibration of the validation scores
	// reaches the training rows' positive share.
	DeltaBayes DeltaRule = "bayes"
)

// Select is what chooses the likelihood rule and lambda on the validation
// rows (Config.Select).
type Select string

// Selection statistics.
const (
	// SelectThreshold is the metric at its best threshold (the paper).
	SelectThreshold Select = "threshold"
	// SelectAUC is the validation ROC-AUC.
	SelectAUC Select = "auc"
)

// Covariance is the mixture's covariance type (Config.Covariance).
type Covariance string

// Covariance types.
const (
	// CovarianceAuto is full up to 32 features, diag beyond.
	CovarianceAuto Covariance = "auto"
	// CovarianceFull is one full covariance matrix per component (the
	// paper).
	CovarianceFull Covariance = "full"
	// CovarianceDiag is one diagonal covariance matrix per component.
	CovarianceDiag Covariance = "diag"
	// CovarianceTied is one full covariance matrix shared by every
	// component.
	CovarianceTied Covariance = "tied"
	// CovarianceSpherical is one variance per component.
	CovarianceSpherical Covariance = "spherical"
)

// MixtureFamily is the distribution of the mixture's components
// (Config.Mixture).
type MixtureFamily string

// Mixture families.
const (
	// MixtureGaussian is Gaussian components (the paper).
	MixtureGaussian MixtureFamily = "gaussian"
	// MixtureT is multivariate t components, each with its degrees of
	// freedom estimated (mixture.T).
	MixtureT MixtureFamily = "t"
)

// Rank orders the majority rows of each component for the subsets
// (Config.Rank).
type Rank string

// Rankings.
const (
	// RankDensity ranks by log N(x | mu_l, Sigma_l) (the paper).
	RankDensity Rank = "density"
	// RankResponsibility ranks by the component's responsibility.
	RankResponsibility Rank = "responsibility"
)

// Outputs are the members' outputs the static weights see
// (Config.Outputs).
type Outputs string

// Member outputs.
const (
	// OutputsProba is the members' probabilities.
	OutputsProba Outputs = "proba"
	// OutputsBinary is their 0/1 predictions at 0.5 (the paper's text).
	OutputsBinary Outputs = "binary"
)

// Projection maps each descent step back to the simplex
// (Config.Projection).
type Projection string

// Projections.
const (
	// ProjectionMinMax is the paper's min-max rescaling (Eq. 14).
	ProjectionMinMax Projection = "minmax"
	// ProjectionSimplex is the Euclidean projection onto the simplex.
	ProjectionSimplex Projection = "simplex"
)

// Init is where the static weights start (Config.Init).
type Init string

// Initialisations.
const (
	// InitInfo is 1/(0.6 AIC + 0.4 BIC) of each member.
	InitInfo Init = "info"
	// InitUniform is uniform weights.
	InitUniform Init = "uniform"
)

// WeightData is the data the static weights are fitted on
// (Config.WeightData).
type WeightData string

// Static weight data.
const (
	// WeightUnion is the union of the 2L subsets (the paper).
	WeightUnion WeightData = "union"
	// WeightValid is the validation rows.
	WeightValid WeightData = "valid"
)

// Schedule is the step-size rule of the descent (Config.Schedule).
type Schedule string

// Step-size rules.
const (
	// ScheduleBacktracking retries a step that does not lower the loss
	// with half the step (ensemble.Backtracking).
	ScheduleBacktracking Schedule = "backtracking"
	// ScheduleConstant is the paper's c/||g|| at every step.
	ScheduleConstant Schedule = "constant"
	// ScheduleInvSqrt is c/(sqrt(t) ||g||) at step t.
	ScheduleInvSqrt Schedule = "invsqrt"
)

// Likelihood is the dynamic weight rule (Config.Likelihood).
type Likelihood string

// Dynamic weight rules.
const (
	// LikelihoodExp is N_l(x) / sum_j N_j(x).
	LikelihoodExp Likelihood = "exp"
	// LikelihoodLog is the paper's literal ratio of log-densities, with a
	// per-row fallback to exp.
	LikelihoodLog Likelihood = "log"
	// LikelihoodTempered is softmax(log N / T), T tuned on validation.
	LikelihoodTempered Likelihood = "tempered"
	// LikelihoodUniform is uniform dynamic weights.
	LikelihoodUniform Likelihood = "uniform"
)

// Choices of the enumerated options, the default first.
var (
	presetNames     = []Preset{PresetPlus, PresetPaper}
	spaceNames      = []Space{SpaceProbability, SpaceLogit}
	thresholdNames  = []Thresholds{ThresholdsGrid, ThresholdsFine}
	deltaRuleNames  = []DeltaRule{DeltaTuned, DeltaBayes}
	selectNames     = []Select{SelectThreshold, SelectAUC}
	covNames        = []Covariance{CovarianceAuto, CovarianceFull, CovarianceDiag, CovarianceTied, CovarianceSpherical}
	mixtureNames    = []MixtureFamily{MixtureGaussian, MixtureT}
	rankNames       = []Rank{RankDensity, RankResponsibility}
	outputsNames    = []Outputs{OutputsProba, OutputsBinary}
	projectionNames = []Projection{ProjectionMinMax, ProjectionSimplex}
	initNames       = []Init{InitInfo, InitUniform}
	weightDataNames = []WeightData{WeightUnion, WeightValid}
	scheduleNames   = []Schedule{ScheduleBacktracking, ScheduleConstant, ScheduleInvSqrt}
	likelihoodNames = []Likelihood{LikelihoodExp, LikelihoodLog, LikelihoodTempered, LikelihoodUniform}
)

// enumDefault fills an empty choice with def, else names[0], and checks
// it.
func enumDefault[E ~string](key string, v *E, def E, names []E) error {
	if *v == "" {
		*v = def
	}
	if *v == "" {
		*v = names[0]
	}
	if slices.Contains(names, *v) {
		return nil
	}
	return fmt.Errorf("aer: %s %q: want one of %s", key, *v, joinNames(names))
}

func joinNames[E ~string](names []E) string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = string(n)
	}
	return strings.Join(s, ", ")
}

// enum declares a parameter of a Config taking one of names.
func enum[E ~string](key, help string, names []E, field func(*Config) *E) learn.ParamSpec[Config] {
	return learn.ParamSpec[Config]{Key: key, Help: help + " (" + joinNames(names) + ")",
		Get: func(c *Config) string { return string(*field(c)) },
		Set: func(c *Config, v string) error {
			v = strings.TrimSpace(v)
			if !slices.Contains(names, E(v)) {
				return fmt.Errorf("want one of %s", joinNames(names))
			}
			*field(c) = E(v)
			return nil
		}}
}

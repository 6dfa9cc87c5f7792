package mixture

import (
	"fmt"
	"log/slog"
	"strings"
)

// CovarianceType says how component covariances are parameterised.
type CovarianceType int

const (
	// Full gives each component its own full covariance matrix (the paper's
	// choice). It is the zero value.
	Full CovarianceType = iota
	// Diag gives each component its own diagonal covariance matrix.
	Diag
	// Tied shares one full covariance matrix between all components.
	Tied
	// Spherical gives each component a single variance.
	Spherical
	// Auto chooses Full when the data has at most AutoMaxFull features
	// (Settings.AutoMaxFull, 32 by default) and Diag otherwise: a full
	// covariance has d(d+1)/2 parameters per component, which the majority
	// class of a few thousand rows cannot support once d reaches the
	// hundreds (the paper's Discussion recommends diagonal there).
	Auto
)

// DefaultAutoMaxFull is the largest number of features for which Auto
// chooses full covariances.
const DefaultAutoMaxFull = 32

var covarianceNames = [...]string{Full: "full", Diag: "diag", Tied: "tied", Spherical: "spherical", Auto: "auto"}

// String returns the scikit-learn name of the type ("full", "diag", ...).
func (c CovarianceType) String() string {
	if c < 0 || int(c) >= len(covarianceNames) {
		return fmt.Sprintf("CovarianceType(%d)", int(c))
	}
	return covarianceNames[c]
}

// ParseCovarianceType returns the type named s ("full", "diag", "tied",
// "spherical" or "auto", case-insensitive).
func ParseCovarianceType(s string) (CovarianceType, error) {
	for i, n := range covarianceNames {
		if strings.EqualFold(s, n) {
			return CovarianceType(i), nil
		}
	}
	return 0, fmt.Errorf("mixture: unknown covariance type %q (want full, diag, tied, spherical or auto)", s)
}

// MarshalText implements encoding.TextMarshaler.
func (c CovarianceType) MarshalText() ([]byte, error) {
	if c < 0 || int(c) >= len(covarianceNames) {
		return nil, fmt.Errorf("mixture: invalid covariance type %d", int(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (c *CovarianceType) UnmarshalText(b []byte) error {
	t, err := ParseCovarianceType(string(b))
	if err != nil {
		return err
	}
	*c = t
	return nil
}

// Resolve returns the concrete type used for data with d features: Auto
// becomes Full or Diag, the others are returned unchanged. maxFull is
// Settings.AutoMaxFull (zero means DefaultAutoMaxFull).
func (c CovarianceType) Resolve(d, maxFull int) CovarianceType {
	if c != Auto {
		return c
	}
	if maxFull <= 0 {
		maxFull = DefaultAutoMaxFull
	}
	if d <= maxFull {
		return Full
	}
	return Diag
}

// Init says how EM is started.
type Init int

const (
	// InitKMeans runs k-means (k-means++ seeding, then Lloyd iterations)
	// and starts EM from the hard clustering, like scikit-learn's default
	// init_params="kmeans". It is the zero value.
	InitKMeans Init = iota
	// InitKMeansPP starts from k-means++ seeds alone: each seed row gets
	// responsibility one for its component (scikit-learn's "k-means++").
	InitKMeansPP
)

// Defaults used when a Settings field is zero.
const (
	DefaultMaxIter    = 100
	DefaultTol        = 1e-3
	DefaultRegCovar   = 1e-6
	DefaultKMeansIter = 300
	// DefaultSelectRows is Select's subsample size (Settings.SelectRows).
	DefaultSelectRows = 20000
)

// Settings configures Fit and Select. The zero value, or a nil *Settings,
// means the defaults documented on each field.
type Settings struct {
	// Components is the number of mixture components L for Fit (Select
	// takes its pool as an argument instead). Zero means 1.
	Components int
	// Covariance is the covariance parameterisation; zero is Full.
	Covariance CovarianceType
	// Family is the component distribution; zero is Gaussian.
	Family Family
	// Nu, when positive, fixes every component's degrees of freedom of
	// the T family (1e8 is Gaussian to within rounding); zero estimates
	// them. Gaussian fits ignore it.
	Nu float64
	// AutoMaxFull is the largest number of features for which Auto picks
	// Full; zero means DefaultAutoMaxFull (32).
	AutoMaxFull int
	// NInit is the number of restarts; the one with the highest final
	// log-likelihood is kept. Zero means 1 (scikit-learn's default; the
	// paper uses 5).
	NInit int
	// MaxIter bounds the EM iterations of each restart; zero means 100.
	MaxIter int
	// Tol stops EM when the mean log-likelihood per row changes by less
	// than Tol between iterations; zero means 1e-3 (scikit-learn's
	// default). A negative value never stops early.
	Tol float64
	// RegCovar is added to the diagonal of every covariance matrix so none
	// is singular; zero means 1e-6 (scikit-learn's default) and a negative
	// value means no ridge at all.
	RegCovar float64
	// Init chooses how each restart is started; zero is InitKMeans.
	Init Init
	// KMeansIter bounds Lloyd's iterations in InitKMeans; zero means 300.
	KMeansIter int
	// SelectRows bounds the rows on which Select compares its pool of
	// component counts. With more rows than that, every L of the pool is
	// fitted (with NInit restarts) on SelectRows rows drawn uniformly
	// without replacement, the smallest BIC there chooses L, and only the
	// chosen L is fitted again on all rows, with NInit restarts: the cost
	// of a pool of P sizes falls from P full fits to about one plus P
	// small ones. Zero means DefaultSelectRows (20,000), so data of at most
	// 20,000 rows get exactly the full procedure; a negative value means
	// all rows whatever their number. A pool of one L is always fitted on
	// all rows. Fit ignores it.
	SelectRows int
	// SelectProjection, when positive and below the number of features,
	// makes Select compare its pool on the first SelectProjection
	// principal components of the rows (of the subsample, see SelectRows)
	// with full covariances, and fit the chosen L on the features with
	// Covariance, one EM run started from the projected fit's
	// responsibilities on all rows. On wide data that costs a fraction of
	// the pool's fits on every feature, and the comparison is not decided
	// by components collapsing onto binary features (project.go). Zero
	// compares on the features; Fit ignores it.
	SelectProjection int
	// RefitRestarts makes Select's refit on all rows (see SelectRows) run
	// NInit restarts from scratch. By default the refit is one EM run
	// started from the subsample's chosen fit (its responsibilities on all
	// rows, as Settings.Start): the subsample already found the basin the
	// restarts search for, and EM on all rows only polishes it, at the
	// cost of one fit instead of NInit with k-means each.
	RefitRestarts bool
	// Start, when not nil, starts EM from this model instead of NInit
	// restarts: one run whose first M-step uses the model's
	// responsibilities on x (scikit-learn's warm_start). It must have
	// Components components over x's features; its covariance type may
	// differ. Select ignores it.
	Start *Model
	// Seed seeds every random choice; restart r draws from the stream
	// rng.Derive(Seed, r), so results do not depend on Workers.
	Seed uint64
	// Workers limits the goroutines used (restarts run in parallel, and row
	// blocks within a restart); zero means GOMAXPROCS.
	Workers int
	// Progress, when not nil, is called after every EM iteration of every
	// restart. Calls are serialised, but restarts running in parallel
	// interleave.
	Progress func(Progress)
	// Fitted, when not nil, is called by Select before its first fit and
	// as each fit finishes: done of total fits, the pool's and, when Select
	// compares the pool on a subsample or a projection, the refit on all
	// rows. Calls are serialised; Fit ignores it.
	Fitted func(done, total int)
	// Logger receives debug records about restarts, re-seeded components
	// and extra regularisation; nil discards them.
	Logger *slog.Logger
}

// Progress reports one EM iteration.
type Progress struct {
	Components int     // L being fitted
	Restart    int     // restart index, from 0
	Iteration  int     // EM iteration, from 1
	MeanLogLik float64 // mean log-likelihood per row before this iteration's M-step
	Change     float64 // change from the previous iteration (+Inf at the first)
}

// resolved holds Settings with every default applied.
type resolved struct {
	k, nInit, maxIter, kmIter, workers int
	typ                                CovarianceType
	family                             Family
	nu                                 float64 // fixed nu of the T family, 0: estimated
	tol, reg                           float64
	init                               Init
	seed                               uint64
	progress                           func(Progress)
	logger                             *slog.Logger
	// diag prepares the data for the Diag iterations once per fit (nil:
	// each restart prepares its own).
	diag func() *diagData
	// xt returns the data in 8-row groups (transposeAll), made on first
	// use, when the fit does not make it up front.
	xt func() []float64
	// startResp, when not nil, fills the n*k initial responsibilities
	// (Settings.Start) in place of k-means.
	startResp func(resp []float64) error
}

// Family is the distribution of the mixture's components.
type Family int

const (
	// Gaussian components (the paper's choice). It is the zero value.
	Gaussian Family = iota
	// T gives each component a multivariate t-distribution with its own
	// degrees of freedom nu (Peel & McLachlan 2000), estimated by ECM or
	// fixed by Settings.Nu. Heavy tails keep outlying rows from pulling
	// the means and inflating the covariances; as nu grows the component
	// tends to the Gaussian of the same mean and covariance.
	T
)

var familyNames = [...]string{Gaussian: "gaussian", T: "t"}

// String returns the family's name ("gaussian" or "t").
func (f Family) String() string {
	if f < 0 || int(f) >= len(familyNames) {
		return fmt.Sprintf("Family(%d)", int(f))
	}
	return familyNames[f]
}

// ParseFamily returns the family named s ("gaussian" or "t",
// case-insensitive).
func ParseFamily(s string) (Family, error) {
	for i, n := range familyNames {
		if strings.EqualFold(s, n) {
			return Family(i), nil
		}
	}
	return 0, fmt.Errorf("mixture: unknown family %q (want gaussian or t)", s)
}

// MarshalText implements encoding.TextMarshaler.
func (f Family) MarshalText() ([]byte, error) {
	if f < 0 || int(f) >= len(familyNames) {
		return nil, fmt.Errorf("mixture: invalid family %d", int(f))
	}
	return []byte(f.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (f *Family) UnmarshalText(b []byte) error {
	v, err := ParseFamily(string(b))
	if err != nil {
		return err
	}
	*f = v
	return nil
}

package synth

import (
	"errors"
	"fmt"
	"math"
)

// None asks for zero in a field whose zero value means a non-zero default:
// Settings{Redundant: None} has no redundant features and
// Settings{FlipY: None} no label noise.
const None = -1

// MaxCells bounds Samples*Features (and the random matrices, see
// Settings.Informative), so that a mistyped size fails with an error
// instead of exhausting memory (2^31 cells are 16 GiB of float64).
const MaxCells = 1 << 31

// ErrSettings is wrapped by every error reporting invalid settings.
var ErrSettings = errors.New("invalid settings")

// Settings describes the data to generate. The zero value of every field
// means scikit-learn's default for the matching make_classification
// argument; a nil *Settings means all defaults. The number of classes is
// fixed at 2.
type Settings struct {
	// Samples is the number of rows (n_samples); 0 means 100.
	Samples int

	// Features is the total number of columns (n_features); 0 means 20.
	Features int

	// Informative is the number of informative features (n_informative),
	// the dimension of the hypercube the clusters sit on; 0 means 2.
	// Each cluster draws an Informative x Informative matrix, so
	// 2*Clusters*Informative^2 may not exceed MaxCells.
	Informative int

	// Redundant is the number of random linear combinations of the
	// informative features (n_redundant); 0 means 2, None means none.
	Redundant int

	// Repeated is the number of copies of informative or redundant
	// features, chosen at random with replacement (n_repeated); 0 means
	// none, the default. The remaining Features - Informative - Redundant -
	// Repeated columns are N(0, 1) noise.
	Repeated int

	// Clusters is the number of clusters per class (n_clusters_per_class);
	// 0 means 2. 2*Clusters may not exceed 2^Informative (each cluster takes
	// its own vertex) nor Samples.
	Clusters int

	// Weights are the class proportions (weights): Weights[0] for label 0,
	// Weights[1] for label 1. With one weight, label 1 gets 1 - Weights[0].
	// Two weights must sum to 1. nil means balanced classes, unless Ratio is
	// set. Rows are shared among clusters as make_classification does (see
	// ClassSizes).
	Weights []float64

	// Ratio sets the imbalance ratio majority:minority to Ratio:1, that is
	// Weights {Ratio/(Ratio+1), 1/(Ratio+1)}, so label 1 is the minority.
	// It must be at least 1; 0 means not used. Ratio and Weights exclude
	// each other.
	Ratio float64

	// FlipY is the fraction of rows whose label is replaced by a random
	// label (flip_y), so about FlipY/2 of the labels change; 0 means 0.01,
	// None means no label noise.
	FlipY float64

	// ClassSep is half the side of the hypercube (class_sep): larger values
	// separate the clusters more; 0 means 1.
	ClassSep float64

	// Polytope puts the clusters on the vertices of a random polytope, the
	// hypercube's vertices scaled by a random factor per cluster and per
	// dimension (hypercube=False); false, the default, keeps the hypercube.
	Polytope bool

	// Shift is added to every feature (shift); 0 is the default.
	Shift float64

	// RandomShift shifts each feature by its own value drawn uniformly in
	// [-ClassSep, ClassSep) (shift=None); Shift must then be 0.
	RandomShift bool

	// Scale multiplies every feature after shifting (scale); 0 means 1.
	Scale float64

	// RandomScale multiplies each feature by its own value drawn uniformly
	// in [1, 101) (scale=None); Scale must then be 0.
	RandomScale bool

	// NoShuffle keeps rows in cluster order and columns in the order
	// informative, redundant, repeated, noise (shuffle=False); false, the
	// default, shuffles rows and columns.
	NoShuffle bool
}

// params are Settings with defaults filled in and validated.
type params struct {
	samples, features                    int
	informative, redundant, repeated     int
	useless, clusters                    int // clusters per class
	weights                              [2]float64
	flipY, classSep, shift, scale        float64
	polytope, randShift, randScale, shuf bool
}

func invalid(format string, a ...any) error {
	return fmt.Errorf("synth: %w: %s", ErrSettings, fmt.Sprintf(format, a...))
}

// orDefault returns def for 0, 0 for None and v otherwise.
func orDefault(v, def int) int {
	switch v {
	case 0:
		return def
	case None:
		return 0
	}
	return v
}

// resolve fills in the defaults of s (nil for all defaults) and checks
// the result.
func (s *Settings) resolve() (*params, error) {
	if s == nil {
		s = &Settings{}
	}
	p := &params{
		samples:     orDefault(s.Samples, 100),
		features:    orDefault(s.Features, 20),
		informative: orDefault(s.Informative, 2),
		redundant:   orDefault(s.Redundant, 2),
		repeated:    s.Repeated,
		clusters:    orDefault(s.Clusters, 2),
		classSep:    s.ClassSep,
		shift:       s.Shift,
		scale:       s.Scale,
		polytope:    s.Polytope,
		randShift:   s.RandomShift,
		randScale:   s.RandomScale,
		shuf:        !s.NoShuffle,
	}
	if err := s.checkCounts(); err != nil {
		return nil, err
	}
	if err := p.checkSizes(); err != nil {
		return nil, err
	}
	w, err := s.resolveWeights()
	if err != nil {
		return nil, err
	}
	p.weights = w
	if err := p.resolveScalars(s); err != nil {
		return nil, err
	}
	return p, nil
}

// checkCounts rejects negative counts other than None where allowed.
func (s *Settings) checkCounts() error {
	switch {
	case s.Samples < 0:
		return invalid("samples must be positive, got %d", s.Samples)
	case s.Features < 0:
		return invalid("features must be positive, got %d", s.Features)
	case s.Informative < 0:
		return invalid("informative must be positive, got %d", s.Informative)
	case s.Redundant < 0 && s.Redundant != None:
		return invalid("redundant must be non-negative (or None), got %d", s.Redundant)
	case s.Repeated < 0:
		return invalid("repeated must be non-negative, got %d", s.Repeated)
	case s.Clusters < 0:
		return invalid("clusters per class must be positive, got %d", s.Clusters)
	}
	return nil
}

// checkSizes bounds the matrices by MaxCells, checks that the features
// and clusters fit, and sets the number of useless features.
func (p *params) checkSizes() error {
	if p.samples > MaxCells/p.features {
		return invalid("samples (%d) x features (%d) exceeds %d cells", p.samples, p.features, MaxCells)
	}
	// The random covariance matrices (one informative x informative matrix
	// per cluster) and the redundant mixing matrix are bounded like X.
	if float64(2*p.clusters)*float64(p.informative)*float64(p.informative) > MaxCells {
		return invalid("2 x %d clusters of %d x %d covariance matrices exceed %d cells",
			p.clusters, p.informative, p.informative, MaxCells)
	}
	if float64(p.informative)*float64(p.redundant) > MaxCells {
		return invalid("informative (%d) x redundant (%d) exceeds %d cells", p.informative, p.redundant, MaxCells)
	}
	if used := p.informative + p.redundant + p.repeated; used > p.features {
		return invalid("informative (%d) + redundant (%d) + repeated (%d) = %d exceeds features (%d)",
			p.informative, p.redundant, p.repeated, used, p.features)
	}
	p.useless = p.features - p.informative - p.redundant - p.repeated
	// make_classification's rule: every cluster needs its own vertex.
	if p.informative < 62 && 2*p.clusters > 1<<p.informative {
		return invalid("2 classes x %d clusters per class = %d exceeds 2^informative = %d vertices",
			p.clusters, 2*p.clusters, 1<<p.informative)
	}
	if 2*p.clusters > p.samples {
		return invalid("2 classes x %d clusters per class = %d exceeds samples (%d)",
			p.clusters, 2*p.clusters, p.samples)
	}
	return nil
}

// resolveWeights is the class proportions from Ratio or Weights.
func (s *Settings) resolveWeights() ([2]float64, error) {
	switch {
	case s.Ratio != 0 && s.Weights != nil:
		return [2]float64{}, invalid("set either ratio or weights, not both")
	case s.Ratio != 0:
		if !(s.Ratio >= 1) || math.IsInf(s.Ratio, 0) {
			return [2]float64{}, invalid("ratio (majority:minority) must be a finite number >= 1, got %v", s.Ratio)
		}
		return [2]float64{s.Ratio / (s.Ratio + 1), 1 / (s.Ratio + 1)}, nil
	case s.Weights == nil:
		return [2]float64{0.5, 0.5}, nil
	case len(s.Weights) == 1:
		w := s.Weights[0]
		if !(w >= 0 && w <= 1) {
			return [2]float64{}, invalid("weight of class 0 must be in [0, 1], got %v", w)
		}
		return [2]float64{w, 1 - w}, nil
	case len(s.Weights) == 2:
		for i, w := range s.Weights {
			if !(w >= 0 && w <= 1) {
				return [2]float64{}, invalid("weight of class %d must be in [0, 1], got %v", i, w)
			}
		}
		if sum := s.Weights[0] + s.Weights[1]; math.Abs(sum-1) > 1e-9 {
			return [2]float64{}, invalid("weights must sum to 1, got %v + %v = %v", s.Weights[0], s.Weights[1], sum)
		}
		return [2]float64{s.Weights[0], s.Weights[1]}, nil
	default:
		return [2]float64{}, invalid("weights need 1 or 2 values for 2 classes, got %d", len(s.Weights))
	}
}

// resolveScalars fills in and checks the label noise, class separation,
// shift and scale.
func (p *params) resolveScalars(s *Settings) error {
	switch {
	case s.FlipY == 0:
		p.flipY = 0.01
	case s.FlipY == None:
		p.flipY = 0
	case s.FlipY >= 0 && s.FlipY <= 1:
		p.flipY = s.FlipY
	default:
		return invalid("flip fraction must be in [0, 1] (or None), got %v", s.FlipY)
	}
	switch {
	case s.ClassSep == 0:
		p.classSep = 1
	case !(s.ClassSep > 0) || math.IsInf(s.ClassSep, 0):
		return invalid("class separation must be a finite number > 0, got %v", s.ClassSep)
	}
	switch {
	case math.IsNaN(s.Shift) || math.IsInf(s.Shift, 0):
		return invalid("shift must be finite, got %v", s.Shift)
	case s.RandomShift && s.Shift != 0:
		return invalid("set either shift or random shift, not both")
	}
	switch {
	case s.Scale == 0:
		p.scale = 1
	case !(s.Scale > 0) || math.IsInf(s.Scale, 0):
		return invalid("scale must be a finite number > 0, got %v", s.Scale)
	}
	if s.RandomScale && s.Scale != 0 {
		return invalid("set either scale or random scale, not both")
	}
	return nil
}

// clusterSizes shares the rows among the clusters exactly as
// make_classification does: cluster k belongs to class k%2 and first gets
// int(samples*weight/clustersPerClass) rows (the same float64 operations, so
// the same truncations); the rows left over go one each to clusters 0, 1, 2,
// ... in turn, which alternates between the classes.
func (p *params) clusterSizes() ([]int, error) {
	n := 2 * p.clusters
	sizes := make([]int, n)
	total := 0
	for k := range sizes {
		sizes[k] = int(float64(p.samples) * p.weights[k%2] / float64(p.clusters))
		total += sizes[k]
	}
	if total > p.samples {
		return nil, invalid("weights give %d rows, more than samples (%d)", total, p.samples)
	}
	for i := range p.samples - total {
		sizes[i%n]++
	}
	var class [2]int
	for k, m := range sizes {
		class[k%2] += m
	}
	for c, m := range class {
		if m == 0 {
			return nil, invalid("class %d gets no rows: %d samples with weights %v", c, p.samples, p.weights)
		}
	}
	return sizes, nil
}

// ClassSizes returns the number of rows of each class before label noise,
// computed as make_classification computes them. For example 8000 samples
// with Ratio 79 give {7900, 100}; 777 samples with Ratio 79 and 10 clusters
// per class give {769, 8}, because each cluster's share is truncated and
// the 17 rows left over alternate between the classes.
func (s *Settings) ClassSizes() ([2]int, error) {
	p, err := s.resolve()
	if err != nil {
		return [2]int{}, err
	}
	sizes, err := p.clusterSizes()
	if err != nil {
		return [2]int{}, err
	}
	var class [2]int
	for k, m := range sizes {
		class[k%2] += m
	}
	return class, nil
}

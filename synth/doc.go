// Package synth provides a generator of synthetic imbalanced binary
// classification data, following the algorithm of scikit-learn's
// make_classification (itself Guyon's design for the NIPS 2003 "Madelon"
// set).
//
// Each class is a union of Gaussian clusters. Cluster centroids sit on
// distinct vertices of a hypercube of side 2*ClassSep in the space of the
// informative features (or of a random polytope derived from it). The
// points of a cluster are drawn from N(0, I) and multiplied by a random
// matrix with entries uniform in [-1, 1), which gives each cluster its own
// covariance, then moved to the cluster's vertex. Redundant features are
// random linear combinations of the informative ones, repeated features are
// copies of informative or redundant ones, and the remaining features are
// N(0, 1) noise independent of the label. A fraction of labels is then
// reassigned at random, features are shifted and scaled, and rows and
// columns are shuffled.
//
// The output follows scikit-learn's distributions and class sizes exactly,
// but not its numbers: every random draw comes from aer's own generator
// (internal/rng) seeded by the caller, so the same seed and settings always
// give bit-identical data.
//
// Label 1 is the class given the second weight; with Settings.Ratio it is
// the minority, as the rest of aer expects.
package synth

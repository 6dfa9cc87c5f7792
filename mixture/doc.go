// Package mixture provides Gaussian mixture models fitted by
// expectation-maximisation (EM), the first step of the AER method: the
// majority class is modelled as a mixture of L Gaussians and each component
// later defines a training subset (NOTES.md section 1).
//
// Covariances may be full, diagonal, tied (one matrix shared by all
// components) or spherical (one variance per component), with the same
// definitions, parameter counts and BIC/AIC as scikit-learn's
// GaussianMixture, so numbers compare. All densities are computed in log
// space from the Cholesky factor of each precision matrix, and mixture
// log-likelihoods and responsibilities with log-sum-exp, so nothing
// overflows.
//
// Fitting seeds each restart with k-means++ refined by Lloyd's k-means (as
// scikit-learn's default init), runs EM until the mean log-likelihood
// changes by less than Settings.Tol, and keeps the restart with the highest
// log-likelihood. Select fits every number of components in a pool and picks
// the smallest BIC.
//
// Work is split into fixed blocks of rows whose partial sums are reduced in
// block order, and restarts draw from their own random streams, so a given
// seed and data give bit-identical models whatever the number of workers.
package mixture

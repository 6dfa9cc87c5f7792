// Package mixture provides Gaussian mixture models fitted by
// expectation-maximisation (EM), the first step of the AER method: the
// majority class is modelled as a mixture of L Gaussians and each component
// later defines a training subset (NOTES.md section 1).
//
// Settings.Family T fits a mixture of multivariate t-distributions instead
// (tfit.go): ECM after Peel & McLachlan (2000), each component with its
// own degrees of freedom, estimated or fixed by Settings.Nu, with the same
// covariance types, ridge, re-seeding and BIC; as nu grows it tends to
// the Gaussian mixture (at nu = 1e8 the mean log-likelihoods agree within
// 1e-6).
//
// Covariances may be full, diagonal, tied (one matrix shared by all
// components) or spherical (one variance per component), with the same
// definitions, parameter counts and BIC/AIC as scikit-learn's
// GaussianMixture, so numbers compare; Auto picks full up to 32 features
// and diagonal beyond. All densities are computed in log space from the
// inverse Cholesky factor of each covariance, and mixture log-likelihoods
// and responsibilities with log-sum-exp, so nothing overflows. Full, tied
// and spherical covariances are accumulated about the new means (two
// passes), not as E[xx'] - mu mu'. Diagonal EM iterations on 32 features
// or more work on the data centred on its column means, with one pass for
// the means and variances and the squared distances expanded into sums
// over x^2 and x, as scikit-learn does: a variance where that could cancel
// beyond about 1e-12 relative is recomputed about its mean, a (component,
// feature) term of the densities that could err by more than the golden
// tolerance (1e-9 in total) is computed directly, and an iteration with
// too many such terms takes the exact path. Final scores always use the
// exact per-component densities.
//
// Fitting seeds each restart with k-means++ refined by Lloyd's k-means (as
// scikit-learn's default init), runs EM until the mean log-likelihood
// changes by less than Settings.Tol, and keeps the restart with the highest
// log-likelihood. A component that loses all its points is re-seeded at the
// worst-fitted row, and a covariance that is not positive definite gets a
// larger ridge; both are counted and described in FitResult.Notes. Select
// fits every number of components in a pool and picks the smallest BIC;
// ParsePool reads a pool as aer mixture --components and AER's components
// parameter take it, and FeasiblePool keeps the sizes the rows can
// support (RowsPerComponent).
//
// Speed: rows are processed eight at a time, one per vector lane, by
// AVX2/FMA assembly kernels on amd64 (pure Go elsewhere, or with the
// purego build tag): triangular Mahalanobis products for the E-step, packed
// 4x8 rank-k updates for full covariances, and a vectorised exp. Diagonal
// iterations hold eight components per vector pair instead, so that each
// loaded value serves all of them (ediag6, mdiag8).
//
// Determinism: work is split into fixed blocks of rows whose partial sums
// are reduced in block order, and restart r draws from rng.Derive(Seed, r),
// so a given seed and data give bit-identical models whatever the number
// of workers. (The assembly and pure-Go kernels round differently, so the
// two builds agree closely but not bit for bit.)
package mixture

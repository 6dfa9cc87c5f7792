// Package adaptive provides the AER model: an adaptive ensemble of classifiers
// with regularization for imbalanced binary classification (the paper
// "Adaptive Ensemble of Classifiers with Regularization for Imbalanced Data
// Classification"), composed from the packages of this module:
//
//  1. mixture: a Gaussian mixture fitted to the majority (negative) rows of
//     the training data, its number of components L chosen by BIC;
//  2. resample: per component, a "global" subset (the floor(m_n/L)
//     majority rows most likely under the component plus every minority
//     row, cleaned of Tomek links) and a "local" subset (the m_k most
//     likely majority rows, floor(m_k/2) random majority rows and every
//     minority row);
//  3. boost: one gradient-boosted tree model per subset, 2L members, trained
//     in parallel;
//  4. ensemble: static weights w on the simplex learned by projected
//     gradient descent on the cross-entropy of w.f(x), and per-row
//     likelihood weights l*(x) from the component densities, mixed as
//     w* = lambda l* + (1 - lambda) w; the score w*.f(x) is thresholded at
//     delta, lambda and delta chosen on validation data by a metric.
//
// The members are trained with Config.Member, any learn.Method (nil:
// DefaultMember, boosted trees), and Config.Peers are methods trained once
// on all rows beside them; as text (Config.Set, the command line's
// --param) their parameters have namespaces of their own, member.KEY and
// peer.NAME.KEY, apart from AER's (whose max_iter and tol are the static
// weights' descent's). The enumerated options are named string types
// (Preset, Space, Likelihood, ...) whose zero value takes the preset's
// choice.
//
// Config.Preset picks the defaults: PresetPaper is that method as NOTES.md
// of the project reads it; PresetPlus, the default, goes beyond it (one
// member setting of 60 trees of depth 4 instead of the paper's grid of
// four, one EM restart, a member on all rows, a logistic regression and
// an RBF support vector machine as peers, logit-space combination,
// tempered likelihood weights chosen with lambda by validation ROC-AUC,
// static weights on validation rows and the Bayes threshold of a sigmoid
// calibration, all tuned on the members' out-of-fold outputs of every
// training row beside the validation rows, or in their place without
// them). Each part, and every step the paper leaves ambiguous, is a
// Config option of its own. Fit runs the stages in turn (preparation,
// mixture, subsets, members, static weights, tuning) and returns a Model
// and a Report of every stage; a Model predicts, explains single rows and
// saves to bytes that load back to bit-identical predictions.
//
// Features are imputed with training means and standardised with the
// training mean and standard deviation inside the model, so raw rows (with
// missing values) can be given to every method.
package adaptive

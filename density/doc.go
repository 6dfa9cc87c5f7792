// Package density gives any fitted model an out-of-distribution score:
// a Gaussian mixture fitted, after the model, to a few thousand of its
// training rows of every class, on the features as the model sees them
// (missing values imputed by the training means, then standardised),
// the number of components chosen by BIC from a small pool (1-4, 6, 8) and
// the covariances full up to 32 features and diagonal beyond, as AER's
// covariance=auto does.
//
// A row's score is minus its log-density under the mixture (higher is
// farther from the training data); the threshold is the (1 - Alpha)
// quantile of the scores of rows the mixture was not fitted on: the
// validation rows when the fit had some, else training rows held out of
// the mixture's sample (Model.ThresholdOn says which), so that about
// Alpha (1%) of rows like the training data are flagged.
//
// AER fits its own mixture of the majority class and scores rows by it
// (package adaptive); package aer fits this density for every model
// without a score of its own (gbdt, logreg, svm, balanced-rf, the
// multi-class models) and keeps it in the model file's header. Wrap puts
// it in a two-class model's chain, where learn.OODOf finds it.
package density

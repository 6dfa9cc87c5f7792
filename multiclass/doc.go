// Package multiclass fits any binary method to multi-class labels by
// decomposition: one-vs-rest, one binary model per class with their
// probabilities normalised, or one-vs-one, one per pair of classes with
// the pairwise probabilities coupled into class probabilities (Wu, Lin
// and Weng's method, as LIBSVM does). Each binary model gets the
// decision layer aer fit gives it (a calibration fitted on its
// validation rows), so that the probabilities being combined are
// calibrated. The resulting Model is a learn.MultiModel.
package multiclass

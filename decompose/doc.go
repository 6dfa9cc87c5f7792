// Package decompose fits any two-class method to three or more classes
// by decomposition: one-vs-rest, one two-class model per class with
// their probabilities normalised, or one-vs-one, one per pair of classes
// with the pairwise probabilities coupled into class probabilities (Wu,
// Lin and Weng's method, as LIBSVM does). Each two-class model gets the
// decision layer aer fit gives it (a calibration fitted on its
// validation rows), so that the probabilities being combined are
// calibrated. The resulting Model is a learn.Model of k classes. Native
// names the other way to fit k classes, the method's own model, and
// DefaultStrategy which of the three a method takes by default;
// package pipeline runs them (Plan.Fit).
package decompose

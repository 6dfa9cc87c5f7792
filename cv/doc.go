// Package cv estimates how a method does on unseen rows by stratified
// k-fold cross-validation: the rows are dealt into k folds that keep the
// class balance, each fold in turn is scored by a model fitted on the
// others, and the out-of-fold probabilities and per-fold metrics come
// back, optionally for several repeats with different fold assignments.
// One path serves any number of classes: a model of two classes decides
// at its threshold, one of more by its decision; each fold is scored by
// the metrics of its number of classes, and any metric of package
// metrics' table (a registered one too) is reported by name.
//
// The fitting itself is a function the caller supplies (a method, a grid
// search in front of it, a decision layer after it), so any registered
// method and any of aer fit's tuning can be cross-validated the same way.
// Every random choice (fold assignment, validation hold-out, the fits'
// seeds) is derived from one seed, and the folds of a run may be fitted in
// parallel without changing any number.
package cv

// Package cv estimates how a method does on unseen rows by stratified
// k-fold cross-validation: the rows are dealt into k folds that keep the
// class balance, each fold in turn is scored by a model fitted on the
// others, and the out-of-fold scores and per-fold metrics come back,
// optionally for several repeats with different fold assignments.
//
// The fitting itself is a function the caller supplies (a method, a grid
// search in front of it, a decision layer after it), so any registered
// method and any of aer fit's tuning can be cross-validated the same way.
// Every random choice (fold assignment, validation hold-out, the fits'
// seeds) is derived from one seed, and the folds of a run may be fitted in
// parallel without changing any number.
package cv

// Package explain provides global feature importances of any fitted
// model: permutation importance (how much a metric drops when one
// feature's values are shuffled across the rows of a labelled data set),
// which needs only the model's scores, and the mean absolute attribution
// of models that offer per-row attributions (learn.Attributor, such as
// TreeSHAP values).
//
// Permutation importance is seeded: shuffle r of feature j draws from its
// own stream of the seed, so the result does not depend on the number of
// workers.
package explain

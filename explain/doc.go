// Package explain provides explanations of any fitted model: global
// feature importances and the per-row attributions that aer explain and
// aer serve show.
//
// Global importances (Global) are permutation importance (how much a
// metric drops when one feature's values are shuffled across the rows of
// a labelled data set, Permutation), which needs only the model's scores;
// the mean absolute attribution of models that offer per-row attributions
// (learn.Attributor, such as TreeSHAP values; MeanAbs); and the model's
// built-in importances (learn.ImportancesOf).
//
// Row turns one row of a model's attributions into what a person reads:
// one value per column (a categorical column's one-hot attributions
// summed, its value named), the largest by absolute value first.
//
// Models of any number of classes go through the same functions. A
// two-class model's permutation importance is of its scores (ROC-AUC) or
// of a metric at its threshold; that of a model of three or more classes
// is of the macro balanced accuracy of its decision
// (PermutationSettings.Decide), and its per-row attributions are per
// class (learn.AttributeClasses).
//
// Permutation importance is seeded: shuffle r of feature j draws from its
// own stream of the seed, so the result does not depend on the number of
// workers.
package explain

// Package stattest provides the hypothesis tests used to compare classifiers
// in aer: McNemar's test on the paired correctness of two classifiers, the
// Wilcoxon signed-rank test on paired per-row (or per-dataset) quantities,
// and, across several datasets, Friedman's test with the Iman-Davenport
// correction and the Nemenyi post-hoc critical difference (Demsar 2006).
//
// The tests follow the conventions of the Python stack the paper used, so
// results can be checked against it: McNemar as in statsmodels
// (statsmodels.stats.contingency_tables.mcnemar), Wilcoxon as in SciPy 1.10
// (scipy.stats.wilcoxon, including its zero methods and its choice between
// the exact and the normal distribution), Friedman as in
// scipy.stats.friedmanchisquare. Where those libraries produce a division by
// zero or a silent NaN, this package returns a documented value or an error
// instead.
//
// Distributions come from gonum.org/v1/gonum/stat/distuv and
// gonum.org/v1/gonum/mathext. Bad input (length mismatches, NaN, too few
// observations) is reported as an error, never a panic.
package stattest

// Package metrics provides the evaluation measures of imbalanced
// classification used by aer: the confusion matrix and the metrics built on
// it, the threshold-free ROC-AUC and average precision, a Report that
// gathers them all with JSON that never hides an undefined value, and
// threshold sweeps for plots and for choosing a decision threshold.
//
// # The table of metrics
//
// Every metric has one entry in a table (Metric, Def), looked up by name
// (Lookup; ParseMetric for those of a two-class Confusion) by the
// decision layer, cv and bench, and extended by Register. A metric scores
// an Outcome, a k x k confusion matrix with its rows, for any number of
// classes; two classes are k = 2, and a metric may give its two-class
// formula on a Confusion (Def.TwoClass), which threshold sweeps use and
// which is what it returns for two classes.
//
// Labels are 0 and 1; the minority class is the positive class, label 1 (the
// paper's "key" class). A score is a number that grows with the belief that
// a row is positive, usually a probability; a row is predicted positive when
// its score is at least the threshold.
//
// # Names
//
// The paper's "G-mean" is sqrt(precision * recall), the Fowlkes-Mallows
// index; here it is called FowlkesMallows (JSON "fowlkes_mallows"). The
// usual G-mean, sqrt(TPR * TNR), is GMean (JSON "gmean"). The paper's
// "TP-FP ratio" is TPR / FPR, the positive likelihood ratio, TPFPRatio
// (JSON "tp_fp_ratio").
//
// # Zero denominators
//
// Every metric is defined on every confusion matrix. Precision, recall and
// F1 follow scikit-learn's zero_division=0: a 0/0 ratio is 0. Balanced
// accuracy averages the recalls of the classes present in the labels, as
// scikit-learn's balanced_accuracy_score does. MCC is 0 when its
// denominator is 0, as in scikit-learn. TPFPRatio is +Inf when there are
// true positives but no false positives, and NaN when it is 0/0 or a class
// is absent. ROC-AUC is NaN when a class is absent and average precision is
// NaN when there are no positive labels (scikit-learn returns 0 there with
// a warning). A Report records why in its Notes, and its JSON writes null
// for every NaN or infinite value, since JSON has neither.
//
// # Weights
//
// Functions that take labels also take row weights w, as gonum's stat.ROC
// does: nil means every row weighs 1. A weight counts its row as if it
// were repeated that many times: the counts of a Confusion become sums of
// weights, and with whole weights (summing below 2^53) every result
// equals, bit for bit, the unweighted result on the rows repeated.
// Weighted ROC-AUC and average precision equal scikit-learn's
// roc_auc_score and average_precision_score with sample_weight. A row of
// weight 0 is the same as no row.
//
// Functions that take labels and scores panic on misuse (slices of
// different lengths, a label other than 0 or 1, a NaN score, a negative or
// non-finite weight); call Validate first on data that comes from a user.
package metrics

// Package predfile reads and writes the files of predictions and scores
// that aer's commands exchange: what aer predict writes and aer eval and
// aer compare read, and the tables of scores by dataset and method that
// aer compare --friedman reads.
//
// A predictions file (Predictions: aer predict writes it, aer eval and aer
// compare read it) has the columns label, score, pred and weight, label
// and pred holding class names: the training file's label values, or 0
// and 1. Its positive class is named by PredictionsOptions.Positive, else
// 1 for 0/1 files, else inferred from the scores of the pred values, else
// the rarer label (LoadPredictionsWith). A multi-class predictions file
// (MultiPredictions) has a score_<class> column per class instead of one
// score. An optional first column of row identifiers, under any name, is
// carried through.
//
// Files are read by package dataset's one row parser, so errors name the
// file, line, column and value as a table's do and wrap dataset's sentinel
// errors (dataset.ErrNotNumber, ...) besides this package's own.
package predfile

// Package dataset provides the tabular data of aer: reading labelled CSV,
// gzip-compressed CSV and Parquet files with errors that name file, line,
// column and value; binary labels with a chosen positive (minority) class;
// missing values; categorical (string) columns, one-hot encoded; id,
// weight and dropped columns; standardisation and mean imputation fitted
// on training rows; stratified train/valid/test splits and k-fold
// partitions drawn from a seed; predictions files; and tables of scores by
// dataset and method (ReadScores).
//
// A CSV file has a header row, numeric feature columns, a label column
// (named by Options.Label, else "label", else the last column) and an
// optional "split" column whose values (train, valid, test) are kept apart
// from the features. Empty cells and NA, NaN, N/A, null, <NA>, #N/A and ?
// (any case) are missing values and load as NaN; infinite values are
// rejected.
//
// A predictions file (Predictions: aer predict writes it, aer eval and aer
// compare read it) has the columns label, score, pred and weight, label
// and pred holding class names: the training file's label values, or 0
// and 1. Its positive class is named by PredictionsOptions.Positive, else
// 1 for 0/1 files, else inferred from the scores of the pred values, else
// the rarer label (LoadPredictionsWith).
//
// Every format is read by one row parser: a row source (CSV text, the rows
// of a Parquet file) yields text cells, and the parser settles the column
// roles once from the header and turns each row into numbers without
// allocating per cell. Read and Decode gather every row into a Dataset;
// Stream hands them out in batches of bounded size, for files larger than
// memory (aer predict); DecodeProfile describes each column on the way
// (aer info).
package dataset

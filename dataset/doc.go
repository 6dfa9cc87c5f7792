// Package dataset provides the tabular data of aer: reading labelled CSV,
// gzip-compressed CSV and Parquet files (and any format registered with
// RegisterFormat) with errors that name file, line, column and value;
// labels of two classes (a chosen positive, minority, class) or more;
// missing values; categorical (string) columns, one-hot encoded; id,
// weight and dropped columns; standardisation and mean imputation fitted
// on training rows; stratified train/valid/test splits and k-fold
// partitions drawn from a seed. Files of predictions and of scores are
// package predfile's.
//
// A CSV file has a header row, numeric feature columns, a label column
// (named by Options.Label, else "label", else the last column) and an
// optional "split" column whose values (train, valid, test) are kept apart
// from the features. Empty cells and NA, NaN, N/A, null, <NA>, #N/A and ?
// (any case) are missing values and load as NaN; infinite values are
// rejected.
//
// Every format is read by one row parser: a row source (CSV text, the rows
// of a Parquet file) yields text cells, and the parser settles the column
// roles once from the header and turns each row into numbers without
// allocating per cell. Read and Decode gather every row into a Dataset;
// Stream hands them out in batches of bounded size, for files larger than
// memory (aer predict); DecodeProfile describes each column on the way
// (aer info).
package dataset

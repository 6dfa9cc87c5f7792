// Package predict scores data files with an aer model file on Apache
// Beam: the files a pattern matches (local, gs://, s3:// where Beam's
// file systems reach) are read one per element, each scored as aer
// predict scores a file (aer.Model.PredictStream: bounded memory,
// gzip-compressed CSV and Parquet told by their first bytes) into an
// output shard PREFIX-HHHHHHHHHHHHHHHH.csv named by a hash of the input's
// path, with the columns aer predict writes (the id first when the model
// has one).
package predict

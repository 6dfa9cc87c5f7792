// Package predict scores data files with an aer model file on Apache
// Beam: the files a pattern matches (local, gs://, s3:// where Beam's
// file systems reach) are read one per element, each scored as aer
// predict scores a file (aer.Model.PredictStream: bounded memory,
// gzip-compressed CSV and Parquet told by their first bytes) into its
// own output shard, with the columns aer predict writes (the id first
// when the model has one).
//
// A shard is named after its input: data/part-007.csv is scored into
// OUT/part-007.pred.csv (ShardNames; inputs of the same name in
// different folders take their folders into the name). The shards are
// written under temporary names and renamed into place by Commit only
// once every file is scored, with OUT/manifest.json, the map from each
// input to its shard with its rows; a failed run leaves no shard behind
// (Abort).
package predict

// Package fit is AER's distributed fit on Apache Beam: Pipeline reads
// training files a pattern matches (CSV, gzip-compressed CSV, Parquet;
// any file system Beam reaches), fits AER with its stages spread over
// the workers (column sums, the mixture on a sample, each row ranked
// under each component, the subsets' cuts found by GroupByKey on the
// component, every member trained on one worker with its subset's rows)
// and writes one model file, the one aer fit writes: aer predict, aer
// serve and the library read it.
//
// It is built on the library's staged fit (adaptive.Staged), which run
// in one place gives Fit's model byte for byte, and on engine.Assemble
// for the decision layer. What differs from aer fit, and why, is in
// docs/beam.md.
package fit

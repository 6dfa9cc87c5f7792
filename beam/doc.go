// Package beam holds aer's Apache Beam pipelines, in a module of their
// own so that the core module, the aer binary and its CI gain no
// dependency: the pipelines run in-process on the Prism runner (tests,
// one machine) and on Flink, Spark or Dataflow for real, where the
// program is its own worker binary (beam.Init switches it into worker
// mode).
//
//   - package predict: batch scoring of files matched by a pattern with
//     an aer model file, one output shard per input file;
//   - command aer-beam: the pipelines from the command line.
package beam

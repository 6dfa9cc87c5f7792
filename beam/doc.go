// Package beam holds aer's Apache Beam pipelines, in a module of their
// own so that the core module, the aer binary and its CI gain no
// dependency: the pipelines run in-process on the Prism runner (tests,
// one machine) and on Flink, Spark or Dataflow for real, where the
// program is its own worker binary (beam.Init switches it into worker
// mode).
//
//   - package fit: AER's fit spread over the workers, writing the model
//     file aer fit writes;
//   - package predict: batch scoring of files matched by a pattern with
//     an aer model file, one output shard per input file, named after
//     it, and a manifest mapping each input to its shard;
//   - command aer-beam: the pipelines from the command line.
package beam

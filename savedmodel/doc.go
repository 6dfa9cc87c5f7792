// Package savedmodel opens a model file written by aer fit as a model
// ready to score: the container checked by package modelfile (magic,
// version, checksum), the payload decoded by the method registered under
// the header's method name (package learn's registry; this package names
// no method), and the decision layer fitted on validation rows, when the
// file has one, attached in front of the model.
//
// The command line (aer predict, aer explain) and the server (package
// serve) load models through this one path, so a file scores the same
// everywhere, at the same threshold.
package savedmodel

// Package engine is for programs that fit a model's method elsewhere than
// aer.Fit does, and need the model Fit would have returned: a distributed
// engine (aer-beam's AER fit over Apache Beam, built on
// adaptive.Staged) fits the method where the data are, then Assemble fits
// the decision layer on validation rows as Fit does and makes the model
// and its file, which aer predict, aer serve and the library read as any
// other.
//
// Users of the library need none of it: aer.Fit fits and assembles in one
// call.
package engine

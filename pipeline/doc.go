// Package pipeline is the one fit protocol of aer: a method with its
// parameters, an optional grid search over them, and the decision layer
// fitted on validation rows, composed as learn.Method wrappers
// (search.Grid inside decision.Layered) and run by Fit. aer fit, aer cv,
// aer bench and the library's aer.Fit all fit through it, so a method is
// fitted the same way wherever it is fitted.
//
// A Spec describes a fit in the words of the command line (a registered
// method name, key=value parameters, key=v1,v2 grid axes or "paper", and
// the decision options); Spec.Method builds the composition. Fit runs any
// composition and reports what it found: the chosen method, the model
// (behind its decision layer), the grid's outcome and the layer.
package pipeline

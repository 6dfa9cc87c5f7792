// Package learn provides the one contract every classifier of this module
// implements, and the registry through which the command line, the
// benchmark harness and the server reach them.
//
// A Method is a configured algorithm: it has a name, parameters set one at
// a time from text (Set, as aer fit --param key=value does) and listed with
// their values, defaults and help (Params), and it fits a Model on Data
// without changing itself, so one configured Method can be fitted on many
// splits. What the caller decides at run time (seed, workers, progress,
// logger) travels in an Env and is never saved in a model.
//
// A Model gives every class's probability for rows of features (k per
// row: two classes or more), knows its numbers of classes and features,
// and encodes itself to bytes that the Method's Load reads back. A
// two-class model is also a Scorer, whose PositiveProba gives the
// positive class's probability alone: the fast path of the two-class
// decision layer and reports. A Method fits two classes (Fit); one that
// fits three or more itself is a ClassFitter (FitClasses, LoadClasses),
// and any other is fitted on them by decomposition (package decompose). Behaviour only some models have is declared by small
// interfaces: Thresholder (a tuned decision threshold), Explainer (a
// per-row explanation), Attributor (per-row feature attributions that sum
// to the model's output, in logit or probability Space), Importancer
// (built-in global importances), Summarizer (what the fit found), Sizer (a
// parameter count, for AIC and BIC), Inspector (an ensemble's members).
//
// # Wrappers and capabilities
//
// A model that wraps another on the same features (a decision layer, a
// resampling or preprocessing composition) embeds Wrapped, which gives it
// Unwrap, NumFeatures and PositiveProba (the inner model's), and writes
// only what it changes; it never forwards a capability by hand. Callers
// find a capability by walking the chain of Unwrap from the outer model
// inwards, as net/http.ResponseController finds a ResponseWriter's
// optional methods, with Find, As and the helpers built on them
// (ThresholdOf, TunedThreshold, ExplainerOf, Attribute, SummaryOf,
// WarningsOf, NumParams, ImportancesOf, MembersOf); never by a type assertion on the
// outer model.
//
// A capability of an inner model is only taken when it holds for the
// outer model's rows and scores, so each wrapper declares what it changes
// (Wrapped.Changed, the Changer interface):
//   - InputChanged: the inner model sees transformed rows, each feature
//     into the same feature (imputation, standardisation);
//   - ScoreChanged: the outer probabilities are not the inner model's (a
//     calibration).
//
// The walk stops at a wrapper that changes what a capability depends on:
//   - the threshold (Thresholder) depends on the score: the walk stops at
//     ScoreChanged, since an inner threshold is not the threshold of a
//     calibrated score;
//   - per-row explanations and attributions (Explainer, Attributor) take
//     raw rows and explain the score: the walk stops at InputChanged or
//     ScoreChanged. A wrapper that transforms rows feature by feature
//     attributes itself, with AttributeInner on the rows it transforms
//     (feature j is still feature j), and one that changes the score
//     where its change maps attributions exactly (a sigmoid calibration
//     of the log-odds is linear in them);
//   - the make-up of the model and its fit (Summarizer, Warner, Sizer,
//     Importancer, Inspector) holds whatever a wrapper changes: As walks the whole
//     chain. A wrapper with a report of its own implements Summarizer and
//     includes SummaryOf its inner model.
//
// A wrapper's own capability is always found first: a decision layer
// that calibrates the score has its own threshold. A new capability says
// once, in its helper, which changes it stops at (Find's stop argument).
//
// A Method that wraps another embeds WrappedMethod (the inner method's
// name, description and parameters, and Unwrap). The capabilities of a
// Method (Gridder, MemoryEstimator, MappedFitter) describe how it fits,
// which a wrapper changes: each wrapper offers those that hold for it.
//
// Methods are registered once at start-up with Register, one line per
// method (package methods of this module lists them all), the way
// image.RegisterFormat and database/sql.Register work; New returns a fresh
// Method by name. Parameters of a settings struct are declared once, with
// typed setters and help text, as a ParamTable.
package learn

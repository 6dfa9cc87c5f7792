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
// A Model gives positive-class probabilities for rows of features, knows
// its number of features and encodes itself to bytes that the Method's
// Load reads back. Behaviour only some models have is found by type
// assertion on small interfaces: Thresholder (a tuned decision threshold),
// Explainer (a per-row explanation), Attributor (per-row feature
// attributions that sum to the model's output, in logit or probability
// Space), Importancer (built-in global importances), Summarizer (what the
// fit found), Sizer (a parameter count, for AIC and BIC). A model that
// wraps another on the same features (a decision layer, a resampling or
// preprocessing composition) forwards Attribute to it and is an
// Unwrapper.
//
// Methods are registered once at start-up with Register, one line per
// method (package methods of this module lists them all), the way
// image.RegisterFormat and database/sql.Register work; New returns a fresh
// Method by name. Parameters of a settings struct are declared once, with
// typed setters and help text, as a ParamTable.
package learn

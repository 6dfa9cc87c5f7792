// Package serve provides an HTTP server for saved aer models: an
// http.Handler that scores rows sent as JSON or CSV with models loaded
// through the method registry (aer.Load), describes the models,
// reloads them without a restart, and reports health and Prometheus
// metrics.
//
// Routes:
//
//	POST /v1/predict                 score with the model (one model served)
//	POST /v1/models/{name}/predict   score with model name
//	GET  /v1/models                  every model's schema, method, parameters, threshold, checksum
//	GET  /v1/models/{name}           one model's
//	POST /v1/models/{name}/reload    reload model name from its file
//	GET  /healthz                    200 while the process runs
//	GET  /readyz                     200 when serving, 503 once shutting down
//	GET  /metrics                    Prometheus text format
//
// A predict request is JSON, {"rows": [[1.5, 2, null], ...]} with values
// in the model's column order, or {"rows": [{"x1": 1.5, ...}, ...]}
// keyed by column name; or CSV (Content-Type: text/csv) with a header row
// of column names. null (JSON) or an empty cell, "?", "NA", "N/A" or
// "NaN" (CSV) is a missing value; the training data's label and weight
// columns may be sent and are ignored. A field (JSON) or column (CSV)
// the model does not use is ignored too, whatever it holds, as aer
// predict ignores such a column, and named in the answer's Ignored
// (counted in the metric aer_ignored_columns_total); with
// Options.StrictColumns it is refused instead. The answer gives each row's
// score, its predicted label in the training data's label values at the
// model's threshold (the decision layer's, else the method's own, else
// 0.5), and the threshold; for a model that can tell (AER fitted by this
// version) each row's out-of-distribution score and flag ("ood") and
// their threshold, flagged rows counted in the metric aer_ood_rows_total.
//
// A model's columns are its features, but for a model fitted on
// categorical columns (dataset.Schema.Categories): each is sent by its
// raw name and value (a string, or a number compared in canonical form)
// and one-hot encoded here as aer predict encodes it; array rows follow
// ModelInfo.Columns, and CSV bodies are read by package dataset exactly
// as aer predict reads a file. A value the model did not see encodes to
// all zeros, like a missing one, and is listed in the row's Unseen. A row
// may carry the model's id column (Schema.ID), echoed in its answer.
//
// With "explain": true (CSV: the query ?explain=true) each row's answer
// has its feature attributions (Prediction.Features: the "top" largest,
// default 10, a categorical column's one-hot attributions summed) and
// the method's own breakdown (Prediction.Explanation), whichever the
// model offers.
//
// A request that cannot be scored gets a JSON error,
// {"error": "...", "row": 3, "field": "x1"}, with status 400 (malformed
// JSON or CSV, a wrong number of values, a missing feature (or, with
// Options.StrictColumns, one the model does not use), a value that is
// not a finite number, a row the model cannot score), 404
// (unknown model or route), 405 (wrong method), 413 (body or batch over
// the limits), 415 (neither JSON nor CSV) or 503 (over the concurrency
// limit, with Retry-After). See Error.
//
// Reloading (Server.Reload, ReloadAll on SIGHUP, or the reload route)
// loads the new file first and swaps it in atomically: a request scores
// with one model from start to end, and a file that cannot be loaded
// leaves the old model serving, logs why and counts a failed reload.
package serve

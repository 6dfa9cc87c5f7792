// Package bench provides aer's benchmark harness: the paper's experiment
// (NOTES.md sections 6-7) on any folder of datasets, for any methods of the
// registry.
//
// Run fits every method spec (a registered method and parameters set on it,
// "aer:preset=paper") on every dataset and seed: a stratified 3:1:1 split
// per seed (the Python anchors' split, row for row, or the dataset's own
// split column), features standardised with the training rows' means and
// deviations, every method behind aer fit's default decision layer for
// balanced accuracy (calibrated scores and the Bayes threshold; or, with
// Config.ThresholdRule tuned, the anchors' tuned threshold), optionally
// each method's paper grid. It writes
//
//	runs.csv                          one row per dataset, method and seed: every metric, timings, peak heap
//	preds/<dataset>/<method>/<seed>.csv  the test predictions ([id,]label,score,pred as aer predict writes them)
//	tests.csv                         McNemar and Wilcoxon tests of the reference method against each other
//	summaries/<dataset>/<method>/<seed>.json  what the AER figures need of a fit's summary
//	report.md, report.html            per-dataset tables, tests, mean ranks, Friedman and Nemenyi
//	figures/*.svg, *.png              ROC, precision-recall, reliability, critical difference; for
//	                                  AER, its weight strip and tuning curves (lambda, delta)
//
// A bench is resumable: a run already in runs.csv with the same settings
// hash (data file content, spec and resolved parameters, grid, protocol)
// and a predictions file is not run again; a changed setting is a new run.
// Runs may go in parallel (Config.Jobs) with results identical to a serial
// bench, since every random choice of a run flows from its seed.
//
// The AER figures (NOTES.md section 7) come from the fitted model's
// learn.Summarizer summary, read through its JSON form: any method whose
// summary has a combiner's static weights or a tune's by_lambda and
// by_delta curves gets them; bench knows no method by name. Each figure
// circles the point the summary's rules chose and says which rule chose
// it: lambda by validation ROC-AUC (select=auc, drawn beside the metric it
// did not choose) or by the metric at its best delta; delta by the Bayes
// rule of a sigmoid calibration (delta_rule=bayes) or as the metric
// curve's best point.
//
// With the Python anchors (Config.Anchors), a spec is paired with the
// anchors' run of the same settings; aer:preset=paper with AER_exp_simplex,
// the faithful AER, and the default aer with the Python AER+ of
// aerplus.md, known only as a mean per dataset over the anchors' seeds.
//
// The package reaches methods only through the learn registry; import
// github.com/aer-go/aer/methods (or register methods otherwise) first.
package bench

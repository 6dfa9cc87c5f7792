// Command aer fits, evaluates, explains and serves classifiers for
// imbalanced classification of two classes or more: the AER adaptive
// ensemble (Adaptive Ensemble of Classifiers with Regularization), the
// paper's baselines, metrics and statistical tests, and the paper's
// whole experiment.
//
// Usage:
//
//	aer <command> [flags]
//	aer help <command>
//	aer version
//
// This is the command reference: a paragraph on each command, its main
// flags and examples. `aer help <command>` lists every flag of a command
// with its default, and `aer help fit --method NAME` every parameter of a
// method, generated from the method itself. The examples below run in
// order in one empty folder (TestDoc runs each of them): the first makes
// the data the others read.
//
// # Conventions
//
// Flags are written --name value, --name=value or -name, before any other
// argument (aer compare also takes them after its two file names).
// Every command that draws random numbers takes --seed, and the same seed
// and data give the same output, byte for byte, on any number of workers
// (--threads, --jobs). --json prints one JSON document on stdout; logs
// and progress go to stderr (a progress bar on a terminal, plain lines
// otherwise).
//
// The exit status is 0 on success, 1 on failure, 2 on a usage error and 3
// on an internal error (a bug: a panic, reported in one line). A command
// that fails writes no partial output file, and an output file keeps the
// mode of the file it replaces. Ctrl-C or SIGTERM stops a command within a
// second, with status 1, leaving every output path as it was; a second
// Ctrl-C kills at once.
//
// # Data files
//
// Data files are CSV with a header row, gzip-compressed CSV or Parquet
// (told by their first bytes); - is the standard input for --data
// (predict, explain, info), --train and --valid. The separator is the one
// the header line uses most of comma, semicolon and tab (--delimiter
// forces one). Empty cells, ?, NA, NaN, N/A, null, <NA> and #N/A (any
// case) are missing values; --na TOKEN adds one.
//
// The label is --label NAME, else the column named label, else the last
// column; labels may be numbers or text. The positive (minority) class is
// --positive VALUE, else the rarer class; a positive class with more rows
// than the other is refused unless --allow-majority-positive is given. An
// optional split column (train, valid, test) is kept apart from the
// features. The commands that read labelled tables share these flags:
//
//   - --id COL: a row-identifier column, never a feature; aer fit
//     remembers it and aer predict writes it back as its first column.
//   - --drop COL,...: columns that are neither features nor label (free
//     text, a second outcome that would leak); the model remembers them, so
//     aer predict and aer serve accept rows that still carry them.
//   - --categorical COL,...: columns of numeric codes read as categorical.
//     A column with text cells is categorical anyway; each is one-hot
//     encoded into features named col=value, at most --max-categories
//     values a column (64).
//   - --weight COL (fit, cv, resample): non-negative row weights; a row of
//     integer weight k counts as k copies of it.
//
// aer fit refuses a feature column named like the label (label, target,
// class, y, outcome, or the label's name in another case): --drop it or
// make it the --id. Every malformed cell is reported with its file, line,
// column and value.
//
// # aer gen
//
// Gen writes a synthetic imbalanced data set with scikit-learn's
// make_classification algorithm: --rows rows, --features columns
// x0..x{F-1} of which --informative span the cluster hypercube and
// --redundant are linear combinations of them, --clusters Gaussian
// clusters per class, majority:minority = --ratio R:1 (label 1 is the
// minority), --flip a share of random labels (0 by default, so the ratio
// is exact), and --split 3:1:1 adds a stratified split column. The paper's
// synthetic task is --rows 8000 --ratio 79 --clusters 10 --features 20
// --informative 10. A small table for the examples below:
//
//	$ aer gen --rows 400 --ratio 9 --features 6 --informative 3 --seed 1 --out data.csv
//
// # aer info
//
// Info describes a data file: its shape, classes and imbalance, missing
// cells, the split column's parts, and a profile of every column: its
// type (numeric or categorical feature, text, label, weight, split, id,
// dropped), its distinct values (exact up to --max-distinct, 1000), its
// share of missing cells, and flags for constant, near-constant (one value
// in 99.9% of the cells), label-like (named like a label, or predicting it
// perfectly) and likely-id columns (named like an id, or text whose values
// are all distinct: pass it as --id). An id or free-text column needs no
// flag. With --model it describes a model file
// instead: method and preset, schema (features, label, classes, id,
// weight and dropped columns), the training data's summary, every
// parameter as fitted, seed, the decision threshold and calibration and
// where they come from, AER's member table, the file's SHA-256 and format
// version.
//
//	$ aer info --data data.csv
//	$ aer info --data data.csv --json
//
// # aer split
//
// Split writes a stratified split of a labelled file: with --ratio 3:1:1
// (the default) NAME.train.csv, NAME.valid.csv and NAME.test.csv, with
// two ratios train and test only, with --folds K the files
// NAME.foldI.train.csv and NAME.foldI.test.csv, and with --column one file
// NAME.split.csv with a split column. Every part keeps the class balance,
// in --out-dir (the current folder). --protocol sklearn draws the Python
// anchors' split, exactly the rows scikit-learn 1.2.1's train_test_split
// picks. An id column and text columns pass through to the parts as they
// are; a part without a minority row is warned about.
//
//	$ aer split --data data.csv --ratio 3:1:1 --seed 0
//	$ aer split --data data.csv --folds 3 --seed 0
//
// # aer fit
//
// Fit trains a method (--method, aer by default) on the labelled
// --train file and writes a model file (--out): the method, the data
// schema (features, categories, classes, id and dropped columns), the fit
// configuration and the fitted model, with a checksum. `aer help fit`
// lists the methods; --param key=value (repeatable) sets a method
// parameter, and `aer help fit --method NAME` lists them with their
// defaults. The AER method, the default, is --method aer (its default
// preset plus goes beyond the paper; --param preset=paper is the paper's
// method).
//
// With validation data (--valid, or the valid rows of a split column) fit
// runs the decision layer: by default it calibrates the scores on the
// validation rows (a sigmoid, Platt scaling), so that they are
// probabilities, and predicts positive where the probability reaches the
// Bayes-optimal one (the training positive share for balanced accuracy,
// fp/(fn+fp) for --cost fn=A,fp=B). --threshold-rule tuned chooses instead
// the candidate threshold best on the validation rows for the largest
// --tune-metric (balanced_accuracy by default; f1, mcc, gmean, ...), the
// least --cost, or the highest precision at a recall of at least
// --min-recall R (objectives without a Bayes threshold are always tuned).
// --calibrate sigmoid|isotonic|none chooses the calibration. --grid
// key=v1,v2 (repeatable) fits every combination and keeps the best on
// validation; --grid paper is the method's grid from the paper's
// appendix. A method that tunes its own threshold (aer with
// preset=paper, dynens, gbdt-tuned) keeps it unless one of these flags
// is given. With fewer than 10 positive validation rows the layer is
// cross-fitted on out-of-fold scores of 5 folds of the training rows too
// (--cross-fit K for K folds, -1 never). Without validation data the
// layer is fitted all the same: for aer on the training rows it holds out
// for its own tuning, for every other method on out-of-fold scores of the
// training rows alone (5 more fits); --cross-fit -1 keeps the bare model,
// deciding at 0.5.
//
// --json prints the fit summary: data sizes, parameters, the fit time and
// the method's report (for aer the BIC table and chosen L, subset sizes,
// static weights, lambda, delta, validation metrics and seconds per
// stage), the memory estimate and the peak resident set. A fit the method
// estimates needs more memory than is available is refused before it
// starts (--memory-check=false tries anyway). What the fit found that
// the user should know goes to stderr ("fit: warning: ...") and under
// "warnings" in --json: for aer, aer mixture's warnings on its mixture
// stage (BIC at an end of the pool of L, collapsed components).
//
//	$ aer fit --method gbdt --train data.train.csv --valid data.valid.csv --out gbdt.aer
//	$ aer fit --method aer --train data.train.csv --valid data.valid.csv --seed 0 --out model.aer
//	$ aer fit --method logreg --train data.train.csv --valid data.valid.csv --tune-metric f1 --out logreg.aer --json
//	$ aer fit --method gbdt --param max_depth=3 --grid eta=0.1,0.3 --train data.train.csv --valid data.valid.csv --out tuned.aer
//	$ aer help fit --method aer
//
// # aer predict
//
// Predict scores a data file with a saved model and writes one row per
// data row: the id column first when there is one, the label when the
// data has the model's label column, the score, and pred (score at or
// above the threshold); label and pred are the training file's class
// names. The threshold is --threshold when given, else the
// one aer fit chose on validation rows, else the method's own (AER's
// delta), else 0.5; --json says which. Columns are matched by name, in any
// order, and columns the model does not use are ignored; a category value the model did not see and a missing cell encode
// to all zeros and are counted on stderr. Rows are read, scored and
// written 4096 at a time, so memory does not grow with the file; --out -
// (or no --out) writes to the standard output.
//
//	$ aer predict --model model.aer --data data.test.csv --out preds.csv
//	$ aer predict --model gbdt.aer --data data.test.csv --out gbdt-preds.csv --json
//
// # aer eval
//
// Eval scores a predictions file (columns label,score[,pred][,weight], as
// aer predict, aer cv --oof and aer bench write them): the confusion
// matrix at --threshold (else the pred column, else 0.5), balanced
// accuracy, recalls, precision, F1, G-mean, Fowlkes-Mallows (the paper's
// "G-mean"), MCC, ROC-AUC, average precision and, for scores in [0, 1],
// the Brier score, log-loss and a reliability table. A weight column gives
// weighted metrics. --sweep adds every metric at each threshold of a grid
// (--sweep-grid N, --sweep-out FILE for CSV) and where each peaks.
//
//	$ aer eval --data preds.csv
//	$ aer eval --data preds.csv --sweep --sweep-out sweep.csv --json
//
// # aer explain
//
// Explain breaks down a model's score of each row (--rows 1,5-7; every
// row by default): first its feature attributions, a base value and one
// attribution per feature that add up to the model's output (exact
// TreeSHAP for boosted trees, trees and forests, exact linear SHAP for
// logreg, their mixed-weight combination for AER), the --top largest;
// then the method's own breakdown (AER: component likelihoods, static,
// likelihood and mixed weights, each member's output). --global prints
// instead one CSV row per feature, largest first: the mean |attribution|,
// the method's built-in importances and, when the data has labels,
// permutation importance (the drop of --metric over --repeats shuffles
// drawn from --seed). Methods with neither (svm, mlp-focal, the AdaBoost
// ensembles) are an error that says so; --global still gives their
// permutation importance.
//
//	$ aer explain --model model.aer --data data.test.csv --rows 1-3 --top 5
//	$ aer explain --model gbdt.aer --data data.test.csv --global --repeats 2
//
// # aer import
//
// Import turns a model XGBoost or LightGBM trained into an aer model file
// (--from xgboost: Booster.save_model's JSON or UBJSON, XGBoost 1.x to
// 3.x, objective binary:logistic or binary:logitraw; --from lightgbm:
// Booster.save_model's text model, format v2 to v4, objective binary or
// cross_entropy), which predict, explain (exact TreeSHAP), serve, eval,
// info and bench then take. The labelled --data file gives the schema:
// its features, in order, are the model's inputs (checked against the
// model's own feature names where it has them; LightGBM's default
// Column_0, Column_1, ... are no names), and its label and classes are
// the model file's. The binary objectives score the label 1: with labels
// 0 and 1 the positive class is 1, and with other labels --positive names
// it. Numeric, missing-value and categorical splits are read as the
// library decides them (LightGBM's missing types None, Zero and NaN and
// its categorical bitsets; a categorical feature's column holds its
// integer codes); scores match Booster.predict within 1e-6 and XGBoost's
// attributions pred_contribs within 1e-5, and what cannot be reproduced
// (another objective, linear trees, a malformed or truncated file) is
// refused with the reason. Multi-class models (XGBoost's multi:softprob
// and multi:softmax, LightGBM's multiclass) import with a multi-class
// --data label of as many classes, which name the model's classes in
// sorted order (labels 0..k-1 are the library's own), or --labels A,B,C
// in the model's order; their class probabilities are the library's
// within 1e-6, and aer predict writes the multi-class predictions.
//
//	$ aer import --from xgboost --model xgb.json --data xgb.csv --out xgb.aer
//	$ aer predict --model xgb.aer --data xgb.csv --out xgb-preds.csv
//	$ aer import --from lightgbm --model lgb.txt --data lgb.csv --out lgb.aer
//	$ aer import --from xgboost --model multi.json --data multi.csv --out multi.aer
//
// # aer export
//
// Export writes a model file in another format (--format onnx): an ONNX
// file that ONNX Runtime and other ONNX runtimes score, with one input,
// X (float32 [N, F]: the model's features in the order aer info --model
// lists them, a text column as its one-hot features, NaN for a missing
// value), and two outputs, probability (float32 [N], aer predict's
// score, the decision layer's calibration included) and label (int64
// [N], aer predict's pred at the model's threshold). The method's
// preprocessing, trees (an ai.onnx.ml TreeEnsembleRegressor, opset 3),
// linear and kernel terms, AER's members, mixture and weights, the
// calibration and the threshold are all inside the graph. gbdt and its
// variants, logreg, svm, tree, the forests and bagging ensembles,
// rusboost, easy-ensemble, aer and dynens export; another method is
// refused with an error naming it. ONNX Runtime matches aer predict's
// scores within 3e-6 on the shared datasets' test rows (1.1e-5 for
// AER's paper preset on wine_quality, whose mixture the float32
// rounding of the input moves), and its labels. A multi-class model
// (gbdt's native softmax model, logreg's multinomial one, the native
// tree and forests, one-vs-rest models of the methods above; not
// one-vs-one, nor the native adaboost and AER models) has the outputs
// probabilities (float32 [N, K]) and label (int64 [N], the index of the
// class its decision predicts), within 1e-5 of aer predict's and its
// labels on the shared multi-class tables.
//
//	$ aer export --format onnx --model gbdt.aer --out gbdt.onnx
//	$ aer export --format onnx --model model.aer --out model.onnx --json
//
// # aer quantize
//
// Quantize writes a smaller copy of a tree model file: every split's
// threshold an index into a per-feature table of the model's cut values
// (routing unchanged), every leaf value a 16-bit (--precision int8:
// 8-bit) integer times a scale of its tree, in a compact binary
// encoding. gbdt and its variants and AER's boosted members are
// quantised; the file says so (aer info) and states the bound of its
// probabilities against the full model's. aer predict, serve and
// explain read it as any model file (docs/formats.md).
//
//	$ aer quantize --model model.aer --out small.aer --json
//	$ aer predict --model small.aer --data data.test.csv --out small-preds.csv
//
// # aer cv
//
// Cv cross-validates a method: it deals the rows of a labelled file into
// --folds stratified folds (5), fits on all folds but one and scores the
// one left out, for every fold, --repeats times (1) with other fold
// assignments, all drawn from --seed. It takes aer fit's --method,
// --param, --grid and threshold flags (which tune on a --holdout share of
// each round's training rows, 0.25) and prints every round's balanced
// accuracy, ROC-AUC, PR-AUC, F1, G-mean, Fowlkes-Mallows and MCC at the
// round model's threshold, with their mean and standard deviation. --oof
// FILE writes the out-of-fold predictions ([id,] row, repeat, fold, label,
// score, pred), which aer eval reads; --id, --drop and --categorical read
// the data as aer fit does. --jobs N fits up to N rounds at
// once, with the same results for any N.
//
//	$ aer cv --data data.csv --method logreg --folds 3 --seed 0 --oof oof.csv
//	$ aer eval --data oof.csv
//
// # aer compare
//
// Compare tests whether two classifiers differ on the same rows: given
// two predictions files, McNemar's test on per-row correctness (the
// chi-square form and the exact binomial) and the Wilcoxon signed-rank
// test on a per-row --quantity (abs-error, squared-error or log-loss),
// with SciPy's --zero-method and --mode. With --friedman it compares
// several methods across data sets from one CSV of scores (a dataset
// column, then one column per method): Friedman's test, the
// Iman-Davenport form, mean ranks and the Nemenyi critical difference at
// --alpha.
//
//	$ aer compare preds.csv gbdt-preds.csv
//	$ aer compare --friedman scores.csv --json
//
// # aer resample
//
// Resample writes a labelled file resampled as imbalanced-learn 0.10 does,
// with the same columns: --sampler rus (random under-sampling of the
// majority), smote (synthetic minority rows), tomek (Tomek-link cleaning)
// or smote-tomek, with --param sampling_strategy, k_neighbors or
// tomek_strategy. It prints the class counts before and after; --weight
// keeps a weight column, --id the ids of the rows it keeps (synthetic rows
// are smote-1, smote-2, ...), and text columns are written back as text. Resample training rows only: a file with a split
// column is refused.
//
//	$ aer resample --sampler smote --data data.train.csv --seed 0 --out smote.csv
//	$ aer resample --sampler rus --param sampling_strategy=0.5 --data data.train.csv --out rus.csv
//
// # aer mixture
//
// Mixture fits Gaussian mixtures to one class (--class majority, minority
// or all) for a pool of sizes L (--components 2-8) and picks L by BIC,
// printing the BIC and AIC table. Its defaults are AER's mixture stage:
// missing cells imputed with column means, features standardised over
// every row of the file (--standardize=false for raw values), --covariance
// auto (full up to 32 features, diag beyond), --n-init 5 restarts. It
// warns when BIC picks an end of the pool or a component collapsed.
// --params prints the chosen mixture, --save writes it as JSON.
//
//	$ aer mixture --data data.csv --components 2-3 --seed 0
//
// # aer bench
//
// Bench runs the paper's experiment on a folder of data sets (or files,
// --datasets, repeatable): every method of --methods (every registered
// method by default; a spec is NAME or NAME:key=value:key=value) times
// every seed of --seeds, each seed splitting a data set 3:1:1 (--protocol
// sklearn: the Python anchors' split), every method behind aer fit's
// default decision layer (calibrated scores and the Bayes threshold;
// --threshold-rule tuned for the anchors' tuned threshold), --grid paper to tune each method over its paper
// grid; --id, --drop and --categorical read every data set as aer fit
// does. Under --out it writes runs.csv (every test metric of every run),
// the test predictions (the id first when there is one), McNemar's and Wilcoxon's tests against
// --reference, report.md and a self-contained report.html (tables, mean
// ranks, Friedman and Nemenyi, and figures: ROC, precision-recall and
// reliability curves, the critical-difference diagram, AER's static
// weights and tuning curves). A bench resumes: a run already in runs.csv
// with the same settings is skipped. --jobs N fits N runs at once, with
// results identical to --jobs 1.
//
// --scaling 10k,100k,1M runs the scaling experiment instead: for each
// training size, aer gen-style data (20 features, 10 informative, 4
// clusters, ratio 99) split 3:1:1, each of --methods (aer,gbdt) fitted,
// and scaling.csv (fit seconds, peak heap, AER's seconds per stage, test
// ROC-AUC) with log-log figures of time and memory against rows;
// --scaling-threads 1,2,4 fits each at each thread count and adds the
// speedup over the first.
//
//	$ aer bench --datasets data.csv --methods gbdt,logreg,aer:preset=paper --seeds 0-1 --out bench
//	$ aer bench --scaling 2k --methods gbdt --out scaling
//
// # aer demo
//
// Demo is a first look in seconds: it generates the paper's synthetic task
// (--samples 8000 rows, 1:79 imbalance, 10 clusters per class) and runs
// aer bench on it with a few fast methods (--methods, default
// aer,gbdt,gbdt-tuned,logreg) and two seeds (--seeds 0-1), then prints
// each method's test metrics, mean ± standard deviation over the seeds,
// and where the bench's report is (--out DIR keeps it there; otherwise a
// new temporary folder).
//
//	$ aer demo --samples 2000 --seeds 0 --methods aer,gbdt --out demo
//
// # aer serve
//
// Serve answers HTTP requests with saved models (--model FILE, or
// --model name=FILE, repeatable) on --addr: POST /v1/predict (one model)
// or /v1/models/NAME/predict scores rows sent as JSON ({"rows": [...]},
// each row an array in the model's column order or an object keyed by
// column name) or CSV with a header row, and answers each row's score and
// label at the threshold aer predict uses; "explain": true adds each
// row's feature attributions. A field or column the model does not use
// is ignored and named in the answer's "ignored", as aer predict ignores
// it; --strict-columns refuses it (400). GET /v1/models[/NAME] describes the models,
// POST /v1/models/NAME/reload or SIGHUP reloads them from their files,
// /healthz, /readyz and /metrics (Prometheus) serve the orchestrator.
// --max-rows, --max-body and --max-concurrent bound requests; SIGTERM
// lets requests in flight finish.
//
//	$ aer serve --model model.aer --addr 127.0.0.1:8080 &
//
// and then, from another shell:
//
//	curl -s -H 'Content-Type: text/csv' --data-binary @data.test.csv http://127.0.0.1:8080/v1/predict
//
// # aer loadtest
//
// Loadtest sends CSV rows (--rows per request) from --data to a running
// aer serve at --url, at a fixed --rps for --duration, open loop (a
// request leaves on schedule whatever happened to the earlier ones), and
// reports latency quantiles (p50 to p99.9 and the maximum), throughput,
// errors, how far sends fell behind the schedule, and the server's
// memory read from its /metrics. --saturate D then runs closed loop for
// the throughput at saturation. The exit status is 1 when a request
// failed.
//
//	$ aer loadtest --url http://127.0.0.1:8080/v1/predict --data data.test.csv --rows 10 --rps 50 --duration 1s
package main

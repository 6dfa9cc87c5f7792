// Package onnx writes aer models as ONNX files (aer export --format onnx,
// aer.Model.ExportONNX), for runtimes such as ONNX Runtime.
//
// # The graph
//
// One input, X: float32 [N, F], the model's features in the order of its
// schema (dataset.Schema.Features), NaN for a missing value. When the
// schema has categorical columns (Spec.Categories), X holds its raw
// columns instead (dataset.Schema.RawColumns), each categorical column
// as the index of its value in the category's Values; the graph one-hot
// encodes it (Equal against the indices), so that a missing or unseen
// value (NaN, or a number that is no index) is all zeros, as aer's reader
// encodes it. aer.Model.ONNXInput turns a table into X.
//
// Two outputs: probability, float32 [N], the probability of the positive
// class that aer predict writes in its score column (the decision
// layer's calibration included), and label, int64 [N], 1 when the
// probability is at least the model's threshold (Model.Threshold: the
// decision layer's, else the method's own, else 0.5), the comparison aer
// predict makes.
//
// After the input, the graph computes in float64 (the input is cast to
// double), mirroring each model's float64 arithmetic step by step: the
// label compares the double probability with the threshold, and the
// probability output is that double rounded to float32. The tree
// ensembles' outputs are float32 (TreeEnsembleRegressor's output type),
// so their sums carry float32 rounding, about 1e-7 relative.
//
// What each method becomes (each written by its model's BuildONNX, in
// the method's own package; see Exporters below):
//
//   - gbdt and its variants (gbdt-tuned, gbdt-focal, gbdt-leafwise,
//     rus-gbdt, smote-gbdt): one ai.onnx.ml TreeEnsembleRegressor summing
//     the trees (BRANCH_LT splits, as a boosted tree sends a value below
//     its threshold left; missing values by each split's default
//     direction, nodes_missing_value_tracks_true), the base margin added,
//     then Sigmoid. Models imported from XGBoost and LightGBM export
//     the same way, but for their categorical splits and LightGBM's
//     zero-as-missing splits, which are refused.
//   - logreg: the imputation and standardisation in front of it
//     (Where(IsNaN(X), means, X), Sub, Div), MatMul with the coefficients,
//     Add the intercept, Sigmoid.
//   - svm: the same preprocessing, then the kernel as package svm computes
//     it: linear (MatMul with the weight vector), RBF
//     (exp(-gamma max(|x|^2 + |s|^2 - 2 x.s, 0)) against the support
//     vectors held as an initializer) or polynomial ((gamma x.s +
//     coef0)^degree); MatMul with the dual coefficients, the intercept,
//     and Platt's sigmoid.
//   - tree, balanced-rf, balanced-bagging: CART trees in a
//     TreeEnsembleRegressor (BRANCH_LEQ splits), their leaf probabilities
//     summed and divided by the number of trees.
//   - rusboost, easy-ensemble: each SAMME.R ensemble's leaf terms summed
//     (one target per ensemble), divided by its tree count, Sigmoid, and
//     averaged over the ensembles.
//   - aer and dynens: imputation by the training means and
//     standardisation; every boosted member's margin from one
//     TreeEnsembleRegressor with one target per member, Sigmoid, the
//     other members (such as the logistic-regression peer) as above;
//     the mixture's component log-densities, -d/2 log 2pi + log det W_k -
//     |W_k (x - mu_k)|^2 / 2 with W_k the inverse Cholesky factor of the
//     covariance (full and tied: a batched MatMul and ReduceSumSquare;
//     diag and spherical: Mul and ReduceSumSquare); the dynamic rule
//     (Softmax of the log-densities plus log pi, over the temperature T
//     for the tempered rule; the literal log rule with its fallback to
//     the softmax, by Where; uniform); the component weights spread over
//     their members (Gather, Div); lambda mixing with the static weights;
//     the combination in probability space (Clip to [0, 1]) or logit
//     space (the clipped logit of each output, then Sigmoid).
//
// Every method then gets the decision layer: its sigmoid calibration
// (on the logit of the score, clipped to [1e-12, 1-1e-12], when fitted
// so) or its isotonic map (the score clipped to the fitted range, the
// segment found by counting the points below it, Gather and linear
// interpolation), and the threshold. mlp-focal, and an imported model
// with categorical or zero-as-missing splits, are refused with an error
// wrapping ErrUnsupported that names the method and the part.
//
// # Multi-class models
//
// A model of more classes (a Spec whose Model is not a learn.Scorer:
// Weights or Cost give its decision) has the outputs probabilities,
// float32 [N, K], the class probabilities aer predict writes, and label,
// int64 [N], the index of the class its decision predicts: ArgMax of
// w_c p_c, the decision's class weights times the double probabilities,
// or, for a cost-matrix decision, ArgMin of the expected costs p Cost
// (the first class on a tie, as aer's decision layer decides). What each
// model becomes:
//
//   - gbdt's native softmax model (and multi-class models imported from
//     XGBoost and LightGBM): one TreeEnsembleRegressor with a target per
//     class, each class's base margin added, and the softmax
//     exp(z - max z) / sum exp(z - max z) (ReduceMax, Exp, ReduceSum).
//   - logreg's multinomial model: its imputation and standardisation,
//     MatMul with the [F, K] coefficients, the intercepts, the softmax.
//   - the native multi-class tree (tree's default on three or more
//     classes) and forests (balanced-rf and balanced-bagging,
//     --multiclass native): the CART trees in one TreeEnsembleRegressor
//     with a target per class, split as the binary trees are (BRANCH_LEQ
//     or BRANCH_LT by input.split, missing values by DefaultLeft), each
//     leaf giving its K class shares (tree.Tree.DistRow); a forest's
//     sums divided by its number of trees. The shares and sums come out
//     of the operator as float32, about 3e-8 from aer's.
//   - one-vs-rest models of any exported method: each member's graph as
//     above and its decision layer's calibration, the K probabilities
//     NaN to 0, clipped to [0, 1] and divided by their sum (1/K each
//     when it is 0), as package decompose combines them.
//
// One-vs-one models, whose pairwise probabilities are coupled by an
// iteration, and the native multi-class models of adaboost (rusboost,
// easy-ensemble) and AER are refused. ONNX Runtime gives aer predict's
// probabilities within 1e-5 (the native trees and forests within 3e-8)
// and its labels on the five shared multi-class tables' test rows
// (TestONNXRuntimeMulti).
//
// # Exporters
//
// Package onnx knows no method. A model has a graph when its type
// implements Exporter: BuildONNX(b *Builder, in *Features) adds the
// nodes computing its probabilities (a two-class learn.Scorer's [N, 1]
// probability of class 1, another model's [N, K] class probabilities)
// and returns them. Marshal looks the model up with Builder.Proba, and
// so does every wrapper for the model it wraps: prep's imputation and
// standardisation (Features.With, then b.Proba of the inner model),
// multiclass's one-vs-rest members, AER's members; a learn.Unwrapper
// that changes neither the rows nor the scores is looked through. A
// model that is neither gives an error wrapping ErrUnsupported naming
// its type. What an exporter builds with:
//
//   - Builder: initializers (Doubles, Scalar, Filled, Int64s), any
//     default-domain operator (Op, with IntAttr and IntsAttr) and
//     shorthands for the common ones (Add, MatMul, Sigmoid, Softmax,
//     Logit, Gather, Concat, ReduceSum, ...), Calibrate for a member's
//     calibration, and Wrap and Unsupported for its errors, which name
//     the method;
//   - Features: the input as the model reads it (Values: imputed and
//     standardised by the wrappers above it), With for a wrapper's own
//     preprocessing;
//   - Trees: one TreeEnsembleRegressor, trees added as Nodes (aer's
//     layout: BRANCH_LT or BRANCH_LEQ splits, default directions, K
//     values per leaf to consecutive targets), with the float32 split
//     rule below applied to every threshold.
//
// A capability rather than a registry (image.RegisterFormat's or
// database/sql's pattern), because the model types are aer's own: the
// method's package declares its graph beside its scoring code, where a
// change to one shows in the other; the compiler checks the signature;
// there is no init-time state, no order of registration, and nothing
// to keep in step with the registry of methods; a wrapper finds its
// inner model's graph as learn finds every other capability (Thresholder,
// Attributor, ...). Exact types matter, since a type that embeds an
// exporter inherits its BuildONNX: one that scores otherwise implements
// its own. Adding a method's graph touches that method's package only
// (CONTRIBUTING.md: Adding an ONNX exporter).
//
// Package onnx imports learn and dataset only: the method packages
// import it, and decision's tests import a method, so a two-class
// calibration reaches the graph as a Calibration (a conversion of
// decision.Calibration, whose fields it repeats).
//
// # Float32 input and tree thresholds
//
// The input is float32 (what the ONNX files promise their callers), while aer reads
// data files as float64: a value such as 0.27 reaches the graph as the
// nearest float32, 0.27000001, and reaches aer as the nearest float64.
// Every value of one float32 bucket (the values rounding to the same
// float32) reaches a split as the same number, so a split can only send
// the whole bucket one way, and the exporter chooses that way so that
// the graph decides as aer decides on the data as written: a split's
// threshold t is mapped back to the raw feature (through the
// standardisation in front of the trees, for AER's members and
// smote-gbdt), rounded to float32 T, and the bucket of T goes where aer
// sends d, the shortest decimal that reads as T: BRANCH_LEQ against T when d goes left, BRANCH_LT when it
// goes right. Boosted trees split at data values, so a row holding
// exactly a split's value goes right in the graph as in aer, though
// float32 rounds it down; a CART threshold half-way between two
// values decides as aer does for the short decimals around it. Only a
// value of T's bucket that is not d, with t between it and d, decides
// otherwise: never for data written with at most 6 significant digits
// (a 6-digit decimal is the shortest decimal of its float32).
// The flip side: data that holds exact float32 values written with more
// digits (float64(float32(v)) printed in full) is decided as its
// shortest decimal would be, which differs from aer's float64 decision
// at the splits whose data value float32 rounded down. Behind
// imputation, a missing value (NaN) is sent where aer sends the imputed
// mean.
//
// Measured on the shared datasets (aer split's 3:1:1 test rows, seed 0;
// TestONNXRuntime runs wine_quality, ecoli and car_eval_34): on all
// eight, gbdt, logreg, balanced-rf, svm and AER's two presets score in
// ONNX Runtime within 3e-6 of aer predict, with the same labels; the
// one exception is AER's paper preset on wine_quality, within 1.1e-5,
// where the float32 rounding of the density column (values near 0.99,
// standard deviation 0.003) moves a narrow mixture component's
// log-density: the graph scores the rounded values as aer does.
//
// # Format
//
// The files are ModelProto messages of IR version 8, importing the
// default operator set at version 17 and ai.onnx.ml at version 3:
// opset 3's TreeEnsembleRegressor takes double thresholds and leaf
// values (nodes_values_as_tensor, target_weights_as_tensor), which ONNX
// Runtime runs on a double input, so the splits compare float64 values
// as aer's trees do; the newer TreeEnsemble of ai.onnx.ml opset 5 is
// mapped onto the same kernel by ONNX Runtime and is read by fewer
// runtimes. producer_name is "aer"; metadata_props name the method, the
// threshold, the features and the classes.
//
// The messages are written field by field with
// google.golang.org/protobuf's protowire (proto.go) rather than code
// generated from onnx.proto: the exporter writes seven messages and a
// few fields of each, protoc is not available to the build, and
// generated code would add onnx.proto's whole schema to the module.
// The field numbers are those of onnx/onnx.proto.
package onnx

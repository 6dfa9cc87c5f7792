// Package svm provides a cost-sensitive support vector machine for binary
// classification: scikit-learn's SVC (libsvm) with class weights, row
// weights and Platt probabilities, registered as the "svm" method.
//
// # Solver
//
// The dual of the C-SVC problem,
//
//	min_a  a'Qa/2 - e'a   subject to  y'a = 0,  0 <= a_i <= C_i,
//	Q_ij = y_i y_j K(x_i, x_j),  C_i = C * class weight(y_i) * row weight_i,
//
// is solved by libsvm's sequential minimal optimisation (Chang and Lin
// 2011): each step optimises two variables analytically, chosen by the
// second-order working set selection of Fan, Chen and Lin (2005, "WSS3"),
// until the largest violation of the optimality conditions is below tol;
// shrinking sets aside variables stuck at a bound (and brings them back
// once near the end), and kernel columns are kept, in single precision as
// libsvm keeps them, in a least recently used cache bounded in megabytes.
// The solver visits the rows in libsvm's order (class 0 first) and takes
// libsvm's steps, so it follows scikit-learn's path: on the goldens
// (../shared/golden/baselines.json) it takes the same number of iterations
// (within one), finds the same support vectors and agrees to about 1e-13
// in decision values, and on the shared datasets it takes the iterations
// scikit-learn takes. Rows of weight 0 are left out, as
// scikit-learn does. class_weight=balanced gives class c the weight
// n/(2 n_c), counted with the row weights.
//
// Kernels are linear, RBF exp(-gamma |x-z|^2) and polynomial
// (gamma x'z + coef0)^degree; gamma "scale" is 1/(d * variance of all
// training values), as scikit-learn's.
//
// # Speed
//
// The training rows are stored in blocks of 8, feature-major within a
// block, so that a kernel column is computed as 8 dot products per vector
// instruction: on amd64 with AVX2 and FMA an assembly kernel does the dot
// products, a fused one the RBF transform (squared norms, a vectorised
// exponential) and the rounding to single precision, and two more the
// scans of the working-set selection and the gradient updates; elsewhere,
// or with the purego build tag, Go loops do the same operations. The solver
// keeps y*G rather than libsvm's gradient G, which removes the branches on
// the labels from those loops without changing a bit. Cache columns are
// slots of one region reserved per fit (with transparent huge pages on
// Linux), not one allocation each. Long columns are shared in chunks among
// Env.Threads() goroutines while that pays (it is timed against columns
// computed alone, as helpers get little CPU on a busy machine), and
// prediction scores four rows per pass over the support vectors. A kernel
// value never depends on where its row sits in a block, which goroutine
// computed it or how rows were batched, so fits are bit-identical whatever
// the number of workers or the cache size.
//
// # Probabilities
//
// Decision values f(x) = sum_s coef_s K(sv_s, x) + intercept are mapped to
// probabilities by Platt's sigmoid 1/(1+exp(A f + B)), fitted by the
// robust Newton method of Lin, Lin and Weng (2007). scikit-learn fits it
// on 5-fold cross-validated decision values (probability=True), which
// costs five more fits; here it is fitted on the validation rows when Fit
// is given some (platt=auto, the default), which are held out and so give
// honest, not overconfident, probabilities at no extra fit; without them
// it is fitted on the training rows' decision values, which the solver's
// gradient gives for free but which are optimistic (support vectors sit on
// the margin). The sigmoid is increasing in f, so rankings, ROC-AUC and any
// threshold tuned on scores are those of the decision function, which
// Model.Decision gives directly.
//
// The registered method (NewStandardized) imputes missing values with
// training means and standardises features first, as the SVM needs.
//
// # Quantised models
//
// Model.Quantize (learn.Quantizer) gives a copy whose support vectors are
// 16- or 8-bit integers per feature (times a scale of the feature, about
// an offset) and whose coefficients are float32, in a compact payload
// that Method.Load reads beside the full one; it decodes into the same
// in-memory layout, so it predicts as fast, and it states a bound on its
// probabilities' change through the RBF kernel's Lipschitz constant
// sqrt(2 gamma / e) and the Platt sigmoid (Model.Quantize). A linear
// kernel keeps its weights exactly; the polynomial kernel is not
// quantised.
package svm

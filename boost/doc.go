// Package boost trains gradient-boosted decision trees for binary and
// multi-class classification: histogram-based, second-order boosting with the
// parameters and meanings of XGBoost's "hist" tree method.
//
// Features are binned once into at most MaxBin quantile bins per feature
// (one byte per cell); every tree is grown from gradient histograms, the
// larger child of each split obtained by subtracting its sibling's
// histogram from the parent's. Missing values (NaN) learn a default
// direction per split. Two growth policies are offered: depth-wise
// (XGBoost's) and leaf-wise with a leaf budget (the policy of leaf-wise
// GBDT implementations). Objectives: logistic loss, focal loss (Lin et
// al. 2017, as in Imbalance-XGBoost), weighted cross-entropy, or a custom
// gradient/hessian function.
//
// The split finder follows XGBoost 1.7's hist updater: the gain of a split
// is
//
//	T(G_L)^2/(H_L+lambda) + T(G_R)^2/(H_R+lambda) - T(G)^2/(H+lambda)
//
// with T the L1 soft-threshold at alpha; a split needs both children's
// hessian sums at least MinChildWeight and a gain above Gamma; a leaf's
// value is -eta*T(G)/(H+lambda). On data whose features take few distinct
// values (so that histogram cuts are exact) it grows the same trees as
// XGBoost 1.7 and gives the same margins to within 1e-5.
//
// Training is parallel over rows in fixed-size blocks whose partial
// histograms are summed in a fixed order, so a model is bit-identical for
// a given seed whatever the number of threads. On amd64 the histogram
// loop is a small assembly kernel (packed adds, prefetching of scattered
// rows) that performs the same additions in the same order as the Go loop
// used elsewhere (and with the purego build tag), so results do not
// depend on it.
//
// TrainMulti (and Method.FitClasses, the learn.ClassFitter contract) fits
// K classes as XGBoost's multi:softprob does: one tree per class per
// round, grown by the same code from the softmax loss's gradients, the
// K trees of a round in parallel. A MultiModel's margins are within 1e-5
// of XGBoost 1.7's on exact-cut data, and the TreeSHAP values of a
// class's trees (MultiModel.Class) are its pred_contribs.
//
// Prediction walks all trees from one flat node array without
// data-dependent branches, several rows at a time.
package boost

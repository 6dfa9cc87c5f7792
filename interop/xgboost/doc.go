// Package xgboost reads models that XGBoost's Booster.save_model wrote, in
// JSON or UBJSON (versions 1.x to 3.x), and converts them into boosted-tree
// models of package boost, which predict the same scores, explain them by
// the same TreeSHAP and save as ordinary aer model files (aer import).
//
// What it reads: the objectives binary:logistic and binary:logitraw
// (Boost), and multi:softprob and multi:softmax (BoostMulti: a
// multi-class model, each tree the class tree_info gives it, each class's
// margin starting from base_score, or from its own in 3.1's per-class
// vector, the probabilities the softmax of the margins); the
// gbtree and dart boosters; numeric splits (a row goes left when its
// value, rounded to float32 as XGBoost rounds it, is below the split
// condition: Threshold finds the float64 threshold that decides the same
// for every value); missing values by each split's default_left;
// categorical splits (split_type 1, one-hot or partition: a category code
// in the split's set goes right, any other value left, package
// catsplit); base_score, as a string ("5E-1") or 3.1's one-element
// vector ("[5E-1]"), turned into a margin by the logit for
// binary:logistic; feature names and types when the model has them.
// Anything else (another objective, several outputs, the gblinear
// booster, vector leaves) is refused with ErrUnsupported, and a
// malformed or truncated file with ErrFormat, naming the field (its path
// in the document) or the byte offset: never a wrong model.
//
// The UBJSON decoder is written here (Go has no maintained one); every
// length and count it reads is checked against the bytes left before
// anything is allocated for it, so a hostile file cannot ask for more
// memory than a small multiple of its size. The JSON decoder is written
// here too, because XGBoost writes NaN (a categorical split's condition),
// which encoding/json refuses, and because its floats are float32s,
// which it rounds as XGBoost does.
//
// XGBoost sums leaves in float32 and boost in float64, so margins agree
// to float32 rounding (about 1e-7 relative per tree), not bit for bit.
package xgboost

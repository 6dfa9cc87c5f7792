// Package lightgbm reads models that LightGBM's Booster.save_model wrote
// in its text format (model.txt; versions v2, v3 and v4, which LightGBM
// 2.x to 4.x write) and converts them into boosted-tree models of package
// boost, which predict the same scores, explain them by the same TreeSHAP
// and save as ordinary aer model files (aer import --from lightgbm).
//
// What it reads: the objectives binary (objective=binary sigmoid:S, whose
// probability is 1/(1+exp(-S*margin))) and cross_entropy (xentropy,
// S = 1), one class and one tree per iteration, converted by Boost; the
// objective multiclass (softmax), num_class trees per iteration, tree i
// of class i % num_class, converted by BoostMulti into a multi-class
// model whose class probabilities are the softmax of LightGBM's raw
// scores, as its predict gives them; the gbdt, dart, goss and
// rf boosters (rf's average_output divides the margin by the number of
// trees); single-leaf trees. Each split's decision_type is honoured as
// LightGBM's Tree::NumericalDecision and Tree::CategoricalDecision decide:
//
//   - numeric splits send x left when x <= threshold. Missing type None
//     reads NaN as 0; missing type NaN sends NaN the default way (bit 1,
//     default_left); missing type Zero sends NaN and every value within
//     1e-35f of 0 (kZeroThreshold) the default way. LightGBM's predictor
//     also reads any value within 1e-35f of 0 as 0 before the trees see
//     it. Threshold turns each threshold into the one of boost's x < t
//     rule that decides the same for every value; a Zero split whose
//     threshold sends zero elsewhere than its default keeps the rule in
//     boost.Tree.ZeroMissing.
//   - categorical splits (bit 0) send a value left when its code, the
//     value truncated toward zero to an int, is in the split's bitset
//     (cat_boundaries, cat_threshold); NaN, a negative code or one beyond
//     the bitset goes right. The converted split swaps its children, so
//     that the codes go right as boost's categorical splits send them
//     (catsplit.LightGBM).
//
// TreeSHAP weighs each split by its training row counts (internal_count,
// leaf_count), as LightGBM's pred_contrib does; a split node's value is
// the count-weighted mean of its leaves. With S other than 1, the margin
// aer reports and explains is S times LightGBM's raw score, the log-odds
// the probability is the sigmoid of.
//
// Anything else is refused with ErrUnsupported (another objective, such
// as multiclassova, whose probabilities are independent sigmoids,
// regression or lambdarank; linear
// trees; a version other than v2 to v4), and a malformed or truncated
// file with ErrFormat, naming the line and field: never a wrong model.
// Every count is checked against the values the file holds before
// anything is allocated for it, so a hostile file cannot ask for more
// memory than a small multiple of its size (a categorical split's bitset
// becomes at most 32 codes per 32-bit word written).
package lightgbm

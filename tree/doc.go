// Package tree grows cost-sensitive classification trees (CART) as
// scikit-learn 1.2's DecisionTreeClassifier does, and offers them as the
// "tree" method.
//
// A split is chosen exactly: for each feature drawn, the node's rows are
// ordered by value and every threshold between adjacent distinct values
// (their midpoint; a row goes left when x <= threshold) is scored by the
// decrease of weighted gini or entropy impurity, with row weights times
// class weights (class_weight "balanced" gives w_c = n / (2 n_c)). The
// stopping rules, the order of the search and the treatment of ties are
// scikit-learn's: a node is a leaf at max_depth, below min_samples_split
// or 2 min_samples_leaf rows, below 2 min_weight_fraction_leaf of the
// weight, or when its impurity is at most the machine epsilon; features
// are drawn at random until max_features have been searched (more while
// all drawn were constant), features constant in an ancestor are skipped,
// and the first strictly best split is kept. When every feature is
// searched they are searched in index order (scikit-learn shuffles them,
// which only matters for exactly tied splits). Nodes are numbered depth
// first, left child first, as in scikit-learn's tree_; a leaf predicts the
// weighted share of class 1 among its rows.
//
// On the same data the trees equal scikit-learn's node for node (tested
// against ../shared/golden/baselines.json), with two documented
// differences:
//
//   - scikit-learn converts features to float32 and treats values closer
//     than 1e-7 as equal; here values are float64 and compared exactly, so
//     thresholds differ in the last float32 digits.
//   - scikit-learn refuses missing values. Here NaN is a missing value: a
//     split is scored on the rows that have the feature, the rows missing
//     it join the child holding more weight of the others (ties: left),
//     and that default direction is stored in the node (as XGBoost stores
//     one), so a row missing the feature at prediction time goes there
//     too. A feature whose present values are all equal is constant.
//
// Multi-class labels (NewMultiGrower, Method.FitClasses, the
// learn.ClassFitter of the "tree" method, its default on three or more
// classes): splits are scored by the gini or entropy of all k classes,
// each node keeps its weighted class shares (Tree.Dist; a leaf's are the
// probabilities it predicts, scikit-learn's predict_proba), and
// class_weight "balanced" is n / (m n_c) over the m classes present.
// Node for node and to 1e-12 in probability these trees equal
// scikit-learn 1.2's on tie-free data (testdata/sklearn_multiclass.py). A
// multi-class tree given a random source searches its features in
// scikit-learn's random order even when it searches them all, so that
// exact ties are broken at random as there.
//
// Presorting: when most features are searched at each split, each feature
// is sorted once and its order partitioned, stably, at every split; when
// few are (random forests), the rows are sorted at each node for the
// features drawn. Both give the same trees.
package tree

// Package forest grows balanced ensembles of decision trees (package
// tree) for imbalanced data, as imbalanced-learn 0.10 does, and offers
// them as methods:
//
//   - "balanced-bagging", BalancedBaggingClassifier(): 10 fully grown
//     trees, each on a bootstrap of all rows whose majority class is then
//     under-sampled (RandomUnderSampler, without replacement) to the size
//     of the bootstrap's minority class. scikit-learn's BaggingClassifier
//     fits its pipeline on the drawn rows, so a row drawn k times is k
//     rows of the tree; here it is one row of weight k that counts k
//     towards min_samples_split and min_samples_leaf, the same tree.
//   - "balanced-rf", BalancedRandomForestClassifier(n_estimators=100):
//     each tree on the majority class under-sampled to the size of the
//     minority, then a bootstrap of that balanced sample of the same size
//     (imbalanced-learn under-samples first, then scikit-learn's forest
//     bootstraps, passing the draw counts as sample weights); sqrt of the
//     features drawn at each split.
//
// Both average the trees' probabilities. Every tree draws its rows and its
// features from its own random stream (the fit's seed and the tree's
// number), and trees grow in parallel on one shared ranking of the
// features (tree.Grower), so a forest is the same whatever the number of
// workers. Differences from imbalanced-learn: row weights are accepted by
// both (they multiply the draw counts; BalancedBaggingClassifier refuses
// them), and class_weight is computed on each tree's sample (scikit-learn's
// "balanced_subsample").
//
// Both fit multi-class labels natively too (FitClasses, the
// learn.ClassFitter of the methods, asked for by --multiclass native; the
// default stays one-vs-rest, which measured better): each tree's sample is
// balanced as imbalanced-learn's RandomUnderSampler(sampling_strategy=
// "auto") balances several classes, every class but the smallest drawn
// down to the smallest's size, the trees are multi-class
// (tree.NewMultiGrower), and the forest's class probabilities are the
// mean of its trees' leaf class shares.
package forest

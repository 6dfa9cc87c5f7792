// Package adaboost boosts decision trees (package tree) with AdaBoost's
// SAMME.R algorithm, as scikit-learn 1.2's AdaBoostClassifier does, and
// offers the two boosted ensembles of imbalanced-learn 0.10 as methods.
// (Package boost is gradient boosting; this is adaptive boosting.)
//
//   - "rusboost", RUSBoostClassifier(): up to 50 rounds over stumps,
//     learning rate 1. Before each round the majority class is randomly
//     under-sampled, without replacement, to the size of the minority; the
//     stump is grown on that sample with the rows' current boosting
//     weights, then its weighted error and the weight update take every
//     row, as imbalanced-learn's _boost_real does.
//   - "easy-ensemble", EasyEnsembleClassifier(n_estimators=10): 10
//     balanced samples, each the whole minority class and as many majority
//     rows drawn without replacement, each boosted by
//     AdaBoostClassifier() (up to 50 stumps, learning rate 1); the
//     ensembles' probabilities are averaged. Ensembles are boosted in
//     parallel on one shared ranking of the features (tree.Grower).
//   - "adaboost" (NewAdaBoost, not registered), AdaBoostClassifier()
//     itself.
//
// One SAMME.R round, for two classes (K = 2): the weights are normalised
// to sum 1 and any below the machine epsilon eps raised to it (except rows
// of weight 0); a tree is grown on them; its class probabilities p are
// clipped below at eps; its weighted error is the weight of the rows whose
// more probable class (p1 > p0) is wrong, over the total. An error of 0
// stops boosting with that tree. Otherwise, but for the last round, every
// weight is multiplied by exp(-(K-1)/K * learning_rate * y . log p), y
// being 1 for the row's class and -1/(K-1) for the other; boosting stops
// when the weights no longer sum to a finite positive number. The
// ensemble's decision is the mean over its trees of (K-1)(log p - mean
// log p) for class 1 minus that of class 0, that is of log p1 - log p0;
// its probability of class 1 is scikit-learn's softmax of the decision over
// K-1 for two classes, the logistic function of the decision.
//
// Row weights multiply the initial boosting weights (scikit-learn's
// sample_weight; in EasyEnsemble, which imbalanced-learn does not let take
// weights, those of the rows each sample draws). Samples count rows, not
// weights. A tree class_weight (none by default) multiplies the weights
// in each tree only, computed from the class counts of the rows it is
// grown on, as scikit-learn's trees do.
//
// On K classes (FitClasses, FitEasyMulti, the learn.ClassFitter of the
// methods, asked for by --multiclass native; the default stays
// one-vs-rest, which measured better) a round is scikit-learn's
// multi-class SAMME.R: the error is that of the tree's most probable
// class; weights are multiplied by exp(-(K-1)/K * learning_rate * y . log
// p) with y 1 for the row's class and -1/(K-1) for the others; the
// decision is the mean over trees of (K-1)(log p - mean log p), and the
// class probabilities its softmax over K-1. RUSBoost and EasyEnsemble
// under-sample every class but the smallest to the smallest's size.
// Round by round these equal scikit-learn 1.2's and imbalanced-learn
// 0.10's within 1e-9 (testdata/sklearn_multiclass.py).
//
// Every random draw comes from the fit's seed: round k of RUSBoost from
// stream k, ensemble k of EasyEnsemble from stream k (its sample) and the
// seed rng.DeriveSeed(seed, k) (its rounds), so models do not depend on
// the number of workers. The random draws themselves are not numpy's.
// Other differences from scikit-learn are the trees' (package tree):
// float64 features, missing values, features searched in order.
package adaboost

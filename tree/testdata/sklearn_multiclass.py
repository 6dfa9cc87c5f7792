#!/usr/bin/python3
"""scikit-learn 1.2 DecisionTreeClassifier multi-class trees for
TestSklearnMulticlass.

    /usr/bin/python3 tree/testdata/sklearn_multiclass.py > tree/testdata/sklearn_multiclass.json

A 360-row, 5-feature dataset of 4 imbalanced classes (values rounded to
1/1024, so exact in float32 and float64; one feature takes 6 values), with
integer row weights 1-3; trees for settings that exercise the stopping
rules, both criteria and the balanced class weight. The trees are cut so
that no two splits tie (scikit-learn breaks ties at random):
min_samples_leaf or depth keep nodes large. proba is predict_proba on the
training rows and on 100 other rows (X_test).
"""
import json
import sys

import numpy as np
import sklearn
from sklearn.tree import DecisionTreeClassifier

rng = np.random.RandomState(11)
n, k = 360, 4
y = rng.choice(k, size=n, p=[0.5, 0.25, 0.15, 0.1])
shift = np.array([[0, 0, 0, 0, 0], [1.0, 0.5, 0, -0.7, 0.3], [-0.8, 1.0, 0, 0.4, -0.5], [0.5, -1.0, 0, 0.8, 1.0]])


def draw(y):
    X = rng.randn(len(y), 5) + shift[y]
    X[:, 2] = rng.randint(0, 6, len(y)) + (y == 2)  # a few-valued feature
    return np.round(X * 1024) / 1024


X = draw(y)
Xt = draw(rng.choice(k, size=100))
w = rng.randint(1, 4, n).astype(float)

settings = [
    dict(max_depth=4, min_samples_leaf=5),
    dict(max_depth=5, min_samples_leaf=10, criterion="entropy"),
    dict(min_samples_leaf=8, class_weight="balanced"),
    dict(min_samples_split=40, min_samples_leaf=3),
    dict(min_weight_fraction_leaf=0.05, class_weight="balanced", criterion="entropy"),
    dict(min_impurity_decrease=0.005, max_depth=8),
    dict(max_depth=4, weights=True),
    dict(min_samples_leaf=6, weights=True, class_weight="balanced"),
]


def ties(m, X, y, sw, s):
    """The split nodes of m where another split scores within 1e-9 of the
    best (scikit-learn would break the tie at random)."""
    t = m.tree_
    cw = np.ones(k)
    if s.get("class_weight") == "balanced":
        cw = len(y) / (k * np.bincount(y, minlength=k))
    wt = (sw if sw is not None else np.ones(len(y))) * cw[y]
    total = wt.sum()
    ent = s.get("criterion") == "entropy"
    msl = s.get("min_samples_leaf", 1)
    mwl = s.get("min_weight_fraction_leaf", 0) * total

    def imp(c):
        w = c.sum()
        if ent:
            p = c[c > 0] / w
            return -(p * np.log2(p)).sum()
        return 1 - (c * c).sum() / (w * w)

    path = m.decision_path(X).toarray().astype(bool)
    bad = []
    for node in range(t.node_count):
        if t.feature[node] < 0:
            continue
        rows = path[:, node]
        Xn, yn, wn = X[rows], y[rows], wt[rows]
        tot = np.bincount(yn, weights=wn, minlength=k)
        scores = []
        for f in range(X.shape[1]):
            o = np.argsort(Xn[:, f], kind="stable")
            xs, ys, ws = Xn[o, f], yn[o], wn[o]
            cl = np.zeros(k)
            for i in range(len(xs) - 1):
                cl[ys[i]] += ws[i]
                if xs[i] == xs[i + 1]:
                    continue
                nl = i + 1
                if nl < msl or len(xs) - nl < msl:
                    continue
                wl, wr = cl.sum(), (tot - cl).sum()
                if wl < mwl or wr < mwl:
                    continue
                scores.append(-wl * imp(cl) - wr * imp(tot - cl))
        scores.sort(reverse=True)
        if len(scores) > 1 and scores[0] - scores[1] <= 1e-9 * max(1, abs(scores[0])):
            bad.append(node)
    return bad


out = {"generated_by": "scikit-learn " + sklearn.__version__, "classes": k, "X": X.tolist(), "y": y.tolist(),
       "w": w.tolist(), "X_test": Xt.tolist(), "trees": []}
for s in settings:
    s = dict(s)
    weighted = s.pop("weights", False)
    m = DecisionTreeClassifier(random_state=0, **s).fit(X, y, sample_weight=w if weighted else None)
    t = m.tree_
    tied = ties(m, X, y, w if weighted else None, s)
    if tied:
        sys.exit("settings %s: tied splits at nodes %s" % (s, tied))
    s["weights"] = weighted
    out["trees"].append({
        "settings": s,
        "feature": t.feature.tolist(),
        "threshold": t.threshold.tolist(),
        "children_left": t.children_left.tolist(),
        "children_right": t.children_right.tolist(),
        "n_node_samples": t.n_node_samples.tolist(),
        "weighted_n_node_samples": t.weighted_n_node_samples.tolist(),
        "impurity": t.impurity.tolist(),
        "proba": m.predict_proba(X).ravel().tolist(),
        "proba_test": m.predict_proba(Xt).ravel().tolist(),
        "importance": m.feature_importances_.tolist(),
    })
json.dump(out, sys.stdout)

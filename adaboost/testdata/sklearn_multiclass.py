#!/usr/bin/python3
"""scikit-learn 1.2 AdaBoostClassifier and imbalanced-learn 0.10
RUSBoostClassifier multi-class fits for TestSklearnMulticlass.

    /usr/bin/python3 adaboost/testdata/sklearn_multiclass.py > adaboost/testdata/sklearn_multiclass.json

A 300-row, 4-feature dataset of 3 imbalanced classes (values rounded to
1/1024, so exact in float32 and float64), with integer row weights 1-3.
AdaBoost SAMME.R (multi-class: Zhu, Zou, Rosset and Hastie's SAMME.R)
with its defaults, with row weights, with learning_rate 0.5 and with
depth-2 trees (25 rounds). RUSBoost's under-sampler is replaced by a fixed rule, so
that the Go test can draw the same rows: in round k (from 0), of every
class c but the smallest, whose rows in increasing order are
rows_c[0..n_c), the rows rows_c[(17 k + 31 j) mod n_c] for j < n_min
(distinct: 31 and n_c are coprime), in class order, then every row of
the smallest class.
"""
import json
import sys
from math import gcd

import imblearn
import numpy as np
import sklearn
from imblearn.ensemble import RUSBoostClassifier
from imblearn.under_sampling import RandomUnderSampler
from sklearn.ensemble import AdaBoostClassifier
from sklearn.tree import DecisionTreeClassifier

rng = np.random.RandomState(5)
n, k = 300, 3
y = rng.choice(k, size=n, p=[0.6, 0.28, 0.12])
shift = np.array([[0, 0, 0, 0], [1.2, 0.6, 0, -0.8], [-0.6, 1.1, 0, 0.9]])
X = rng.randn(n, 4) + shift[y]
X = np.round(X * 1024) / 1024
w = rng.randint(1, 4, n).astype(float)

out = {"generated_by": "scikit-learn %s, imbalanced-learn %s" % (sklearn.__version__, imblearn.__version__),
       "classes": k, "X": X.tolist(), "y": y.tolist(), "w": w.tolist(), "fits": []}


def record(name, m, weighted):
    out["fits"].append({
        "name": name,
        "weighted": weighted,
        "learning_rate": m.learning_rate,
        "max_depth": m.estimators_[0].max_depth,
        "rounds": len(m.estimators_),
        "errors": m.estimator_errors_[:len(m.estimators_)].tolist(),
        "decision": m.decision_function(X).ravel().tolist(),
        "proba": m.predict_proba(X).ravel().tolist(),
        "importance": m.feature_importances_.tolist(),
    })


for name, kw, weighted in [
    ("default", {}, False),
    ("weights", {}, True),
    ("learning_rate 0.5", {"learning_rate": 0.5}, False),
    # 25 rounds: in round 27 the two choose different thresholds of one
    # node (x2 <= -1.217 here, -1.156 in scikit-learn), after which the
    # weights drift apart by rounding.
    ("depth 2", {"estimator": DecisionTreeClassifier(max_depth=2), "n_estimators": 25}, True),
]:
    m = AdaBoostClassifier(algorithm="SAMME.R", random_state=0, **kw)
    m.fit(X, y, sample_weight=w if weighted else None)
    record(name, m, weighted)

rows = [np.flatnonzero(y == c) for c in range(k)]
small = min(range(k), key=lambda c: len(rows[c]))
for c in range(k):
    assert gcd(31, len(rows[c])) == 1
calls = [0]


def fixed_rule(self, X_, y_):
    r = calls[0]
    calls[0] += 1
    nmin = len(rows[small])
    idx = np.concatenate([rows[c][(17 * r + 31 * np.arange(nmin)) % len(rows[c])] for c in range(k) if c != small]
                         + [rows[small]])
    self.sample_indices_ = idx
    return X_[idx], y_[idx]


RandomUnderSampler._fit_resample = fixed_rule
for name, weighted in [("rusboost", False), ("rusboost weights", True)]:
    calls[0] = 0
    m = RUSBoostClassifier(random_state=0).fit(X, y, sample_weight=w if weighted else None)
    record(name, m, weighted)
json.dump(out, sys.stdout)

#!/usr/bin/python3
"""XGBoost 1.7 per-class TreeSHAP golden (pred_contribs of multi:softprob).

Run from the repository root with Debian's python3-xgboost 1.7.4
(/usr/bin/python3):

    /usr/bin/python3 boost/testdata/xgb_multishap.py > boost/testdata/xgb_multishap.json

A small exact-cut table (every feature takes fewer distinct values than
max_bin, so XGBoost's cuts are the values themselves, as aer's are): 160
rows, 4 classes, 3 features of small integers and halves, with missing
values in two of them. It is written as CSV text ("csv": the label
column "label" holds the class names c0..c3, a missing cell is empty) so
that the Go tests can fit it both through boost's Method.FitMulti and
through aer fit and aer explain. The model is trained with tree_method
hist, max_depth 3, eta 0.5, lambda 1, 6 rounds (24 trees) on every row;
the golden holds, for every row, pred_contribs (classes x (features + 1),
the bias last) and output_margin, with 9 significant digits (exact for
XGBoost's float32 outputs).
"""
import json, sys

import numpy as np
import xgboost as xgb

rng = np.random.RandomState(29)
n, k = 160, 4
X = np.empty((n, 3))
X[:, 0] = rng.randint(0, 8, n)
X[:, 1] = rng.randint(0, 5, n) * 0.5
X[:, 2] = rng.randint(-2, 3, n)
score = np.stack([np.cos(X[:, 0] + c) + (c - 1.5) * X[:, 1] + 0.4 * (c % 2) * X[:, 2] for c in range(k)], 1)
score += rng.normal(0, 0.7, score.shape)
y = score.argmax(1)
X[rng.rand(n) < 0.15, 0] = np.nan
X[rng.rand(n) < 0.1, 2] = np.nan


def r9(a):
    if isinstance(a, np.ndarray):
        return [r9(v) for v in a]
    return float("%.9g" % float(a))


def cell(v):
    return "" if v != v else "%g" % v


lines = ["f0,f1,f2,label"] + [",".join([cell(v) for v in X[i]] + ["c%d" % y[i]]) for i in range(n)]
params = {"tree_method": "hist", "objective": "multi:softprob", "num_class": k, "nthread": 1, "max_bin": 256,
          "seed": 0, "max_depth": 3, "eta": 0.5, "lambda": 1.0}
rounds = 6
d = xgb.DMatrix(X, label=y, missing=np.nan)
bst = xgb.train(params, d, num_boost_round=rounds)
out = {"generated_by": "xgboost " + xgb.__version__,
       "note": "multi:softprob, tree_method hist, exact cuts; contribs are pred_contribs=True of every row, "
               "rows x classes x (features + 1), bias last; margins are output_margin=True, rows x classes",
       "params": params, "rounds": rounds, "classes": k, "csv": "\n".join(lines) + "\n",
       "contribs": r9(bst.predict(d, pred_contribs=True)),
       "margins": r9(bst.predict(d, output_margin=True))}
json.dump(out, sys.stdout, separators=(",", ":"))
print()

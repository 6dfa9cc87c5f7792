#!/usr/bin/python3
"""Fixtures of the multi-class XGBoost import (issue 29): models trained by
XGBoost with multi:softprob or multi:softmax, their rows and XGBoost's own
class probabilities of them.

Run from this folder with Debian's python3-xgboost (1.7.4), python3-pandas
and numpy (/usr/bin/python3):

    cd interop/xgboost/testdata && /usr/bin/python3 make_multi.py

It writes, for each model NAME:

    NAME.csv          the rows it was trained on (features, then the label,
                      a class index 0..k-1; an empty cell is a missing value),
                      shortest round-trip decimals
    NAME.json|.ubj    the model, Booster.save_model
    NAME.golden.json  "proba": XGBoost's class probabilities of every row
                      (Booster.predict for multi:softprob; the softmax of
                      output_margin=True for multi:softmax, as
                      XGBClassifier.predict_proba computes them), "margin":
                      output_margin=True, "label": XGBoost's class
                      (Booster.predict for multi:softmax, the argmax of the
                      probabilities for multi:softprob)

The models:

    multi        multi:softprob, 4 classes, 12 rounds of depth 3, 15% of
                 cells missing, feature names; JSON, and the same model as
                 UBJSON (multi.ubj)
    softmax      multi:softmax, 3 classes, base_score 0.3, 10 rounds, no
                 feature names; UBJSON
    multicat     multi:softprob, 3 classes: a categorical feature of 12
                 codes (pandas category dtype, 10% missing) split by
                 partitions (max_cat_to_onehot=1) beside a numeric one; JSON
    forest       multi:softprob, 3 classes, the dart booster with
                 num_parallel_tree 2 (two trees per class per round, each
                 weighted by weight_drop); JSON

Everything is seeded: the same XGBoost writes the same files.
"""
import json

import numpy as np
import pandas as pd
import xgboost as xgb


def fmt(v):
    return "" if np.isnan(v) else repr(float(v))


def write_csv(path, names, X, y):
    with open(path, "w") as f:
        f.write(",".join(names + ["label"]) + "\n")
        for row, label in zip(X, y):
            f.write(",".join(fmt(v) for v in row) + "," + str(int(label)) + "\n")


def softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def save(name, bst, d, X, y, names, ext, softprob=True):
    write_csv(name + ".csv", names, X, y)
    bst.save_model(name + "." + ext)
    margin = bst.predict(d, output_margin=True)
    if softprob:
        proba = bst.predict(d)
        label = proba.argmax(axis=1)
    else:
        proba = softmax(margin.astype(np.float64))
        label = bst.predict(d).astype(int)
    out = {"generated_by": "xgboost " + xgb.__version__,
           "proba": [[float(v) for v in r] for r in proba],
           "margin": [[float(v) for v in r] for r in margin],
           "label": [int(v) for v in label]}
    with open(name + ".golden.json", "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")


n = 400

# multi: four classes, missing values.
rng = np.random.default_rng(40)
X = rng.normal(size=(n, 5))
z = np.column_stack([X[:, 0], X[:, 1] - X[:, 2], 0.8 * X[:, 3], -X[:, 0] + X[:, 4]])
y = (z + rng.normal(scale=0.7, size=z.shape)).argmax(axis=1)
X[rng.random(size=X.shape) < 0.15] = np.nan
names = ["a", "b", "c", "d", "e"]
d = xgb.DMatrix(X, label=y, missing=np.nan, feature_names=names)
bst = xgb.train({"objective": "multi:softprob", "num_class": 4, "max_depth": 3, "eta": 0.3, "seed": 0},
                d, num_boost_round=12)
save("multi", bst, d, X, y, names, "json")
bst.save_model("multi.ubj")

# softmax: three classes, base_score 0.3, no feature names.
rng = np.random.default_rng(41)
X = rng.normal(size=(n, 4))
z = np.column_stack([X[:, 0] + X[:, 1], X[:, 2], -X[:, 0] + 0.5 * X[:, 3]])
y = (z + rng.normal(scale=0.6, size=z.shape)).argmax(axis=1)
d = xgb.DMatrix(X, label=y)
bst = xgb.train({"objective": "multi:softmax", "num_class": 3, "base_score": 0.3, "max_depth": 2,
                 "eta": 0.4, "seed": 0}, d, num_boost_round=10)
save("softmax", bst, d, X, y, ["f0", "f1", "f2", "f3"], "ubj", softprob=False)

# multicat: a categorical feature split by partitions.
rng = np.random.default_rng(42)
code = rng.integers(0, 12, size=n).astype(float)
x = rng.normal(size=n)
code[rng.random(n) < 0.1] = np.nan
z = np.column_stack([np.isin(code, [1, 4, 7, 9]) * 2.0, x, np.isin(code, [0, 2, 3]) * 1.5 - x])
y = (z + rng.normal(scale=0.6, size=z.shape)).argmax(axis=1)
df = pd.DataFrame({"x": x, "colour": pd.Categorical(code, categories=[float(c) for c in range(12)])})
d = xgb.DMatrix(df, label=y, enable_categorical=True)
bst = xgb.train({"objective": "multi:softprob", "num_class": 3, "max_depth": 3, "eta": 0.3,
                 "tree_method": "hist", "max_cat_to_onehot": 1, "seed": 0}, d, num_boost_round=10)
save("multicat", bst, d, np.column_stack([x, code]), y, ["x", "colour"], "json")

# forest: dart, two trees per class per round.
rng = np.random.default_rng(43)
X = rng.normal(size=(300, 3))
z = np.column_stack([X[:, 0], X[:, 1], X[:, 2] - X[:, 0]])
y = (z + rng.normal(scale=0.8, size=z.shape)).argmax(axis=1)
d = xgb.DMatrix(X, label=y, feature_names=["u", "v", "w"])
bst = xgb.train({"booster": "dart", "objective": "multi:softprob", "num_class": 3, "num_parallel_tree": 2,
                 "subsample": 0.8, "colsample_bynode": 0.7, "max_depth": 2, "rate_drop": 0.3,
                 "skip_drop": 0.0, "seed": 0}, d, num_boost_round=6)
save("forest", bst, d, X, y, ["u", "v", "w"], "json")

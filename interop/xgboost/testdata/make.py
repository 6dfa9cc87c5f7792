#!/usr/bin/python3
"""Fixtures of the XGBoost import: models trained by XGBoost, their data and
XGBoost's own predictions of it.

Run from this folder with Debian's python3-xgboost (1.7.4), python3-pandas
and numpy (/usr/bin/python3):

    cd interop/xgboost/testdata && /usr/bin/python3 make.py

It writes, for each model NAME:

    NAME.csv          the rows it was trained on (features, then label 0/1;
                      an empty cell is a missing value), shortest round-trip
                      decimals, so that Go reads the float64 numpy held
    NAME.json|.ubj    the model, Booster.save_model
    NAME.golden.json  XGBoost's predictions of every row of NAME.csv (and of
                      NAME.probe.csv where there is one): "predict"
                      (Booster.predict: probabilities, or the margin for
                      binary:logitraw), "margin" (output_margin=True),
                      "contribs" (pred_contribs=True: one value per feature,
                      then the bias) and, but for many, "leaves"
                      (pred_leaf=True: the leaf of each tree)

The models (issue 28's "must show"):

    plain        binary:logistic, 30 trees of depth 3, feature names; JSON
                 (and the same model as UBJSON, plain.ubj)
    missing      binary:logitraw with base_score 0.2, 15% of cells missing,
                 no feature names; UBJSON
    many         500 trees of depth 2, scale_pos_weight 9, base_score 0.3,
                 10% positives; JSON
    categorical  a categorical feature of 40 codes (pandas category dtype,
                 10% missing) split by partitions (max_cat_to_onehot=1) beside
                 a numeric one; JSON. categorical.probe.csv holds codes
                 XGBoost never saw: above the largest, beyond 2^24, negative,
                 fractional.
    dart         the dart booster (8 trees of depth 2, dropout 0.3: each
                 tree weighted by weight_drop); UBJSON

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


def golden(bst, X, names, types=None, leaves=True):
    d = xgb.DMatrix(X, missing=np.nan, feature_names=names, feature_types=types,
                    enable_categorical=types is not None)
    out = {
        "predict": [float(v) for v in bst.predict(d)],
        "margin": [float(v) for v in bst.predict(d, output_margin=True)],
        "contribs": [[float(v) for v in r] for r in bst.predict(d, pred_contribs=True)],
    }
    if leaves:
        out["leaves"] = [[int(v) for v in r] for r in bst.predict(d, pred_leaf=True)]
    return out


def save(name, bst, X, y, names, ext, types=None, probe=None, leaves=True):
    write_csv(name + ".csv", names, X, y)
    bst.save_model(name + "." + ext)
    out = {"generated_by": "xgboost " + xgb.__version__, "rows": golden(bst, X, names, types, leaves)}
    if probe is not None:
        write_csv(name + ".probe.csv", names, probe, np.zeros(len(probe)))
        out["probe"] = golden(bst, probe, names, types)
    with open(name + ".golden.json", "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")


# plain: four numeric features, no missing values.
rng = np.random.default_rng(28)
n = 300
X = rng.normal(size=(n, 4))
y = (X[:, 0] - 0.8 * X[:, 1] + 0.5 * X[:, 2] * X[:, 3] + rng.normal(scale=0.8, size=n) > 1.0).astype(int)
names = ["age", "dose", "score", "ratio"]
bst = xgb.train({"objective": "binary:logistic", "max_depth": 3, "eta": 0.3, "seed": 0},
                xgb.DMatrix(X, label=y, feature_names=names), num_boost_round=30)
save("plain", bst, X, y, names, "json")
bst.save_model("plain.ubj")

# missing: five features, 15% of cells missing, margins (logitraw).
rng = np.random.default_rng(29)
X = rng.normal(size=(n, 5))
y = (X[:, 0] + X[:, 1] - X[:, 4] + rng.normal(scale=0.7, size=n) > 0.8).astype(int)
X[rng.random(size=X.shape) < 0.15] = np.nan
bst = xgb.train({"objective": "binary:logitraw", "base_score": 0.2, "max_depth": 4, "eta": 0.3, "seed": 0},
                xgb.DMatrix(X, label=y, missing=np.nan), num_boost_round=20)
save("missing", bst, X, y, ["f0", "f1", "f2", "f3", "f4"], "ubj")

# many: 500 stumps of depth 2 on imbalanced data, positives weighted.
rng = np.random.default_rng(30)
X = rng.normal(size=(n, 3))
y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.5, size=n) > 1.6).astype(int)
bst = xgb.train({"objective": "binary:logistic", "max_depth": 2, "eta": 0.05, "scale_pos_weight": 9,
                 "base_score": 0.3, "seed": 0},
                xgb.DMatrix(X, label=y, feature_names=["a", "b", "c"]), num_boost_round=500)
save("many", bst, X, y, ["a", "b", "c"], "json", leaves=False)

# categorical: partition splits on 40 codes.
rng = np.random.default_rng(31)
code = rng.integers(0, 40, size=n).astype(float)
x = rng.normal(size=n)
code[rng.random(n) < 0.1] = np.nan
effect = np.isin(code, [1, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]).astype(float)
y = (1.5 * effect + x + rng.normal(size=n) > 1.2).astype(int)
df = pd.DataFrame({"x": x, "colour": pd.Categorical(code, categories=[float(c) for c in range(40)])})
bst = xgb.train({"objective": "binary:logistic", "max_depth": 3, "eta": 0.3, "tree_method": "hist",
                 "max_cat_to_onehot": 1, "seed": 0},
                xgb.DMatrix(df, label=y, enable_categorical=True), num_boost_round=20)
X = np.column_stack([x, code])
probe = np.array([[v, c] for v in (-1.0, 0.0, 1.5) for c in
                  (0, 1, 19, 31, 32, 37, 39, 40, 45, 63, 64, 100, 1e7, 2.0**24, -1, -0.5, 2.5, 2.9999999999, np.nan)])
save("categorical", bst, X, y, ["x", "colour"], "json", types=["q", "c"], probe=probe)

# dart: trees scaled by their weight_drop.
rng = np.random.default_rng(32)
X = rng.normal(size=(200, 3))
y = (X[:, 0] + rng.normal(size=200) > 0.5).astype(int)
bst = xgb.train({"booster": "dart", "objective": "binary:logistic", "max_depth": 2, "rate_drop": 0.3,
                 "skip_drop": 0.0, "seed": 0},
                xgb.DMatrix(X, label=y), num_boost_round=8)
save("dart", bst, X, y, ["u", "v", "w"], "ubj")

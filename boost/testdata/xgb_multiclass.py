#!/usr/bin/python3
"""XGBoost 1.7 multi:softprob goldens for boost's multi-class trees.

Run from the repository root with Debian's python3-xgboost 1.7.4
(/usr/bin/python3); the file is about 0.3 MB:

    /usr/bin/python3 boost/testdata/xgb_multiclass.py ../shared/datasets-multiclass > boost/testdata/xgb_multiclass.json

Every case is trained with tree_method hist on data whose features take
at most max_bin distinct values, so that XGBoost's cuts are the distinct
values themselves, as aer's are (exact-cut data): the synthetic tables
hold small integers and quarters; glass and ecoli6 (the shared
multi-class tables, classes numbered in the sorted order of their names)
have fewer distinct values per feature than rows. Each case records its
parameters, its data (X with NaN as null, y, optional row weights), the
raw margins (output_margin=True, base_score included) on its training
rows after all of its rounds (of the first 40 rows after half of them),
the probabilities of the first 40 rows after all rounds, and, for the
cases in CONTRIBS, pred_contribs (rows x classes x (features + 1), the
bias last) of the first 40 rows and the importances total_gain and
weight (get_score) of each feature.
The tables are written once ("data") and named by the cases. The
"shared_cases" are trained on whole shared tables (satellite, dna), read
by the test from the shared folder: they record the margins of every
20th row. Numbers are
written with 9 significant digits, which is exact for XGBoost's float32
outputs.
"""
import csv, json, os, sys

import numpy as np
import xgboost as xgb

data_dir = sys.argv[1]


def r9(a):
    """Nested lists of floats with 9 significant digits (float32 round trip), None for NaN."""
    if isinstance(a, np.ndarray):
        return [r9(v) for v in a]
    v = float(a)
    return None if v != v else float("%.9g" % v)


def synthetic(n, k, f, seed, missing=False):
    rng = np.random.RandomState(seed)
    X = np.empty((n, f))
    X[:, 0] = rng.randint(0, 10, n)
    X[:, 1] = rng.randint(0, 6, n) * 0.25
    for j in range(2, f):
        X[:, j] = rng.randint(-3, 4, n)
    # Classes from a noisy score of the features, so that trees find splits.
    score = np.stack([np.sin(X[:, 0] + c) + (c - 1) * X[:, 1] + 0.3 * c * X[:, 2] for c in range(k)], 1)
    score += rng.normal(0, 0.8, score.shape)
    y = score.argmax(1)
    if missing:
        X[rng.rand(n) < 0.2, 0] = np.nan
        X[rng.rand(n) < 0.15, 2] = np.nan
    return X, y


def table(name):
    with open(os.path.join(data_dir, name + ".csv")) as fh:
        rows = list(csv.reader(fh))
    header, body = rows[0], rows[1:]
    lab = header.index("label")
    feats = [j for j, h in enumerate(header) if h != "label"]
    X = np.array([[float(r[j]) for j in feats] for r in body])
    names = sorted(set(r[lab] for r in body))
    y = np.array([names.index(r[lab]) for r in body])
    return X, y, names


base = {"tree_method": "hist", "objective": "multi:softprob", "nthread": 1, "max_bin": 256, "seed": 0}
CONTRIBS = {"k3_depth3", "k5_missing_weighted", "glass"}
cases = []
data = {}
X3, y3 = synthetic(300, 3, 4, 1)
X5, y5 = synthetic(300, 5, 5, 2)
X5m, y5m = synthetic(300, 5, 5, 3, missing=True)
w3 = np.random.RandomState(4).choice([0.5, 1.0, 2.0, 3.0], len(y3))
w5m = np.random.RandomState(5).choice([0.5, 1.0, 2.0, 3.0], len(y5m))
Xg, yg, ng = table("glass")
Xe, ye, ne = table("ecoli6")
tables = {"syn3": (X3, y3, None), "syn5": (X5, y5, None), "syn5_missing": (X5m, y5m, None),
          "glass": (Xg, yg, ng), "ecoli6": (Xe, ye, ne)}
for t, (X, y, names) in tables.items():
    data[t] = {"X": r9(X), "y": [int(v) for v in y]}
    if names is not None:
        data[t]["class_names"] = names
specs = [
    ("k3_depth2_eta1", "syn3", None, {"max_depth": 2, "eta": 1.0}, 4),
    ("k3_depth3", "syn3", None, {"max_depth": 3, "eta": 0.3}, 10),
    ("k3_weighted", "syn3", w3, {"max_depth": 3, "eta": 0.3}, 10),
    ("k3_base_score", "syn3", None, {"max_depth": 2, "eta": 0.5, "base_score": 0.2}, 6),
    ("k5_depth4_reg", "syn5", None, {"max_depth": 4, "eta": 0.3, "lambda": 2.0, "alpha": 0.5, "gamma": 0.2, "min_child_weight": 2.0}, 8),
    ("k5_missing_weighted", "syn5_missing", w5m, {"max_depth": 3, "eta": 0.3}, 8),
    ("k5_lossguide", "syn5", None, {"grow_policy": "lossguide", "max_leaves": 6, "max_depth": 0, "eta": 0.3}, 8),
    ("glass", "glass", None, {"max_depth": 3, "eta": 0.3}, 10),
    ("ecoli6", "ecoli6", None, {"max_depth": 4, "eta": 0.3}, 10),
]
for name, t, w, params, rounds in specs:
    X, y, _ = tables[t]
    k = int(y.max()) + 1
    p = dict(base, num_class=k, **params)
    d = xgb.DMatrix(X, label=y, weight=w)
    bst = xgb.train(p, d, num_boost_round=rounds)
    # All rows after all rounds; the first 40 after half of them.
    margins = {str(rounds): r9(bst.predict(d, output_margin=True)),
               str(rounds // 2): r9(bst.predict(xgb.DMatrix(X[:40]), iteration_range=(0, rounds // 2), output_margin=True))}
    case = {"name": name, "data": t, "params": p, "rounds": rounds, "classes": k,
            "margins": margins, "proba": r9(bst.predict(xgb.DMatrix(X[:40])))}
    if w is not None:
        case["weight"] = [float(v) for v in w]
    if name in CONTRIBS:
        case["contribs"] = r9(bst.predict(xgb.DMatrix(X[:40]), pred_contribs=True))
        # Importances over every class's trees, feature f named "f%d".
        for kind in ("total_gain", "weight"):
            sc = bst.get_score(importance_type=kind)
            case.setdefault("importance", {})[kind] = [r9(sc.get("f%d" % f, 0.0)) for f in range(X.shape[1])]
    cases.append(case)
# Whole shared tables with XGBoost's default depth and learning rate, not
# copied here (the test reads them from the shared folder and skips without
# it): margins of every 20th row after 30 rounds. Satellite's features take
# at most 104 distinct values, dna's 2, so the cuts are exact.
shared = []
for t in ("satellite", "dna"):
    X, y, names = table(t)
    p = dict(base, num_class=len(names), max_depth=6, eta=0.3)
    bst = xgb.train(p, xgb.DMatrix(X, label=y), num_boost_round=30)
    rows = list(range(0, len(y), 20))
    shared.append({"name": t, "table": t, "params": p, "rounds": 30, "classes": len(names), "rows": rows,
                   "margins": r9(bst.predict(xgb.DMatrix(X[rows]), output_margin=True))})
out = {"generated_by": "xgboost " + xgb.__version__,
       "note": "multi:softprob, tree_method hist, exact cuts; margins are output_margin=True on the training rows (base_score added to every class) after the given numbers of rounds (all rows after all rounds, the first 40 after half); proba of the first 40 rows after all rounds; contribs are pred_contribs of the first 40 rows, rows x classes x (features + 1), bias last",
       "data": data, "cases": cases, "shared_cases": shared}
json.dump(out, sys.stdout, separators=(",", ":"))
print()

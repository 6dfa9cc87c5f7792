"""Writes sampling_strategy_golden.json: imbalanced-learn 0.10's
sampling_strategy (check_sampling_strategy) resolved for every form and
sampling type, and the class counts after RandomUnderSampler and SMOTE
and the rows TomekLinks removes, on a real multi-class table (glass, from
the shared multi-class datasets, its sorted label names mapped to 0..5)
and on hand-made ones (four classes with tied counts; two classes).
Run with Debian's python3-imblearn and python3-sklearn:

    /usr/bin/python3 sampling_strategy_golden.py DATASETS_MULTICLASS_DIR
"""
import csv
import json
import sys
import warnings

import imblearn
import numpy as np
from imblearn.over_sampling import SMOTE
from imblearn.under_sampling import RandomUnderSampler, TomekLinks
from imblearn.utils import check_sampling_strategy
from sklearn.neighbors import NearestNeighbors

assert imblearn.__version__.startswith("0.10"), imblearn.__version__
warnings.simplefilter("ignore")  # counts above the majority only warn

TYPES = ["over-sampling", "under-sampling", "clean-sampling"]


def glass(path):
    rows = list(csv.reader(open(path + "/glass.csv")))[1:]
    names = sorted({r[-1] for r in rows})
    X = np.array([[float(v) for v in r[:-1]] for r in rows])
    y = np.array([names.index(r[-1]) for r in rows])
    return X, y


def hand(counts, seed):
    """Rows of len(counts) classes around separate centres, classes
    interleaved in random order, 2 features."""
    rs = np.random.RandomState(seed)
    y = np.concatenate([np.full(n, c) for c, n in enumerate(counts)])
    y = y[rs.permutation(len(y))]
    X = rs.normal(size=(len(y), 2)) + 1.2 * np.stack([np.cos(y), np.sin(y)], axis=1)
    return X, y


def unique_nn(X):
    """Every row's nearest other rows are one point (a unique nearest
    neighbour, or exact duplicates of one, as glass's rows 38 and 39 of the
    same class), so any exact search finds the same links."""
    d = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2))
    np.fill_diagonal(d, np.inf)
    for i in range(len(X)):
        near = np.flatnonzero(d[i] <= d[i].min() * (1 + 1e-9))
        if any((X[j] != X[near[0]]).any() for j in near):
            return False
    return True


def parse(text):
    """The Python value of a Go sampling_strategy text."""
    names = ["auto", "majority", "not minority", "not majority", "all", "minority"]
    if text in names:
        return text
    if "," not in text and ":" not in text:
        return float(text)
    items = [t for t in text.split(",") if t != ""]
    if ":" in text:
        return {int(c): int(n) for c, n in (t.split(":") for t in items)}
    return [int(c) for c in items]


def resolve(text, y, kind):
    try:
        got = check_sampling_strategy(parse(text), y, kind)
        return {"targets": [[int(c), int(n)] for c, n in got.items()]}
    except ValueError as e:
        return {"error": str(e)}


NAMED = ["auto", "majority", "not minority", "not majority", "all", "minority"]
FLOATS = ["1", "0.5", "0.25", "0.8"]

tables = {}
X, y = glass(sys.argv[1])
tables["glass"] = (X, y, 5, NAMED + FLOATS + [
    "0:70,2:40", "1:30,5:20", "0:9,1:9,2:9,3:9,4:9,5:9", "4:100", "4:9", "5:29,0:76",
    "2:17", "6:10", "2:18", "2:16", "0,1", "5,", "0,2,4", "0,9",
])
X, y = hand([8, 8, 4, 4, 6], 3)  # ties for the majority (0, 1) and the minority (2, 3)
tables["hand"] = (X, y, 3, NAMED + FLOATS + [
    "2:8,3:8", "0:4,1:4", "1:2", "3:4", "4:10", "4:5", "0:9", "1,3", "2,", "4,0",
])
X, y = hand([12, 5], 11)
tables["binary"] = (X, y, 3, NAMED + FLOATS + ["0.3", "1:12", "0:6", "1:4", "0,", "0,1"])
X, y = hand([6, 6], 5)  # a tie: imbalanced-learn's minority and majority are both class 0
tables["tie"] = (X, y, 3, NAMED + FLOATS + ["0:3", "1:9"])

out = {"imblearn": imblearn.__version__, "tables": []}
for name, (X, y, k, strategies) in tables.items():
    assert unique_nn(X), name
    t = {"name": name, "x": X.tolist(), "y": [int(v) for v in y], "k_neighbors": k, "cases": []}
    for text in strategies:
        case = {"strategy": text}
        for kind in TYPES:
            case[kind] = resolve(text, y, kind)
        if "targets" in case["under-sampling"]:
            _, yr = RandomUnderSampler(sampling_strategy=parse(text), random_state=0).fit_resample(X, y)
            case["rus_counts"] = np.bincount(yr, minlength=y.max() + 1).tolist()
        if "targets" in case["over-sampling"]:
            strategy = parse(text)
            if strategy == "minority":
                # imbalanced-learn 0.10's parameter check leaves "minority"
                # out of SMOTE's strings, though check_sampling_strategy
                # resolves it: SMOTE gets the resolved counts instead.
                n = np.bincount(y)
                strategy = {c: int(n[c]) + a for c, a in case["over-sampling"]["targets"]}
            _, yr = SMOTE(sampling_strategy=strategy, k_neighbors=k, random_state=0).fit_resample(X, y)
            case["smote_counts"] = np.bincount(yr, minlength=y.max() + 1).tolist()
        if "targets" in case["clean-sampling"]:
            tl = TomekLinks(sampling_strategy=parse(text))
            tl.fit_resample(X, y)
            case["tomek_removed"] = sorted(set(range(len(y))) - set(tl.sample_indices_.tolist()))
        t["cases"].append(case)
    out["tables"].append(t)

json.dump(out, open("sampling_strategy_golden.json", "w"), indent=None, separators=(",", ":"))

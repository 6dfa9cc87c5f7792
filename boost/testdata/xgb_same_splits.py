#!/usr/bin/python3
"""XGBoost 1.7 test ROC-AUC on the splits TestQuality makes.

Run from the repository root, with Debian's python3-xgboost and
python3-sklearn (/usr/bin/python3):

    mkdir -p /tmp/splits
    BOOST_SPLITS_DIR=/tmp/splits go test ./boost -run Quality -args -long
    /usr/bin/python3 boost/testdata/xgb_same_splits.py ../shared/datasets /tmp/splits > boost/testdata/xgb_same_splits.json

Parameters: tree_method hist, eta 0.3, max_depth 6, 100 rounds,
binary:logistic, 2 threads, seed 0, raw (unscaled) features as the Go
test uses; NaN is missing.
"""
import csv, glob, json, os, sys

import numpy as np
import xgboost as xgb
from sklearn.metrics import roc_auc_score

data_dir, splits_dir = sys.argv[1], sys.argv[2]
out = {"generated_by": "xgboost " + xgb.__version__, "params": {}, "test_auc": {}}
params = {"tree_method": "hist", "eta": 0.3, "max_depth": 6, "objective": "binary:logistic",
          "nthread": 2, "seed": 0, "verbosity": 0}
out["params"] = dict(params, num_boost_round=100)
for path in sorted(glob.glob(os.path.join(data_dir, "*.csv"))):
    name = os.path.basename(path)[:-4]
    with open(path) as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    label = header.index("label")
    feats = [j for j, h in enumerate(header) if h not in ("label", "split")]
    X = np.array([[float(r[j]) if r[j] not in ("", "NA", "nan", "NaN", "?") else np.nan for j in feats] for r in body])
    y = np.array([int(float(r[label])) for r in body])
    for sp in sorted(glob.glob(os.path.join(splits_dir, name + "_*.json"))):
        seed = sp[len(os.path.join(splits_dir, name)) + 1:-5]
        s = json.load(open(sp))
        dtr = xgb.DMatrix(X[s["train"]], label=y[s["train"]])
        bst = xgb.train(params, dtr, num_boost_round=100)
        p = bst.predict(xgb.DMatrix(X[s["test"]]))
        out["test_auc"].setdefault(name, {})[seed] = float(roc_auc_score(y[s["test"]], p))
json.dump(out, sys.stdout, indent=1, sort_keys=True)
print()

#!/usr/bin/python3
"""Time XGBoost 1.7 hist on a CSV, to compare with TestTimeTrain or aer fit --json.

    /usr/bin/python3 boost/testdata/xgb_time.py data.csv THREADS [REPEATS]

data.csv: header, numeric features, last column the 0/1 label (aer gen
output). Trains 100 trees of depth 6, eta 0.3 (the anchors' settings) on a
prebuilt DMatrix and prints the training seconds of each repeat, batch
prediction throughput on up to 100k rows and the median single-row latency.
"""
import json, sys, time

import numpy as np
import xgboost as xgb

path, threads = sys.argv[1], int(sys.argv[2])
repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 2
X = np.loadtxt(path, delimiter=",", skiprows=1, dtype=np.float32)
y, X = X[:, -1], X[:, :-1]
params = {"tree_method": "hist", "max_depth": 6, "eta": 0.3, "nthread": threads,
          "objective": "binary:logistic", "seed": 0, "verbosity": 0}
out = {"xgboost": xgb.__version__, "threads": threads, "train_s": []}
for _ in range(repeats):
    dm = xgb.DMatrix(X, label=y, nthread=threads)
    t = time.perf_counter()
    bst = xgb.train(params, dm, 100)
    out["train_s"].append(time.perf_counter() - t)
n = min(100000, len(X))
t = time.perf_counter()
bst.inplace_predict(X[:n])
out["predict_rows_per_s"] = n / (time.perf_counter() - t)
lat = []
for i in range(300):
    t = time.perf_counter()
    bst.inplace_predict(X[i:i + 1])
    lat.append(time.perf_counter() - t)
out["row_latency_us"] = float(np.median(lat) * 1e6)
print(json.dumps(out))

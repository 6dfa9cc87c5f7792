#!/usr/bin/python3
"""Time XGBoost 1.7's TreeSHAP (pred_contribs), to compare with BenchmarkTreeSHAP.

    aer gen --rows 5000 --features 20 --informative 8 --ratio 4 --seed 3 --out /tmp/t20.csv
    /usr/bin/python3 boost/testdata/treeshap_time.py /tmp/t20.csv 1
    AER_SHAP_CSV=/tmp/t20.csv go test ./boost -run XXX -bench TreeSHAP -benchtime 5x

data.csv: header, numeric features, last column the 0/1 label (aer gen
output). Trains 100 trees of depth 6, eta 0.3 (the benchmark's settings)
and times pred_contribs on the first 1000 rows, median of 5 runs, with the
given number of threads.
"""
import json, statistics, sys, time

import numpy as np
import xgboost as xgb

path, threads = sys.argv[1], int(sys.argv[2])
X = np.genfromtxt(path, delimiter=",", skip_header=1)
y, X = X[:, -1], X[:, :-1]
params = {"tree_method": "hist", "max_depth": 6, "eta": 0.3, "nthread": threads, "base_score": 0.5,
          "objective": "binary:logistic", "seed": 0, "verbosity": 0}
bst = xgb.train(params, xgb.DMatrix(X, label=y, nthread=threads), 100)
leaves = sum(d.count('"leaf"') for d in bst.get_dump(dump_format="json"))
dm = xgb.DMatrix(X[:1000], nthread=threads)
bst.predict(dm, pred_contribs=True)
times = []
for _ in range(5):
    t = time.perf_counter()
    bst.predict(dm, pred_contribs=True)
    times.append(time.perf_counter() - t)
s = statistics.median(times)
print(json.dumps({"xgboost": xgb.__version__, "threads": threads, "leaves": leaves, "seconds_1000_rows": s, "rows_per_s": 1000 / s}))

#!/usr/bin/python3
"""XGBoost 1.7 TreeSHAP values (pred_contribs) for TestTreeSHAPGolden.

Run from the repository root with Debian's python3-xgboost (/usr/bin/python3):

    /usr/bin/python3 boost/testdata/treeshap_golden.py ../shared/golden/xgboost_small.json > boost/testdata/treeshap_golden.json

For every case of xgboost_small.json it trains the model the parity test
trains (the case's parameters, as many rounds as the case has trees, on X,
or on X_missing for the case "missing") and writes
Booster.predict(DMatrix, pred_contribs=True) for every 5th training row
(and, for "missing", every row with a missing value): one value per feature
then the bias (base margin plus each tree's cover-weighted mean leaf).
It checks first that the trees are the golden file's.
"""
import json, sys

import numpy as np
import xgboost as xgb

golden = json.load(open(sys.argv[1]))
X = np.array(golden["X"], dtype=np.float64)
Xm = np.array([[np.nan if v is None else v for v in r] for r in golden["X_missing"]], dtype=np.float64)
y = np.array(golden["y"])
out = {"generated_by": "xgboost " + xgb.__version__, "source": "xgboost_small.json",
       "note": "pred_contribs of the model each case of xgboost_small.json trains; "
               "contribs[k] holds one value per feature then the bias, for training row rows[k] (0-based)",
       "cases": []}
for case in golden["cases"]:
    data = Xm if case["name"] == "missing" else X
    params = dict(case["params"], verbosity=0)
    bst = xgb.train(params, xgb.DMatrix(data, label=y, missing=np.nan), num_boost_round=len(case["trees_text"]))
    dumps = bst.get_dump(dump_format="json", with_stats=True)
    if [json.loads(a) for a in dumps] != [json.loads(b) for b in case["trees_text"]]:
        sys.exit("case %s: trees differ from the golden file's" % case["name"])
    rows = list(range(0, len(data), 5))
    if case["name"] == "missing":
        rows = sorted(set(rows) | {i for i in range(len(data)) if np.isnan(data[i]).any()})
    contribs = bst.predict(xgb.DMatrix(data[rows], missing=np.nan), pred_contribs=True)
    margins = bst.predict(xgb.DMatrix(data[rows], missing=np.nan), output_margin=True)
    out["cases"].append({"name": case["name"], "rows": rows,
                         "contribs": [[float(v) for v in r] for r in contribs],
                         "margins": [float(v) for v in margins]})
json.dump(out, sys.stdout, indent=None, separators=(",", ":"))
print()

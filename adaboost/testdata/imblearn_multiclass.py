#!/usr/bin/python3
"""imbalanced-learn 0.10 boosted ensembles on shared multi-class tables,
for TestMultiQuality.

    /usr/bin/python3 adaboost/testdata/imblearn_multiclass.py > adaboost/testdata/imblearn_multiclass.json

Each table of ../shared/datasets-multiclass named below is split by row
number: rows 0, 4, 8, ... (0-based, after the header) are the test rows,
the others the training rows. RUSBoostClassifier() and
EasyEnsembleClassifier() at their defaults are fitted with
random_state 0-4; the balanced accuracy of the most probable class and
the macro one-vs-one AUC on the test rows are averaged over the 5 fits.
"""
import csv
import json
import sys

import imblearn
import numpy as np
from imblearn.ensemble import EasyEnsembleClassifier, RUSBoostClassifier
from sklearn.metrics import balanced_accuracy_score, roc_auc_score

root = "/work/shared/datasets-multiclass/"
out = {"generated_by": "imbalanced-learn " + imblearn.__version__, "seeds": 5, "tables": {}}
for name in ["glass", "ecoli6", "vehicle"]:
    rows = list(csv.reader(open(root + name + ".csv")))
    head, rows = rows[0], rows[1:]
    li = head.index("label")
    X = np.array([[float(v) for j, v in enumerate(r) if j != li] for r in rows])
    classes = sorted(set(r[li] for r in rows))
    y = np.array([classes.index(r[li]) for r in rows])
    test = np.arange(len(y)) % 4 == 0
    res = {}
    for label, make in [("rusboost", RUSBoostClassifier), ("easy-ensemble", EasyEnsembleClassifier)]:
        ba, auc = [], []
        for seed in range(5):
            m = make(random_state=seed).fit(X[~test], y[~test])
            P = m.predict_proba(X[test])
            ba.append(balanced_accuracy_score(y[test], P.argmax(1)))
            auc.append(roc_auc_score(y[test], P, multi_class="ovo", labels=list(range(len(classes)))))
        res[label] = {"balanced_accuracy": float(np.mean(ba)), "mauc": float(np.mean(auc))}
    out["tables"][name] = res
json.dump(out, sys.stdout, indent=1)

"""Writes multiclass_golden.json: multi-class metrics as scikit-learn 1.2
and imbalanced-learn 0.10 compute them (Debian's python3-sklearn and
python3-imblearn), on a hand-made case and on a real one (glass, from
../shared/datasets-multiclass, scored by a multinomial logistic
regression). Run: /usr/bin/python3 multiclass_golden.py DATASETS_MULTICLASS_DIR
"""
import json, sys
import numpy as np
from sklearn import metrics as m
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from imblearn.metrics import geometric_mean_score


def case(name, y, pred, prob, w=None):
    k = prob.shape[1] if prob is not None else int(max(max(y), max(pred)) + 1)
    labels = sorted(set(y) | set(pred))
    p, r, f, s = m.precision_recall_fscore_support(y, pred, labels=list(range(k)), sample_weight=w, zero_division=0)
    out = {
        "name": name, "classes": k, "y": [int(v) for v in y], "pred": [int(v) for v in pred],
        "weight": None if w is None else [float(v) for v in w],
        "prob": None if prob is None else [float(v) for v in prob.ravel()],
        "confusion": m.confusion_matrix(y, pred, labels=list(range(k)), sample_weight=w).astype(float).tolist(),
        "recall": r.tolist(), "precision": p.tolist(), "f1": f.tolist(),
        "accuracy": m.accuracy_score(y, pred, sample_weight=w),
        "balanced_accuracy": m.balanced_accuracy_score(y, pred, sample_weight=w),
        "macro_f1": m.f1_score(y, pred, labels=labels, average="macro", sample_weight=w, zero_division=0),
        "weighted_f1": m.f1_score(y, pred, labels=labels, average="weighted", sample_weight=w, zero_division=0),
        "gmean": geometric_mean_score(y, pred, average="multiclass", sample_weight=w),
    }
    if prob is not None:
        out["log_loss"] = m.log_loss(y, prob, labels=list(range(k)), sample_weight=w)
        onehot = np.eye(k)[y]
        out["brier"] = float(np.average(((prob - onehot) ** 2).sum(axis=1), weights=w))
        out["ovr_roc_auc"] = m.roc_auc_score(y, prob, multi_class="ovr", average="macro", labels=list(range(k)), sample_weight=w)
        if w is None:
            out["mauc"] = m.roc_auc_score(y, prob, multi_class="ovo", average="macro", labels=list(range(k)))
    return out


cases = []
# Hand-made: 3 classes, 12 rows, class 2 rare, ties in the probabilities.
y = np.array([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2])
prob = np.array([[.7, .2, .1], [.6, .3, .1], [.5, .4, .1], [.4, .4, .2], [.3, .6, .1], [.8, .1, .1],
                 [.2, .7, .1], [.3, .5, .2], [.5, .4, .1], [.1, .8, .1], [.2, .3, .5], [.4, .4, .2]])
pred = prob.argmax(axis=1)
cases.append(case("hand", y, pred, prob))
cases.append(case("hand-weighted", y, pred, prob, w=np.array([1, 2, 1, 1, 0.5, 1, 3, 1, 1, 1, 2, 1.5])))
# A class predicted but never true (only label metrics).
cases.append(case("predicted-only", np.array([0, 0, 1, 1, 0]), np.array([0, 2, 1, 1, 0]), None))
# A zero recall: the G-mean is 0.
cases.append(case("zero-recall", np.array([0, 0, 1, 1, 2, 2]), np.array([0, 0, 1, 1, 0, 1]), None))

# Real: glass, multinomial logistic regression, stratified 2:1 split.
import csv
rows = list(csv.reader(open(sys.argv[1] + "/glass.csv")))
head, body = rows[0], rows[1:]
names = sorted({r[-1] for r in body})
X = np.array([[float(v) for v in r[:-1]] for r in body])
Y = np.array([names.index(r[-1]) for r in body])
Xtr, Xte, Ytr, Yte = train_test_split(X, Y, test_size=1 / 3, stratify=Y, random_state=0)
sc = StandardScaler().fit(Xtr)
clf = LogisticRegression(max_iter=5000).fit(sc.transform(Xtr), Ytr)
P = clf.predict_proba(sc.transform(Xte))
cases.append(case("glass-logreg", Yte, P.argmax(axis=1), P))

json.dump({"source": "scikit-learn 1.2.1, imbalanced-learn 0.10.0 (Debian), metrics/testdata/multiclass_golden.py", "cases": cases},
          open("multiclass_golden.json", "w"), indent=1)

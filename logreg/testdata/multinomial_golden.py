"""Writes multinomial_golden.json: scikit-learn 1.2's multinomial logistic
regression (Debian's python3-sklearn) (solver newton-cg, tol 1e-12: its lbfgs stops on a relative change of the loss, short of the optimum) at its optimum on glass
(../shared/datasets-multiclass, standardised), with and without balanced
class weights and row weights. Run:
/usr/bin/python3 multinomial_golden.py DATASETS_MULTICLASS_DIR
"""
import csv, json, sys
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

rows = list(csv.reader(open(sys.argv[1] + "/glass.csv")))
body = rows[1:]
names = sorted({r[-1] for r in body})
X = StandardScaler().fit_transform(np.array([[float(v) for v in r[:-1]] for r in body]))
Y = np.array([names.index(r[-1]) for r in body])
W = 1 + (np.arange(len(Y)) % 3)  # row weights 1, 2, 3, ...
cases = []
for name, cw, sw, C in [("plain", None, None, 1.0), ("balanced", "balanced", None, 1.0), ("weighted-C0.1", None, W, 0.1)]:
    m = LogisticRegression(multi_class="multinomial", solver="newton-cg", C=C, class_weight=cw, tol=1e-12, max_iter=100000)
    m.fit(X, Y, sample_weight=sw)
    cases.append({"name": name, "class_weight": cw or "none", "C": C, "weight": None if sw is None else sw.tolist(),
                  "coef": m.coef_.tolist(), "intercept": m.intercept_.tolist(), "proba": m.predict_proba(X[:20]).ravel().tolist()})
json.dump({"source": "scikit-learn 1.2.1 (Debian), logreg/testdata/multinomial_golden.py", "classes": len(names),
           "x": X.ravel().tolist(), "rows": X.shape[0], "cols": X.shape[1], "y": Y.tolist(), "cases": cases},
          open("multinomial_golden.json", "w"))

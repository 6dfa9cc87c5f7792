# Makes two multi-class predictions files of the same 40 rows and the
# reference values of aer compare on them (SciPy): McNemar's exact and
# continuity-corrected chi-square p-values on per-row correctness, and
# Wilcoxon's signed-rank test on the per-row log-loss difference.
# Run: /usr/bin/python3 make.py > golden.json
import json, math
import numpy as np
from scipy import stats

rng = np.random.default_rng(7)
classes = ["a b", "c", "d"]
n, k = 40, 3
y = rng.integers(0, k, n)
out = {}
for name, skill in (("A", 1.5), ("B", 0.8)):
    logits = rng.normal(size=(n, k))
    logits[np.arange(n), y] += skill
    p = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    pred = p.argmax(1)
    with open(name + ".csv", "w") as f:
        f.write("label,pred," + ",".join('"score_%s"' % c if " " in c else "score_" + c for c in classes) + "\n")
        for i in range(n):
            f.write('"%s","%s",' % (classes[y[i]], classes[pred[i]]) + ",".join(repr(float(v)) for v in p[i]) + "\n")
    out[name] = {"correct": (pred == y).tolist(), "logloss": (-np.log(p[np.arange(n), y])).tolist()}
ca, cb = np.array(out["A"]["correct"]), np.array(out["B"]["correct"])
b, c = int((ca & ~cb).sum()), int((~ca & cb).sum())
chi2 = (abs(b - c) - 1) ** 2 / (b + c)
d = np.array(out["A"]["logloss"]) - np.array(out["B"]["logloss"])
w = stats.wilcoxon(d, zero_method="wilcox", mode="exact")
print(json.dumps({"b": b, "c": c, "chi2": chi2, "chi2_p": stats.chi2.sf(chi2, 1),
                  "exact_p": stats.binomtest(min(b, c), b + c, 0.5).pvalue,
                  "wilcoxon_statistic": float(w.statistic), "wilcoxon_p": float(w.pvalue)}, indent=1))

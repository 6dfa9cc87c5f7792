#!/usr/bin/python3
"""A faithful Python AER, to time aer against (issue 14) and compare quality.

The method as ../shared/paper/NOTES.md (sections 1-6) reads the paper, and as
the anchors' AER rows describe it (../shared/anchors/README.md): a Gaussian
mixture on the majority class, L in 2..8 by BIC, 5 restarts; per component a
global subset (the floor(m_n/L) majority rows of highest log-density under
the component plus every minority row, cleaned of Tomek links) and a local
subset (the top m_k majority rows, floor(0.5 m_k) other majority rows drawn at
random, every minority row); one XGBoost member per subset for each point of
the grid learning rate {0.1, 0.3} x depth {3, 6} (hist, 100 trees); static
weights by projected gradient descent on the union of the subsets (NOTES'
recommended rules: probabilities, Euclidean projection onto the simplex,
the Eq. 15-17 start); dynamic weights from the component densities (`exp`);
lambda and delta on 0.05 grids, chosen on validation by balanced accuracy
(ties to the middle), and the grid point with the best validation balanced
accuracy.

Written the way a Python user would with the libraries of Debian 12
(scikit-learn 1.2.1, imbalanced-learn 0.10.0, XGBoost 1.7.4, numpy, scipy):
no deliberate slowness and no tricks. Run it with /usr/bin/python3:

    bench/peers/aer_reference.py --train T.csv --valid V.csv [--test S.csv] \
        [--threads 1] [--seed 0]

CSV: header row, numeric features; the label is the column named `label`,
else the last; the positive class is the rarer one of the training file; a
`split` column is dropped. Prints one JSON document: the seconds of each fit
stage (reading and the test predictions are timed apart) and the validation
(and test) balanced accuracy at the chosen delta.
"""
import argparse
import json
import os
import sys
import time

p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
p.add_argument("--train", required=True)
p.add_argument("--valid", required=True)
p.add_argument("--test")
p.add_argument("--threads", type=int, default=1)
p.add_argument("--seed", type=int, default=0)
p.add_argument("--components", default="2-8", help="pool of L, as LO-HI")
p.add_argument("--projection", choices=["simplex", "minmax"], default="simplex",
               help="simplex: Euclidean projection (NOTES); minmax: the paper's Eq. 14")
a = p.parse_args()
if a.threads < 1:
    sys.exit("aer_reference.py: --threads %d is below 1" % a.threads)
# Thread limits must be set before numpy loads its BLAS and OpenMP runtime.
for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[v] = str(a.threads)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import sklearn  # noqa: E402
import imblearn  # noqa: E402
import xgboost  # noqa: E402
from scipy.stats import multivariate_normal  # noqa: E402
from sklearn.mixture import GaussianMixture  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from imblearn.under_sampling import TomekLinks  # noqa: E402
from xgboost import XGBClassifier  # noqa: E402

GRID = [(0.1, 3), (0.1, 6), (0.3, 3), (0.3, 6)]  # (learning rate, depth)
TREES = 100
STEP = 0.05  # lambda and delta grids
EPS = 1e-7  # w.f clipped to [EPS, 1-EPS] in the loss
SGD_C, SGD_TOL, SGD_MAX_ITER = 0.5, 1e-6, 1000


def read(path, positive=None):
    d = pd.read_csv(path)
    if "split" in d.columns:
        d = d.drop(columns=["split"])
    label = "label" if "label" in d.columns else d.columns[-1]
    raw = d[label].values
    if positive is None:
        vals, counts = np.unique(raw, return_counts=True)
        if len(vals) != 2:
            sys.exit("aer_reference.py: %s: label column %r has %d classes, want 2" % (path, label, len(vals)))
        positive = vals[np.argmin(counts)]
    X = d.drop(columns=[label]).values.astype(np.float64)
    return X, (raw == positive).astype(np.int64), positive


def balanced_accuracy(y, pred):
    pos = y == 1
    return 0.5 * (np.mean(pred[pos] == 1) + np.mean(pred[~pos] == 0))


def component_logpdf(gmm, X):
    """log N(x | mu_l, Sigma_l) of every row under each component alone."""
    return np.column_stack([multivariate_normal.logpdf(X, gmm.means_[l], gmm.covariances_[l])
                            for l in range(gmm.n_components)])


def dynamic_weights(logdens, comp_of_member):
    """exp rule: N_l(x) / sum_j N_j(x) (log-sum-exp), each component's share
    given to both its members and renormalised over the 2L members."""
    z = logdens - logdens.max(axis=1, keepdims=True)
    e = np.exp(z)
    e /= e.sum(axis=1, keepdims=True)
    d = e[:, comp_of_member]
    return d / d.sum(axis=1, keepdims=True)


def project_simplex(v):
    u = np.sort(v)[::-1]
    css = np.cumsum(u) - 1.0
    rho = np.nonzero(u - css / np.arange(1, len(v) + 1) > 0)[0][-1]
    return np.maximum(v - css[rho] / (rho + 1.0), 0.0)


def project_minmax(v):
    lo, hi = v.min(), v.max()
    if hi - lo <= 0:
        return np.full_like(v, 1.0 / len(v))
    s = (v - lo) / (hi - lo)
    return s / s.sum()


def ce_loss(w, F, y):
    s = np.clip(F @ w, EPS, 1 - EPS)
    return -np.mean(y * np.log(s) + (1 - y) * np.log(1 - s))


def ce_grad(w, F, y):
    s = np.clip(F @ w, EPS, 1 - EPS)
    return -(F * (y / s - (1 - y) / (1 - s))[:, None]).mean(axis=0)


def static_weights(F, y, leaves, project):
    """Projected gradient descent on the cross-entropy of w.f (Eq. 11-14),
    started at w_l ~ 1 / (0.6 AIC_l + 0.4 BIC_l) of each member (Eq. 15-17);
    step c/||g|| with c < 1, halved while the loss does not decrease."""
    m = len(y)
    f = np.clip(F, EPS, 1 - EPS)
    ll = (y[:, None] * np.log(f) + (1 - y[:, None]) * np.log(1 - f)).sum(axis=0)
    aic = -2 * ll + 2 * leaves
    bic = -2 * ll + leaves * np.log(m)
    w = 1.0 / (0.6 * aic + 0.4 * bic)
    w = project(w / w.sum())
    loss = ce_loss(w, F, y)
    steps, converged = 0, False
    for steps in range(1, SGD_MAX_ITER + 1):
        g = ce_grad(w, F, y)
        gn = np.linalg.norm(g)
        if gn == 0:
            converged = True
            break
        eta = SGD_C / gn
        for _ in range(30):
            w_new = project(w - eta * g)
            new = ce_loss(w_new, F, y)
            if new <= loss:
                break
            eta /= 2
        else:
            converged = True  # no step decreases the loss
            break
        change = abs(loss - new) / abs(loss)
        w, loss = w_new, new
        if change <= SGD_TOL:
            converged = True
            break
    return w, {"steps": steps, "converged": converged, "loss": loss}


def middle(values, best, tol=1e-12):
    """Index of the middle of the entries equal to the best."""
    idx = np.nonzero(values >= best - tol)[0]
    return idx[len(idx) // 2]


def tune(F_v, D_v, w, y_v):
    """lambda and delta on 0.05 grids by validation balanced accuracy."""
    lambdas = np.round(np.arange(0, 1 + STEP / 2, STEP), 10)
    deltas = np.round(np.arange(STEP, 1 - STEP / 2, STEP), 10)
    dyn = (D_v * F_v).sum(axis=1)
    stat = F_v @ w
    per_lambda = []
    for lam in lambdas:
        score = lam * dyn + (1 - lam) * stat
        bas = np.array([balanced_accuracy(y_v, (score >= d).astype(np.int64)) for d in deltas])
        j = middle(bas, bas.max())
        per_lambda.append((bas[j], deltas[j]))
    best = np.array([b for b, _ in per_lambda])
    i = middle(best, best.max())
    return float(lambdas[i]), float(per_lambda[i][1]), float(best[i])


def leaves_of(model):
    return sum(t.count("leaf=") for t in model.get_booster().get_dump())


def main():
    lo, hi = (int(v) for v in a.components.split("-"))
    t = time.perf_counter()
    X, y, positive = read(a.train)
    Xv, yv, _ = read(a.valid, positive)
    Xt, yt = (read(a.test, positive)[:2] if a.test else (None, None))
    read_s = time.perf_counter() - t

    stages = {}
    t0 = time.perf_counter()
    # Standardise on train; missing cells take the training mean.
    means = np.nanmean(X, axis=0)
    for M in (X, Xv) + ((Xt,) if Xt is not None else ()):
        r, c = np.nonzero(np.isnan(M))
        M[r, c] = means[c]
    scaler = StandardScaler().fit(X)
    Xs, Xvs = scaler.transform(X), scaler.transform(Xv)
    stages["standardise"] = time.perf_counter() - t0

    # 1. Mixture on the majority rows, L by BIC.
    t = time.perf_counter()
    maj, mino = np.nonzero(y == 0)[0], np.nonzero(y == 1)[0]
    Xmaj = Xs[maj]
    bics, gmm = {}, None
    for L in range(lo, hi + 1):
        g = GaussianMixture(n_components=L, covariance_type="full", n_init=5, random_state=a.seed).fit(Xmaj)
        bics[L] = g.bic(Xmaj)
        if gmm is None or bics[L] < bics[gmm.n_components]:
            gmm = g
    L = gmm.n_components
    stages["mixture"] = time.perf_counter() - t

    # 2. Subsets.
    t = time.perf_counter()
    rng = np.random.default_rng(a.seed)
    m_n, m_k = len(maj), len(mino)
    logd = component_logpdf(gmm, Xmaj)
    subsets, comp_of_member, tomek_removed = [], [], []
    for l in range(L):
        order = np.argsort(-logd[:, l], kind="stable")
        G = np.concatenate([maj[order[: m_n // L]], mino])
        tl = TomekLinks()
        tl.fit_resample(Xs[G], y[G])
        tomek_removed.append(int(len(G) - len(tl.sample_indices_)))
        G = G[tl.sample_indices_]
        rest = maj[order[m_k:]]
        extra = rng.choice(rest, size=min(m_k // 2, len(rest)), replace=False)
        Lo = np.concatenate([maj[order[:m_k]], extra, mino])
        subsets += [G, Lo]
        comp_of_member += [l, l]
    comp_of_member = np.array(comp_of_member)
    union = np.unique(np.concatenate(subsets))
    stages["subsets"] = time.perf_counter() - t

    # 3. Members: one XGBoost model per subset and grid point.
    t = time.perf_counter()
    members = []
    for eta, depth in GRID:
        members.append([XGBClassifier(n_estimators=TREES, learning_rate=eta, max_depth=depth,
                                      tree_method="hist", n_jobs=a.threads,
                                      random_state=a.seed).fit(Xs[S], y[S]) for S in subsets])
    stages["members"] = time.perf_counter() - t

    # 4. Static weights on the union, dynamic weights, lambda and delta on
    # validation; the grid point with the best validation balanced accuracy.
    t = time.perf_counter()
    project = project_simplex if a.projection == "simplex" else project_minmax
    D_v = dynamic_weights(component_logpdf(gmm, Xvs), comp_of_member)
    best, grid = None, []
    for (eta, depth), ms in zip(GRID, members):
        F_u = np.column_stack([m.predict_proba(Xs[union])[:, 1] for m in ms])
        leaves = np.array([leaves_of(m) for m in ms], dtype=np.float64)
        w, sgd = static_weights(F_u, y[union].astype(np.float64), leaves, project)
        F_v = np.column_stack([m.predict_proba(Xvs)[:, 1] for m in ms])
        lam, delta, ba = tune(F_v, D_v, w, yv)
        grid.append({"eta": eta, "max_depth": depth, "valid_ba": ba, "lambda": lam, "delta": delta,
                     "sgd": sgd})
        if best is None or ba > best[0]:
            best = (ba, len(grid) - 1, w)
    stages["weights_tune"] = time.perf_counter() - t
    total = time.perf_counter() - t0

    chosen = grid[best[1]]
    out = {
        "tool": "python AER reference (bench/peers/aer_reference.py)",
        "versions": {"python": sys.version.split()[0], "numpy": np.__version__, "scikit-learn": sklearn.__version__,
                     "imbalanced-learn": imblearn.__version__, "xgboost": xgboost.__version__},
        "threads": a.threads, "seed": a.seed, "projection": a.projection,
        "train_rows": int(len(y)), "features": int(X.shape[1]), "train_minority": int(m_k),
        "L": int(L), "bic": {str(k): float(v) for k, v in bics.items()},
        "subset_sizes": [int(len(S)) for S in subsets], "tomek_removed": tomek_removed, "union_rows": int(len(union)),
        "chosen": {k: chosen[k] for k in ("eta", "max_depth", "lambda", "delta")},
        "static_weights": [round(float(v), 5) for v in best[2]],
        "grid": grid,
        "read_seconds": read_s,
        "stage_seconds": stages,
        "fit_seconds": total,
        "valid_balanced_accuracy": chosen["valid_ba"],
    }
    if Xt is not None:
        t = time.perf_counter()
        ms = members[best[1]]
        Xts = scaler.transform(Xt)
        F_t = np.column_stack([m.predict_proba(Xts)[:, 1] for m in ms])
        D_t = dynamic_weights(component_logpdf(gmm, Xts), comp_of_member)
        lam = chosen["lambda"]
        score = lam * (D_t * F_t).sum(axis=1) + (1 - lam) * (F_t @ best[2])
        out["test_balanced_accuracy"] = float(balanced_accuracy(yt, (score >= chosen["delta"]).astype(np.int64)))
        out["predict_seconds"] = time.perf_counter() - t
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

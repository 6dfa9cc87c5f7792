#!/usr/bin/python3
"""Golden values for dataset/sklearn_split.go, from the real Python stack.

Run with the interpreter that has scikit-learn 1.2.1 and numpy 1.24.2:

    /usr/bin/python3 dataset/testdata/sklearn_split/make_golden.py [SHARED_DIR]

SHARED_DIR defaults to ../shared relative to the repository root. Writes, next
to this script:

- synthetic.json: numpy legacy RandomState outputs (raw MT19937 words,
  permutations, 64-bit bounded draws) and full index lists of
  train_test_split(stratify=y) and the anchors' two-stage protocol on small
  label vectors (odd sizes, tied remainders in _approximate_mode, 3 classes,
  cases scikit-learn rejects).
- anchor_splits.json: for each dataset of SHARED_DIR/datasets and seeds 0-4,
  the anchors' train/valid/test split (README "Protocol"): sizes, positives,
  the first 10 indices and the SHA-256 of the comma-joined index list of each
  part. No data is stored, only a SHA-256 of the label column to detect a
  changed file.
"""
import csv
import hashlib
import json
import os
import sys

import numpy as np
import sklearn
from sklearn.model_selection import train_test_split

assert sklearn.__version__ == "1.2.1", sklearn.__version__
assert np.__version__ == "1.24.2", np.__version__

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def sha(idx):
    return hashlib.sha256(",".join(str(int(i)) for i in idx).encode()).hexdigest()


def split(y, test_size, seed):
    idx = np.arange(len(y))
    tr, te = train_test_split(idx, test_size=test_size, stratify=y, random_state=seed)
    return tr, te


def anchor(y, seed):
    y = np.asarray(y)
    tr, rest = split(y, 0.4, seed)
    va, te = train_test_split(rest, test_size=0.5, stratify=y[rest], random_state=seed)
    return tr, va, te


def synthetic():
    out = {"raw": [], "permutations": [], "uint64": [], "splits": [], "anchor": []}
    for seed in [0, 1, 42, 5489, 2**32 - 1]:
        rs = np.random.RandomState(seed)
        words = rs._bit_generator.random_raw(1300)
        out["raw"].append({"seed": seed, "first": [int(w) for w in words[:10]],
                           "at_1290": [int(w) for w in words[1290:]]})
    for seed in [0, 7, 2**32 - 1]:
        for n in [0, 1, 2, 3, 5, 10, 33, 100]:
            p = np.random.RandomState(seed).permutation(n)
            out["permutations"].append({"seed": seed, "n": n, "perm": [int(v) for v in p]})
        for n in [70000, 1048579]:
            p = np.random.RandomState(seed).permutation(n)
            out["permutations"].append({"seed": seed, "n": n, "sha256": sha(p),
                                        "first": [int(v) for v in p[:10]]})
    # Legacy randint on a range wider than 32 bits takes masked 64-bit
    # draws, as random_interval does past 2^32: pins the order of the
    # two 32-bit halves.
    for seed in [0, 3]:
        for high in [2**40, 5 * 2**32 + 1, 2**63 + 12345]:
            rs = np.random.RandomState(seed)
            vals = [int(rs.randint(0, high, dtype=np.uint64)) for _ in range(6)]
            out["uint64"].append({"seed": seed, "max": str(high - 1), "values": [str(v) for v in vals]})

    cases = {
        "balanced10": [0] * 5 + [1] * 5,
        "odd7": [0, 1, 0, 0, 1, 0, 1],
        "tie2_6": [1, 0, 0, 0, 1, 0, 0, 0],
        "imbalanced37": [1 if i % 7 == 3 else 0 for i in range(37)],
        "interleaved23": [(i * i + 1) % 3 % 2 for i in range(23)],
        "three_classes": [2, 0, 1, 1, 0, 2, 2, 0, 1, 0, 2, 1, 0],
        "three_ties": [0, 0, 1, 1, 2, 2, 0, 1, 2],
        "negative_labels": [-1, 5, 5, -1, 5, 5, 5, -1, 5, 5, 5],
        "big200": [1 if (i * 7919) % 200 < 13 else 0 for i in range(200)],
        "one_positive": [0, 0, 0, 1, 0, 0],
        "tiny3": [0, 1, 0],
        "tiny4": [0, 1, 0, 1],
        "single_class": [0] * 6,
    }
    for name, y in cases.items():
        y = np.asarray(y)
        for ts in [0.4, 0.5, 0.3, 0.25, 0.75]:
            for seed in [0, 1, 2, 42, 2**32 - 1]:
                rec = {"case": name, "y": [int(v) for v in y], "test_size": ts, "seed": seed}
                try:
                    tr, te = split(y, ts, seed)
                    rec["train"] = [int(v) for v in tr]
                    rec["test"] = [int(v) for v in te]
                except ValueError as e:
                    rec["error"] = str(e)
                out["splits"].append(rec)
        for seed in [0, 1, 2, 3, 4, 2**32 - 1]:
            rec = {"case": name, "y": [int(v) for v in y], "seed": seed}
            try:
                tr, va, te = anchor(y, seed)
                rec["train"] = [int(v) for v in tr]
                rec["valid"] = [int(v) for v in va]
                rec["test"] = [int(v) for v in te]
            except ValueError as e:
                rec["error"] = str(e)
            out["anchor"].append(rec)
    return out


def datasets(shared):
    ddir = os.path.join(shared, "datasets")
    out = []
    for fn in sorted(os.listdir(ddir)):
        if not fn.endswith(".csv"):
            continue
        with open(os.path.join(ddir, fn), newline="") as f:
            y = np.array([int(r["label"]) for r in csv.DictReader(f)])
        for seed in range(5):
            parts = anchor(y, seed)
            rec = {"dataset": fn[:-4], "seed": seed, "rows": int(len(y)),
                   "labels_sha256": sha(y)}
            for name, p in zip(["train", "valid", "test"], parts):
                rec[name] = {"rows": int(len(p)), "positive": int(y[p].sum()),
                             "first": [int(v) for v in p[:10]], "sha256": sha(p)}
            out.append(rec)
    return out


def main():
    shared = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(ROOT), "shared")
    gen = "make_golden.py with scikit-learn %s, numpy %s" % (sklearn.__version__, np.__version__)
    with open(os.path.join(HERE, "synthetic.json"), "w") as f:
        json.dump({"generated_by": gen, **synthetic()}, f, separators=(",", ":"))
        f.write("\n")
    with open(os.path.join(HERE, "anchor_splits.json"), "w") as f:
        # One record per line: readable diffs, compact file.
        recs = ",\n".join(json.dumps(r, separators=(",", ":")) for r in datasets(shared))
        f.write('{"generated_by":%s,"splits":[\n%s\n]}\n' % (json.dumps(gen), recs))


if __name__ == "__main__":
    main()

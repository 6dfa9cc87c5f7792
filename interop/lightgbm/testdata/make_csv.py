"""Writes breast_cancer_test.csv: the 57 rows of breast_cancer_test.tsv
(leaves' test rows of lg_dart_breast_cancer.model) with a header naming
LightGBM's default feature names and the rows' labels, found by matching
the 30 features in scikit-learn's breast_cancer.csv (Debian's
python3-sklearn; target 1 is benign, the class load_breast_cancer's y,
and so LightGBM's model, scores as 1).

    python3 make_csv.py /usr/lib/python3/dist-packages/sklearn/datasets/data/breast_cancer.csv
"""
import csv
import sys

with open(sys.argv[1]) as f:
    rows = list(csv.reader(f))[1:]
labels = {tuple(float(v) for v in r[:30]): r[30] for r in rows}

with open("breast_cancer_test.tsv") as f, open("breast_cancer_test.csv", "w") as out:
    out.write(",".join([f"Column_{j}" for j in range(30)] + ["label"]) + "\n")
    for line in f:
        x = [float(v) for v in line.split()]
        out.write(",".join([repr(v) for v in x] + [labels[tuple(x)]]) + "\n")

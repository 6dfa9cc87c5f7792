#!/bin/bash
# Writes the model files of legacy_test.go with the aer binary $1 and the
# predictions aer predict gave for them at that commit. Run once, at the commit
# before a change of model format or scoring; the files must not be rewritten
# after (they are the evidence that old files still load and score the same).
set -eu
aer=$1
cd "$(dirname "$0")"
T="--train ../clinic.train.csv --valid ../clinic.valid.csv --id id"
M="--train three.train.csv --valid three.valid.csv"
fit() { name=$1; shift; "$aer" fit --seed 3 --threads 1 "$@" --out $name.aer >/dev/null; }
fit bin-aer $T --method aer --param components=2 --param member.n_estimators=5 --param member.max_depth=3
fit bin-aer-paper $T --method aer --param preset=paper --param member.n_estimators=5 --param components=2
fit bin-gbdt $T --method gbdt --param n_estimators=20
fit bin-gbdt-iso $T --method gbdt --param n_estimators=20 --calibrate isotonic
fit bin-gbdt-cost $T --method gbdt-focal --param n_estimators=20 --cost fn=5,fp=1
fit bin-logreg $T --method logreg
fit bin-logreg-recall $T --method logreg --min-recall 0.9
fit bin-svm $T --method svm
fit bin-tree $T --method tree
fit bin-brf $T --method balanced-rf --param n_estimators=10
fit bin-bagging $T --method balanced-bagging --param n_estimators=5
fit bin-rusboost $T --method rusboost --param n_estimators=10
fit bin-easy $T --method easy-ensemble --param n_estimators=3
fit bin-mlp $T --method mlp-focal
fit bin-dynens $T --method dynens --param member.n_estimators=5 --param components=2
fit bin-smote $T --method smote-gbdt --param n_estimators=20
fit bin-novalid --train ../clinic.train.csv --id id --method gbdt --param n_estimators=20
fit multi-gbdt $M --method gbdt --param n_estimators=10 --param max_depth=3
fit multi-logreg $M --method logreg
fit multi-tree $M --method tree
fit multi-brf $M --method balanced-rf --param n_estimators=10
fit multi-brf-ovr $M --method balanced-rf --param n_estimators=10 --multiclass ovr
fit multi-rus $M --method rusboost --param n_estimators=10 --multiclass native
fit multi-aer $M --method aer --param components=2 --param member.n_estimators=5 --param member.max_depth=3
fit multi-aer-native $M --method aer --param components=2 --param member.n_estimators=5 --param member.max_depth=3 --multiclass native
fit multi-logreg-ovo $M --method logreg --multiclass ovo
fit multi-logreg-cost $M --method logreg --cost-matrix "0,1,1;4,0,4;9,9,0"
fit multi-gbdt-tuned $M --method gbdt --param n_estimators=10 --param max_depth=3 --threshold-rule tuned
for f in bin-*.aer; do "$aer" predict --model $f --data ../clinic.test.csv --threads 1 --out ${f%.aer}.pred.csv >/dev/null; done
for f in multi-*.aer; do "$aer" predict --model $f --data three.test.csv --threads 1 --out ${f%.aer}.pred.csv >/dev/null; done
X=../../interop/xgboost/testdata L=../../interop/lightgbm/testdata
"$aer" import --from xgboost --model $X/plain.json --data $X/plain.csv --out imp-xgb.aer >/dev/null
"$aer" import --from xgboost --model $X/multi.json --data $X/multi.csv --out imp-xgb-multi.aer >/dev/null
"$aer" import --from lightgbm --model $L/lg_breast_cancer.txt --data $L/breast_cancer_test.csv --out imp-lgb.aer >/dev/null
"$aer" predict --model imp-xgb.aer --data $X/plain.csv --out imp-xgb.pred.csv >/dev/null
"$aer" predict --model imp-xgb-multi.aer --data $X/multi.csv --out imp-xgb-multi.pred.csv >/dev/null
"$aer" predict --model imp-lgb.aer --data $L/breast_cancer_test.csv --out imp-lgb.pred.csv >/dev/null

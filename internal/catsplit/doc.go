// Package catsplit decides XGBoost's categorical partition splits: a split
// node holds a sorted set of category codes, and a row whose feature value
// is one of those codes goes right, any other value left (XGBoost's
// common::Decision, the same in 1.7 and 3.x). Prediction (package boost)
// and TreeSHAP (package treeshap) share this one rule, so that a row goes
// the same way in both.
//
// It also holds the rules of LightGBM's splits that a threshold alone
// cannot express, for the same reason: LightGBM's categorical rule
// (Rule LightGBM: the value truncated to an int code) and its zero test
// (IsZero, AsMissing), by which a split whose missing type is Zero sends
// a zero value where it sends missing ones.
package catsplit

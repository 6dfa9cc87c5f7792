// Package treeimport holds what the importers of other libraries' tree
// models (packages interop/xgboost and interop/lightgbm) do alike: read a
// model file up to a size bound, and give a converted boost.Tree's split
// nodes their values.
package treeimport

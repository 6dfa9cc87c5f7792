// Package classtest holds the test helpers of the multi-class fits:
// a shared multi-class table split as the imbalanced-learn reference
// scripts split it, and the comparison of a method's native multi-class
// fits with imbalanced-learn's numbers.
package classtest

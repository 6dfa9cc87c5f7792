// Command aer fits, evaluates and serves adaptive ensembles for imbalanced
// binary classification (the AER method), with the paper's baselines,
// metrics and statistical tests.
//
// Usage:
//
//	aer <command> [flags]
//	aer help <command>
//
// Every command that draws random numbers takes --seed; --json prints one
// JSON document on stdout while logs go to stderr. The exit status is 0 on
// success, 1 on failure, 2 on a usage error and 3 on an internal error (a
// bug).
package main

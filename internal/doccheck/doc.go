// Package doccheck holds the module's documentation checks: a test that
// every exported identifier outside package main has a doc comment, and
// a test that the README stays a short page for users (its size, and no
// path outside the repository). It has no code of its own.
package doccheck

// Package steps counts the steps of a long computation for a progress
// callback, from any goroutine.
package steps

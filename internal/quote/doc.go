// Package quote quotes user strings (column and feature names, field
// values) for error messages, each cut at a bound: a name comes from a
// file, and a message that echoes it whole can be any size.
package quote

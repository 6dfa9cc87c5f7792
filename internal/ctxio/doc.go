// Package ctxio makes reads stop when a context is done: a file whose
// reads fail with the context's error once it is cancelled (Ctrl-C, or
// SIGTERM, during a long read), still usable as the *os.File it wraps
// for its size, position and reads at offsets.
package ctxio

// Package quantize holds what the quantised tree models of this module
// share: the compact binary encoding they are saved in (Writer, Reader:
// little-endian, variable-length counts, every count checked against the
// bytes left before anything is allocated), per-feature tables of cut
// values that turn a split's threshold into a small index (Cuts: uint8,
// or uint16 for a feature of more than 256 cuts), the linear quantisation
// of a tree's leaf values to 8- or 16-bit integers times a scale of the
// tree (Ints), and the bounds a rounding implies on a model's
// probabilities (SigmoidBound, SoftmaxBound, MonotoneBound).
//
// Routing is exact: a cut table holds the original float64 thresholds,
// so a row reaches the same leaf in the quantised tree as in the full
// one. Only the leaf values change, each by at most half a step of its
// tree's scale; the model's bound is the sum over its trees of the
// largest change of a leaf of the tree, mapped through the model's link.
package quantize

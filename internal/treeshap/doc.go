// Package treeshap computes exact path-dependent TreeSHAP values (Lundberg,
// Erion and Lee, "Consistent individualized feature attribution for tree
// ensembles", 2018, Algorithm 2) for binary trees stored in flat arrays:
// the Shapley values of a tree's output where a feature outside the
// coalition is integrated out by following both children in proportion to
// the training cover they received.
//
// The model packages (boost, tree, forest) turn their trees into a Tree
// once; a Workspace holds the path buffers of one goroutine, so explaining
// a row allocates nothing.
package treeshap

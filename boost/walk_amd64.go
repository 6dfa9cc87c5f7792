//go:build amd64 && !purego

package boost

// haveWalkGroup tells that walkGroup is implemented (in assembly).
const haveWalkGroup = true

// walkGroup adds to out[0:8] the leaf values of trees roots[0:ntrees]
// (byte offsets into nodes, with their depths) for the eight rows of
// group, a group of groupWiden. The nodes and roots are those of
// forest.group, whose structure compile has checked.
//
//go:noescape
func walkGroup(nodes *flatNode, values *float64, group *float64, roots *int32, depths *int32, ntrees int, out *float64)

//go:build !amd64 || purego

package boost

// haveWalkGroup tells that walkGroup is implemented; here it is not, and
// forest.group stays empty.
const haveWalkGroup = false

func walkGroup(nodes *flatNode, values *float64, group *float64, roots *int32, depths *int32, ntrees int, out *float64) {
	panic("boost: walkGroup without an implementation")
}

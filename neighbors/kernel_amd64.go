//go:build amd64 && !purego

package neighbors

import "golang.org/x/sys/cpu"

// useAVX2 selects the panel scan in AVX2 assembly: AVX2 and FMA, with OS
// support (x/sys/cpu checks it). Tests turn it off to compare with the
// pure-Go scan.
var useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// scan4x8 is scan4x8Go in AVX2 assembly.
//
//go:noescape
func scan4x8(q *float64, d int, panels *float64, norms *float64, np int, thr *[4]float64, out *[32]float64) (done int, hit bool)

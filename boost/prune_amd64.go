//go:build amd64 && !purego

package boost

import "golang.org/x/sys/cpu"

//go:noescape
func scanKernel(gh *float64, n int, st *[6]float64) int

// scan is scanGo with SSE2.
func scan(gh []float64, n int, st *[6]float64) int {
	if n <= 0 {
		return 0
	}
	_ = gh[2*n-1]
	return scanKernel(&gh[0], n, st)
}

// scan2 is scan2Go, two slots of each feature at a time with AVX when
// the CPU has it.
func scan2(gha, ghb []float64, n int, st *[8]float64) (int, int) {
	k := 0
	if useAVXScan && n >= 2 {
		_, _ = gha[2*n-1], ghb[2*n-1]
		i, mask := scan2KernelAVX(&gha[0], &ghb[0], n&^1, st)
		if mask != 0 {
			return i, mask
		}
		k = i
	}
	i, mask := scan2Go(gha[2*k:], ghb[2*k:], n-k, st)
	return k + i, mask
}

// useAVXScan selects scan2KernelAVX.
var useAVXScan = cpu.X86.HasAVX

// scan2KernelAVX runs scan2Go over n (even) slots of each feature, two
// of each at a time: it returns the first i with a survivor, the sums
// through i and the survivors' mask, or n, 0 with the full sums.
//
//go:noescape
func scan2KernelAVX(gha, ghb *float64, n int, st *[8]float64) (int, int)

//go:build amd64 && !purego

package boost

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// useAVX2Exp selects the vector kernels. With AVX and FMA, math.Exp runs
// the FMA sequence of src/math/exp_amd64.s, which the kernels repeat lane
// by lane; without them math.Exp takes another path, and so does
// logisticGrad (the scalar loop).
var useAVX2Exp = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func expKernelAVX2(dst, src *float64, n int)

//go:noescape
func logisticGradKernelAVX2(gp *gpair, margin *float64, y *int, n int)

// logisticGrad sets gp[i] to the logistic gradient pair of margin[i] and
// label y[i] (0 or 1), as logisticGradGo does, eight rows at a time in
// AVX2 assembly when the CPU has it: bit-identical (TestLogisticGradKernel).
func logisticGrad(gp []gpair, margin []float64, y []int) {
	n := len(gp)
	_, _ = margin[:n], y[:n]
	k := 0
	if useAVX2Exp {
		k = n &^ 7
		if k > 0 {
			logisticGradKernelAVX2(unsafe.SliceData(gp), unsafe.SliceData(margin), unsafe.SliceData(y), k)
		}
	}
	logisticGradGo(gp[k:], margin[k:n], y[k:n])
}

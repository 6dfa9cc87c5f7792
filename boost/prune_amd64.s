//go:build amd64 && !purego

#include "textflag.h"

// func scanKernel(gh *float64, n int, st *[6]float64) int
//
// st holds lg, lh, ng, nh, lambda, bound. For i = 0, 1, ... < n it adds
// gh[2i] to lg and gh[2i+1] to lh (the IEEE additions of evalFeature's Go
// loop, in order; lg and lh share one register) and tests candidate i:
// it stops at the first i for which
// !(lg²·B < A·(bound·B - rg²)), rg = ng-lg, A = lh+lambda,
// B = nh+lambda-lh, and returns i with st[0], st[1] = lg, lh through i;
// or it returns n with the full sums. The tests run two candidates at a
// time with SSE2; scanGo is the same in Go.
TEXT ·scanKernel(SB), NOSPLIT, $0-32
	MOVQ gh+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ st+16(FP), R8
	MOVUPD 0(R8), X12 // lg, lh
	MOVSD 16(R8), X8
	UNPCKLPD X8, X8   // ng, ng
	MOVSD 24(R8), X9
	ADDSD 32(R8), X9
	UNPCKLPD X9, X9   // nh+lambda
	MOVSD 32(R8), X10
	UNPCKLPD X10, X10 // lambda
	MOVSD 40(R8), X11
	UNPCKLPD X11, X11 // bound
	XORQ AX, AX
	LEAQ -1(CX), DX   // pairs while AX < n-1
	CMPQ AX, DX
	JGE tail

pairloop:
	MOVUPD 0(SI), X4
	ADDPD X4, X12     // S_i = (lg_i, lh_i)
	MOVAPD X12, X0
	MOVUPD 16(SI), X4
	ADDPD X4, X12     // S_i+1
	MOVAPD X0, X1
	UNPCKLPD X12, X0  // lg_i, lg_i+1
	UNPCKHPD X12, X1  // lh_i, lh_i+1
	MOVAPD X8, X2
	SUBPD X0, X2      // rg
	MULPD X2, X2      // rg²
	MOVAPD X9, X3
	SUBPD X1, X3      // B
	MOVAPD X11, X6
	MULPD X3, X6      // bound·B
	SUBPD X2, X6      // bound·B - rg²
	MOVAPD X1, X4
	ADDPD X10, X4     // A
	MULPD X4, X6      // t = A·(bound·B - rg²)
	MOVAPD X0, X5
	MULPD X5, X5
	MULPD X3, X5      // u = lg²·B
	CMPPD X6, X5, $5  // !(u < t)
	MOVMSKPD X5, R9
	TESTL R9, R9
	JNE found
	ADDQ $32, SI
	ADDQ $2, AX
	CMPQ AX, DX
	JLT pairloop
	JMP tail

found:
	TESTL $1, R9
	JEQ second
	MOVUPD X0, X2
	UNPCKLPD X1, X2   // lg_i, lh_i
	MOVUPD X2, 0(R8)
	MOVQ AX, ret+24(FP)
	RET

second:
	MOVUPD X12, 0(R8)
	INCQ AX
	MOVQ AX, ret+24(FP)
	RET

tail:
	CMPQ AX, CX
	JGE done
	MOVUPD 0(SI), X4
	ADDPD X4, X12
	MOVAPD X12, X0
	UNPCKLPD X0, X0   // lg, lg
	MOVAPD X12, X1
	UNPCKHPD X1, X1   // lh, lh
	MOVAPD X8, X2
	SUBPD X0, X2
	MULPD X2, X2
	MOVAPD X9, X3
	SUBPD X1, X3
	MOVAPD X11, X6
	MULPD X3, X6
	SUBPD X2, X6
	MOVAPD X1, X4
	ADDPD X10, X4
	MULPD X4, X6
	MOVAPD X0, X5
	MULPD X5, X5
	MULPD X3, X5
	CMPPD X6, X5, $5
	MOVMSKPD X5, R9
	TESTL R9, R9
	JNE done
	INCQ AX

done:
	MOVUPD X12, 0(R8)
	MOVQ AX, ret+24(FP)
	RET

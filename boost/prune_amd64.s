//go:build amd64 && !purego

#include "textflag.h"

// func pruneScanKernel(lg, lh *float64, n int, c *[4]float64) int
//
// c holds ng, nh, lambda, bound. Returns the first i < n (rounded to a
// pair: the caller clamps) at which !(lg²·B + rg²·A < bound·A·B), with
// rg = ng-lg[i], A = lh[i]+lambda, B = nh-lh[i]+lambda, or a value >= n.
// Two candidates per step with SSE2; lg and lh must be readable up to
// index n rounded up to even.
TEXT ·pruneScanKernel(SB), NOSPLIT, $0-40
	MOVQ lg+0(FP), SI
	MOVQ lh+8(FP), DI
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), R8
	MOVSD 0(R8), X8
	UNPCKLPD X8, X8 // ng, ng
	MOVSD 8(R8), X9
	UNPCKLPD X9, X9 // nh, nh
	MOVSD 16(R8), X10
	UNPCKLPD X10, X10 // lambda
	MOVSD 24(R8), X11
	UNPCKLPD X11, X11 // bound
	XORQ AX, AX

loop:
	CMPQ AX, CX
	JGE done
	MOVUPD (SI)(AX*8), X0 // lg
	MOVUPD (DI)(AX*8), X1 // lh
	MOVAPD X8, X2
	SUBPD X0, X2 // rg
	MOVAPD X9, X3
	SUBPD X1, X3 // rh
	MOVAPD X1, X4
	ADDPD X10, X4 // A
	ADDPD X10, X3 // B
	MULPD X0, X0
	MULPD X3, X0 // lg²·B
	MULPD X2, X2
	MULPD X4, X2 // rg²·A
	ADDPD X2, X0 // P
	MOVAPD X11, X6
	MULPD X4, X6
	MULPD X3, X6 // Q = bound·A·B
	CMPPD X6, X0, $5 // !(P < Q)
	MOVMSKPD X0, DX
	TESTL DX, DX
	JNE found
	ADDQ $2, AX
	JMP loop

found:
	BSFL DX, DX
	ADDQ DX, AX
	MOVQ AX, ret+32(FP)
	RET

done:
	MOVQ AX, ret+32(FP)
	RET

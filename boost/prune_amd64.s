//go:build amd64 && !purego

#include "textflag.h"

// func scanKernel(gh *float64, n int, st *[6]float64) int
//
// st holds lg, lh, ng, nh, lambda, bound. For i = 0, 1, ... < n it adds
// gh[2i] to lg and gh[2i+1] to lh (scalar IEEE additions in order, as
// evalFeature's Go loop does) and tests candidate i: it stops at the
// first i for which !(lg²·B + rg²·A < bound·A·B), rg = ng-lg,
// A = lh+lambda, B = nh-lh+lambda, and returns i with st[0], st[1] = lg,
// lh through i; or it returns n with the full sums. The tests run two
// candidates at a time with SSE2.
TEXT ·scanKernel(SB), NOSPLIT, $0-32
	MOVQ gh+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ st+16(FP), R8
	MOVSD 0(R8), X12  // lg
	MOVSD 8(R8), X13  // lh
	MOVSD 16(R8), X8
	UNPCKLPD X8, X8   // ng, ng
	MOVSD 24(R8), X9
	UNPCKLPD X9, X9   // nh, nh
	MOVSD 32(R8), X10
	UNPCKLPD X10, X10 // lambda
	MOVSD 40(R8), X11
	UNPCKLPD X11, X11 // bound
	XORQ AX, AX

pairloop:
	LEAQ 1(AX), DX
	CMPQ DX, CX
	JGE tail
	MOVQ AX, R9
	SHLQ $4, R9
	ADDSD 0(SI)(R9*1), X12
	ADDSD 8(SI)(R9*1), X13
	MOVAPD X12, X0
	MOVAPD X13, X1
	ADDSD 16(SI)(R9*1), X12
	ADDSD 24(SI)(R9*1), X13
	UNPCKLPD X12, X0 // lg_i, lg_i+1
	UNPCKLPD X13, X1 // lh_i, lh_i+1
	MOVAPD X8, X2
	SUBPD X0, X2     // rg
	MOVAPD X9, X3
	SUBPD X1, X3     // rh
	MOVAPD X1, X4
	ADDPD X10, X4    // A
	ADDPD X10, X3    // B
	MOVAPD X0, X5
	MULPD X5, X5
	MULPD X3, X5     // lg²·B
	MULPD X2, X2
	MULPD X4, X2     // rg²·A
	ADDPD X2, X5     // P
	MOVAPD X11, X6
	MULPD X4, X6
	MULPD X3, X6     // Q
	CMPPD X6, X5, $5 // !(P < Q)
	MOVMSKPD X5, DX
	TESTL DX, DX
	JNE found
	ADDQ $2, AX
	JMP pairloop

found:
	TESTL $1, DX
	JEQ second
	MOVSD X0, 0(R8)
	MOVSD X1, 8(R8)
	MOVQ AX, ret+24(FP)
	RET

second:
	MOVSD X12, 0(R8)
	MOVSD X13, 8(R8)
	INCQ AX
	MOVQ AX, ret+24(FP)
	RET

tail:
	CMPQ AX, CX
	JGE done
	MOVQ AX, R9
	SHLQ $4, R9
	ADDSD 0(SI)(R9*1), X12
	ADDSD 8(SI)(R9*1), X13
	MOVAPD X12, X0
	UNPCKLPD X0, X0
	MOVAPD X13, X1
	UNPCKLPD X1, X1
	MOVAPD X8, X2
	SUBPD X0, X2
	MOVAPD X9, X3
	SUBPD X1, X3
	MOVAPD X1, X4
	ADDPD X10, X4
	ADDPD X10, X3
	MOVAPD X0, X5
	MULPD X5, X5
	MULPD X3, X5
	MULPD X2, X2
	MULPD X4, X2
	ADDPD X2, X5
	MOVAPD X11, X6
	MULPD X4, X6
	MULPD X3, X6
	CMPPD X6, X5, $5
	MOVMSKPD X5, DX
	TESTL DX, DX
	JNE tailfound
	INCQ AX

done:
	MOVSD X12, 0(R8)
	MOVSD X13, 8(R8)
	MOVQ AX, ret+24(FP)
	RET

tailfound:
	MOVSD X12, 0(R8)
	MOVSD X13, 8(R8)
	MOVQ AX, ret+24(FP)
	RET

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

// func scan2KernelAVX(gha, ghb *float64, n int, st *[8]float64) (int, int)
//
// st holds lga, lha, lgb, lhb, ng, nh, lambda, bound. For i = 0, 2, 4,
// ... < n (n even) it adds slots i and i+1 of feature a to (lga, lha) and
// of feature b to (lgb, lhb), each chain in slot order (the IEEE
// additions of scan2Go), and tests the four candidates in one 256-bit
// register (lanes a_i, a_i+1, b_i, b_i+1) with scanGo's test. At the
// first slot with a survivor it returns that slot, the sums through it
// and the mask (1: a, 2: b); without one, n, 0 and the full sums.
TEXT ·scan2KernelAVX(SB), NOSPLIT, $0-48
	MOVQ gha+0(FP), SI
	MOVQ ghb+8(FP), DI
	MOVQ n+16(FP), CX
	MOVQ st+24(FP), R8
	VMOVUPD 0(R8), X12         // lga, lha
	VMOVUPD 16(R8), X13        // lgb, lhb
	VBROADCASTSD 32(R8), Y8    // ng
	VBROADCASTSD 48(R8), Y10   // lambda
	VBROADCASTSD 40(R8), Y9
	VADDPD Y10, Y9, Y9         // nh+lambda
	VBROADCASTSD 56(R8), Y11   // bound
	XORQ AX, AX
	CMPQ AX, CX
	JGE none

loop2:
	VADDPD 0(SI), X12, X0      // a through i
	VADDPD 16(SI), X0, X12     // a through i+1
	VADDPD 0(DI), X13, X1      // b through i
	VADDPD 16(DI), X1, X13     // b through i+1
	VUNPCKLPD X12, X0, X2      // lga_i, lga_i+1
	VUNPCKHPD X12, X0, X3      // lha_i, lha_i+1
	VUNPCKLPD X13, X1, X4      // lgb_i, lgb_i+1
	VUNPCKHPD X13, X1, X5      // lhb_i, lhb_i+1
	VINSERTF128 $1, X4, Y2, Y2 // lg
	VINSERTF128 $1, X5, Y3, Y3 // lh
	VSUBPD Y2, Y8, Y6          // rg
	VMULPD Y6, Y6, Y6          // rg²
	VSUBPD Y3, Y9, Y7          // B
	VMULPD Y7, Y11, Y14        // bound·B
	VSUBPD Y6, Y14, Y14        // bound·B - rg²
	VADDPD Y10, Y3, Y15        // A
	VMULPD Y15, Y14, Y14       // t
	VMULPD Y2, Y2, Y6          // lg²
	VMULPD Y7, Y6, Y6          // u = lg²·B
	VCMPPD $5, Y14, Y6, Y6     // !(u < t)
	VMOVMSKPD Y6, R9
	TESTL R9, R9
	JNE found2
	ADDQ $32, SI
	ADDQ $32, DI
	ADDQ $2, AX
	CMPQ AX, CX
	JLT loop2

none:
	VMOVUPD X12, 0(R8)
	VMOVUPD X13, 16(R8)
	MOVQ AX, ret+32(FP)
	MOVQ $0, ret1+40(FP)
	VZEROUPPER
	RET

found2:
	// Lanes: bit 0 a_i, 1 a_i+1, 2 b_i, 3 b_i+1.
	TESTL $5, R9
	JEQ second2
	VMOVUPD X0, 0(R8)
	VMOVUPD X1, 16(R8)
	MOVQ R9, R10
	ANDQ $1, R10
	SHRQ $1, R9
	ANDQ $2, R9
	ORQ R10, R9
	MOVQ AX, ret+32(FP)
	MOVQ R9, ret1+40(FP)
	VZEROUPPER
	RET

second2:
	VMOVUPD X12, 0(R8)
	VMOVUPD X13, 16(R8)
	SHRQ $1, R9
	MOVQ R9, R10
	ANDQ $1, R10
	SHRQ $1, R9
	ANDQ $2, R9
	ORQ R10, R9
	INCQ AX
	MOVQ AX, ret+32(FP)
	MOVQ R9, ret1+40(FP)
	VZEROUPPER
	RET

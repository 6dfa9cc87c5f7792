//go:build amd64 && !purego

#include "textflag.h"

// func scan4x8(q *float64, d int, panels *float64, norms *float64, np int, thr *[4]float64, out *[32]float64) (done int, hit bool)
//
// Scans np panels of 8 reference rows (each panel d columns of 8 values,
// column-major) for the 4 query rows at q (row-major, stride d). For a
// panel the 32 dot products are accumulated over the columns in order,
// one VFMADD231PD per column, query row and half panel (Y0-Y7); the
// scores norms[r] - 2*dot (2*dot exact, one rounded subtraction) are
// compared with thr[query]. It stops after the first panel where some
// score is <= its threshold, stores that panel's 32 scores in out
// (out[a*8+b]: query a, row b) and returns the panels done and true; or
// it returns np and false. NaN norms (padding) never compare true.
TEXT ·scan4x8(SB), NOSPLIT, $0-65
	MOVQ q+0(FP), SI
	MOVQ d+8(FP), CX
	MOVQ panels+16(FP), DI
	MOVQ norms+24(FP), R8
	MOVQ np+32(FP), DX
	MOVQ thr+40(FP), R9
	MOVQ out+48(FP), R10

	// Query rows: q0 SI, q1 R11, q2 R12, q3 R13.
	LEAQ (SI)(CX*8), R11
	LEAQ (R11)(CX*8), R12
	LEAQ (R12)(CX*8), R13

	VBROADCASTSD 0(R9), Y12
	VBROADCASTSD 8(R9), Y13
	VBROADCASTSD 16(R9), Y14
	VBROADCASTSD 24(R9), Y15

	XORQ BX, BX // panels done

panel:
	CMPQ BX, DX
	JGE  none
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	XORQ   AX, AX

column:
	VMOVUPD      (DI), Y8
	VMOVUPD      32(DI), Y9
	VBROADCASTSD (SI)(AX*8), Y10
	VFMADD231PD  Y8, Y10, Y0
	VFMADD231PD  Y9, Y10, Y1
	VBROADCASTSD (R11)(AX*8), Y11
	VFMADD231PD  Y8, Y11, Y2
	VFMADD231PD  Y9, Y11, Y3
	VBROADCASTSD (R12)(AX*8), Y10
	VFMADD231PD  Y8, Y10, Y4
	VFMADD231PD  Y9, Y10, Y5
	VBROADCASTSD (R13)(AX*8), Y11
	VFMADD231PD  Y8, Y11, Y6
	VFMADD231PD  Y9, Y11, Y7
	ADDQ         $64, DI
	INCQ         AX
	CMPQ         AX, CX
	JLT          column

	// Scores: norms - 2*dot.
	VMOVUPD (R8), Y8
	VMOVUPD 32(R8), Y9
	ADDQ    $64, R8
	INCQ    BX
	VADDPD  Y0, Y0, Y0
	VSUBPD  Y0, Y8, Y0
	VADDPD  Y1, Y1, Y1
	VSUBPD  Y1, Y9, Y1
	VADDPD  Y2, Y2, Y2
	VSUBPD  Y2, Y8, Y2
	VADDPD  Y3, Y3, Y3
	VSUBPD  Y3, Y9, Y3
	VADDPD  Y4, Y4, Y4
	VSUBPD  Y4, Y8, Y4
	VADDPD  Y5, Y5, Y5
	VSUBPD  Y5, Y9, Y5
	VADDPD  Y6, Y6, Y6
	VSUBPD  Y6, Y8, Y6
	VADDPD  Y7, Y7, Y7
	VSUBPD  Y7, Y9, Y7

	// score <= threshold (ordered: false for NaN).
	VCMPPD    $2, Y12, Y0, Y8
	VCMPPD    $2, Y12, Y1, Y9
	VORPD     Y9, Y8, Y8
	VCMPPD    $2, Y13, Y2, Y9
	VORPD     Y9, Y8, Y8
	VCMPPD    $2, Y13, Y3, Y9
	VORPD     Y9, Y8, Y8
	VCMPPD    $2, Y14, Y4, Y9
	VORPD     Y9, Y8, Y8
	VCMPPD    $2, Y14, Y5, Y9
	VORPD     Y9, Y8, Y8
	VCMPPD    $2, Y15, Y6, Y9
	VORPD     Y9, Y8, Y8
	VCMPPD    $2, Y15, Y7, Y9
	VORPD     Y9, Y8, Y8
	VMOVMSKPD Y8, AX
	TESTQ     AX, AX
	JZ        panel

	VMOVUPD Y0, 0(R10)
	VMOVUPD Y1, 32(R10)
	VMOVUPD Y2, 64(R10)
	VMOVUPD Y3, 96(R10)
	VMOVUPD Y4, 128(R10)
	VMOVUPD Y5, 160(R10)
	VMOVUPD Y6, 192(R10)
	VMOVUPD Y7, 224(R10)
	VZEROUPPER
	MOVQ    BX, done+56(FP)
	MOVB    $1, hit+64(FP)
	RET

none:
	VZEROUPPER
	MOVQ BX, done+56(FP)
	MOVB $0, hit+64(FP)
	RET

// func scan8x8(q *float64, d int, panels *float64, norms *float64, np int, thr *[8]float64, out *[64]float64) (done int, hit bool)
//
// scan4x8 for 8 query rows in AVX-512: one accumulator of 8 lanes per
// query row (Z0-Z7), the query value broadcast by the multiply-add itself;
// the same operations per lane, so the same scores.
TEXT ·scan8x8(SB), NOSPLIT, $0-65
	MOVQ q+0(FP), SI
	MOVQ d+8(FP), CX
	MOVQ panels+16(FP), DI
	MOVQ norms+24(FP), R8
	MOVQ np+32(FP), DX
	MOVQ thr+40(FP), R9
	MOVQ out+48(FP), R10

	VBROADCASTSD 0(R9), Z16
	VBROADCASTSD 8(R9), Z17
	VBROADCASTSD 16(R9), Z18
	VBROADCASTSD 24(R9), Z19
	VBROADCASTSD 32(R9), Z20
	VBROADCASTSD 40(R9), Z21
	VBROADCASTSD 48(R9), Z22
	VBROADCASTSD 56(R9), Z23

	// Row stride in bytes R9; query rows at SI + a*R9: 0, 1, 2 and 4 from
	// SI, 3 and 5 from R11 = SI+3*R9, 6 and 7 from R12 = SI+6*R9.
	MOVQ CX, R9
	SHLQ $3, R9
	XORQ BX, BX // panels done

panel8:
	CMPQ   BX, DX
	JGE    none8
	MOVQ   q+0(FP), SI
	LEAQ   (SI)(R9*2), R11
	ADDQ   R9, R11
	LEAQ   (R11)(R9*2), R12
	ADDQ   R9, R12
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	VXORPD Z2, Z2, Z2
	VXORPD Z3, Z3, Z3
	VXORPD Z4, Z4, Z4
	VXORPD Z5, Z5, Z5
	VXORPD Z6, Z6, Z6
	VXORPD Z7, Z7, Z7
	MOVQ   CX, AX

column8:
	VMOVUPD          (DI), Z8
	VFMADD231PD.BCST (SI), Z8, Z0
	VFMADD231PD.BCST (SI)(R9*1), Z8, Z1
	VFMADD231PD.BCST (SI)(R9*2), Z8, Z2
	VFMADD231PD.BCST (R11), Z8, Z3
	VFMADD231PD.BCST (SI)(R9*4), Z8, Z4
	VFMADD231PD.BCST (R11)(R9*2), Z8, Z5
	VFMADD231PD.BCST (R12), Z8, Z6
	VFMADD231PD.BCST (R12)(R9*1), Z8, Z7
	ADDQ             $64, DI
	ADDQ             $8, SI
	ADDQ             $8, R11
	ADDQ             $8, R12
	DECQ             AX
	JNZ              column8

	// Scores: norms - 2*dot.
	VMOVUPD (R8), Z9
	ADDQ    $64, R8
	INCQ    BX
	VADDPD  Z0, Z0, Z0
	VSUBPD  Z0, Z9, Z0
	VADDPD  Z1, Z1, Z1
	VSUBPD  Z1, Z9, Z1
	VADDPD  Z2, Z2, Z2
	VSUBPD  Z2, Z9, Z2
	VADDPD  Z3, Z3, Z3
	VSUBPD  Z3, Z9, Z3
	VADDPD  Z4, Z4, Z4
	VSUBPD  Z4, Z9, Z4
	VADDPD  Z5, Z5, Z5
	VSUBPD  Z5, Z9, Z5
	VADDPD  Z6, Z6, Z6
	VSUBPD  Z6, Z9, Z6
	VADDPD  Z7, Z7, Z7
	VSUBPD  Z7, Z9, Z7

	// score <= threshold (ordered: false for NaN).
	VCMPPD    $2, Z16, Z0, K1
	VCMPPD    $2, Z17, Z1, K2
	KORW      K2, K1, K1
	VCMPPD    $2, Z18, Z2, K2
	KORW      K2, K1, K1
	VCMPPD    $2, Z19, Z3, K2
	KORW      K2, K1, K1
	VCMPPD    $2, Z20, Z4, K2
	KORW      K2, K1, K1
	VCMPPD    $2, Z21, Z5, K2
	KORW      K2, K1, K1
	VCMPPD    $2, Z22, Z6, K2
	KORW      K2, K1, K1
	VCMPPD    $2, Z23, Z7, K2
	KORW      K2, K1, K1
	KORTESTW  K1, K1
	JZ        panel8

	VMOVUPD Z0, 0(R10)
	VMOVUPD Z1, 64(R10)
	VMOVUPD Z2, 128(R10)
	VMOVUPD Z3, 192(R10)
	VMOVUPD Z4, 256(R10)
	VMOVUPD Z5, 320(R10)
	VMOVUPD Z6, 384(R10)
	VMOVUPD Z7, 448(R10)
	VZEROUPPER
	MOVQ    BX, done+56(FP)
	MOVB    $1, hit+64(FP)
	RET

none8:
	VZEROUPPER
	MOVQ BX, done+56(FP)
	MOVB $0, hit+64(FP)
	RET

// func scan8x16f(q *float32, d int, panels *float32, norms *float32, np int, thr *[8]float32, out *[128]float32) (done int, hit bool)
//
// scan8x8 in float32: panels of 16 reference rows (column t of panel p at
// panels[(p*d+t)*16:]), one accumulator of 16 lanes per query row; the
// scores norms - 2*dot are float32 and out[a*16+b] is row b for query a.
TEXT ·scan8x16f(SB), NOSPLIT, $0-65
	MOVQ q+0(FP), SI
	MOVQ d+8(FP), CX
	MOVQ panels+16(FP), DI
	MOVQ norms+24(FP), R8
	MOVQ np+32(FP), DX
	MOVQ thr+40(FP), R9
	MOVQ out+48(FP), R10

	VBROADCASTSS 0(R9), Z16
	VBROADCASTSS 4(R9), Z17
	VBROADCASTSS 8(R9), Z18
	VBROADCASTSS 12(R9), Z19
	VBROADCASTSS 16(R9), Z20
	VBROADCASTSS 20(R9), Z21
	VBROADCASTSS 24(R9), Z22
	VBROADCASTSS 28(R9), Z23

	// Row stride in bytes R9; query rows at SI + a*R9 as in scan8x8.
	MOVQ CX, R9
	SHLQ $2, R9
	XORQ BX, BX // panels done

panelf:
	CMPQ   BX, DX
	JGE    nonef
	MOVQ   q+0(FP), SI
	LEAQ   (SI)(R9*2), R11
	ADDQ   R9, R11
	LEAQ   (R11)(R9*2), R12
	ADDQ   R9, R12
	VXORPS Z0, Z0, Z0
	VXORPS Z1, Z1, Z1
	VXORPS Z2, Z2, Z2
	VXORPS Z3, Z3, Z3
	VXORPS Z4, Z4, Z4
	VXORPS Z5, Z5, Z5
	VXORPS Z6, Z6, Z6
	VXORPS Z7, Z7, Z7
	MOVQ   CX, AX

columnf:
	VMOVUPS          (DI), Z8
	VFMADD231PS.BCST (SI), Z8, Z0
	VFMADD231PS.BCST (SI)(R9*1), Z8, Z1
	VFMADD231PS.BCST (SI)(R9*2), Z8, Z2
	VFMADD231PS.BCST (R11), Z8, Z3
	VFMADD231PS.BCST (SI)(R9*4), Z8, Z4
	VFMADD231PS.BCST (R11)(R9*2), Z8, Z5
	VFMADD231PS.BCST (R12), Z8, Z6
	VFMADD231PS.BCST (R12)(R9*1), Z8, Z7
	ADDQ             $64, DI
	ADDQ             $4, SI
	ADDQ             $4, R11
	ADDQ             $4, R12
	DECQ             AX
	JNZ              columnf

	// Scores: norms - 2*dot.
	VMOVUPS (R8), Z9
	ADDQ    $64, R8
	INCQ    BX
	VADDPS  Z0, Z0, Z0
	VSUBPS  Z0, Z9, Z0
	VADDPS  Z1, Z1, Z1
	VSUBPS  Z1, Z9, Z1
	VADDPS  Z2, Z2, Z2
	VSUBPS  Z2, Z9, Z2
	VADDPS  Z3, Z3, Z3
	VSUBPS  Z3, Z9, Z3
	VADDPS  Z4, Z4, Z4
	VSUBPS  Z4, Z9, Z4
	VADDPS  Z5, Z5, Z5
	VSUBPS  Z5, Z9, Z5
	VADDPS  Z6, Z6, Z6
	VSUBPS  Z6, Z9, Z6
	VADDPS  Z7, Z7, Z7
	VSUBPS  Z7, Z9, Z7

	// score <= threshold (ordered: false for NaN).
	VCMPPS   $2, Z16, Z0, K1
	VCMPPS   $2, Z17, Z1, K2
	KORW     K2, K1, K1
	VCMPPS   $2, Z18, Z2, K2
	KORW     K2, K1, K1
	VCMPPS   $2, Z19, Z3, K2
	KORW     K2, K1, K1
	VCMPPS   $2, Z20, Z4, K2
	KORW     K2, K1, K1
	VCMPPS   $2, Z21, Z5, K2
	KORW     K2, K1, K1
	VCMPPS   $2, Z22, Z6, K2
	KORW     K2, K1, K1
	VCMPPS   $2, Z23, Z7, K2
	KORW     K2, K1, K1
	KORTESTW K1, K1
	JZ       panelf

	VMOVUPS Z0, 0(R10)
	VMOVUPS Z1, 64(R10)
	VMOVUPS Z2, 128(R10)
	VMOVUPS Z3, 192(R10)
	VMOVUPS Z4, 256(R10)
	VMOVUPS Z5, 320(R10)
	VMOVUPS Z6, 384(R10)
	VMOVUPS Z7, 448(R10)
	VZEROUPPER
	MOVQ    BX, done+56(FP)
	MOVB    $1, hit+64(FP)
	RET

nonef:
	VZEROUPPER
	MOVQ BX, done+56(FP)
	MOVB $0, hit+64(FP)
	RET

// func scan4x16f(q *float32, d int, panels *float32, norms *float32, np int, thr *[4]float32, out *[64]float32) (done int, hit bool)
//
// scan4x8 in float32 over the panels of 16 rows of scan8x16f (column t of
// panel p at panels[(p*d+t)*16:]), for AVX2 machines without AVX-512: the
// 4 query rows at q (row-major, stride d) times 16 rows in Y0-Y7, the same
// operations per lane as scan8x16f; out[a*16+b] is row b for query a.
TEXT ·scan4x16f(SB), NOSPLIT, $0-65
	MOVQ q+0(FP), SI
	MOVQ d+8(FP), CX
	MOVQ panels+16(FP), DI
	MOVQ norms+24(FP), R8
	MOVQ np+32(FP), DX
	MOVQ thr+40(FP), R9
	MOVQ out+48(FP), R10

	// Query rows: q0 SI, q1 R11, q2 R12, q3 R13.
	LEAQ (SI)(CX*4), R11
	LEAQ (R11)(CX*4), R12
	LEAQ (R12)(CX*4), R13

	VBROADCASTSS 0(R9), Y12
	VBROADCASTSS 4(R9), Y13
	VBROADCASTSS 8(R9), Y14
	VBROADCASTSS 12(R9), Y15

	XORQ BX, BX // panels done

panel4f:
	CMPQ BX, DX
	JGE  none4f
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	XORQ   AX, AX

column4f:
	VMOVUPS      (DI), Y8
	VMOVUPS      32(DI), Y9
	VBROADCASTSS (SI)(AX*4), Y10
	VFMADD231PS  Y8, Y10, Y0
	VFMADD231PS  Y9, Y10, Y1
	VBROADCASTSS (R11)(AX*4), Y11
	VFMADD231PS  Y8, Y11, Y2
	VFMADD231PS  Y9, Y11, Y3
	VBROADCASTSS (R12)(AX*4), Y10
	VFMADD231PS  Y8, Y10, Y4
	VFMADD231PS  Y9, Y10, Y5
	VBROADCASTSS (R13)(AX*4), Y11
	VFMADD231PS  Y8, Y11, Y6
	VFMADD231PS  Y9, Y11, Y7
	ADDQ         $64, DI
	INCQ         AX
	CMPQ         AX, CX
	JLT          column4f

	// Scores: norms - 2*dot.
	VMOVUPS (R8), Y8
	VMOVUPS 32(R8), Y9
	ADDQ    $64, R8
	INCQ    BX
	VADDPS  Y0, Y0, Y0
	VSUBPS  Y0, Y8, Y0
	VADDPS  Y1, Y1, Y1
	VSUBPS  Y1, Y9, Y1
	VADDPS  Y2, Y2, Y2
	VSUBPS  Y2, Y8, Y2
	VADDPS  Y3, Y3, Y3
	VSUBPS  Y3, Y9, Y3
	VADDPS  Y4, Y4, Y4
	VSUBPS  Y4, Y8, Y4
	VADDPS  Y5, Y5, Y5
	VSUBPS  Y5, Y9, Y5
	VADDPS  Y6, Y6, Y6
	VSUBPS  Y6, Y8, Y6
	VADDPS  Y7, Y7, Y7
	VSUBPS  Y7, Y9, Y7

	// score <= threshold (ordered: false for NaN).
	VCMPPS    $2, Y12, Y0, Y8
	VCMPPS    $2, Y12, Y1, Y9
	VORPS     Y9, Y8, Y8
	VCMPPS    $2, Y13, Y2, Y9
	VORPS     Y9, Y8, Y8
	VCMPPS    $2, Y13, Y3, Y9
	VORPS     Y9, Y8, Y8
	VCMPPS    $2, Y14, Y4, Y9
	VORPS     Y9, Y8, Y8
	VCMPPS    $2, Y14, Y5, Y9
	VORPS     Y9, Y8, Y8
	VCMPPS    $2, Y15, Y6, Y9
	VORPS     Y9, Y8, Y8
	VCMPPS    $2, Y15, Y7, Y9
	VORPS     Y9, Y8, Y8
	VMOVMSKPS Y8, AX
	TESTQ     AX, AX
	JZ        panel4f

	VMOVUPS Y0, 0(R10)
	VMOVUPS Y1, 32(R10)
	VMOVUPS Y2, 64(R10)
	VMOVUPS Y3, 96(R10)
	VMOVUPS Y4, 128(R10)
	VMOVUPS Y5, 160(R10)
	VMOVUPS Y6, 192(R10)
	VMOVUPS Y7, 224(R10)
	VZEROUPPER
	MOVQ    BX, done+56(FP)
	MOVB    $1, hit+64(FP)
	RET

none4f:
	VZEROUPPER
	MOVQ BX, done+56(FP)
	MOVB $0, hit+64(FP)
	RET


// func scan6x16f(q *float32, d int, panels *float32, norms *float32, np int, thr *[6]float32, out *[96]float32) (done int, hit bool)
//
// scan4x16f for 6 query rows, with the rows at q scaled by -2 (exactly:
// q holds -2 times the queries): 12 accumulators (Y0-Y11, query a in
// Y(2a) for rows 0-7 and Y(2a+1) for rows 8-15), which amortise the
// panel's loads and the per-panel scoring over half as many more
// multiply-adds. Each accumulator starts at the rows' norms and adds the
// products in column order, so the score norms + sum of (-2q_t)·r_t takes
// no operation after the columns but the comparison (roundingBound32
// covers its error too); out[a*16+b] is row b for query a. The
// thresholds are read from thr after each panel's columns (no register
// is left to hold them).
TEXT ·scan6x16f(SB), NOSPLIT, $0-65
	MOVQ q+0(FP), R13
	MOVQ d+8(FP), CX
	MOVQ panels+16(FP), DI
	MOVQ norms+24(FP), R8
	MOVQ np+32(FP), DX
	MOVQ thr+40(FP), R12
	MOVQ out+48(FP), R10

	// Row stride in bytes R9; query rows at SI, SI+R9, SI+2*R9, R11,
	// R11+R9, R11+2*R9 with R11 = SI+3*R9.
	MOVQ CX, R9
	SHLQ $2, R9
	XORQ BX, BX // panels done

panel6f:
	CMPQ    BX, DX
	JGE     none6f
	MOVQ    R13, SI
	LEAQ    (SI)(R9*2), R11
	ADDQ    R9, R11
	VMOVUPS (R8), Y0
	VMOVUPS 32(R8), Y1
	VMOVAPS Y0, Y2
	VMOVAPS Y1, Y3
	VMOVAPS Y0, Y4
	VMOVAPS Y1, Y5
	VMOVAPS Y0, Y6
	VMOVAPS Y1, Y7
	VMOVAPS Y0, Y8
	VMOVAPS Y1, Y9
	VMOVAPS Y0, Y10
	VMOVAPS Y1, Y11
	ADDQ    $64, R8
	INCQ    BX
	MOVQ    CX, AX

column6f:
	VMOVUPS      (DI), Y12
	VMOVUPS      32(DI), Y13
	VBROADCASTSS (SI), Y14
	VFMADD231PS  Y12, Y14, Y0
	VFMADD231PS  Y13, Y14, Y1
	VBROADCASTSS (SI)(R9*1), Y15
	VFMADD231PS  Y12, Y15, Y2
	VFMADD231PS  Y13, Y15, Y3
	VBROADCASTSS (SI)(R9*2), Y14
	VFMADD231PS  Y12, Y14, Y4
	VFMADD231PS  Y13, Y14, Y5
	VBROADCASTSS (R11), Y15
	VFMADD231PS  Y12, Y15, Y6
	VFMADD231PS  Y13, Y15, Y7
	VBROADCASTSS (R11)(R9*1), Y14
	VFMADD231PS  Y12, Y14, Y8
	VFMADD231PS  Y13, Y14, Y9
	VBROADCASTSS (R11)(R9*2), Y15
	VFMADD231PS  Y12, Y15, Y10
	VFMADD231PS  Y13, Y15, Y11
	ADDQ         $64, DI
	ADDQ         $4, SI
	ADDQ         $4, R11
	DECQ         AX
	JNZ          column6f

	// score <= threshold (ordered: false for NaN), OR-ed into Y15.
	VBROADCASTSS 0(R12), Y14
	VCMPPS       $2, Y14, Y0, Y15
	VCMPPS       $2, Y14, Y1, Y13
	VORPS        Y13, Y15, Y15
	VBROADCASTSS 4(R12), Y14
	VCMPPS       $2, Y14, Y2, Y12
	VCMPPS       $2, Y14, Y3, Y13
	VORPS        Y12, Y13, Y13
	VORPS        Y13, Y15, Y15
	VBROADCASTSS 8(R12), Y14
	VCMPPS       $2, Y14, Y4, Y12
	VCMPPS       $2, Y14, Y5, Y13
	VORPS        Y12, Y13, Y13
	VORPS        Y13, Y15, Y15
	VBROADCASTSS 12(R12), Y14
	VCMPPS       $2, Y14, Y6, Y12
	VCMPPS       $2, Y14, Y7, Y13
	VORPS        Y12, Y13, Y13
	VORPS        Y13, Y15, Y15
	VBROADCASTSS 16(R12), Y14
	VCMPPS       $2, Y14, Y8, Y12
	VCMPPS       $2, Y14, Y9, Y13
	VORPS        Y12, Y13, Y13
	VORPS        Y13, Y15, Y15
	VBROADCASTSS 20(R12), Y14
	VCMPPS       $2, Y14, Y10, Y12
	VCMPPS       $2, Y14, Y11, Y13
	VORPS        Y12, Y13, Y13
	VORPS        Y13, Y15, Y15
	VMOVMSKPS    Y15, AX
	TESTQ        AX, AX
	JZ           panel6f

	VMOVUPS Y0, 0(R10)
	VMOVUPS Y1, 32(R10)
	VMOVUPS Y2, 64(R10)
	VMOVUPS Y3, 96(R10)
	VMOVUPS Y4, 128(R10)
	VMOVUPS Y5, 160(R10)
	VMOVUPS Y6, 192(R10)
	VMOVUPS Y7, 224(R10)
	VMOVUPS Y8, 256(R10)
	VMOVUPS Y9, 288(R10)
	VMOVUPS Y10, 320(R10)
	VMOVUPS Y11, 352(R10)
	VZEROUPPER
	MOVQ    BX, done+56(FP)
	MOVB    $1, hit+64(FP)
	RET

none6f:
	VZEROUPPER
	MOVQ BX, done+56(FP)
	MOVB $0, hit+64(FP)
	RET

// func scan6x16i(q *int16, dp int, panels *int16, norms *int32, np int, lim *[6]int32, out *[96]int32, mask *[6]uint16) (done int, hit bool)
//
// The int16 filter (panel16.go): scan6x16f in integers over panels of 16
// rows whose columns come in pairs (pair t of panel p at
// panels[(p*dp+t)*32:], row b's two values at 2b and 2b+1), for the 6
// query rows at q (int16, row-major, stride 2*dp, already times -2).
// Each accumulator (query a in Y(2a) for rows 0-7, Y(2a+1) for rows
// 8-15) starts at the rows' int32 norms and adds, pair by pair, the two
// products of a VPMADDWD, in wrapping int32 arithmetic. A score passes
// when it is below its query's lim[a] (VPCMPGTD); out[a*16+b] is row b
// for query a, and bit b of mask[a] says whether it passed.
TEXT ·scan6x16i(SB), NOSPLIT, $0-73
	MOVQ q+0(FP), R13
	MOVQ dp+8(FP), CX
	MOVQ panels+16(FP), DI
	MOVQ norms+24(FP), R8
	MOVQ np+32(FP), DX
	MOVQ lim+40(FP), R12
	MOVQ out+48(FP), R10

	// Row stride in bytes R9 (2*dp int16); query rows at SI, SI+R9,
	// SI+2*R9, R11, R11+R9, R11+2*R9 with R11 = SI+3*R9.
	MOVQ CX, R9
	SHLQ $2, R9
	XORQ BX, BX // panels done

panel6i:
	CMPQ    BX, DX
	JGE     none6i
	MOVQ    R13, SI
	LEAQ    (SI)(R9*2), R11
	ADDQ    R9, R11
	VMOVDQU (R8), Y0
	VMOVDQU 32(R8), Y1
	VMOVDQA Y0, Y2
	VMOVDQA Y1, Y3
	VMOVDQA Y0, Y4
	VMOVDQA Y1, Y5
	VMOVDQA Y0, Y6
	VMOVDQA Y1, Y7
	VMOVDQA Y0, Y8
	VMOVDQA Y1, Y9
	VMOVDQA Y0, Y10
	VMOVDQA Y1, Y11
	ADDQ    $64, R8
	INCQ    BX
	MOVQ    CX, AX

pair6i:
	VMOVDQU      (DI), Y12
	VMOVDQU      32(DI), Y13
	VPBROADCASTD (SI), Y14
	VPMADDWD     Y12, Y14, Y15
	VPADDD       Y15, Y0, Y0
	VPMADDWD     Y13, Y14, Y15
	VPADDD       Y15, Y1, Y1
	VPBROADCASTD (SI)(R9*1), Y14
	VPMADDWD     Y12, Y14, Y15
	VPADDD       Y15, Y2, Y2
	VPMADDWD     Y13, Y14, Y15
	VPADDD       Y15, Y3, Y3
	VPBROADCASTD (SI)(R9*2), Y14
	VPMADDWD     Y12, Y14, Y15
	VPADDD       Y15, Y4, Y4
	VPMADDWD     Y13, Y14, Y15
	VPADDD       Y15, Y5, Y5
	VPBROADCASTD (R11), Y14
	VPMADDWD     Y12, Y14, Y15
	VPADDD       Y15, Y6, Y6
	VPMADDWD     Y13, Y14, Y15
	VPADDD       Y15, Y7, Y7
	VPBROADCASTD (R11)(R9*1), Y14
	VPMADDWD     Y12, Y14, Y15
	VPADDD       Y15, Y8, Y8
	VPMADDWD     Y13, Y14, Y15
	VPADDD       Y15, Y9, Y9
	VPBROADCASTD (R11)(R9*2), Y14
	VPMADDWD     Y12, Y14, Y15
	VPADDD       Y15, Y10, Y10
	VPMADDWD     Y13, Y14, Y15
	VPADDD       Y15, Y11, Y11
	ADDQ         $64, DI
	ADDQ         $4, SI
	ADDQ         $4, R11
	DECQ         AX
	JNZ          pair6i

	// lim > score, OR-ed into Y15.
	VPBROADCASTD 0(R12), Y14
	VPCMPGTD     Y0, Y14, Y15
	VPCMPGTD     Y1, Y14, Y13
	VPOR         Y13, Y15, Y15
	VPBROADCASTD 4(R12), Y14
	VPCMPGTD     Y2, Y14, Y12
	VPCMPGTD     Y3, Y14, Y13
	VPOR         Y12, Y13, Y13
	VPOR         Y13, Y15, Y15
	VPBROADCASTD 8(R12), Y14
	VPCMPGTD     Y4, Y14, Y12
	VPCMPGTD     Y5, Y14, Y13
	VPOR         Y12, Y13, Y13
	VPOR         Y13, Y15, Y15
	VPBROADCASTD 12(R12), Y14
	VPCMPGTD     Y6, Y14, Y12
	VPCMPGTD     Y7, Y14, Y13
	VPOR         Y12, Y13, Y13
	VPOR         Y13, Y15, Y15
	VPBROADCASTD 16(R12), Y14
	VPCMPGTD     Y8, Y14, Y12
	VPCMPGTD     Y9, Y14, Y13
	VPOR         Y12, Y13, Y13
	VPOR         Y13, Y15, Y15
	VPBROADCASTD 20(R12), Y14
	VPCMPGTD     Y10, Y14, Y12
	VPCMPGTD     Y11, Y14, Y13
	VPOR         Y12, Y13, Y13
	VPOR         Y13, Y15, Y15
	VPTEST       Y15, Y15
	JZ           panel6i

	VMOVDQU Y0, 0(R10)
	VMOVDQU Y1, 32(R10)
	VMOVDQU Y2, 64(R10)
	VMOVDQU Y3, 96(R10)
	VMOVDQU Y4, 128(R10)
	VMOVDQU Y5, 160(R10)
	VMOVDQU Y6, 192(R10)
	VMOVDQU Y7, 224(R10)
	VMOVDQU Y8, 256(R10)
	VMOVDQU Y9, 288(R10)
	VMOVDQU Y10, 320(R10)
	VMOVDQU Y11, 352(R10)

	// The rows that passed, query a's in mask[a] (rows 0-7 in the low
	// byte).
	MOVQ         mask+56(FP), R11
	VPBROADCASTD 0(R12), Y14
	VPCMPGTD     Y0, Y14, Y12
	VPCMPGTD     Y1, Y14, Y13
	VMOVMSKPS    Y12, AX
	VMOVMSKPS    Y13, CX
	SHLL         $8, CX
	ORL          CX, AX
	MOVW         AX, 0(R11)
	VPBROADCASTD 4(R12), Y14
	VPCMPGTD     Y2, Y14, Y12
	VPCMPGTD     Y3, Y14, Y13
	VMOVMSKPS    Y12, AX
	VMOVMSKPS    Y13, CX
	SHLL         $8, CX
	ORL          CX, AX
	MOVW         AX, 2(R11)
	VPBROADCASTD 8(R12), Y14
	VPCMPGTD     Y4, Y14, Y12
	VPCMPGTD     Y5, Y14, Y13
	VMOVMSKPS    Y12, AX
	VMOVMSKPS    Y13, CX
	SHLL         $8, CX
	ORL          CX, AX
	MOVW         AX, 4(R11)
	VPBROADCASTD 12(R12), Y14
	VPCMPGTD     Y6, Y14, Y12
	VPCMPGTD     Y7, Y14, Y13
	VMOVMSKPS    Y12, AX
	VMOVMSKPS    Y13, CX
	SHLL         $8, CX
	ORL          CX, AX
	MOVW         AX, 6(R11)
	VPBROADCASTD 16(R12), Y14
	VPCMPGTD     Y8, Y14, Y12
	VPCMPGTD     Y9, Y14, Y13
	VMOVMSKPS    Y12, AX
	VMOVMSKPS    Y13, CX
	SHLL         $8, CX
	ORL          CX, AX
	MOVW         AX, 8(R11)
	VPBROADCASTD 20(R12), Y14
	VPCMPGTD     Y10, Y14, Y12
	VPCMPGTD     Y11, Y14, Y13
	VMOVMSKPS    Y12, AX
	VMOVMSKPS    Y13, CX
	SHLL         $8, CX
	ORL          CX, AX
	MOVW         AX, 10(R11)
	VZEROUPPER
	MOVQ         BX, done+64(FP)
	MOVB         $1, hit+72(FP)
	RET

none6i:
	VZEROUPPER
	MOVQ BX, done+64(FP)
	MOVB $0, hit+72(FP)
	RET

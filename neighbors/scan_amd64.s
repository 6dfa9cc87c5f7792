//go:build amd64 && !purego

#include "textflag.h"

// func scan8x4AVX(qT, refs, norms *float64, n, d int, thr, out *float64) (next int, mask uint64)
//
// Y0..Y7 accumulate the dot products of 4 reference rows (j) with 8
// queries (two halves h of 4): Y(2j+h). Y14, Y15 hold the thresholds of
// queries 0-3 and 4-7.
TEXT ·scan8x4AVX(SB), NOSPLIT, $0-72
	MOVQ qT+0(FP), SI
	MOVQ refs+8(FP), DI
	MOVQ norms+16(FP), R8
	MOVQ n+24(FP), R9
	MOVQ d+32(FP), R10
	MOVQ thr+40(FP), R11
	MOVQ out+48(FP), R12
	MOVQ R10, R13
	SHLQ $3, R13 // row stride in bytes
	XORQ BX, BX  // rows scanned
	VMOVUPD (R11), Y14
	VMOVUPD 32(R11), Y15

group:
	CMPQ BX, R9
	JGE  none
	LEAQ (DI)(R13*1), DX
	LEAQ (DX)(R13*1), R14
	LEAQ (R14)(R13*1), R15
	MOVQ SI, CX
	XORQ AX, AX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

feature:
	VMOVUPD      (CX), Y8
	VMOVUPD      32(CX), Y9
	VBROADCASTSD (DI)(AX*8), Y10
	VBROADCASTSD (DX)(AX*8), Y11
	VBROADCASTSD (R14)(AX*8), Y12
	VBROADCASTSD (R15)(AX*8), Y13
	VFMADD231PD  Y8, Y10, Y0
	VFMADD231PD  Y9, Y10, Y1
	VFMADD231PD  Y8, Y11, Y2
	VFMADD231PD  Y9, Y11, Y3
	VFMADD231PD  Y8, Y12, Y4
	VFMADD231PD  Y9, Y12, Y5
	VFMADD231PD  Y8, Y13, Y6
	VFMADD231PD  Y9, Y13, Y7
	ADDQ         $64, CX
	INCQ         AX
	CMPQ         AX, R10
	JLT          feature

	// Scores norm - 2 dot, row by row.
	VBROADCASTSD (R8), Y10
	VBROADCASTSD 8(R8), Y11
	VBROADCASTSD 16(R8), Y12
	VBROADCASTSD 24(R8), Y13
	VADDPD       Y0, Y0, Y0
	VADDPD       Y1, Y1, Y1
	VADDPD       Y2, Y2, Y2
	VADDPD       Y3, Y3, Y3
	VADDPD       Y4, Y4, Y4
	VADDPD       Y5, Y5, Y5
	VADDPD       Y6, Y6, Y6
	VADDPD       Y7, Y7, Y7
	VSUBPD       Y0, Y10, Y0
	VSUBPD       Y1, Y10, Y1
	VSUBPD       Y2, Y11, Y2
	VSUBPD       Y3, Y11, Y3
	VSUBPD       Y4, Y12, Y4
	VSUBPD       Y5, Y12, Y5
	VSUBPD       Y6, Y13, Y6
	VSUBPD       Y7, Y13, Y7

	// Mask of scores at most the thresholds (ordered, non-signalling <=).
	XORQ      AX, AX
	VCMPPD    $2, Y14, Y0, Y8
	VMOVMSKPD Y8, DX
	ORQ       DX, AX
	VCMPPD    $2, Y15, Y1, Y8
	VMOVMSKPD Y8, DX
	SHLQ      $4, DX
	ORQ       DX, AX
	VCMPPD    $2, Y14, Y2, Y8
	VMOVMSKPD Y8, DX
	SHLQ      $8, DX
	ORQ       DX, AX
	VCMPPD    $2, Y15, Y3, Y8
	VMOVMSKPD Y8, DX
	SHLQ      $12, DX
	ORQ       DX, AX
	VCMPPD    $2, Y14, Y4, Y8
	VMOVMSKPD Y8, DX
	SHLQ      $16, DX
	ORQ       DX, AX
	VCMPPD    $2, Y15, Y5, Y8
	VMOVMSKPD Y8, DX
	SHLQ      $20, DX
	ORQ       DX, AX
	VCMPPD    $2, Y14, Y6, Y8
	VMOVMSKPD Y8, DX
	SHLQ      $24, DX
	ORQ       DX, AX
	VCMPPD    $2, Y15, Y7, Y8
	VMOVMSKPD Y8, DX
	SHLQ      $28, DX
	ORQ       DX, AX

	ADDQ  $4, BX
	LEAQ  (DI)(R13*4), DI
	ADDQ  $32, R8
	TESTQ AX, AX
	JZ    group

	VMOVUPD Y0, (R12)
	VMOVUPD Y1, 32(R12)
	VMOVUPD Y2, 64(R12)
	VMOVUPD Y3, 96(R12)
	VMOVUPD Y4, 128(R12)
	VMOVUPD Y5, 160(R12)
	VMOVUPD Y6, 192(R12)
	VMOVUPD Y7, 224(R12)
	MOVQ    BX, next+56(FP)
	MOVQ    AX, mask+64(FP)
	VZEROUPPER
	RET

none:
	MOVQ BX, next+56(FP)
	MOVQ $0, mask+64(FP)
	VZEROUPPER
	RET

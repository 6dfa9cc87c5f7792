//go:build amd64 && !purego

#include "textflag.h"

// Steps of the search: s, then s-1, as four int64 lanes each.
#define Q4(off, v) \
	DATA binsteps<>+(off)(SB)/8, $v \
	DATA binsteps<>+(off+8)(SB)/8, $v \
	DATA binsteps<>+(off+16)(SB)/8, $v \
	DATA binsteps<>+(off+24)(SB)/8, $v

Q4(0, 128)
Q4(32, 127)
Q4(64, 64)
Q4(96, 63)
Q4(128, 32)
Q4(160, 31)
Q4(192, 16)
Q4(224, 15)
Q4(256, 8)
Q4(288, 7)
Q4(320, 4)
Q4(352, 3)
Q4(384, 2)
Q4(416, 1)
Q4(448, 1)
Q4(480, 0)
DATA binsteps<>+512(SB)/8, $0
DATA binsteps<>+520(SB)/8, $256
DATA binsteps<>+528(SB)/8, $512
DATA binsteps<>+536(SB)/8, $768
GLOBL binsteps<>(SB), RODATA|NOPTR, $544

// STEP(C, X, OFF): one step of row C's search (lane j: feature j, its
// table at tab + 256*j): C += s if table[C+s-1] <= X, s and s-1 at OFF.
#define STEP(C, X, OFF) \
	VPADDQ C, Y15, Y8 \
	VPADDQ binsteps<>+(OFF+32)(SB), Y8, Y8 \
	VPCMPEQQ Y9, Y9, Y9 \
	VGATHERQPD Y9, (AX)(Y8*8), Y10 \
	VCMPPD $0x12, X, Y10, Y11 \
	VPAND binsteps<>+(OFF)(SB), Y11, Y11 \
	VPADDQ Y11, C, C

#define STEP4(OFF) \
	STEP(Y4, Y0, OFF) \
	STEP(Y5, Y1, OFF) \
	STEP(Y6, Y2, OFF) \
	STEP(Y7, Y3, OFF)

// FIN(C, CL, X) (CL: C's low half): NaN values get code nb (Y14); stores the four codes at (DI).
#define FIN(C, CL, X) \
	VCMPPD $0x03, X, X, Y11 \
	VBLENDVPD Y11, Y14, C, C \
	VMOVQ CL, R8 \
	MOVB R8, (DI) \
	VPEXTRQ $1, CL, R8 \
	MOVB R8, 1(DI) \
	VEXTRACTI128 $1, C, X12 \
	VMOVQ X12, R8 \
	MOVB R8, 2(DI) \
	VPEXTRQ $1, X12, R8 \
	MOVB R8, 3(DI) \
	ADDQ DX, DI

// func binKernelAVX2(tab *float64, x *float64, xstride int, out *uint8, ostride int, nb *[4]int64, rows int)
//
// For rows rows (a multiple of 4) and the four features whose cut tables
// (see cutTable) are tab[256*j : 256*j+256], j < 4: out[r*ostride+j] =
// the number of table entries <= x[r*xstride+j], or nb[j] when that value
// is NaN: bin4's searches, four rows at a time (sixteen independent
// searches), each step a gather of four table entries. xstride is in
// float64s, ostride in bytes.
TEXT ·binKernelAVX2(SB), NOSPLIT, $0-56
	MOVQ tab+0(FP), AX
	MOVQ x+8(FP), SI
	MOVQ xstride+16(FP), BX
	SHLQ $3, BX
	MOVQ out+24(FP), DI
	MOVQ ostride+32(FP), DX
	MOVQ nb+40(FP), R9
	VMOVDQU (R9), Y14
	VMOVDQU binsteps<>+512(SB), Y15
	MOVQ rows+48(FP), CX
	SHRQ $2, CX
	JEQ bindone

binloop:
	VMOVUPD (SI), Y0
	ADDQ BX, SI
	VMOVUPD (SI), Y1
	ADDQ BX, SI
	VMOVUPD (SI), Y2
	ADDQ BX, SI
	VMOVUPD (SI), Y3
	ADDQ BX, SI
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7
	STEP4(0)
	STEP4(64)
	STEP4(128)
	STEP4(192)
	STEP4(256)
	STEP4(320)
	STEP4(384)
	STEP4(448)
	FIN(Y4, X4, Y0)
	FIN(Y5, X5, Y1)
	FIN(Y6, X6, Y2)
	FIN(Y7, X7, Y3)
	DECQ CX
	JNE binloop

bindone:
	VZEROUPPER
	RET

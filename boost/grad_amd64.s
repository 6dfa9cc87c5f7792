//go:build amd64 && !purego

#include "textflag.h"

// Four lanes of math.Exp as Go's amd64 assembly computes it on a CPU with
// FMA (src/math/exp_amd64.s, the avxfma path): the same operations in the
// same order on each lane, so every lane is bit-identical to math.Exp.
// The scalar branches (not finite, overflow, subnormal result, underflow)
// become masks and blends over the same candidate values.

DATA gexpc<>+0(SB)/8, $1.4426950408889634073599246810018920  // LOG2E
DATA gexpc<>+8(SB)/8, $0.69314718055966295651160180568695068359375 // LN2U
DATA gexpc<>+16(SB)/8, $0.28235290563031577122588448175013436025525412068e-12 // LN2L
DATA gexpc<>+24(SB)/8, $0.0625
DATA gexpc<>+32(SB)/8, $2.4801587301587301587e-5
DATA gexpc<>+40(SB)/8, $1.9841269841269841270e-4
DATA gexpc<>+48(SB)/8, $1.3888888888888888889e-3
DATA gexpc<>+56(SB)/8, $8.3333333333333333333e-3
DATA gexpc<>+64(SB)/8, $4.1666666666666666667e-2
DATA gexpc<>+72(SB)/8, $1.6666666666666666667e-1
DATA gexpc<>+80(SB)/8, $0.5
DATA gexpc<>+88(SB)/8, $1.0
DATA gexpc<>+96(SB)/8, $2.0
DATA gexpc<>+104(SB)/8, $7.09782712893384e+02 // Overflow
DATA gexpc<>+112(SB)/8, $0x7FF0000000000000 // +Inf
DATA gexpc<>+120(SB)/8, $0xFFF0000000000000 // -Inf
DATA gexpc<>+128(SB)/8, $0x3FE // bias - 1 (int64)
DATA gexpc<>+136(SB)/8, $0x0010000000000000 // 2**-1022
DATA gexpc<>+144(SB)/8, $0 // int64 0
DATA gexpc<>+152(SB)/8, $-53 // int64
DATA gexpc<>+160(SB)/8, $0x7FE // int64
DATA gexpc<>+168(SB)/8, $0x8000000000000000 // sign bit
DATA gexpc<>+176(SB)/8, $1e-16 // minHess
GLOBL gexpc<>(SB), RODATA|NOPTR, $184

DATA gbias<>+0(SB)/4, $0x3FF
DATA gbias<>+4(SB)/4, $0x3FF
DATA gbias<>+8(SB)/4, $0x3FF
DATA gbias<>+12(SB)/4, $0x3FF
GLOBL gbias<>(SB), RODATA|NOPTR, $16

#define C(off) gexpc<>+off(SB)

// EXP4 replaces each lane of Y0 by its exponential; clobbers Y1-Y8, Y15
// and needs the broadcast constants of bcast below (Y9-Y14).
//   Y9: 2.0   Y10: 1.0   Y11: +Inf   Y12: 0x3FE (int64)   Y13: int64 0   Y14: 2**-1022
#define EXP4 \
	VMOVAPD Y0, Y15 \
	VBROADCASTSD C(0), Y1 \
	VMULPD Y0, Y1, Y1 \
	VCVTPD2DQY Y1, X2 \
	VCVTDQ2PD X2, Y1 \
	VBROADCASTSD C(8), Y3 \
	VFNMADD231PD Y3, Y1, Y0 \
	VBROADCASTSD C(16), Y3 \
	VFNMADD231PD Y3, Y1, Y0 \
	VBROADCASTSD C(24), Y3 \
	VMULPD Y3, Y0, Y0 \
	VBROADCASTSD C(32), Y1 \
	VBROADCASTSD C(40), Y3 \
	VFMADD213PD Y3, Y0, Y1 \
	VBROADCASTSD C(48), Y3 \
	VFMADD213PD Y3, Y0, Y1 \
	VBROADCASTSD C(56), Y3 \
	VFMADD213PD Y3, Y0, Y1 \
	VBROADCASTSD C(64), Y3 \
	VFMADD213PD Y3, Y0, Y1 \
	VBROADCASTSD C(72), Y3 \
	VFMADD213PD Y3, Y0, Y1 \
	VBROADCASTSD C(80), Y3 \
	VFMADD213PD Y3, Y0, Y1 \
	VFMADD213PD Y10, Y0, Y1 \
	VMULPD Y1, Y0, Y0 \
	VADDPD Y9, Y0, Y1 \
	VMULPD Y1, Y0, Y0 \
	VADDPD Y9, Y0, Y1 \
	VMULPD Y1, Y0, Y0 \
	VADDPD Y9, Y0, Y1 \
	VMULPD Y1, Y0, Y0 \
	VADDPD Y9, Y0, Y1 \
	VFMADD213PD Y10, Y1, Y0 \
	VPADDD gbias<>(SB), X2, X3 \
	VPMOVSXDQ X3, Y4 \
	VPSLLQ $52, Y4, Y5 \
	VMULPD Y5, Y0, Y6 \
	VPADDQ Y12, Y4, Y5 \
	VPSLLQ $52, Y5, Y5 \
	VMULPD Y5, Y0, Y7 \
	VMULPD Y14, Y7, Y7 \
	VPCMPGTQ Y13, Y4, Y8 \
	VBLENDVPD Y8, Y6, Y7, Y0 \
	VBROADCASTSD C(152), Y3 \
	VPCMPGTQ Y3, Y4, Y8 \
	VANDPD Y8, Y0, Y0 \
	VBROADCASTSD C(160), Y3 \
	VPCMPGTQ Y3, Y4, Y8 \
	VBLENDVPD Y8, Y11, Y0, Y0 \
	VBROADCASTSD C(104), Y3 \
	VCMPPD $0x1E, Y3, Y15, Y8 \
	VBLENDVPD Y8, Y11, Y0, Y0 \
	VBROADCASTSD C(120), Y3 \
	VCMPPD $0x00, Y3, Y15, Y8 \
	VANDNPD Y0, Y8, Y0 \
	VCMPPD $0x03, Y15, Y15, Y8 \
	VBLENDVPD Y8, Y15, Y0, Y0

#define BCAST \
	VBROADCASTSD C(96), Y9 \
	VBROADCASTSD C(88), Y10 \
	VBROADCASTSD C(112), Y11 \
	VBROADCASTSD C(128), Y12 \
	VBROADCASTSD C(144), Y13 \
	VBROADCASTSD C(136), Y14

// func expKernelAVX2(dst, src *float64, n int)
// dst[i] = math.Exp(src[i]) for i < n, n a multiple of 4.
TEXT ·expKernelAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	BCAST
	SHRQ $2, CX
	JEQ expdone

exploop:
	VMOVUPD (SI), Y0
	EXP4
	VMOVUPD Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE exploop

expdone:
	VZEROUPPER
	RET

// func logisticGradKernelAVX2(gp *gpair, margin *float64, y *int, n int)
// For i < n (a multiple of 4), as Train's scalar loop:
//	p := 1 / (1 + math.Exp(-margin[i]))
//	gp[i] = gpair{float32(p - float64(y[i])), float32(max(p*(1-p), minHess))}
// with y[i] 0 or 1 (float64(y) is (-y) & bits(1.0)).
TEXT ·logisticGradKernelAVX2(SB), NOSPLIT, $0-32
	MOVQ gp+0(FP), DI
	MOVQ margin+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	BCAST
	SHRQ $2, CX
	JEQ graddone

gradloop:
	VBROADCASTSD C(168), Y0
	VXORPD (SI), Y0, Y0
	EXP4
	VADDPD Y10, Y0, Y0
	VDIVPD Y0, Y10, Y1
	VPXOR Y2, Y2, Y2
	VPSUBQ (DX), Y2, Y2
	VANDPD Y10, Y2, Y2
	VSUBPD Y2, Y1, Y3
	VSUBPD Y1, Y10, Y4
	VMULPD Y4, Y1, Y4
	VBROADCASTSD C(176), Y5
	VMAXPD Y4, Y5, Y4
	VCVTPD2PSY Y3, X3
	VCVTPD2PSY Y4, X4
	VUNPCKLPS X4, X3, X5
	VUNPCKHPS X4, X3, X6
	VMOVUPS X5, (DI)
	VMOVUPS X6, 16(DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNE gradloop

graddone:
	VZEROUPPER
	RET

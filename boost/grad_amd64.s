//go:build amd64 && !purego

#include "textflag.h"

// Lanes of math.Exp as Go's amd64 assembly computes it on a CPU with
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

// Two vectors of four lanes at a time (A in Y0, B in Y4), interleaved
// instruction by instruction: each lane's exponential is a chain of some
// thirty dependent operations, and two independent chains keep the FP
// pipes busy where one would leave them waiting.
//
// Constants kept in registers: Y9 = 2.0, Y10 = 1.0.

// EXPPOLY2: Y0, Y4 = x (A, B). Saves x in Y11, Y12 and leaves in X2, X6
// the int32 exponents k and in Y0, Y4 the reduced value's exponential
// (the avxfma path of exp_amd64.s up to ldexp). Clobbers Y1, Y3, Y5.
#define EXPPOLY2 \
	VMOVAPD Y0, Y11 \
	VMOVAPD Y4, Y12 \
	VBROADCASTSD C(0), Y3 \
	VMULPD Y0, Y3, Y1 \
	VMULPD Y4, Y3, Y5 \
	VCVTPD2DQY Y1, X2 \
	VCVTPD2DQY Y5, X6 \
	VCVTDQ2PD X2, Y1 \
	VCVTDQ2PD X6, Y5 \
	VBROADCASTSD C(8), Y3 \
	VFNMADD231PD Y3, Y1, Y0 \
	VFNMADD231PD Y3, Y5, Y4 \
	VBROADCASTSD C(16), Y3 \
	VFNMADD231PD Y3, Y1, Y0 \
	VFNMADD231PD Y3, Y5, Y4 \
	VBROADCASTSD C(24), Y3 \
	VMULPD Y3, Y0, Y0 \
	VMULPD Y3, Y4, Y4 \
	VBROADCASTSD C(32), Y1 \
	VMOVAPD Y1, Y5 \
	VBROADCASTSD C(40), Y3 \
	VFMADD213PD Y3, Y0, Y1 \
	VFMADD213PD Y3, Y4, Y5 \
	VBROADCASTSD C(48), Y3 \
	VFMADD213PD Y3, Y0, Y1 \
	VFMADD213PD Y3, Y4, Y5 \
	VBROADCASTSD C(56), Y3 \
	VFMADD213PD Y3, Y0, Y1 \
	VFMADD213PD Y3, Y4, Y5 \
	VBROADCASTSD C(64), Y3 \
	VFMADD213PD Y3, Y0, Y1 \
	VFMADD213PD Y3, Y4, Y5 \
	VBROADCASTSD C(72), Y3 \
	VFMADD213PD Y3, Y0, Y1 \
	VFMADD213PD Y3, Y4, Y5 \
	VBROADCASTSD C(80), Y3 \
	VFMADD213PD Y3, Y0, Y1 \
	VFMADD213PD Y3, Y4, Y5 \
	VFMADD213PD Y10, Y0, Y1 \
	VFMADD213PD Y10, Y4, Y5 \
	VMULPD Y1, Y0, Y0 \
	VMULPD Y5, Y4, Y4 \
	VADDPD Y9, Y0, Y1 \
	VADDPD Y9, Y4, Y5 \
	VMULPD Y1, Y0, Y0 \
	VMULPD Y5, Y4, Y4 \
	VADDPD Y9, Y0, Y1 \
	VADDPD Y9, Y4, Y5 \
	VMULPD Y1, Y0, Y0 \
	VMULPD Y5, Y4, Y4 \
	VADDPD Y9, Y0, Y1 \
	VADDPD Y9, Y4, Y5 \
	VMULPD Y1, Y0, Y0 \
	VMULPD Y5, Y4, Y4 \
	VADDPD Y9, Y0, Y1 \
	VADDPD Y9, Y4, Y5 \
	VFMADD213PD Y10, Y1, Y0 \
	VFMADD213PD Y10, Y5, Y4

// EXPFIN(X, K, O): X = the value of EXPPOLY2, K its exponents, O the
// argument; leaves exp(O) in X: the ldexp step and the branches of
// exp_amd64.s as masks, latest branch taken last (not finite, then
// overflow, then the exponent's range). Clobbers Y3, Y7, Y8, Y13-Y15.
#define EXPFIN(X, K, O) \
	VPADDD gbias<>(SB), K, X13 \
	VPMOVSXDQ X13, Y13 \
	VPSLLQ $52, Y13, Y14 \
	VMULPD Y14, X, Y7 \
	VBROADCASTSD C(128), Y3 \
	VPADDQ Y3, Y13, Y14 \
	VPSLLQ $52, Y14, Y14 \
	VMULPD Y14, X, Y14 \
	VBROADCASTSD C(136), Y3 \
	VMULPD Y3, Y14, Y14 \
	VPXOR Y3, Y3, Y3 \
	VPCMPGTQ Y3, Y13, Y8 \
	VBLENDVPD Y8, Y7, Y14, X \
	VBROADCASTSD C(152), Y3 \
	VPCMPGTQ Y3, Y13, Y8 \
	VANDPD Y8, X, X \
	VBROADCASTSD C(160), Y3 \
	VPCMPGTQ Y3, Y13, Y8 \
	VBROADCASTSD C(112), Y15 \
	VBLENDVPD Y8, Y15, X, X \
	VBROADCASTSD C(104), Y3 \
	VCMPPD $0x1E, Y3, O, Y8 \
	VBLENDVPD Y8, Y15, X, X \
	VBROADCASTSD C(120), Y3 \
	VCMPPD $0x00, Y3, O, Y8 \
	VANDNPD X, Y8, X \
	VCMPPD $0x03, O, O, Y8 \
	VBLENDVPD Y8, O, X, X

// GRAD(X, OFF): X = exp(-margin) of four rows whose labels are at
// OFF(DX) and whose gradient pairs go to OFF(DI) (a label and a pair are
// both 8 bytes): stores float32(p - y), float32(max(p*(1-p), minHess)),
// p = 1/(1+X). The max keeps a NaN hessian, as the scalar comparison
// does. Clobbers Y7, Y8, Y13-Y15.
#define GRAD(X, OFF) \
	VADDPD Y10, X, X \
	VDIVPD X, Y10, Y7 \
	VPXOR Y8, Y8, Y8 \
	VPSUBQ OFF(DX), Y8, Y8 \
	VANDPD Y10, Y8, Y8 \
	VSUBPD Y8, Y7, Y8 \
	VSUBPD Y7, Y10, Y13 \
	VMULPD Y13, Y7, Y13 \
	VBROADCASTSD C(176), Y14 \
	VMAXPD Y13, Y14, Y13 \
	VCVTPD2PSY Y8, X8 \
	VCVTPD2PSY Y13, X13 \
	VUNPCKLPS X13, X8, X14 \
	VUNPCKHPS X13, X8, X15 \
	VMOVUPS X14, OFF(DI) \
	VMOVUPS X15, OFF+16(DI)

#define BCAST \
	VBROADCASTSD C(96), Y9 \
	VBROADCASTSD C(88), Y10

// func expKernelAVX2(dst, src *float64, n int)
// dst[i] = math.Exp(src[i]) for i < n, n a multiple of 8.
TEXT ·expKernelAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	BCAST
	SHRQ $3, CX
	JEQ expdone

exploop:
	VMOVUPD (SI), Y0
	VMOVUPD 32(SI), Y4
	EXPPOLY2
	EXPFIN(Y0, X2, Y11)
	EXPFIN(Y4, X6, Y12)
	VMOVUPD Y0, (DI)
	VMOVUPD Y4, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNE exploop

expdone:
	VZEROUPPER
	RET

// func logisticGradKernelAVX2(gp *gpair, margin *float64, y *int, n int)
// For i < n (a multiple of 8), as logisticGradGo:
//	p := 1 / (1 + math.Exp(-margin[i]))
//	gp[i] = gpair{float32(p - float64(y[i])), float32(max(p*(1-p), minHess))}
// with y[i] 0 or 1 (float64(y) is (-y) & bits(1.0)). A row's pair (8
// bytes) sits at the same offset in gp as its label (8 bytes) in y.
TEXT ·logisticGradKernelAVX2(SB), NOSPLIT, $0-32
	MOVQ gp+0(FP), DI
	MOVQ margin+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	BCAST
	SHRQ $3, CX
	JEQ graddone

gradloop:
	VBROADCASTSD C(168), Y3
	VXORPD (SI), Y3, Y0
	VXORPD 32(SI), Y3, Y4
	EXPPOLY2
	EXPFIN(Y0, X2, Y11)
	EXPFIN(Y4, X6, Y12)
	GRAD(Y0, 0)
	GRAD(Y4, 32)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, DI
	DECQ CX
	JNE gradloop

graddone:
	VZEROUPPER
	RET

//go:build amd64 && !purego

#include "textflag.h"

// func dotLanesAVX(xt *float64, nb, d int, v, out *float64)
// out[b*8+t] = sum_f v[f]*xt[(b*d+f)*8+t] for b < nb, d >= 1: each lane
// accumulates v[f]*x in feature order with one FMA per term (as
// dotLanesGo). Four blocks (32 rows, 8 independent accumulators) at a
// time, then two, then one.
TEXT ·dotLanesAVX(SB), NOSPLIT, $0-40
	MOVQ xt+0(FP), SI
	MOVQ nb+8(FP), CX
	MOVQ d+16(FP), DX
	MOVQ v+24(FP), R8
	MOVQ out+32(FP), DI
	MOVQ DX, R9
	SHLQ $6, R9 // bytes per block: d*8 doubles

	CMPQ CX, $4
	JL   dl1

dl4:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	MOVQ SI, R10
	LEAQ (SI)(R9*1), R11
	LEAQ (SI)(R9*2), R12
	LEAQ (R12)(R9*1), R13
	MOVQ R8, AX
	MOVQ DX, BX

dl4f:
	VBROADCASTSD (AX), Y8
	VFMADD231PD (R10), Y8, Y0
	VFMADD231PD 32(R10), Y8, Y1
	VFMADD231PD (R11), Y8, Y2
	VFMADD231PD 32(R11), Y8, Y3
	VFMADD231PD (R12), Y8, Y4
	VFMADD231PD 32(R12), Y8, Y5
	VFMADD231PD (R13), Y8, Y6
	VFMADD231PD 32(R13), Y8, Y7
	ADDQ $8, AX
	ADDQ $64, R10
	ADDQ $64, R11
	ADDQ $64, R12
	ADDQ $64, R13
	DECQ BX
	JNZ  dl4f

	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VMOVUPD Y6, 192(DI)
	VMOVUPD Y7, 224(DI)
	ADDQ $256, DI
	LEAQ (SI)(R9*4), SI
	SUBQ $4, CX
	CMPQ CX, $4
	JGE  dl4

dl1:
	CMPQ CX, $2
	JL   dl1t
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	MOVQ SI, R10
	LEAQ (SI)(R9*1), R11
	MOVQ R8, AX
	MOVQ DX, BX

dl2f:
	VBROADCASTSD (AX), Y8
	VFMADD231PD (R10), Y8, Y0
	VFMADD231PD 32(R10), Y8, Y1
	VFMADD231PD (R11), Y8, Y2
	VFMADD231PD 32(R11), Y8, Y3
	ADDQ $8, AX
	ADDQ $64, R10
	ADDQ $64, R11
	DECQ BX
	JNZ  dl2f

	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	ADDQ $128, DI
	LEAQ (SI)(R9*2), SI
	SUBQ $2, CX

dl1t:
	TESTQ CX, CX
	JZ    dldone
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	MOVQ SI, R10
	MOVQ R8, AX
	MOVQ DX, BX

dl1f:
	VBROADCASTSD (AX), Y8
	VFMADD231PD (R10), Y8, Y0
	VFMADD231PD 32(R10), Y8, Y1
	ADDQ $8, AX
	ADDQ $64, R10
	DECQ BX
	JNZ  dl1f

	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)

dldone:
	VZEROUPPER
	RET

// Constants of rbfRowAVX: log2(e), ln2 split in two (Cody-Waite) and the
// least exponent argument.
DATA expc<>+0(SB)/8, $1.4426950408889634
DATA expc<>+8(SB)/8, $0.6931471803691238
DATA expc<>+16(SB)/8, $1.9082149292705877e-10
DATA expc<>+24(SB)/8, $-708.0
GLOBL expc<>(SB), RODATA|NOPTR, $32


// Constants of rbfRowAVX, each replicated 4 times for use as a memory
// operand: the Taylor coefficients of exp, 1/k! for k = 13 down to 0, then
// the exponent bias 1023 (int64).
DATA rbfv<>+0(SB)/8, $1.6059043836821613e-10
DATA rbfv<>+8(SB)/8, $1.6059043836821613e-10
DATA rbfv<>+16(SB)/8, $1.6059043836821613e-10
DATA rbfv<>+24(SB)/8, $1.6059043836821613e-10
DATA rbfv<>+32(SB)/8, $2.08767569878681e-09
DATA rbfv<>+40(SB)/8, $2.08767569878681e-09
DATA rbfv<>+48(SB)/8, $2.08767569878681e-09
DATA rbfv<>+56(SB)/8, $2.08767569878681e-09
DATA rbfv<>+64(SB)/8, $2.505210838544172e-08
DATA rbfv<>+72(SB)/8, $2.505210838544172e-08
DATA rbfv<>+80(SB)/8, $2.505210838544172e-08
DATA rbfv<>+88(SB)/8, $2.505210838544172e-08
DATA rbfv<>+96(SB)/8, $2.755731922398589e-07
DATA rbfv<>+104(SB)/8, $2.755731922398589e-07
DATA rbfv<>+112(SB)/8, $2.755731922398589e-07
DATA rbfv<>+120(SB)/8, $2.755731922398589e-07
DATA rbfv<>+128(SB)/8, $2.7557319223985893e-06
DATA rbfv<>+136(SB)/8, $2.7557319223985893e-06
DATA rbfv<>+144(SB)/8, $2.7557319223985893e-06
DATA rbfv<>+152(SB)/8, $2.7557319223985893e-06
DATA rbfv<>+160(SB)/8, $2.48015873015873e-05
DATA rbfv<>+168(SB)/8, $2.48015873015873e-05
DATA rbfv<>+176(SB)/8, $2.48015873015873e-05
DATA rbfv<>+184(SB)/8, $2.48015873015873e-05
DATA rbfv<>+192(SB)/8, $0.0001984126984126984
DATA rbfv<>+200(SB)/8, $0.0001984126984126984
DATA rbfv<>+208(SB)/8, $0.0001984126984126984
DATA rbfv<>+216(SB)/8, $0.0001984126984126984
DATA rbfv<>+224(SB)/8, $0.001388888888888889
DATA rbfv<>+232(SB)/8, $0.001388888888888889
DATA rbfv<>+240(SB)/8, $0.001388888888888889
DATA rbfv<>+248(SB)/8, $0.001388888888888889
DATA rbfv<>+256(SB)/8, $0.008333333333333333
DATA rbfv<>+264(SB)/8, $0.008333333333333333
DATA rbfv<>+272(SB)/8, $0.008333333333333333
DATA rbfv<>+280(SB)/8, $0.008333333333333333
DATA rbfv<>+288(SB)/8, $0.041666666666666664
DATA rbfv<>+296(SB)/8, $0.041666666666666664
DATA rbfv<>+304(SB)/8, $0.041666666666666664
DATA rbfv<>+312(SB)/8, $0.041666666666666664
DATA rbfv<>+320(SB)/8, $0.16666666666666666
DATA rbfv<>+328(SB)/8, $0.16666666666666666
DATA rbfv<>+336(SB)/8, $0.16666666666666666
DATA rbfv<>+344(SB)/8, $0.16666666666666666
DATA rbfv<>+352(SB)/8, $0.5
DATA rbfv<>+360(SB)/8, $0.5
DATA rbfv<>+368(SB)/8, $0.5
DATA rbfv<>+376(SB)/8, $0.5
DATA rbfv<>+384(SB)/8, $1.0
DATA rbfv<>+392(SB)/8, $1.0
DATA rbfv<>+400(SB)/8, $1.0
DATA rbfv<>+408(SB)/8, $1.0
DATA rbfv<>+416(SB)/8, $1.0
DATA rbfv<>+424(SB)/8, $1.0
DATA rbfv<>+432(SB)/8, $1.0
DATA rbfv<>+440(SB)/8, $1.0
DATA rbfv<>+448(SB)/8, $1023
DATA rbfv<>+456(SB)/8, $1023
DATA rbfv<>+464(SB)/8, $1023
DATA rbfv<>+472(SB)/8, $1023
GLOBL rbfv<>(SB), RODATA|NOPTR, $480

// func rbfRowAVX(s, sq, w *float64, n int, sqi, ng, mul float64)
// s[t] = exp(g * max(sqi + sq[t] - 2 s[t], 0)) * w[t] * mul for t < n, n a
// multiple of 8: the RBF kernel from dot products s, squared norms sqi and
// sq, g = -gamma. The exponential is expAVX's (results below exp(-708) are
// 0): range reduction x = k ln2 + r, |r| <= ln2/2, a degree-13 Taylor
// polynomial (truncation error below 1e-17) scaled by 2^k (package
// mixture's expAVX), on two vectors at a time.
TEXT ·rbfRowAVX(SB), NOSPLIT, $0-56
	MOVQ s+0(FP), DI
	MOVQ sq+8(FP), SI
	MOVQ w+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSD sqi+32(FP), Y15
	VBROADCASTSD ng+40(FP), Y14
	VBROADCASTSD mul+48(FP), Y13
	VBROADCASTSD expc<>+0(SB), Y12
	VBROADCASTSD expc<>+8(SB), Y11
	VBROADCASTSD expc<>+16(SB), Y10
	VBROADCASTSD expc<>+24(SB), Y9
	VXORPD Y8, Y8, Y8
	SHRQ $3, CX
	JZ   rbdone

rbloop:
	VMOVUPD (DI), Y0
	VMOVUPD 32(DI), Y1
	VADDPD  Y0, Y0, Y0
	VADDPD  Y1, Y1, Y1
	VADDPD  (SI), Y15, Y2
	VADDPD  32(SI), Y15, Y3
	VSUBPD  Y0, Y2, Y2
	VSUBPD  Y1, Y3, Y3
	VMAXPD  Y8, Y2, Y2
	VMAXPD  Y8, Y3, Y3
	VMULPD  Y14, Y2, Y0
	VMULPD  Y14, Y3, Y1
	VMAXPD  Y9, Y0, Y2
	VMAXPD  Y9, Y1, Y3
	VMULPD  Y12, Y2, Y6
	VMULPD  Y12, Y3, Y7
	VROUNDPD $0, Y6, Y6
	VROUNDPD $0, Y7, Y7
	VFNMADD231PD Y11, Y6, Y2
	VFNMADD231PD Y11, Y7, Y3
	VFNMADD231PD Y10, Y6, Y2
	VFNMADD231PD Y10, Y7, Y3
	VMOVUPD rbfv<>+0(SB), Y4
	VMOVUPD rbfv<>+0(SB), Y5
	VFMADD213PD rbfv<>+32(SB), Y2, Y4
	VFMADD213PD rbfv<>+32(SB), Y3, Y5
	VFMADD213PD rbfv<>+64(SB), Y2, Y4
	VFMADD213PD rbfv<>+64(SB), Y3, Y5
	VFMADD213PD rbfv<>+96(SB), Y2, Y4
	VFMADD213PD rbfv<>+96(SB), Y3, Y5
	VFMADD213PD rbfv<>+128(SB), Y2, Y4
	VFMADD213PD rbfv<>+128(SB), Y3, Y5
	VFMADD213PD rbfv<>+160(SB), Y2, Y4
	VFMADD213PD rbfv<>+160(SB), Y3, Y5
	VFMADD213PD rbfv<>+192(SB), Y2, Y4
	VFMADD213PD rbfv<>+192(SB), Y3, Y5
	VFMADD213PD rbfv<>+224(SB), Y2, Y4
	VFMADD213PD rbfv<>+224(SB), Y3, Y5
	VFMADD213PD rbfv<>+256(SB), Y2, Y4
	VFMADD213PD rbfv<>+256(SB), Y3, Y5
	VFMADD213PD rbfv<>+288(SB), Y2, Y4
	VFMADD213PD rbfv<>+288(SB), Y3, Y5
	VFMADD213PD rbfv<>+320(SB), Y2, Y4
	VFMADD213PD rbfv<>+320(SB), Y3, Y5
	VFMADD213PD rbfv<>+352(SB), Y2, Y4
	VFMADD213PD rbfv<>+352(SB), Y3, Y5
	VFMADD213PD rbfv<>+384(SB), Y2, Y4
	VFMADD213PD rbfv<>+384(SB), Y3, Y5
	VFMADD213PD rbfv<>+416(SB), Y2, Y4
	VFMADD213PD rbfv<>+416(SB), Y3, Y5
	VCVTPD2DQY Y6, X6
	VCVTPD2DQY Y7, X7
	VPMOVSXDQ  X6, Y6
	VPMOVSXDQ  X7, Y7
	VPADDQ     rbfv<>+448(SB), Y6, Y6
	VPADDQ     rbfv<>+448(SB), Y7, Y7
	VPSLLQ     $52, Y6, Y6
	VPSLLQ     $52, Y7, Y7
	VMULPD     Y6, Y4, Y4
	VMULPD     Y7, Y5, Y5
	VCMPPD     $1, Y9, Y0, Y6
	VCMPPD     $1, Y9, Y1, Y7
	VANDNPD    Y4, Y6, Y4
	VANDNPD    Y5, Y7, Y5
	VMULPD     (DX), Y4, Y4
	VMULPD     32(DX), Y5, Y5
	VMULPD     Y13, Y4, Y4
	VMULPD     Y13, Y5, Y5
	VMOVUPD    Y4, (DI)
	VMOVUPD    Y5, 32(DI)
	ADDQ $64, DI
	ADDQ $64, SI
	ADDQ $64, DX
	DECQ CX
	JNZ  rbloop

rbdone:
	VZEROUPPER
	RET

// func rbfRow32AVX(s, sq *float64, out *float32, n int, sqi, ng float64)
// out[t] = float32(exp(ng * max(sqi + sq[t] - 2 s[t], 0))) for t < n, n a
// multiple of 8: rbfRowAVX's kernel values, rounded to single precision
// for the kernel cache.
TEXT ·rbfRow32AVX(SB), NOSPLIT, $0-48
	MOVQ s+0(FP), DI
	MOVQ sq+8(FP), SI
	MOVQ out+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSD sqi+32(FP), Y15
	VBROADCASTSD ng+40(FP), Y14
	VBROADCASTSD expc<>+0(SB), Y12
	VBROADCASTSD expc<>+8(SB), Y11
	VBROADCASTSD expc<>+16(SB), Y10
	VBROADCASTSD expc<>+24(SB), Y9
	VXORPD Y8, Y8, Y8
	SHRQ $3, CX
	JZ   r3done

r3loop:
	VMOVUPD (DI), Y0
	VMOVUPD 32(DI), Y1
	VADDPD  Y0, Y0, Y0
	VADDPD  Y1, Y1, Y1
	VADDPD  (SI), Y15, Y2
	VADDPD  32(SI), Y15, Y3
	VSUBPD  Y0, Y2, Y2
	VSUBPD  Y1, Y3, Y3
	VMAXPD  Y8, Y2, Y2
	VMAXPD  Y8, Y3, Y3
	VMULPD  Y14, Y2, Y0
	VMULPD  Y14, Y3, Y1
	VMAXPD  Y9, Y0, Y2
	VMAXPD  Y9, Y1, Y3
	VMULPD  Y12, Y2, Y6
	VMULPD  Y12, Y3, Y7
	VROUNDPD $0, Y6, Y6
	VROUNDPD $0, Y7, Y7
	VFNMADD231PD Y11, Y6, Y2
	VFNMADD231PD Y11, Y7, Y3
	VFNMADD231PD Y10, Y6, Y2
	VFNMADD231PD Y10, Y7, Y3
	VMOVUPD rbfv<>+0(SB), Y4
	VMOVUPD rbfv<>+0(SB), Y5
	VFMADD213PD rbfv<>+32(SB), Y2, Y4
	VFMADD213PD rbfv<>+32(SB), Y3, Y5
	VFMADD213PD rbfv<>+64(SB), Y2, Y4
	VFMADD213PD rbfv<>+64(SB), Y3, Y5
	VFMADD213PD rbfv<>+96(SB), Y2, Y4
	VFMADD213PD rbfv<>+96(SB), Y3, Y5
	VFMADD213PD rbfv<>+128(SB), Y2, Y4
	VFMADD213PD rbfv<>+128(SB), Y3, Y5
	VFMADD213PD rbfv<>+160(SB), Y2, Y4
	VFMADD213PD rbfv<>+160(SB), Y3, Y5
	VFMADD213PD rbfv<>+192(SB), Y2, Y4
	VFMADD213PD rbfv<>+192(SB), Y3, Y5
	VFMADD213PD rbfv<>+224(SB), Y2, Y4
	VFMADD213PD rbfv<>+224(SB), Y3, Y5
	VFMADD213PD rbfv<>+256(SB), Y2, Y4
	VFMADD213PD rbfv<>+256(SB), Y3, Y5
	VFMADD213PD rbfv<>+288(SB), Y2, Y4
	VFMADD213PD rbfv<>+288(SB), Y3, Y5
	VFMADD213PD rbfv<>+320(SB), Y2, Y4
	VFMADD213PD rbfv<>+320(SB), Y3, Y5
	VFMADD213PD rbfv<>+352(SB), Y2, Y4
	VFMADD213PD rbfv<>+352(SB), Y3, Y5
	VFMADD213PD rbfv<>+384(SB), Y2, Y4
	VFMADD213PD rbfv<>+384(SB), Y3, Y5
	VFMADD213PD rbfv<>+416(SB), Y2, Y4
	VFMADD213PD rbfv<>+416(SB), Y3, Y5
	VCVTPD2DQY Y6, X6
	VCVTPD2DQY Y7, X7
	VPMOVSXDQ  X6, Y6
	VPMOVSXDQ  X7, Y7
	VPADDQ     rbfv<>+448(SB), Y6, Y6
	VPADDQ     rbfv<>+448(SB), Y7, Y7
	VPSLLQ     $52, Y6, Y6
	VPSLLQ     $52, Y7, Y7
	VMULPD     Y6, Y4, Y4
	VMULPD     Y7, Y5, Y5
	VCMPPD     $1, Y9, Y0, Y6
	VCMPPD     $1, Y9, Y1, Y7
	VANDNPD    Y4, Y6, Y4
	VANDNPD    Y5, Y7, Y5
	VCVTPD2PSY Y4, X4
	VCVTPD2PSY Y5, X5
	VMOVUPS    X4, (DX)
	VMOVUPS    X5, 16(DX)
	ADDQ $64, DI
	ADDQ $64, SI
	ADDQ $32, DX
	DECQ CX
	JNZ  r3loop

r3done:
	VZEROUPPER
	RET

// Constants of the solver's scans: lane indices 0..3, the step 4, the
// sign bit, and tau (solver.go).
DATA scanc<>+0(SB)/8, $0.0
DATA scanc<>+8(SB)/8, $1.0
DATA scanc<>+16(SB)/8, $2.0
DATA scanc<>+24(SB)/8, $3.0
DATA scanc<>+32(SB)/8, $4.0
DATA scanc<>+40(SB)/8, $0x8000000000000000
DATA scanc<>+48(SB)/8, $1e-12
GLOBL scanc<>(SB), RODATA|NOPTR, $56

// func maxViolatorAVX(f, pen *float64, n int, best, idx *[4]float64)
// For n a multiple of 4, lane l of best and idx ends with the largest
// -f[t] - pen[t] over t = l mod 4 and the last t holding it (as floats),
// starting from their values on entry.
TEXT ·maxViolatorAVX(SB), NOSPLIT, $0-40
	MOVQ f+0(FP), SI
	MOVQ pen+8(FP), DI
	MOVQ n+16(FP), CX
	MOVQ best+24(FP), R8
	MOVQ idx+32(FP), R9
	VMOVUPD (R8), Y0
	VMOVUPD (R9), Y1
	VMOVUPD scanc<>+0(SB), Y2
	VBROADCASTSD scanc<>+32(SB), Y3
	VBROADCASTSD scanc<>+40(SB), Y4
	SHRQ $2, CX
	JZ   mvdone

mvloop:
	VXORPD    (SI), Y4, Y5
	VSUBPD    (DI), Y5, Y5
	VCMPPD    $13, Y0, Y5, Y6
	VBLENDVPD Y6, Y5, Y0, Y0
	VBLENDVPD Y6, Y2, Y1, Y1
	VADDPD    Y3, Y2, Y2
	ADDQ      $32, SI
	ADDQ      $32, DI
	DECQ      CX
	JNZ       mvloop

mvdone:
	VMOVUPD Y0, (R8)
	VMOVUPD Y1, (R9)
	VZEROUPPER
	RET

// func secondOrderAVX(f, pen, qd *float64, ki *float32, n int, gmax, qdi float64, best, idx, gmax2 *[4]float64)
// For n a multiple of 4, lane by lane as secondOrderGo: gmax2 the largest
// v = f - pen; best and idx the least -(gmax+v)^2/quad over gmax+v > 0,
// quad = qdi + qd - 2 ki (tau when not positive), and the last t holding
// it; all three start from their values on entry.
TEXT ·secondOrderAVX(SB), NOSPLIT, $0-80
	MOVQ f+0(FP), SI
	MOVQ pen+8(FP), DI
	MOVQ qd+16(FP), R8
	MOVQ ki+24(FP), R10
	MOVQ n+32(FP), CX
	VBROADCASTSD gmax+40(FP), Y10
	VBROADCASTSD qdi+48(FP), Y11
	MOVQ best+56(FP), R11
	MOVQ idx+64(FP), R12
	MOVQ gmax2+72(FP), R13
	VMOVUPD (R11), Y0
	VMOVUPD (R12), Y1
	VMOVUPD (R13), Y9
	VMOVUPD scanc<>+0(SB), Y2
	VBROADCASTSD scanc<>+32(SB), Y3
	VBROADCASTSD scanc<>+40(SB), Y13
	VBROADCASTSD scanc<>+48(SB), Y12
	VXORPD Y14, Y14, Y14
	SHRQ $2, CX
	JZ   sodone

soloop:
	VMOVUPD   (SI), Y4
	VSUBPD    (DI), Y4, Y4
	VMAXPD    Y4, Y9, Y9
	VADDPD    Y10, Y4, Y5
	VCMPPD    $14, Y14, Y5, Y6
	VCVTPS2PD (R10), Y7
	VADDPD    Y7, Y7, Y7
	VADDPD    (R8), Y11, Y8
	VSUBPD    Y7, Y8, Y8
	VCMPPD    $14, Y14, Y8, Y15
	VBLENDVPD Y15, Y8, Y12, Y8
	VMULPD    Y5, Y5, Y7
	VXORPD    Y13, Y7, Y7
	VDIVPD    Y8, Y7, Y7
	VCMPPD    $2, Y0, Y7, Y15
	VANDPD    Y6, Y15, Y15
	VBLENDVPD Y15, Y7, Y0, Y0
	VBLENDVPD Y15, Y2, Y1, Y1
	VADDPD    Y3, Y2, Y2
	ADDQ      $32, SI
	ADDQ      $32, DI
	ADDQ      $32, R8
	ADDQ      $16, R10
	DECQ      CX
	JNZ       soloop

sodone:
	VMOVUPD Y0, (R11)
	VMOVUPD Y1, (R12)
	VMOVUPD Y9, (R13)
	VZEROUPPER
	RET

// func updateGradientAVX(f *float64, ki, kj *float32, n int, a, b float64)
// f[k] += ki[k]*a + kj[k]*b for n a multiple of 8, each product and sum
// rounded (no fused multiply-add), as updateGradientGo.
TEXT ·updateGradientAVX(SB), NOSPLIT, $0-48
	MOVQ f+0(FP), DI
	MOVQ ki+8(FP), SI
	MOVQ kj+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSD a+32(FP), Y10
	VBROADCASTSD b+40(FP), Y11
	SHRQ $3, CX
	JZ   ugdone

ugloop:
	VCVTPS2PD (SI), Y0
	VCVTPS2PD 16(SI), Y2
	VCVTPS2PD (DX), Y1
	VCVTPS2PD 16(DX), Y3
	VMULPD    Y10, Y0, Y0
	VMULPD    Y10, Y2, Y2
	VMULPD    Y11, Y1, Y1
	VMULPD    Y11, Y3, Y3
	VADDPD    Y1, Y0, Y0
	VADDPD    Y3, Y2, Y2
	VADDPD    (DI), Y0, Y0
	VADDPD    32(DI), Y2, Y2
	VMOVUPD   Y0, (DI)
	VMOVUPD   Y2, 32(DI)
	ADDQ      $64, DI
	ADDQ      $32, SI
	ADDQ      $32, DX
	DECQ      CX
	JNZ       ugloop

ugdone:
	VZEROUPPER
	RET

// func axpy32AVX(dst *float64, x *float32, n int, a float64)
// dst[k] += a*x[k] for n a multiple of 8, product and sum rounded.
TEXT ·axpy32AVX(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSD a+24(FP), Y10
	SHRQ $3, CX
	JZ   axdone

axloop:
	VCVTPS2PD (SI), Y0
	VCVTPS2PD 16(SI), Y2
	VMULPD    Y10, Y0, Y0
	VMULPD    Y10, Y2, Y2
	VADDPD    (DI), Y0, Y0
	VADDPD    32(DI), Y2, Y2
	VMOVUPD   Y0, (DI)
	VMOVUPD   Y2, 32(DI)
	ADDQ      $64, DI
	ADDQ      $32, SI
	DECQ      CX
	JNZ       axloop

axdone:
	VZEROUPPER
	RET

// func dotLanes4AVX(xt *float64, nb, d int, v, out *float64, ostride int)
// For the 4 rows v[r*d:(r+1)*d], out[r*ostride+b*8+t] = sum_f
// v[r*d+f]*xt[(b*d+f)*8+t] for b < nb, d >= 1: dotLanesAVX for 4 rows at
// once (each block loaded once for the 4), with the same fused
// multiply-adds in the same order, so the same values.
TEXT ·dotLanes4AVX(SB), NOSPLIT, $0-48
	MOVQ xt+0(FP), SI
	MOVQ nb+8(FP), CX
	MOVQ d+16(FP), DX
	MOVQ v+24(FP), AX
	MOVQ out+32(FP), DI
	MOVQ ostride+40(FP), R9
	SHLQ $3, R9 // bytes between output rows
	MOVQ DX, R8
	SHLQ $3, R8 // bytes between query rows
	LEAQ (AX)(R8*1), R11
	LEAQ (R11)(R8*1), R12
	LEAQ (R12)(R8*1), R13
	TESTQ CX, CX
	JZ    d4done

d4blk:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	XORQ BX, BX
	MOVQ DX, R10

d4f:
	VMOVUPD      (SI), Y8
	VMOVUPD      32(SI), Y9
	VBROADCASTSD (AX)(BX*1), Y10
	VFMADD231PD  Y8, Y10, Y0
	VFMADD231PD  Y9, Y10, Y1
	VBROADCASTSD (R11)(BX*1), Y11
	VFMADD231PD  Y8, Y11, Y2
	VFMADD231PD  Y9, Y11, Y3
	VBROADCASTSD (R12)(BX*1), Y12
	VFMADD231PD  Y8, Y12, Y4
	VFMADD231PD  Y9, Y12, Y5
	VBROADCASTSD (R13)(BX*1), Y13
	VFMADD231PD  Y8, Y13, Y6
	VFMADD231PD  Y9, Y13, Y7
	ADDQ $64, SI
	ADDQ $8, BX
	DECQ R10
	JNZ  d4f

	MOVQ    DI, R10
	VMOVUPD Y0, (R10)
	VMOVUPD Y1, 32(R10)
	ADDQ    R9, R10
	VMOVUPD Y2, (R10)
	VMOVUPD Y3, 32(R10)
	ADDQ    R9, R10
	VMOVUPD Y4, (R10)
	VMOVUPD Y5, 32(R10)
	ADDQ    R9, R10
	VMOVUPD Y6, (R10)
	VMOVUPD Y7, 32(R10)
	ADDQ    $64, DI
	DECQ    CX
	JNZ     d4blk

d4done:
	VZEROUPPER
	RET

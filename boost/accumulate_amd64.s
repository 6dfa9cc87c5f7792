//go:build amd64 && !purego

#include "textflag.h"

// func accumulateKernel(hist *float64, bins *uint8, nf int, off2 *int32, gp *gpair, w *float64, rows *int32, n int)
//
// For each row r in rows[:n]: converts the row's float32 gradient pair
// to two float64s once and, when w is not nil, multiplies both by w[r];
// then for each feature f adds them to the histogram slot
// off[f]+bins[r*nf+f] with one packed add: the pair at float64 index
// off2[f]+2*bins[r*nf+f], off2[f] = 2*off[f], one LEA from the code. The multiplications and
// additions are the same IEEE double operations as the Go version, and
// every slot receives its rows' pairs in the order of rows, so results
// are bit-identical.
//
// Rows go two at a time (A, B) and features two at a time: the offset of
// a feature is loaded once for both rows, and the loop overhead is paid
// once per four updates. For each feature A's add is stored before B's is
// loaded, so a slot that both rows hit still gets A's pair first; slots
// of different features never overlap.
TEXT ·accumulateKernel(SB), NOSPLIT, $0-64
	MOVQ hist+0(FP), DI
	MOVQ nf+16(FP), CX
	MOVQ off2+24(FP), R8
	MOVQ rows+48(FP), R10
	MOVQ n+56(FP), R11
	TESTQ R11, R11
	JEQ done
	TESTQ CX, CX
	JEQ done

pairloop:
	CMPQ R11, $2
	JLT single

	// Prefetch the bins and gradients of the rows 16 and 17 ahead: deep
	// in a tree a node's rows are scattered and every row costs misses.
	CMPQ R11, $18
	JLE nopf
	MOVQ gp+32(FP), R9
	MOVQ bins+8(FP), SI
	MOVLQSX 64(R10), R12
	PREFETCHT0 (R9)(R12*8)
	IMULQ CX, R12
	PREFETCHT0 (SI)(R12*1)
	MOVLQSX 68(R10), R12
	PREFETCHT0 (R9)(R12*8)
	IMULQ CX, R12
	PREFETCHT0 (SI)(R12*1)

nopf:
	MOVQ gp+32(FP), R9
	MOVLQSX (R10), AX
	MOVLQSX 4(R10), BX
	MOVSD (R9)(AX*8), X0
	CVTPS2PD X0, X0
	MOVSD (R9)(BX*8), X2
	CVTPS2PD X2, X2
	MOVQ w+40(FP), R12
	TESTQ R12, R12
	JEQ unweighted2
	MOVSD (R12)(AX*8), X3
	UNPCKLPD X3, X3
	MULPD X3, X0
	MOVSD (R12)(BX*8), X3
	UNPCKLPD X3, X3
	MULPD X3, X2

unweighted2:
	// AX, BX: the two rows' bins; R9: the even part of nf.
	MOVQ bins+8(FP), SI
	IMULQ CX, AX
	ADDQ SI, AX
	IMULQ CX, BX
	ADDQ SI, BX
	MOVQ CX, R9
	ANDQ $-2, R9
	XORQ DX, DX
	TESTQ R9, R9
	JEQ tail2

feat2:
	MOVLQSX (R8)(DX*4), SI
	MOVBQZX (AX)(DX*1), R12
	MOVBQZX (BX)(DX*1), R13
	LEAQ (SI)(R12*2), R12
	LEAQ (SI)(R13*2), R13
	MOVUPD (DI)(R12*8), X1
	ADDPD X0, X1
	MOVUPD X1, (DI)(R12*8)
	MOVUPD (DI)(R13*8), X4
	ADDPD X2, X4
	MOVUPD X4, (DI)(R13*8)
	MOVLQSX 4(R8)(DX*4), SI
	MOVBQZX 1(AX)(DX*1), R12
	MOVBQZX 1(BX)(DX*1), R13
	LEAQ (SI)(R12*2), R12
	LEAQ (SI)(R13*2), R13
	MOVUPD (DI)(R12*8), X5
	ADDPD X0, X5
	MOVUPD X5, (DI)(R12*8)
	MOVUPD (DI)(R13*8), X6
	ADDPD X2, X6
	MOVUPD X6, (DI)(R13*8)
	ADDQ $2, DX
	CMPQ DX, R9
	JLT feat2

tail2:
	// An odd last feature.
	CMPQ DX, CX
	JGE next2
	MOVLQSX (R8)(DX*4), SI
	MOVBQZX (AX)(DX*1), R12
	MOVBQZX (BX)(DX*1), R13
	LEAQ (SI)(R12*2), R12
	LEAQ (SI)(R13*2), R13
	MOVUPD (DI)(R12*8), X1
	ADDPD X0, X1
	MOVUPD X1, (DI)(R12*8)
	MOVUPD (DI)(R13*8), X4
	ADDPD X2, X4
	MOVUPD X4, (DI)(R13*8)

next2:
	ADDQ $8, R10
	SUBQ $2, R11
	JMP pairloop

single:
	// The last row of an odd count.
	TESTQ R11, R11
	JEQ done
	MOVQ gp+32(FP), R9
	MOVLQSX (R10), AX
	MOVSD (R9)(AX*8), X0
	CVTPS2PD X0, X0
	MOVQ w+40(FP), R12
	TESTQ R12, R12
	JEQ unweighted1
	MOVSD (R12)(AX*8), X3
	UNPCKLPD X3, X3
	MULPD X3, X0

unweighted1:
	MOVQ bins+8(FP), SI
	IMULQ CX, AX
	ADDQ SI, AX
	XORQ DX, DX

feat1:
	MOVBQZX (AX)(DX*1), R12
	MOVLQSX (R8)(DX*4), R13
	LEAQ (R13)(R12*2), R12
	MOVUPD (DI)(R12*8), X1
	ADDPD X0, X1
	MOVUPD X1, (DI)(R12*8)
	INCQ DX
	CMPQ DX, CX
	JLT feat1

done:
	RET

// func accumulateRange4(hist *float64, bins *uint8, nf int, off2 *int32, gp *gpair, w *float64, n int)
//
// Adds the pairs of n consecutive rows to the slots of four consecutive
// features: bins points at the first row's code of the first of them
// (rows are nf bytes apart), off2 at their four offsets, gp and w (nil:
// unweighted) at the first row's pair and weight. The four features'
// histograms (16 KB with 256 bins) stay in L1 across the rows, which the
// twenty of accumulateKernel's rows do not. Each slot receives its rows'
// pairs in row order, with the same conversions and multiplications.
TEXT ·accumulateRange4(SB), NOSPLIT, $0-56
	MOVQ hist+0(FP), DI
	MOVQ bins+8(FP), SI
	MOVQ nf+16(FP), CX
	MOVQ off2+24(FP), R8
	MOVLQSX 0(R8), R12
	MOVLQSX 4(R8), R13
	MOVLQSX 8(R8), R14
	MOVLQSX 12(R8), R15
	MOVQ gp+32(FP), R9
	MOVQ w+40(FP), DX
	MOVQ n+48(FP), R11
	TESTQ R11, R11
	JEQ r4done
	TESTQ DX, DX
	JNE r4weighted

r4loop:
	MOVSD (R9), X0
	CVTPS2PD X0, X0
	MOVBQZX 0(SI), AX
	MOVBQZX 1(SI), BX
	LEAQ (R12)(AX*2), AX
	LEAQ (R13)(BX*2), BX
	MOVUPD (DI)(AX*8), X1
	ADDPD X0, X1
	MOVUPD X1, (DI)(AX*8)
	MOVUPD (DI)(BX*8), X2
	ADDPD X0, X2
	MOVUPD X2, (DI)(BX*8)
	MOVBQZX 2(SI), AX
	MOVBQZX 3(SI), BX
	LEAQ (R14)(AX*2), AX
	LEAQ (R15)(BX*2), BX
	MOVUPD (DI)(AX*8), X3
	ADDPD X0, X3
	MOVUPD X3, (DI)(AX*8)
	MOVUPD (DI)(BX*8), X4
	ADDPD X0, X4
	MOVUPD X4, (DI)(BX*8)
	ADDQ CX, SI
	ADDQ $8, R9
	DECQ R11
	JNZ r4loop
	RET

r4weighted:
	MOVSD (R9), X0
	CVTPS2PD X0, X0
	MOVSD (DX), X5
	UNPCKLPD X5, X5
	MULPD X5, X0
	MOVBQZX 0(SI), AX
	MOVBQZX 1(SI), BX
	LEAQ (R12)(AX*2), AX
	LEAQ (R13)(BX*2), BX
	MOVUPD (DI)(AX*8), X1
	ADDPD X0, X1
	MOVUPD X1, (DI)(AX*8)
	MOVUPD (DI)(BX*8), X2
	ADDPD X0, X2
	MOVUPD X2, (DI)(BX*8)
	MOVBQZX 2(SI), AX
	MOVBQZX 3(SI), BX
	LEAQ (R14)(AX*2), AX
	LEAQ (R15)(BX*2), BX
	MOVUPD (DI)(AX*8), X3
	ADDPD X0, X3
	MOVUPD X3, (DI)(AX*8)
	MOVUPD (DI)(BX*8), X4
	ADDPD X0, X4
	MOVUPD X4, (DI)(BX*8)
	ADDQ CX, SI
	ADDQ $8, R9
	ADDQ $8, DX
	DECQ R11
	JNZ r4weighted

r4done:
	RET

// func accumulateRange1(hist *float64, bins *uint8, nf int, off2 int, gp *gpair, w *float64, n int)
//
// accumulateRange4 for one feature, whose first slot is at float64 index
// off2 (the last nf%4 features).
TEXT ·accumulateRange1(SB), NOSPLIT, $0-56
	MOVQ hist+0(FP), DI
	MOVQ bins+8(FP), SI
	MOVQ nf+16(FP), CX
	MOVQ off2+24(FP), R12
	MOVQ gp+32(FP), R9
	MOVQ w+40(FP), DX
	MOVQ n+48(FP), R11
	TESTQ R11, R11
	JEQ r1done

r1loop:
	MOVSD (R9), X0
	CVTPS2PD X0, X0
	TESTQ DX, DX
	JEQ r1unweighted
	MOVSD (DX), X5
	UNPCKLPD X5, X5
	MULPD X5, X0
	ADDQ $8, DX

r1unweighted:
	MOVBQZX 0(SI), AX
	LEAQ (R12)(AX*2), AX
	MOVUPD (DI)(AX*8), X1
	ADDPD X0, X1
	MOVUPD X1, (DI)(AX*8)
	ADDQ CX, SI
	ADDQ $8, R9
	DECQ R11
	JNZ r1loop

r1done:
	RET

// func gatherRows(dst *uint8, bins *uint8, nf int, gdst *gpair, gp *gpair, wdst *float64, w *float64, rows *int32, n int)
//
// Copies the codes of rows[:n] (nf >= 8 bytes each, in 8-byte words, the
// last one ending at the row's end) to dst[i*nf:(i+1)*nf], their pairs to
// gdst[i] and, when w is not nil, their weights to wdst[i], prefetching
// the rows gatherAhead rows ahead: a node's scattered rows are gathered
// before accumulateRange4 takes them feature group by feature group.
#define gatherAhead 32
TEXT ·gatherRows(SB), NOSPLIT, $0-72
	MOVQ dst+0(FP), DI
	MOVQ bins+8(FP), SI
	MOVQ nf+16(FP), CX
	MOVQ gdst+24(FP), R8
	MOVQ gp+32(FP), R9
	MOVQ wdst+40(FP), R13
	MOVQ w+48(FP), R14
	MOVQ rows+56(FP), R10
	MOVQ n+64(FP), R11
	TESTQ R11, R11
	JEQ gdone
	LEAQ -8(CX), R15 // the last word's offset

grow:
	CMPQ R11, $gatherAhead
	JLE gnopf
	MOVLQSX (gatherAhead*4)(R10), AX
	PREFETCHT0 (R9)(AX*8)
	TESTQ R14, R14
	JEQ gnopfw
	PREFETCHT0 (R14)(AX*8)

gnopfw:
	IMULQ CX, AX
	ADDQ SI, AX
	PREFETCHT0 (AX)
	PREFETCHT0 -1(AX)(CX*1)

gnopf:
	MOVLQSX (R10), AX
	MOVQ (R9)(AX*8), BX
	MOVQ BX, (R8)
	TESTQ R14, R14
	JEQ gcodes
	MOVQ (R14)(AX*8), BX
	MOVQ BX, (R13)
	ADDQ $8, R13

gcodes:
	IMULQ CX, AX
	ADDQ SI, AX
	XORQ DX, DX

gword:
	CMPQ DX, R15
	JGE glast
	MOVQ (AX)(DX*1), BX
	MOVQ BX, (DI)(DX*1)
	ADDQ $8, DX
	JMP gword

glast:
	MOVQ (AX)(R15*1), BX
	MOVQ BX, (DI)(R15*1)
	ADDQ CX, DI
	ADDQ $8, R8
	ADDQ $4, R10
	DECQ R11
	JNZ grow

gdone:
	RET

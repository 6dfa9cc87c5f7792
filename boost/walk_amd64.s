//go:build amd64 && !purego

#include "textflag.h"

// func walkGroup(nodes *flatNode, values *float64, group *float64, roots *int32, depths *int32, ntrees int, out *float64)
//
// Walks eight rows through every tree and adds each tree's leaf value to
// out[k], tree after tree. The rows are one group of groupWiden: cell c
// of row k at byte offset 64*c+8*k. The nodes are those of
// forest.group: left is the byte offset of the left child (the right one
// is 16 bytes further, a leaf its own) and feat the byte offset 64*c of
// the cell it reads. A step is the Go kernel's: right when the value is
// >= the threshold (UCOMISD clears CF exactly then; a NaN threshold, a
// leaf's, never), so the leaves and the additions, in tree order with the
// same IEEE additions, are those of forest.addMargins.
//
// The eight walks are independent chains of loads, interleaved so that
// the processor overlaps them; their indices stay in registers. A step
// loads the left child's offset and moves to the right one (16 bytes
// further) with a conditional move on UCOMISD's carry: six instructions,
// and the next node's address waits on the comparison alone.
#define STEP(R, K) \
	MOVL 12(AX)(R*1), DX \
	MOVSD K(BX)(DX*1), X0 \
	UCOMISD 0(AX)(R*1), X0 \
	MOVL 8(AX)(R*1), R \
	LEAL 16(R), DX \
	CMOVLCC DX, R

#define LEAF(R, K) \
	SHRL $4, R \
	MOVSD (DX)(R*8), X0 \
	ADDSD K(CX), X0 \
	MOVSD X0, K(CX)

TEXT ·walkGroup(SB), NOSPLIT, $0-56
	MOVQ nodes+0(FP), AX
	MOVQ group+16(FP), BX
	XORQ R14, R14
	CMPQ R14, ntrees+40(FP)
	JGE done

tree:
	MOVQ roots+24(FP), DX
	MOVL (DX)(R14*4), R8
	MOVL R8, R9
	MOVL R8, R10
	MOVL R8, R11
	MOVL R8, R12
	MOVL R8, R13
	MOVL R8, SI
	MOVL R8, DI
	MOVQ depths+32(FP), DX
	MOVL (DX)(R14*4), CX
	TESTL CX, CX
	JEQ leaves

level:
	STEP(R8, 0)
	STEP(R9, 8)
	STEP(R10, 16)
	STEP(R11, 24)
	STEP(R12, 32)
	STEP(R13, 40)
	STEP(SI, 48)
	STEP(DI, 56)
	DECL CX
	JNZ level

leaves:
	MOVQ values+8(FP), DX
	MOVQ out+48(FP), CX
	LEAF(R8, 0)
	LEAF(R9, 8)
	LEAF(R10, 16)
	LEAF(R11, 24)
	LEAF(R12, 32)
	LEAF(R13, 40)
	LEAF(SI, 48)
	LEAF(DI, 56)
	INCQ R14
	CMPQ R14, ntrees+40(FP)
	JLT tree

done:
	RET

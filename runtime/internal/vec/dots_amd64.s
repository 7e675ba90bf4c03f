//go:build !purego

#include "textflag.h"

// REDUCE stores the sum of the four lanes of y, as (l0 + l2) + (l1 + l3),
// at off(R8); x is y's lower half. It clobbers X15.
#define REDUCE(y, x, off) \
	VEXTRACTF128 $1, y, X15; \
	VADDPD       X15, x, x; \
	VUNPCKHPD    x, x, X15; \
	VADDSD       X15, x, x; \
	VMOVSD       x, off(R8)

// func dots4x3FMA(a0, a1, a2, a3, p0, p1, p2 *float64, n int, out *[12]float64)
//
// Y0–Y11 accumulate row r and point k in Y(3r+k); Y12–Y14 hold four elements
// of the points, Y15 four of a row.
TEXT ·dots4x3FMA(SB), NOSPLIT, $0-72
	MOVQ a0+0(FP), AX
	MOVQ a1+8(FP), BX
	MOVQ a2+16(FP), CX
	MOVQ a3+24(FP), DX
	MOVQ p0+32(FP), SI
	MOVQ p1+40(FP), DI
	MOVQ p2+48(FP), R11
	MOVQ n+56(FP), R10
	MOVQ out+64(FP), R8
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	XORQ   R9, R9

loop3:
	CMPQ        R9, R10
	JGE         done3
	VMOVUPD     (SI)(R9*8), Y12
	VMOVUPD     (DI)(R9*8), Y13
	VMOVUPD     (R11)(R9*8), Y14
	VMOVUPD     (AX)(R9*8), Y15
	VFMADD231PD Y15, Y12, Y0
	VFMADD231PD Y15, Y13, Y1
	VFMADD231PD Y15, Y14, Y2
	VMOVUPD     (BX)(R9*8), Y15
	VFMADD231PD Y15, Y12, Y3
	VFMADD231PD Y15, Y13, Y4
	VFMADD231PD Y15, Y14, Y5
	VMOVUPD     (CX)(R9*8), Y15
	VFMADD231PD Y15, Y12, Y6
	VFMADD231PD Y15, Y13, Y7
	VFMADD231PD Y15, Y14, Y8
	VMOVUPD     (DX)(R9*8), Y15
	VFMADD231PD Y15, Y12, Y9
	VFMADD231PD Y15, Y13, Y10
	VFMADD231PD Y15, Y14, Y11
	ADDQ        $4, R9
	JMP         loop3

done3:
	REDUCE(Y0, X0, 0)
	REDUCE(Y1, X1, 8)
	REDUCE(Y2, X2, 16)
	REDUCE(Y3, X3, 24)
	REDUCE(Y4, X4, 32)
	REDUCE(Y5, X5, 40)
	REDUCE(Y6, X6, 48)
	REDUCE(Y7, X7, 56)
	REDUCE(Y8, X8, 64)
	REDUCE(Y9, X9, 72)
	REDUCE(Y10, X10, 80)
	REDUCE(Y11, X11, 88)
	VZEROUPPER
	RET

// func dots4x1FMA(a0, a1, a2, a3, p *float64, n int, out *[4]float64)
TEXT ·dots4x1FMA(SB), NOSPLIT, $0-56
	MOVQ a0+0(FP), AX
	MOVQ a1+8(FP), BX
	MOVQ a2+16(FP), CX
	MOVQ a3+24(FP), DX
	MOVQ p+32(FP), SI
	MOVQ n+40(FP), R10
	MOVQ out+48(FP), R8
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORQ   R9, R9

loop1:
	CMPQ        R9, R10
	JGE         done1
	VMOVUPD     (SI)(R9*8), Y12
	VFMADD231PD (AX)(R9*8), Y12, Y0
	VFMADD231PD (BX)(R9*8), Y12, Y1
	VFMADD231PD (CX)(R9*8), Y12, Y2
	VFMADD231PD (DX)(R9*8), Y12, Y3
	ADDQ        $4, R9
	JMP         loop1

done1:
	REDUCE(Y0, X0, 0)
	REDUCE(Y1, X1, 8)
	REDUCE(Y2, X2, 16)
	REDUCE(Y3, X3, 24)
	VZEROUPPER
	RET

//go:build !purego

#include "textflag.h"

// REDUCE stores the sum of the four lanes of y, as (l0 + l2) + (l1 + l3),
// at off(R8); x is y's lower half. It clobbers X6.
#define REDUCE(y, x, off) \
	VEXTRACTF128 $1, y, X6; \
	VADDPD       X6, x, x; \
	VUNPCKHPD    x, x, X6; \
	VADDSD       X6, x, x; \
	VMOVSD       x, off(R8)

// func dots2x3FMA(a0, a1, p0, p1, p2 *float64, n int, out *[6]float64)
TEXT ·dots2x3FMA(SB), NOSPLIT, $0-56
	MOVQ a0+0(FP), AX
	MOVQ a1+8(FP), BX
	MOVQ p0+16(FP), CX
	MOVQ p1+24(FP), DX
	MOVQ p2+32(FP), SI
	MOVQ n+40(FP), DI
	MOVQ out+48(FP), R8
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	XORQ   R9, R9

loop3:
	CMPQ        R9, DI
	JGE         done3
	VMOVUPD     (AX)(R9*8), Y6
	VMOVUPD     (BX)(R9*8), Y7
	VMOVUPD     (CX)(R9*8), Y8
	VFMADD231PD Y8, Y6, Y0
	VFMADD231PD Y8, Y7, Y3
	VMOVUPD     (DX)(R9*8), Y9
	VFMADD231PD Y9, Y6, Y1
	VFMADD231PD Y9, Y7, Y4
	VMOVUPD     (SI)(R9*8), Y10
	VFMADD231PD Y10, Y6, Y2
	VFMADD231PD Y10, Y7, Y5
	ADDQ        $4, R9
	JMP         loop3

done3:
	REDUCE(Y0, X0, 0)
	REDUCE(Y1, X1, 8)
	REDUCE(Y2, X2, 16)
	REDUCE(Y3, X3, 24)
	REDUCE(Y4, X4, 32)
	REDUCE(Y5, X5, 40)
	VZEROUPPER
	RET

// func dots2x1FMA(a0, a1, p *float64, n int, out *[2]float64)
TEXT ·dots2x1FMA(SB), NOSPLIT, $0-40
	MOVQ a0+0(FP), AX
	MOVQ a1+8(FP), BX
	MOVQ p+16(FP), CX
	MOVQ n+24(FP), DI
	MOVQ out+32(FP), R8
	VXORPD Y0, Y0, Y0
	VXORPD Y3, Y3, Y3
	XORQ   R9, R9

loop1:
	CMPQ        R9, DI
	JGE         done1
	VMOVUPD     (AX)(R9*8), Y6
	VMOVUPD     (BX)(R9*8), Y7
	VMOVUPD     (CX)(R9*8), Y8
	VFMADD231PD Y8, Y6, Y0
	VFMADD231PD Y8, Y7, Y3
	ADDQ        $4, R9
	JMP         loop1

done1:
	REDUCE(Y0, X0, 0)
	REDUCE(Y3, X3, 8)
	VZEROUPPER
	RET

// func cpuid(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL subleaf+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv0() (eax, edx uint32)
TEXT ·xgetbv0(SB), NOSPLIT, $0-8
	MOVL   $0, CX
	XGETBV
	MOVL   AX, eax+0(FP)
	MOVL   DX, edx+4(FP)
	RET

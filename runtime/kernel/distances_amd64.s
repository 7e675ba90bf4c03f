//go:build !purego

#include "textflag.h"

// func distances1AVX2(a, inv float64, p *float64, out *float64, n int)
TEXT ·distances1AVX2(SB), NOSPLIT, $0-40
	VBROADCASTSD a+0(FP), Y0
	VBROADCASTSD inv+8(FP), Y1
	MOVQ         p+16(FP), SI
	MOVQ         out+24(FP), DI
	MOVQ         n+32(FP), CX
	XORQ         AX, AX

loop:
	CMPQ    AX, CX
	JGE     done
	VSUBPD  (SI)(AX*8), Y0, Y2
	VMULPD  Y2, Y2, Y2
	VMULPD  Y1, Y2, Y2
	VMOVUPD Y2, (DI)(AX*8)
	ADDQ    $4, AX
	JMP     loop

done:
	VZEROUPPER
	RET

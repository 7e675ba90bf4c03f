//go:build !purego

#include "textflag.h"

// The kernel computes two vectors of four arguments, in Y0–Y7 and Y8–Y15,
// with the instructions of the two interleaved so that each hides the
// other's latency. Per vector: Y0 = x, then r, then the result; Y1 = kd
// (x·log2e rounded, k in its low bits); Y2 = k; Y3 = r²; Y7 = r⁴; Y4–Y6 the
// partial sums of Estrin's scheme for Q (see exp1). DX points to
// vectorConsts: constant i at i·32(DX), the Taylor coefficients from 7·32.

// func expAVX2(dst, src *float64, n int, c *[constCount][4]float64) int
TEXT ·expAVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), DX
	XORQ AX, AX

loop:
	LEAQ 8(AX), BX
	CMPQ BX, CX
	JGT  done
	VMOVUPD (SI)(AX*8), Y0
	VMOVUPD 32(SI)(AX*8), Y8
	// Stop before a step with an argument the polynomial does not take:
	// NGE_US (9) and NLE_US (6) are true for NaN too.
	VCMPPD  $9, 128(DX), Y0, Y2
	VCMPPD  $6, 160(DX), Y0, Y3
	VCMPPD  $9, 128(DX), Y8, Y10
	VCMPPD  $6, 160(DX), Y8, Y11
	VORPD   Y3, Y2, Y2
	VORPD   Y11, Y10, Y10
	VORPD   Y10, Y2, Y2
	VPTEST  Y2, Y2
	JNE     done
	VMOVUPD     32(DX), Y1
	VMOVUPD     32(DX), Y9
	VFMADD231PD 0(DX), Y0, Y1
	VFMADD231PD 0(DX), Y8, Y9
	VSUBPD      32(DX), Y1, Y2
	VSUBPD      32(DX), Y9, Y10
	VFNMADD231PD 64(DX), Y2, Y0
	VFNMADD231PD 64(DX), Y10, Y8
	VFNMADD231PD 96(DX), Y2, Y0
	VFNMADD231PD 96(DX), Y10, Y8
	VMULPD      Y0, Y0, Y3
	VMULPD      Y8, Y8, Y11
	VMOVUPD     224(DX), Y4
	VMOVUPD     224(DX), Y12
	VFMADD231PD 256(DX), Y0, Y4
	VFMADD231PD 256(DX), Y8, Y12
	VMOVUPD     288(DX), Y5
	VMOVUPD     288(DX), Y13
	VFMADD231PD 320(DX), Y0, Y5
	VFMADD231PD 320(DX), Y8, Y13
	VFMADD231PD Y5, Y3, Y4
	VFMADD231PD Y13, Y11, Y12
	VMOVUPD     352(DX), Y5
	VMOVUPD     352(DX), Y13
	VFMADD231PD 384(DX), Y0, Y5
	VFMADD231PD 384(DX), Y8, Y13
	VMOVUPD     416(DX), Y6
	VMOVUPD     416(DX), Y14
	VFMADD231PD 448(DX), Y0, Y6
	VFMADD231PD 448(DX), Y8, Y14
	VFMADD231PD Y6, Y3, Y5
	VFMADD231PD Y14, Y11, Y13
	VMOVUPD     480(DX), Y6
	VMOVUPD     480(DX), Y14
	VFMADD231PD 512(DX), Y0, Y6
	VFMADD231PD 512(DX), Y8, Y14
	VMOVUPD     544(DX), Y7
	VMOVUPD     544(DX), Y15
	VFMADD231PD 576(DX), Y0, Y7
	VFMADD231PD 576(DX), Y8, Y15
	VFMADD231PD Y7, Y3, Y6
	VFMADD231PD Y15, Y11, Y14
	VMULPD      Y3, Y3, Y7
	VMULPD      Y11, Y11, Y15
	VFMADD231PD Y6, Y7, Y5
	VFMADD231PD Y14, Y15, Y13
	VFMADD231PD Y5, Y7, Y4
	VFMADD231PD Y13, Y15, Y12
	VFMADD231PD Y4, Y3, Y0
	VFMADD231PD Y12, Y11, Y8
	VADDPD      192(DX), Y0, Y0
	VADDPD      192(DX), Y8, Y8
	VPSLLQ      $52, Y1, Y1
	VPSLLQ      $52, Y9, Y9
	VPADDQ      Y1, Y0, Y0
	VPADDQ      Y9, Y8, Y8
	VMOVUPD Y0, (DI)(AX*8)
	VMOVUPD Y8, 32(DI)(AX*8)
	MOVQ    BX, AX
	JMP     loop

done:
	VZEROUPPER
	MOVQ AX, ret+32(FP)
	RET

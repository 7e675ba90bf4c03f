//go:build !purego

#include "textflag.h"

// CORRECTION_STEP corrects y ≈ m^(−1/5) for both vectors: with c = 1 −
// m·y·y⁴, y += y·(0.2 + 0.12c)·c, the series of (1 − c)^(−1/5) to its
// second term, which cubes the relative error; y in Y5 and Y13, m in Y1
// and Y9; it uses Y3, Y4, Y6, Y11, Y12, Y14.
#define CORRECTION_STEP \
	VMULPD       Y5, Y5, Y3     \
	VMULPD       Y13, Y13, Y11  \
	VMULPD       Y5, Y1, Y4     \
	VMULPD       Y13, Y9, Y12   \
	VMULPD       Y3, Y3, Y3     \
	VMULPD       Y11, Y11, Y11  \
	VMOVUPD      0(DX), Y6      \
	VMOVUPD      0(DX), Y14     \
	VFNMADD231PD Y3, Y4, Y6     \
	VFNMADD231PD Y11, Y12, Y14  \
	VMOVUPD      128(DX), Y3    \
	VMOVUPD      128(DX), Y11   \
	VFMADD231PD  576(DX), Y6, Y3   \
	VFMADD231PD  576(DX), Y14, Y11 \
	VMULPD       Y6, Y3, Y3     \
	VMULPD       Y14, Y11, Y11  \
	VFMADD231PD  Y3, Y5, Y5     \
	VFMADD231PD  Y11, Y13, Y13

// The kernel computes two vectors of four squared distances, in Y0–Y7 and
// Y8–Y15, with the instructions of the two interleaved so that each hides
// the other's latency; the comments name the first vector's registers. It
// does what rqMixPortable does, with fused multiply-adds: first the
// fraction of the shapes ½, 1, 2 and 5 (into Y0), then the fifth root of
// the shape-0.2 base q0 (Y1) as in inverseFifthRoots, with ⌊e/5⌋ from a
// multiplication and a shift and 2^(−r/5) gathered from the table. SI
// points to the scales c_a, DX to rqMixConsts: constant i at i·32(DX),
// fifthRootPoly from 7·32, the table at 14·32, 0.12 at 18·32.

// func rqMixAVX2(r2 *float64, n int, c *[len(rqMixShapes)]float64, s2 float64, k *[rqConstCount][4]float64) int
TEXT ·rqMixAVX2(SB), NOSPLIT, $0-48
	MOVQ r2+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ c+16(FP), SI
	MOVQ k+32(FP), DX
	XORQ AX, AX

loop:
	LEAQ 8(AX), BX
	CMPQ BX, CX
	JGT  done
	VMOVUPD      (DI)(AX*8), Y0
	VMOVUPD      32(DI)(AX*8), Y8
	// q_a = 1 + c_a·r²: Y1 = q0, Y2 = q1, then √q1, Y3 = q2, Y4 = q3, then
	// q3², Y6 = q4.
	VBROADCASTSD 0(SI), Y1
	VBROADCASTSD 0(SI), Y9
	VFMADD213PD  0(DX), Y0, Y1
	VFMADD213PD  0(DX), Y8, Y9
	VBROADCASTSD 8(SI), Y2
	VBROADCASTSD 8(SI), Y10
	VFMADD213PD  0(DX), Y0, Y2
	VFMADD213PD  0(DX), Y8, Y10
	VSQRTPD      Y2, Y2
	VSQRTPD      Y10, Y10
	VBROADCASTSD 16(SI), Y3
	VBROADCASTSD 16(SI), Y11
	VFMADD213PD  0(DX), Y0, Y3
	VFMADD213PD  0(DX), Y8, Y11
	VBROADCASTSD 24(SI), Y4
	VBROADCASTSD 24(SI), Y12
	VFMADD213PD  0(DX), Y0, Y4
	VFMADD213PD  0(DX), Y8, Y12
	VMULPD       Y4, Y4, Y4
	VMULPD       Y12, Y12, Y12
	VBROADCASTSD 32(SI), Y6
	VBROADCASTSD 32(SI), Y14
	VFMADD213PD  0(DX), Y0, Y6
	VFMADD213PD  0(DX), Y8, Y14
	// Y5 = q4⁵, Y3 = q2·q3², Y6 = den = q2·q3²·q4⁵, Y0 = full = den·√q1,
	// Y7 = the numerator (q3² + q2)·q4⁵ + q2·q3², times √q1, plus den.
	VMULPD       Y6, Y6, Y5
	VMULPD       Y14, Y14, Y13
	VADDPD       Y4, Y3, Y7
	VADDPD       Y12, Y11, Y15
	VMULPD       Y4, Y3, Y3
	VMULPD       Y12, Y11, Y11
	VMULPD       Y5, Y5, Y5
	VMULPD       Y13, Y13, Y13
	VMULPD       Y6, Y5, Y5
	VMULPD       Y14, Y13, Y13
	VMULPD       Y5, Y3, Y6
	VMULPD       Y13, Y11, Y14
	VFMADD213PD  Y3, Y5, Y7
	VFMADD213PD  Y11, Y13, Y15
	VFMADD213PD  Y6, Y2, Y7
	VFMADD213PD  Y14, Y10, Y15
	VMULPD       Y2, Y6, Y0
	VMULPD       Y10, Y14, Y8
	// Stop before a step with a lane of rqMixPortable's other branches:
	// NLT_US (5), NGE_US (9) and NLE_US (6) are true for NaN too.
	VCMPPD       $5, 32(DX), Y0, Y3
	VCMPPD       $5, 32(DX), Y8, Y11
	VCMPPD       $9, 0(DX), Y1, Y4
	VCMPPD       $9, 0(DX), Y9, Y12
	VCMPPD       $6, 32(DX), Y1, Y5
	VCMPPD       $6, 32(DX), Y9, Y13
	VORPD        Y4, Y3, Y3
	VORPD        Y12, Y11, Y11
	VORPD        Y5, Y3, Y3
	VORPD        Y13, Y11, Y11
	// Y0 = the fraction, Y7/full.
	VDIVPD       Y0, Y7, Y0
	VDIVPD       Y8, Y15, Y8
	VORPD        Y11, Y3, Y3
	VPTEST       Y3, Y3
	JNE          done
	// The fifth root of q0 = 2^e·m: Y2 = e, Y1 = m, Y3 = m − 1.5, Y5 = y
	// from the polynomial by Horner's rule.
	VPSRLQ       $52, Y1, Y2
	VPSRLQ       $52, Y9, Y10
	VPSUBQ       160(DX), Y2, Y2
	VPSUBQ       160(DX), Y10, Y10
	VANDPD       64(DX), Y1, Y1
	VANDPD       64(DX), Y9, Y9
	VORPD        0(DX), Y1, Y1
	VORPD        0(DX), Y9, Y9
	VSUBPD       96(DX), Y1, Y3
	VSUBPD       96(DX), Y9, Y11
	VMOVUPD      416(DX), Y5
	VMOVUPD      416(DX), Y13
	VFMADD213PD  384(DX), Y3, Y5
	VFMADD213PD  384(DX), Y11, Y13
	VFMADD213PD  352(DX), Y3, Y5
	VFMADD213PD  352(DX), Y11, Y13
	VFMADD213PD  320(DX), Y3, Y5
	VFMADD213PD  320(DX), Y11, Y13
	VFMADD213PD  288(DX), Y3, Y5
	VFMADD213PD  288(DX), Y11, Y13
	VFMADD213PD  256(DX), Y3, Y5
	VFMADD213PD  256(DX), Y11, Y13
	VFMADD213PD  224(DX), Y3, Y5
	VFMADD213PD  224(DX), Y11, Y13
	// Y3 = q = ⌊e/5⌋, Y2 = r = e − 5q, Y4 = 2^(−r/5) from the table (the
	// gather clears its mask Y6); Y2 = 2^(−r/5)·2^−q, by subtracting q from
	// the exponent field.
	VPMULUDQ     192(DX), Y2, Y3
	VPMULUDQ     192(DX), Y10, Y11
	VPSRLQ       $18, Y3, Y3
	VPSRLQ       $18, Y11, Y11
	VPSLLQ       $2, Y3, Y4
	VPSLLQ       $2, Y11, Y12
	VPADDQ       Y3, Y4, Y4
	VPADDQ       Y11, Y12, Y12
	VPSUBQ       Y4, Y2, Y2
	VPSUBQ       Y12, Y10, Y10
	VPCMPEQQ     Y6, Y6, Y6
	VPCMPEQQ     Y14, Y14, Y14
	VGATHERQPD   Y6, 448(DX)(Y2*8), Y4
	VGATHERQPD   Y14, 448(DX)(Y10*8), Y12
	VPSLLQ       $52, Y3, Y3
	VPSLLQ       $52, Y11, Y11
	VPSUBQ       Y3, Y4, Y2
	VPSUBQ       Y11, Y12, Y10
	CORRECTION_STEP
	// The value: s²·(fraction + q0^(−1/5)).
	VMULPD       Y2, Y5, Y5
	VMULPD       Y10, Y13, Y13
	VADDPD       Y5, Y0, Y0
	VADDPD       Y13, Y8, Y8
	VBROADCASTSD s2+24(FP), Y7
	VBROADCASTSD s2+24(FP), Y15
	VMULPD       Y7, Y0, Y0
	VMULPD       Y15, Y8, Y8
	VMOVUPD      Y0, (DI)(AX*8)
	VMOVUPD      Y8, 32(DI)(AX*8)
	MOVQ         BX, AX
	JMP          loop

done:
	VZEROUPPER
	MOVQ AX, ret+40(FP)
	RET

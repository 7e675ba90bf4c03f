//go:build !purego

#include "textflag.h"

// rqMixAVX512, rqMixSumAVX512 and rqMixPairSumAVX512 do rqMixAVX2's
// arithmetic eight values to a ZMM register, with AVX-512's own
// instructions where AVX2 needs several:
// the exponent and the mantissa of q0 from VGETEXPPD and VGETMANTPD,
// ⌊e/5⌋ by rounding, 2^(−r/5) by a permutation of the table in a register
// instead of a gather, and the scaling by 2^−⌊e/5⌋ by VSCALEFPD. Every
// rounded operation is the AVX2 kernel's, in its order, so that the
// kernels give the same bits. The constants stay in Z16–Z23, Z25, Z27 and
// Z31; a step uses Z0–Z14, Z28–Z30 and K1–K3; the sums run in Y15, and the
// pair kernel keeps its points in Z24, inv in Z26 and its masks in K4–K5.

// LOAD_CONSTANTS sets Z16–Z20 = c_a, Z22 = 1, Z23 = rqMixFractionMax, Z25
// = 0.2, Z27 = 5 and Z31 = the table 2^(−r/5), r = 0..4 (lanes 5–7 unused),
// from SI (the scales) and DX (rqMixConsts); rqMixAVX512 sets Z21 = s²
// itself. fifthRootPoly, 1.5, −0.2 and 0.12 come broadcast from memory in
// the step.
#define LOAD_CONSTANTS \
	VBROADCASTSD 0(SI), Z16 \
	VBROADCASTSD 8(SI), Z17 \
	VBROADCASTSD 16(SI), Z18 \
	VBROADCASTSD 24(SI), Z19 \
	VBROADCASTSD 32(SI), Z20 \
	VBROADCASTSD 0(DX), Z22 \
	VBROADCASTSD 32(DX), Z23 \
	VBROADCASTSD 128(DX), Z25 \
	VBROADCASTSD 544(DX), Z27 \
	VMOVUPD      448(DX), Z31

// RQMIX_STEP replaces the eight squared distances in Z0 by their values,
// or jumps to done if one of them is a value the portable path takes
// (rqMixPortable's other branches: NLT_US (5), NGE_US (9) and NLE_US (6)
// are true for NaN too). It does what rqMixAVX2 does, the same rounded
// operations, with the fraction's instructions and the fifth root's
// interleaved so that each chain's latency hides behind the other's:
//   - q_a = 1 + c_a·r²: Z1 = q0, Z2 = q1, then √q1, Z3 = q2, Z4 = q3, then
//     q3², Z6 = q4;
//   - Z5 = q4⁵, Z3 = q2·q3², Z6 = den = q2·q3²·q4⁵, Z9 = full = den·√q1,
//     Z7 = the numerator (q3² + q2)·q4⁵ + q2·q3², times √q1, plus den;
//     Z8 = the fraction Z7/full;
//   - the fifth root of q0 = 2^e·m: Z10 = e, Z11 = m, Z12 = m − 1.5, Z13 =
//     y from the polynomial by Horner's rule; Z12 = −q = ⌈−0.2e⌉ = −⌊e/5⌋,
//     Z10 = r = e − 5q, Z14 = 2^(−r/5) from the table, then 2^(−r/5)·2^−q;
//   - the correction y += y·(0.2 + 0.12c)·c, with Z28 = y², then y⁴, then
//     0.2 + 0.12c, then times c, Z29 = m·y and Z30 = c = 1 − m·y·y⁴;
//   - the value g = fraction + q0^(−1/5), without the variance s².
#define RQMIX_STEP \
	VMOVAPD      Z22, Z2 \
	VFMADD231PD  Z17, Z0, Z2 \
	VSQRTPD      Z2, Z2 \
	VMOVAPD      Z22, Z1 \
	VFMADD231PD  Z16, Z0, Z1 \
	VGETMANTPD   $0, Z1, Z11 \
	VGETEXPPD    Z1, Z10 \
	VSUBPD.BCST  96(DX), Z11, Z12 \
	VBROADCASTSD 416(DX), Z13 \
	VMOVAPD      Z22, Z3 \
	VFMADD231PD  Z18, Z0, Z3 \
	VFMADD213PD.BCST 384(DX), Z12, Z13 \
	VFMADD213PD.BCST 352(DX), Z12, Z13 \
	VMOVAPD      Z22, Z4 \
	VFMADD231PD  Z19, Z0, Z4 \
	VMOVAPD      Z22, Z6 \
	VFMADD231PD  Z20, Z0, Z6 \
	VFMADD213PD.BCST 320(DX), Z12, Z13 \
	VMULPD       Z4, Z4, Z4 \
	VMULPD       Z6, Z6, Z5 \
	VADDPD       Z4, Z3, Z7 \
	VFMADD213PD.BCST 288(DX), Z12, Z13 \
	VMULPD       Z4, Z3, Z3 \
	VMULPD       Z5, Z5, Z5 \
	VFMADD213PD.BCST 256(DX), Z12, Z13 \
	VMULPD       Z6, Z5, Z5 \
	VMULPD       Z5, Z3, Z6 \
	VFMADD213PD.BCST 224(DX), Z12, Z13 \
	VFMADD213PD  Z3, Z5, Z7 \
	VMULPD.BCST  512(DX), Z10, Z12 \
	VRNDSCALEPD  $10, Z12, Z12 \
	VMULPD       Z13, Z13, Z28 \
	VMULPD       Z13, Z11, Z29 \
	VFMADD231PD  Z27, Z12, Z10 \
	VMULPD       Z28, Z28, Z28 \
	VMOVAPD      Z22, Z30 \
	VCVTTPD2QQ   Z10, Z10 \
	VFNMADD231PD Z28, Z29, Z30 \
	VPERMPD      Z31, Z10, Z14 \
	VMOVAPD      Z25, Z28 \
	VFMADD231PD.BCST 576(DX), Z30, Z28 \
	VSCALEFPD    Z12, Z14, Z14 \
	VMULPD       Z30, Z28, Z28 \
	VFMADD213PD  Z6, Z2, Z7 \
	VMULPD       Z2, Z6, Z9 \
	VFMADD231PD  Z28, Z13, Z13 \
	VCMPPD       $5, Z23, Z9, K1 \
	VCMPPD       $9, Z22, Z1, K2 \
	VCMPPD       $6, Z23, Z1, K3 \
	VDIVPD       Z9, Z7, Z8 \
	KORW         K2, K1, K1 \
	KORW         K3, K1, K1 \
	VMULPD       Z14, Z13, Z13 \
	KORTESTW     K1, K1 \
	JNE          done \
	VADDPD       Z13, Z8, Z0

// func rqMixAVX512(r2 *float64, n int, c *[len(rqMixShapes)]float64, s2 float64, k *[rqConstCount][4]float64) int
TEXT ·rqMixAVX512(SB), NOSPLIT, $0-48
	MOVQ r2+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ c+16(FP), SI
	MOVQ k+32(FP), DX
	XORQ AX, AX
	LOAD_CONSTANTS
	VBROADCASTSD s2+24(FP), Z21

loop:
	LEAQ    8(AX), BX
	CMPQ    BX, CX
	JGT     done
	VMOVUPD (DI)(AX*8), Z0
	RQMIX_STEP
	VMULPD  Z21, Z0, Z0
	VMOVUPD Z0, (DI)(AX*8)
	MOVQ    BX, AX
	JMP     loop

done:
	VZEROUPPER
	MOVQ AX, ret+40(FP)
	RET

// ADD_TO_SUMS adds the step's values in Z0 to the running sums in Y15
// (lane i: sum4's s_i): its first four values, then its last four, as
// sum4.add does.
#define ADD_TO_SUMS \
	VEXTRACTF64X4 $1, Z0, Y1 \
	VADDPD        Y0, Y15, Y15 \
	VADDPD        Y1, Y15, Y15

// func rqMixSumAVX512(r2 *float64, n int, c *[len(rqMixShapes)]float64, k *[rqConstCount][4]float64, sum *sum4) int
TEXT ·rqMixSumAVX512(SB), NOSPLIT, $0-48
	MOVQ    r2+0(FP), DI
	MOVQ    n+8(FP), CX
	MOVQ    c+16(FP), SI
	MOVQ    k+24(FP), DX
	MOVQ    sum+32(FP), R8
	XORQ    AX, AX
	VMOVUPD (R8), Y15
	LOAD_CONSTANTS

sumloop:
	LEAQ          8(AX), BX
	CMPQ          BX, CX
	JGT           done
	VMOVUPD       (DI)(AX*8), Z0
	RQMIX_STEP
	ADD_TO_SUMS
	MOVQ          BX, AX
	JMP           sumloop

done:
	VMOVUPD Y15, (R8)
	VZEROUPPER
	MOVQ    AX, ret+40(FP)
	RET

// DISTANCES replaces the eight points in Z0 by their squared distances
// (a − p)²·inv to the points a in Z24, with inv in Z26, rounded as
// Block.squaredDistances rounds them.
#define DISTANCES \
	VSUBPD Z0, Z24, Z0 \
	VMULPD Z0, Z0, Z0  \
	VMULPD Z26, Z0, Z0

// func rqMixPairSumAVX512(u *float64, nu int, v *float64, nv int, inv float64, c *[len(rqMixShapes)]float64, k *[rqConstCount][4]float64, sum *sum4) int
//
// The pairs (u_i, v_j) in R^1 in order, i then j, eight to a step whatever
// the rows' lengths (nv ≥ 8), as PairSum's chunks take them: a step with
// fewer than eight points left in its row takes the next row's first ones,
// with that row's u in the lanes they fill. R10 points to u_i, R11 counts
// the rows left, AX is j, R12 the pairs done; Z24 holds the steps' u, Z26
// inv.
TEXT ·rqMixPairSumAVX512(SB), NOSPLIT, $0-72
	MOVQ         u+0(FP), R10
	MOVQ         nu+8(FP), R11
	MOVQ         v+16(FP), DI
	MOVQ         nv+24(FP), CX
	MOVQ         c+40(FP), SI
	MOVQ         k+48(FP), DX
	MOVQ         sum+56(FP), R8
	XORQ         AX, AX
	XORQ         R12, R12
	VMOVUPD      (R8), Y15
	LOAD_CONSTANTS
	VBROADCASTSD inv+32(FP), Z26

pairstep:
	TESTQ        R11, R11
	JEQ          done
	MOVQ         CX, BX
	SUBQ         AX, BX
	CMPQ         BX, $8
	JLT          split
	VBROADCASTSD (R10), Z24
	VMOVUPD      (DI)(AX*8), Z0
	DISTANCES
	RQMIX_STEP
	ADD_TO_SUMS
	ADDQ         $8, AX
	ADDQ         $8, R12
	CMPQ         AX, CX
	JLT          pairstep
	XORQ         AX, AX
	ADDQ         $8, R10
	DECQ         R11
	JMP          pairstep

	// r = BX < 8 points left in the row: K4 holds the lanes below r, K5
	// the others.
split:
	MOVQ  CX, R13
	MOVQ  BX, CX
	MOVQ  $1, R9
	SHLQ  CX, R9
	MOVQ  R13, CX
	DECQ  R9
	KMOVW R9, K4
	KNOTW K4, K5
	CMPQ  R11, $1
	JEQ   last

	// A step across two rows; the next one goes on from its point 8 − r.
	VBROADCASTSD (R10), Z24
	VBROADCASTSD 8(R10), K5, Z24
	VMOVUPD.Z    (DI)(AX*8), K4, Z0
	VEXPANDPD    (DI), K5, Z0
	DISTANCES
	RQMIX_STEP
	ADD_TO_SUMS
	ADDQ         $8, R12
	MOVQ         $8, AX
	SUBQ         BX, AX
	ADDQ         $8, R10
	DECQ         R11
	JMP          pairstep

	// The last r points, with zeros in the other lanes: the first four
	// values (if r ≥ 4) go to the running sums as a group, the rest to s_0
	// one after another, as sum4.add adds a tail.
last:
	MOVQ          BX, R13
	VBROADCASTSD  (R10), Z24
	VMOVUPD.Z     (DI)(AX*8), K4, Z0
	VSUBPD.Z      Z0, Z24, K4, Z0
	VMULPD        Z0, Z0, Z0
	VMULPD        Z26, Z0, Z0
	RQMIX_STEP
	MOVQ          $1, R9
	KMOVW         R9, K5
	CMPQ          BX, $4
	JLT           tail
	VADDPD        Y0, Y15, Y15
	VEXTRACTF64X4 $1, Z0, Y0
	SUBQ          $4, BX

tail:
	TESTQ   BX, BX
	JEQ     lastdone
	VADDPD  Z0, Z15, K5, Z15
	CMPQ    BX, $1
	JEQ     lastdone
	VPERMPD $1, Z0, Z1
	VADDPD  Z1, Z15, K5, Z15
	CMPQ    BX, $2
	JEQ     lastdone
	VPERMPD $2, Z0, Z1
	VADDPD  Z1, Z15, K5, Z15

lastdone:
	ADDQ R13, R12

done:
	VMOVUPD Y15, (R8)
	VZEROUPPER
	MOVQ    R12, ret+64(FP)
	RET

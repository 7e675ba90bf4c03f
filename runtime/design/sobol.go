// Package design generates space-filling points in the unit cube [0,1)^d:
// the quasi-random Sobol sequence (Joe–Kuo direction numbers, optionally
// randomised by a digital shift), Latin hypercubes and plain uniform samples.
// Optimisers use it for their initial designs and for the candidate points of
// the acquisition search. Every generator is deterministic for a given seed;
// random numbers come from math/rand/v2's PCG.
package design

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// MaxSobolDim is the highest dimension NewSobol supports: dimension 1 plus one
// per row of the embedded Joe–Kuo table (rows d = 2..1024).
const MaxSobolDim = 1024

// sobolBits is the number of binary digits of every Sobol coordinate. With 64
// digits the sequence never repeats in practice and a digital shift randomises
// all 53 bits of the float64 mantissa.
const sobolBits = 64

// Streams of the PCG generator, so that the same user seed drives unrelated
// random quantities independently.
const (
	shiftStream  = 0x5ad0b01_5d1f7
	lhsStream    = 0x1a7_1cbe
	randomStream = 0x0ca1_0a11
)

// ErrDimension reports a dimension outside 1..MaxSobolDim.
var ErrDimension = errors.New("design: dimension out of range")

// Sobol streams the points of a d-dimensional Sobol sequence in Gray-code
// order (Antonov–Saleev): each point differs from the previous one by a
// single XOR per coordinate. With a non-zero seed every coordinate is XORed
// with a random 64-bit digital shift, which keeps the net structure of the
// sequence and makes it an unbiased randomised QMC design.
type Sobol struct {
	dim   int
	index uint64   // how many points Next has produced since the last reset
	dirs  []uint64 // dirs[k*dim+j] is direction number V_{k+1} of dimension j
	x     []uint64 // the unshifted integer coordinates of the next point
	shift []uint64 // the digital shift, zero for the plain sequence
}

// NewSobol returns a generator of the first dim Sobol coordinates. seed == 0
// gives the plain sequence, starting at the origin; any other seed gives a
// digitally shifted one determined by the seed.
func NewSobol(dim int, seed uint64) (*Sobol, error) {
	if dim < 1 || dim > MaxSobolDim {
		return nil, fmt.Errorf("%w: Sobol dimension %d, want 1..%d", ErrDimension, dim, MaxSobolDim)
	}
	s := &Sobol{
		dim:   dim,
		dirs:  make([]uint64, sobolBits*dim),
		x:     make([]uint64, dim),
		shift: make([]uint64, dim),
	}
	var v [sobolBits]uint64
	for j := range dim {
		directionNumbers(j, &v)
		for k, vk := range v {
			s.dirs[k*dim+j] = vk
		}
	}
	s.Reset(seed)
	return s, nil
}

// directionNumbers writes V_1..V_64 of dimension j (0-based), scaled by 2^64,
// into v. Dimension 0 is van der Corput's sequence (every m_k = 1); dimension
// j > 0 follows the recurrence of its primitive polynomial
// x^s + a_1 x^{s-1} + ... + a_{s-1} x + 1 (Joe & Kuo's notes, eq. 2 and 4):
//
//	V_k = a_1 V_{k-1} ^ ... ^ a_{s-1} V_{k-s+1} ^ V_{k-s} ^ (V_{k-s} >> s).
func directionNumbers(j int, v *[sobolBits]uint64) {
	if j == 0 {
		for k := range v {
			v[k] = 1 << (sobolBits - 1 - k)
		}
		return
	}
	row := &joeKuo[j-1]
	s := int(row.degree)
	for k := range s {
		v[k] = uint64(row.m[k]) << (sobolBits - 1 - k)
	}
	for k := s; k < sobolBits; k++ {
		vk := v[k-s] ^ v[k-s]>>s
		for i := 1; i < s; i++ {
			if row.poly>>(s-1-i)&1 == 1 {
				vk ^= v[k-i]
			}
		}
		v[k] = vk
	}
}

// Dim returns the number of coordinates of every point.
func (s *Sobol) Dim() int { return s.dim }

// Reset restarts the sequence at its first point with the digital shift of
// seed (0: no shift). It does not allocate, so a searcher can draw a freshly
// randomised candidate set on every call.
func (s *Sobol) Reset(seed uint64) {
	s.index = 0
	clear(s.x)
	if seed == 0 {
		clear(s.shift)
		return
	}
	var rng rand.PCG
	rng.Seed(seed, shiftStream)
	for j := range s.shift {
		s.shift[j] = rng.Uint64()
	}
}

// Next writes the next point to out[:Dim()]. It does not allocate.
func (s *Sobol) Next(out []float64) {
	out = out[:s.dim]
	for j, xj := range s.x {
		out[j] = unitFloat(xj ^ s.shift[j])
	}
	s.index++
	// Gray-code order: point i+1 flips the digit at the lowest set bit of i+1.
	v := s.dirs[bits.TrailingZeros64(s.index)*s.dim:]
	for j := range s.x {
		s.x[j] ^= v[j]
	}
}

// unitFloat maps 64 random or quasi-random bits to [0, 1) keeping the top 53,
// so every result is exactly representable and dyadic structure is preserved.
func unitFloat(u uint64) float64 {
	return float64(u>>11) * 0x1p-53
}

// Package cpufeat reports the CPU features the runtime's vector kernels need.
// (The runtime may import only the standard library and gonum, so it asks
// CPUID itself rather than through golang.org/x/sys/cpu.)
package cpufeat

// AVX2FMA reports whether the CPU has AVX2 and FMA and the operating system
// saves the YMM registers; it is false on other architectures and under the
// purego build tag.
var AVX2FMA = hasAVX2FMA()

// AVX512 reports whether the CPU has AVX2FMA and AVX-512's foundation and
// doubleword/quadword instructions and their 128- and 256-bit forms
// (AVX512F, AVX512DQ, AVX512VL) and the operating
// system saves the opmask and ZMM registers; false where AVX2FMA is.
var AVX512 = AVX2FMA && hasAVX512()

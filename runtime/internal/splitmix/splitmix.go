// Package splitmix holds SplitMix64's finaliser, the mixing the runtime uses
// to derive unrelated seeds and uniforms from nearby ones.
package splitmix

// Mix is SplitMix64's finaliser: every bit of x moves about half the bits of
// the result, so that seeds in a row give unrelated values.
func Mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

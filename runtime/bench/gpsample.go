package bench

import (
	"math"
	"math/rand/v2"
)

// gpFeatures is the number of random Fourier features of a GP sample: its
// covariance is the squared-exponential kernel's within about 1/√gpFeatures.
const gpFeatures = 2000

// gpStream is the PCG stream of the features.
const gpStream = 0x6770_5f73_616d // "gp_sam"

// GPSample is a function drawn from a zero-mean Gaussian process prior with
// the squared-exponential kernel exp(−‖x − x′‖²/(2ℓ²)) (unit variance) by
// random Fourier features, f(x) = √(2/M) Σ_m w_m cos(ω_m·x/ℓ + b_m) with
// ω_m ~ N(0, I), b_m ~ U[0, 2π), w_m ~ N(0, 1): defined at every x, smooth,
// and the same function for the same seed, in any dimension. It draws its
// features again at every call rather than storing them, so it allocates
// nothing and costs O(M·d) per evaluation. It is the function class the
// SGP-UCB paper's experiment draws its objective and constraint from.
func GPSample(x []float64, lengthscale float64, seed uint64) float64 {
	var rng rand.PCG
	rng.Seed(seed, gpStream)
	sum := 0.0
	for range gpFeatures {
		phase := 2 * math.Pi * uniform(&rng)
		for _, xi := range x {
			phase += normal(&rng) * xi / lengthscale
		}
		sum += normal(&rng) * math.Cos(phase)
	}
	return math.Sqrt(2.0/gpFeatures) * sum
}

// uniform draws from U(0, 1).
func uniform(rng *rand.PCG) float64 { return (float64(rng.Uint64()>>11) + 0.5) / (1 << 53) }

// normal draws from N(0, 1) by Box–Muller, one of the pair (the other is
// thrown away, so that the stream stays simple).
func normal(rng *rand.PCG) float64 {
	return math.Sqrt(-2*math.Log(uniform(rng))) * math.Cos(2*math.Pi*uniform(rng))
}

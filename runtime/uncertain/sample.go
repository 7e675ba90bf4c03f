package uncertain

import "math"

// Kernel is a base kernel between two points of R^d. It must be symmetric.
// The estimators take its values a row at a time, one point against many,
// through RowSum, or a whole block of pairs at once through PairSum;
// runtime/kernel's Block evaluates a stationary kernel so, with vector
// kernels, and KernelFunc adapts any function of two points.
type Kernel interface {
	// Eval returns k(a, b).
	Eval(a, b []float64) float64
	// RowSum returns Σ_j w_j·k(a, p_j) over the len(points)/len(a) points
	// p_j stored row-major in points, every w_j = 1 when w is nil. It must
	// be a deterministic function of its arguments and allocate nothing.
	RowSum(a, points, w []float64) float64
	// PairSum returns Σ_i Σ_j wu_i·wv_j·k(u_i, v_j) over the points u_i of
	// u and v_j of v, d values each, stored row-major; a nil weight slice
	// weighs every point 1. It must be a deterministic function of its
	// arguments and allocate nothing.
	PairSum(u, v []float64, d int, wu, wv []float64) float64
}

// KernelFunc is a Kernel given by a function of two points, evaluated one
// pair at a time (composite kernels, tests).
type KernelFunc func(a, b []float64) float64

// Eval returns f(a, b).
func (f KernelFunc) Eval(a, b []float64) float64 { return f(a, b) }

// RowSum returns Σ_j w_j·f(a, p_j), adding in order.
func (f KernelFunc) RowSum(a, points, w []float64) float64 {
	d := len(a)
	var s float64
	for j := range len(points) / d {
		v := f(a, points[j*d:(j+1)*d])
		if w != nil {
			v *= w[j]
		}
		s += v
	}
	return s
}

// PairSum returns Σ_i wu_i·RowSum(u_i, v, wv), adding in order.
func (f KernelFunc) PairSum(u, v []float64, d int, wu, wv []float64) float64 {
	var s float64
	for i := range len(u) / d {
		r := f.RowSum(u[i*d:(i+1)*d], v, wv)
		if wu != nil {
			r *= wu[i]
		}
		s += r
	}
	return s
}

// SqDist returns ‖a − b‖² for len(b) >= len(a).
func SqDist(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for i, ai := range a {
		t := ai - b[i]
		s += t * t
	}
	return s
}

// MeanKernel returns (1/(mu·mv)) Σ_i Σ_j k(u_i, v_j) for the sample sets u
// (mu×d) and v (mv×d), mu = len(u)/d ≥ 1: the Monte Carlo integral kernel of
// Oliveira Eq. 9 and the cross term of MMD². It costs mu·mv kernel values,
// in mu rows, which a large sum shares with an idle helper goroutine
// (splitSum; the result is the same either way).
func MeanKernel(k Kernel, u, v []float64, d int) float64 {
	mu, mv := len(u)/d, len(v)/d
	s := splitSum(rows{k: k, u: u, v: v, d: d, hi: mu}, mu/2, mu*mv)
	return s / float64(mu*mv)
}

// SelfMeanKernel returns the U-statistic (1/(m(m−1))) Σ_{i≠j} k(u_i, u_j)
// for m = len(u)/d ≥ 2 samples: the unbiased estimate of E k(u, u') for u, u'
// independent draws of P — uGP's k̂(P, P) and the self terms of AIRBO Eq. 8.
// By symmetry it evaluates each pair once, m(m−1)/2 kernel values.
func SelfMeanKernel(k Kernel, u []float64, d int) float64 {
	m := len(u) / d
	// Row i has i values: the first m/√2 rows hold half of them.
	s := splitSum(rows{k: k, u: u, d: d, lo: 1, hi: m, triangle: true}, max(1, int(float64(m)/math.Sqrt2)), m*(m-1)/2)
	return 2 * s / float64(m*(m-1))
}

// SelfMMD2 returns the unbiased estimate of MMD²(P, P) from P's own m
// samples u, given selfU = SelfMeanKernel(k, u, d): Eq. 8 applied to a set
// and itself, as AIRBO's authors evaluate the diagonal of a Gram matrix. It
// is 2·(selfU − k̄)/m with k̄ the mean of k(u_i, u_i), so it costs m kernel
// values, and it is negative (k̄ is the kernel's largest value for the usual
// kernels). With MMD2's off-diagonal estimates it makes the Gram matrix of
// exp(−α·MMD²) equal D·K·D, K that of the V-statistic and D the positive
// diagonal exp(−α·(selfU − V_u)), V_u = MeanKernel(k, u, u, d), so it stays
// positive semi-definite.
func SelfMMD2(k Kernel, u []float64, d int, selfU float64) float64 {
	m := len(u) / d
	var diag float64
	for i := range m {
		ui := u[i*d : (i+1)*d]
		diag += k.Eval(ui, ui)
	}
	return 2 * (selfU - diag/float64(m)) / float64(m)
}

// MMD2 returns the unbiased empirical estimate of MMD²(P, Q) (AIRBO Eq. 8)
// from the samples u of P and v of Q and their self terms selfU, selfV
// (SelfMeanKernel of each, which callers compute once per distribution):
// selfU + selfV − 2·MeanKernel(k, u, v, d). Being unbiased, it can be
// slightly negative when P and Q are close.
func MMD2(k Kernel, u, v []float64, d int, selfU, selfV float64) float64 {
	return selfU + selfV - 2*MeanKernel(k, u, v, d)
}

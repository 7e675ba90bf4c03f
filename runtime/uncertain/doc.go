// Package uncertain holds the kernels between input distributions that the
// optimisers for uncertain inputs call: the query x lands at x + ε, ε ~ P_x,
// and the surrogate is a GP over distributions rather than points.
//
// A distribution is given either by m samples (row-major m×d, drawn by the
// caller with common random numbers so that they are a smooth deterministic
// function of x) or, for the Gaussian closed forms, by a mean and covariance.
//
// Estimators of the integral kernel k̂(P, Q) = E k(u, v) and of
// MMD²(P, Q) = k̂(P, P) + k̂(Q, Q) − 2 k̂(P, Q), m samples per set, h landmarks:
//
//   - Empirical (MeanKernel, SelfMeanKernel, MMD2): the unbiased estimate of
//     AIRBO Eq. 8, O(m²) kernel evaluations per pair. The U-statistic self
//     terms make MMD2 unbiased, but it can be negative, and exp(−α·MMD2) is
//     not guaranteed positive semi-definite across distributions.
//   - Nystrom: AIRBO Eq. 12 as their code computes it, K ≈ K_mh K_h⁺ K_hm
//     with each set's first h samples as its landmarks: each distribution
//     gets Nyström weights once (O(m·h + h³)), a pair costs O(h²), and
//     MMD² ≈ ‖ν_P − ν_Q‖² for the Nyström mean embeddings ν in the base
//     kernel's RKHS, so exp(−α·MMD²) is positive semi-definite (to rounding).
//   - Embedding: one landmark set Z for the whole problem; each distribution
//     is embedded once into R^h (O(m·h)), MMD² ≈ ‖μ_P − μ_Q‖² (O(h) per
//     pair). exp(−α·MMD²) is then a Gaussian kernel on R^h, so its Gram
//     matrices are positive definite for distinct embeddings, and μ_Pᵀμ_Q is
//     a PSD approximation of the integral kernel. The landmarks must cover
//     the region the samples occupy.
//   - Gaussian closed forms for the SE kernel: IntegralSE (uGP, Oliveira
//     Eq. 80) and SymmetricKLSE (AIRBO's skl baseline), O(d³), exact.
//
// Kernels passed to this package must be symmetric, k(a, b) = k(b, a): the
// estimators evaluate each unordered pair once, and take the kernel's values
// a row at a time (Kernel.RowSum; runtime/kernel's Block for the stationary
// families). Nothing here allocates after construction, and every result is
// a deterministic function of the inputs: the large sample sums share their
// rows with a helper goroutine when one is idle (splitSum), and add the
// partial sums in a fixed order.
package uncertain

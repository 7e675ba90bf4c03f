package acq_test

import (
	"fmt"
	"math"

	"github.com/bocdev/boc/runtime/acq"
)

// Noisy EI by Monte Carlo at a candidate beside two evaluated points whose
// latent values are uncertain: the improvement is over the better of the
// two in each of 64 draws of their joint posterior, not over either mean.
// The better of two uncertain values is on average above the better mean,
// so NEI is below EI against that mean (sampling the three values directly,
// 4·10⁶ times, gives 0.134).
func ExampleLatentDraws() {
	means := []float64{1.0, 1.2} // posterior means at the evaluated points
	cov := []float64{            // their joint posterior covariance
		0.09, 0.02,
		0.02, 0.09,
	}
	draws := acq.NewLatentDraws(2, 64)
	if err := draws.Prepare(means, cov, 1); err != nil {
		fmt.Println(err)
		return
	}
	scratch := make([]float64, draws.ScratchLen())
	covs := []float64{0.01, 0.03} // the candidate's covariances with the two points
	nei := math.Exp(draws.LogNEI(covs, 1.1, 0.5, scratch))
	ei := acq.EI(1.1, 0.5, 1.2, 0) // against the better mean, taken as known
	fmt.Printf("NEI %.3f, EI against the best mean %.3f\n", nei, ei)
	// Output: NEI 0.140, EI against the best mean 0.153
}

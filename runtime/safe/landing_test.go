package safe

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/bocdev/boc/runtime/kernel"
)

// rff is a function drawn (approximately) from a zero-mean GP with an SE
// kernel of lengthscale ell by random Fourier features: unlike a draw at
// fixed points, it can be evaluated wherever a query lands.
type rff struct {
	omega, phase, weight []float64
}

func newRFF(rng *rand.Rand, ell float64) rff {
	const features = 200
	r := rff{make([]float64, features), make([]float64, features), make([]float64, features)}
	for j := range features {
		r.omega[j] = rng.NormFloat64() / ell
		r.phase[j] = 2 * math.Pi * rng.Float64()
		r.weight[j] = rng.NormFloat64() * math.Sqrt(2.0/features)
	}
	return r
}

func (r rff) at(x float64) float64 {
	s := 0.0
	for j := range r.omega {
		s += r.weight[j] * math.Cos(r.omega[j]*x+r.phase[j])
	}
	return s
}

// TestLanding runs SGP-UCB on one-dimensional worlds whose queries land
// uniformly within ±spread of their aim, with an objective that grows
// towards the limit of a constraint drawn from the model's GP prior, so
// that the best safe aims lie at the edge of the safe set. It judges every
// evaluation against the truth, by Monte Carlo over fresh landings: a
// chance constraint must keep P(g(x + ε) ≥ limit) ≥ 1 − α at every aim
// (up to the quadrature of its landing points), a mean constraint
// E[g(x + ε)] ≥ limit, while plain SGP-UCB, which certifies the aim only,
// plays aims whose landings break the limit far more often than α.
func TestLanding(t *testing.T) {
	const (
		n, rounds, realisations = 60, 40, 12
		ell, spread, noiseSD    = 0.2, 0.08, 0.05
		alpha, draws            = 0.1, 32
		lim                     = 0.0
	)
	land := func(u, out []float64) {
		for j := range draws { // stratified: the quadrature of a uniform law
			out[j] = u[0] + spread*(2*(float64(j)+0.5)/draws-1)
		}
	}
	type tally struct{ landings, broken, breachChance, breachMean int }
	modes := []struct {
		name    string
		landing Landing
	}{{"aim", AtAim}, {"mean", InMean}, {"chance", ByChance}}
	totals := make([]tally, len(modes))
	rng := rand.New(rand.NewPCG(21, 22))
	for r := range realisations {
		g := newRFF(rng, ell)
		points := make([]float64, n)
		for i := range points {
			points[i] = float64(i) / (n - 1)
		}
		// The truth at an aim, over 200 landings.
		truth := func(x float64) (p, m float64) {
			for j := range 200 {
				v := g.at(x + spread*(2*(float64(j)+0.5)/200-1))
				m += v / 200
				if v >= lim {
					p += 1.0 / 200
				}
			}
			return p, m
		}
		// Seeds: the three aims whose every landing is safe by the widest
		// margin.
		margin := make([]float64, n)
		for i, x := range points {
			margin[i] = math.Inf(1)
			for j := range 50 {
				margin[i] = min(margin[i], g.at(x+spread*(2*float64(j)/49-1)))
			}
		}
		seeds := safest(margin, 3)
		if margin[seeds[2]] < lim+0.3 {
			continue
		}
		// The objective grows away from the seeds, towards the limit.
		f := make([]float64, n)
		for i, x := range points {
			f[i] = math.Abs(x - points[seeds[0]])
		}
		for k, mode := range modes {
			cfg := Config{Dim: 1, Points: points, Seeds: seeds, Capacity: rounds, Delta: 0.05,
				Window: 5, Cap: 10, Seed: uint64(r), Land: land, Draws: draws,
				Constraints: []Constraint{{Name: "g", Kernel: kernel.NewStationary(kernel.SE, 1, []float64{ell}),
					NoiseVariance: noiseSD * noiseSD, Threshold: lim, AtLeast: true, Landing: mode.landing, Alpha: alpha}}}
			e, err := NewExplorer(cfg)
			if err != nil {
				t.Fatal(err)
			}
			play := rand.New(rand.NewPCG(uint64(r), 7))
			for range rounds {
				if _, err := e.Prepare(); err != nil {
					t.Fatal(err)
				}
				c, err := e.Choose(f, make([]float64, n))
				if err != nil {
					t.Fatal(err)
				}
				x := points[c.Index]
				landed := x + spread*(2*play.Float64()-1)
				v := g.at(landed)
				tl := &totals[k]
				tl.landings++
				if v < lim {
					tl.broken++
				}
				p, mu := truth(x)
				if p < 1-alpha-0.03 {
					tl.breachChance++
				}
				if mu < lim {
					tl.breachMean++
				}
				if err := e.Observe([]float64{x}, []float64{v + noiseSD*play.NormFloat64()}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for k, m := range modes {
		tl := totals[k]
		t.Logf("%-6s %4d landings, %3d broke the limit (%.1f%%), %3d aims below P ≥ 1 − α, %3d below E ≥ limit", m.name, tl.landings, tl.broken,
			100*float64(tl.broken)/float64(tl.landings), tl.breachChance, tl.breachMean)
	}
	aim, mean, chance := totals[0], totals[1], totals[2]
	if chance.breachChance != 0 {
		t.Errorf("the chance constraint played %d aims whose landings break the limit more often than α", chance.breachChance)
	}
	if mean.breachMean != 0 {
		t.Errorf("the mean constraint played %d aims whose expected value breaks the limit", mean.breachMean)
	}
	if aim.breachChance == 0 || aim.broken <= 2*chance.broken {
		t.Errorf("plain SGP-UCB broke the limit at %d landings (%d aims below 1 − α), the chance constraint at %d: the test shows nothing",
			aim.broken, aim.breachChance, chance.broken)
	}
}

package acq

import (
	"math"
	"testing"
)

// TestHedgeArms checks that each arm of the portfolio scores and
// differentiates as the acquisition it names.
func TestHedgeArms(t *testing.T) {
	const mean, sd, best, xi, beta = 0.3, 0.7, 0.5, 0.01, 1.5
	for _, tt := range []struct {
		arm   int
		score float64
		grad  func() (float64, float64, float64)
	}{
		{HedgeEI, LogEI(mean, sd, best, xi), func() (float64, float64, float64) { return LogEIGrad(mean, sd, best, xi) }},
		{HedgePI, LogPI(mean, sd, best, xi), func() (float64, float64, float64) { return LogPIGrad(mean, sd, best, xi) }},
		{HedgeUCB, UCB(mean, sd, beta), func() (float64, float64, float64) { return UCBGrad(mean, sd, beta) }},
	} {
		score := Hedge(tt.arm, mean, sd, best, xi, beta)
		if score != tt.score {
			t.Errorf("arm %d: score %v, want %v", tt.arm, score, tt.score)
		}
		v, dm, ds := HedgeGrad(tt.arm, mean, sd, best, xi, beta)
		wv, wdm, wds := tt.grad()
		if v != wv || dm != wdm || ds != wds {
			t.Errorf("arm %d: gradient (%v, %v, %v), want (%v, %v, %v)", tt.arm, v, dm, ds, wv, wdm, wds)
		}
	}
}

// TestHedgeDraw checks that arms are drawn in proportion to exp(η·gain):
// the share of a fine grid of u each arm gets, for gains large enough that
// exp(η·gain) alone would overflow.
func TestHedgeDraw(t *testing.T) {
	for _, tt := range []struct {
		gains [HedgeArms]float64
		eta   float64
	}{
		{[HedgeArms]float64{0, 0, 0}, 1},
		{[HedgeArms]float64{1, 2, 3}, 1},
		{[HedgeArms]float64{1000, 1001, 999}, 1},
		{[HedgeArms]float64{-5, 0.5, 0.2}, 3},
		{[HedgeArms]float64{2, 2, -800}, 1},
	} {
		top := max(tt.gains[0], tt.gains[1], tt.gains[2])
		var want [HedgeArms]float64
		total := 0.0
		for a, g := range tt.gains {
			want[a] = math.Exp(tt.eta * (g - top))
			total += want[a]
		}
		const steps = 100000
		var got [HedgeArms]float64
		for i := range steps {
			got[hedgeDraw(&tt.gains, tt.eta, (float64(i)+0.5)/steps)]++
		}
		for a := range got {
			if share := got[a] / steps; math.Abs(share-want[a]/total) > 2.0/steps {
				t.Errorf("gains %v, η %v: arm %d drawn for %.5f of u, want %.5f", tt.gains, tt.eta, a, share, want[a]/total)
			}
		}
	}
	gains := [HedgeArms]float64{0, 0, 0}
	if a := hedgeDraw(&gains, 1, math.Nextafter(1, 0)); a != HedgeArms-1 {
		t.Errorf("u just below 1: arm %d, want the last", a)
	}
}

// TestHedgeChoose checks that the seed decides the draw, and that seeds in a
// row, as streamSeed gives them, draw each arm about as often as its
// probability says.
func TestHedgeChoose(t *testing.T) {
	gains := [HedgeArms]float64{0, math.Log(2), math.Log(3)} // probabilities 1/6, 2/6, 3/6
	var counts [HedgeArms]int
	const draws = 60000
	for seed := range uint64(draws) {
		a := HedgeChoose(&gains, 1, seed)
		if HedgeChoose(&gains, 1, seed) != a {
			t.Fatalf("seed %d draws two arms", seed)
		}
		counts[a]++
	}
	for a, c := range counts {
		want := draws * float64(a+1) / 6
		if sd := math.Sqrt(want); math.Abs(float64(c)-want) > 5*sd {
			t.Errorf("arm %d drawn %d times of %d, want about %.0f", a, c, draws, want)
		}
	}
}

package safe

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomIntervals are intervals after a few random updates.
func randomIntervals(rng *rand.Rand, n int) *Intervals {
	c := NewIntervals(n)
	mean, sd := make([]float64, n), make([]float64, n)
	for range 3 {
		for i := range n {
			mean[i], sd[i] = rng.NormFloat64(), 0.1+rng.Float64()
		}
		c.Update(mean, sd, 2)
	}
	return c
}

// TestIntervalsIntersect: over random updates, lower bounds never fall,
// upper bounds never rise, and a disjoint update is counted and ignored.
func TestIntervalsIntersect(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 50
	c := NewIntervals(n)
	mean, sd := make([]float64, n), make([]float64, n)
	prevLo, prevHi := make([]float64, n), make([]float64, n)
	for step := range 200 {
		copy(prevLo, c.Lo)
		copy(prevHi, c.Hi)
		for i := range n {
			mean[i], sd[i] = rng.NormFloat64(), math.Abs(rng.NormFloat64())
		}
		c.Update(mean, sd, Beta(n, step+1, 0.01))
		for i := range n {
			if c.Lo[i] < prevLo[i] || c.Hi[i] > prevHi[i] || c.Lo[i] > c.Hi[i] {
				t.Fatalf("step %d, candidate %d: [%g, %g] after [%g, %g]", step, i, c.Lo[i], c.Hi[i], prevLo[i], prevHi[i])
			}
		}
	}
	if c.Conflicts == 0 {
		t.Error("200 unrelated updates never conflicted; the test does not exercise conflicts")
	}
	d := NewIntervals(1)
	d.Update([]float64{0}, []float64{1}, 1)
	d.Update([]float64{10}, []float64{1}, 1)
	if d.Lo[0] != -1 || d.Hi[0] != 1 || d.Conflicts != 1 {
		t.Errorf("a disjoint update: [%g, %g], %d conflicts; want [-1, 1], 1", d.Lo[0], d.Hi[0], d.Conflicts)
	}
}

func TestBeta(t *testing.T) {
	// 2 log(2·100·25·π²/(6·0.01)) = 2 log(822467.03...)
	if got, want := Beta(100, 5, 0.01), 2*math.Log(2*100*25*math.Pi*math.Pi/0.06); math.Abs(got-want) > 1e-12 || math.Abs(got-27.24) > 0.01 {
		t.Errorf("Beta(100, 5, 0.01) = %g, want %g", got, want)
	}
}

// TestSetMonotone: the safe set is the seeds and every candidate ever
// certified; it never loses one.
func TestSetMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 40
	g := []*Intervals{NewIntervals(n), NewIntervals(n)}
	h := []float64{0, -0.5}
	s := NewSet(n, []int{3, 7, 3})
	if s.Len() != 2 {
		t.Fatalf("two distinct seeds, Len %d", s.Len())
	}
	ever := map[int]bool{3: true, 7: true}
	mean, sd := make([]float64, n), make([]float64, n)
	for step := range 100 {
		for _, c := range g {
			for i := range n {
				mean[i], sd[i] = rng.NormFloat64()+0.5, 0.3*rng.Float64()
			}
			c.Update(mean, sd, Beta(n, step+1, 0.1))
		}
		before := s.Len()
		joined := s.Update(g, h)
		for i := range n {
			if g[0].Lo[i] >= h[0] && g[1].Lo[i] >= h[1] {
				ever[i] = true
			}
			if s.In[i] != ever[i] {
				t.Fatalf("step %d: candidate %d safe %v, want %v", step, i, s.In[i], ever[i])
			}
		}
		if s.Len() != before+joined || s.Len() != len(ever) {
			t.Fatalf("step %d: Len %d, joined %d after %d, %d ever certified", step, s.Len(), joined, before, len(ever))
		}
	}
}

// TestSetsAgainstBruteForce: maximizers and expanders set for set against
// their definitions, on random problems.
func TestSetsAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		n := 2 + rng.IntN(12)
		points := make([]float64, n)
		for i := range points {
			points[i] = rng.Float64()
		}
		dist := func(i, j int) float64 { return math.Abs(points[i] - points[j]) }
		f := randomIntervals(rng, n)
		g := []*Intervals{randomIntervals(rng, n), randomIntervals(rng, n)}
		h := []float64{-0.5, -1}
		lipschitz := []float64{rng.Float64() * 3, rng.Float64() * 3}
		s := NewSet(n, []int{rng.IntN(n)})
		s.Update(g, h)

		maximizers := make([]bool, n)
		count := Maximizers(f, s, maximizers)
		best := math.Inf(-1)
		for i := range n {
			if s.In[i] && f.Lo[i] > best {
				best = f.Lo[i]
			}
		}
		want := 0
		for i := range n {
			w := s.In[i] && !(f.Hi[i] < best)
			if w {
				want++
			}
			if maximizers[i] != w {
				t.Fatalf("trial %d: maximizer %d is %v, want %v", trial, i, maximizers[i], w)
			}
		}
		if count != want {
			t.Fatalf("trial %d: %d maximizers, want %d", trial, count, want)
		}

		expanders := make([]bool, n)
		count = Expanders(g, h, lipschitz, dist, s, expanders)
		want = 0
		for i := range n {
			w := false
			for j := 0; s.In[i] && j < n; j++ {
				ok := !s.In[j]
				for k := range g {
					ok = ok && g[k].Hi[i]-lipschitz[k]*dist(i, j) >= h[k]
				}
				w = w || ok
			}
			if w {
				want++
			}
			if expanders[i] != w {
				t.Fatalf("trial %d: expander %d is %v, want %v", trial, i, expanders[i], w)
			}
		}
		if count != want {
			t.Fatalf("trial %d: %d expanders, want %d", trial, count, want)
		}
	}
}

func TestWidestAndArgmax(t *testing.T) {
	f := &Intervals{Lo: []float64{0, 0, 0, 0}, Hi: []float64{1, 3, 2, 5}}
	g := &Intervals{Lo: []float64{0, 0, 0, 0}, Hi: []float64{4, 1, 1, 1}}
	if got := Widest([]bool{true, true, true, false}, []*Intervals{f, g}); got != 0 {
		t.Errorf("Widest = %d, want 0 (g's width 4 beats f's 3; 3 is not a candidate)", got)
	}
	if got := Widest(make([]bool, 4), []*Intervals{f}); got != -1 {
		t.Errorf("Widest of nothing = %d", got)
	}
	s := NewSet(4, []int{0, 2})
	if got := Argmax([]float64{1, 9, 2, 8}, s); got != 2 {
		t.Errorf("Argmax = %d, want 2 (1 and 3 are unsafe)", got)
	}
	if got := Argmax([]float64{1}, NewSet(1, nil)); got != -1 {
		t.Errorf("Argmax of an empty set = %d", got)
	}
}

func TestPlateau(t *testing.T) {
	p := Plateau{Window: 3, Cap: 10}
	sizes := []int{2, 3, 3, 3, 4, 4, 4, 4}
	var done []bool
	for _, s := range sizes {
		done = append(done, p.Done(s))
	}
	want := []bool{false, false, false, false, false, false, false, true}
	for i := range want {
		if done[i] != want[i] {
			t.Fatalf("rounds %v: done %v, want %v", sizes, done, want)
		}
	}
	c := Plateau{Window: 100, Cap: 4}
	for r := 1; r <= 4; r++ {
		if got := c.Done(r); got != (r == 4) {
			t.Errorf("round %d with a growing set: done %v; the cap is 4", r, got)
		}
	}
}

// TestAllocations: the routines an optimiser calls in Suggest allocate
// nothing.
func TestAllocations(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 64
	f, g := randomIntervals(rng, n), []*Intervals{randomIntervals(rng, n)}
	h, lipschitz := []float64{0}, []float64{1}
	mean, sd, out := make([]float64, n), make([]float64, n), make([]bool, n)
	s := NewSet(n, []int{0})
	dist := func(i, j int) float64 { return math.Abs(float64(i - j)) }
	posteriors := []Posterior{{Mean: mean, Cov: make([]float64, n*n), NoiseVar: 0.01}}
	allocs := testing.AllocsPerRun(20, func() {
		ExpandersGP(g, posteriors, h, nil, nil, 2, s, out)
		f.Update(mean, sd, 2)
		s.Update(g, h)
		Maximizers(f, s, out)
		Expanders(g, h, lipschitz, dist, s, out)
		Widest(out, g)
		Argmax(mean, s)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per round", allocs)
	}
}

// BenchmarkRound is one round of safe exploration on the SGP-UCB paper's
// decision set of 100 actions with one constraint: intervals of f and g,
// the safe set, maximizers, expanders and the next point.
func BenchmarkRound(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	const n = 100
	points := make([][2]float64, n)
	for i := range points {
		points[i] = [2]float64{rng.Float64(), rng.Float64()}
	}
	dist := func(i, j int) float64 { return math.Hypot(points[i][0]-points[j][0], points[i][1]-points[j][1]) }
	f, g := NewIntervals(n), []*Intervals{NewIntervals(n)}
	h, lipschitz := []float64{0}, []float64{1}
	mean, sd := make([]float64, n), make([]float64, n)
	for i := range n {
		mean[i], sd[i] = rng.NormFloat64(), 0.5
	}
	s := NewSet(n, []int{0, 1, 2})
	m, e := make([]bool, n), make([]bool, n)
	b.ReportAllocs()
	for b.Loop() {
		f.Update(mean, sd, 27)
		g[0].Update(mean, sd, 27)
		s.Update(g, h)
		Maximizers(f, s, m)
		Expanders(g, h, lipschitz, dist, s, e)
		for i := range m {
			m[i] = m[i] || e[i]
		}
		Widest(m, []*Intervals{f, g[0]})
	}
}

// TestExpandersGPAgainstFantasies: the closed-form rule agrees, set for set,
// with conditioning a GP on the observations and the fantasy by brute-force
// linear algebra.
func TestExpandersGPAgainstFantasies(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	se := func(a, b float64) float64 { d := (a - b) / 0.3; return math.Exp(-d * d / 2) }
	const noiseVar, beta = 0.01, 4.0
	// posterior conditions the GP on observations (xs, ys) and returns the
	// mean and variance at x.
	posterior := func(xs, ys []float64, x float64) (float64, float64) {
		m := len(xs)
		k := mat.NewSymDense(m, nil)
		kx := mat.NewVecDense(m, nil)
		for a := range m {
			for b := range m {
				k.SetSym(a, b, se(xs[a], xs[b]))
			}
			k.SetSym(a, a, 1+noiseVar)
			kx.SetVec(a, se(x, xs[a]))
		}
		var chol mat.Cholesky
		if !chol.Factorize(k) {
			t.Fatal("singular Gram matrix")
		}
		var alpha, v mat.VecDense
		if err := chol.SolveVecTo(&alpha, mat.NewVecDense(m, ys)); err != nil {
			t.Fatal(err)
		}
		if err := chol.SolveVecTo(&v, kx); err != nil {
			t.Fatal(err)
		}
		return mat.Dot(kx, &alpha), 1 - mat.Dot(kx, &v)
	}
	var expanders, others int // safe candidates of each kind seen
	for trial := range 50 {
		n, m := 6+rng.IntN(6), 2+rng.IntN(4)
		cand, obsX, obsY := make([]float64, n), make([]float64, m), make([]float64, m)
		for i := range cand {
			cand[i] = rng.Float64()
		}
		for o := range obsX {
			obsX[o], obsY[o] = rng.Float64(), rng.NormFloat64()
		}
		mean, cov := make([]float64, n), make([]float64, n*n)
		for i := range n {
			mean[i], cov[i*n+i] = posterior(obsX, obsY, cand[i])
		}
		for i := range n {
			for j := range n {
				if i != j {
					cov[i*n+j] = crossCovariance(obsX, cand[i], cand[j], se, noiseVar)
				}
			}
		}
		g := NewIntervals(n)
		sd := make([]float64, n)
		for i := range n {
			sd[i] = math.Sqrt(cov[i*n+i])
		}
		g.Update(mean, sd, beta)
		h := []float64{0}
		safe := NewSet(n, []int{0})
		safe.Update([]*Intervals{g}, h)
		got := make([]bool, n)
		ExpandersGP([]*Intervals{g}, []Posterior{{Mean: mean, Cov: cov, NoiseVar: noiseVar}}, h, nil, nil, beta, safe, got)
		for i := range n {
			want := false
			for j := 0; safe.In[i] && j < n && !want; j++ {
				if !safe.In[j] {
					mu, s2 := posterior(append(slices.Clone(obsX), cand[i]), append(slices.Clone(obsY), g.Hi[i]), cand[j])
					want = mu-math.Sqrt(beta*max(s2, 0)) >= h[0]
				}
			}
			if got[i] != want {
				t.Fatalf("trial %d: candidate %d expander %v, the fantasy says %v", trial, i, got[i], want)
			}
			switch {
			case got[i]:
				expanders++
			case safe.In[i]:
				others++
			}
		}
	}
	if expanders == 0 || others == 0 {
		t.Errorf("%d expanders and %d other safe candidates: the trials do not exercise both", expanders, others)
	}
}

// crossCovariance is the posterior covariance of candidates a and b given
// observations at xs: k(a, b) − k(a, X)(K + σ²I)⁻¹k(X, b).
func crossCovariance(xs []float64, a, b float64, k func(x, y float64) float64, noiseVar float64) float64 {
	m := len(xs)
	gram := mat.NewSymDense(m, nil)
	ka, kb := mat.NewVecDense(m, nil), mat.NewVecDense(m, nil)
	for i := range m {
		for j := range m {
			gram.SetSym(i, j, k(xs[i], xs[j]))
		}
		gram.SetSym(i, i, 1+noiseVar)
		ka.SetVec(i, k(a, xs[i]))
		kb.SetVec(i, k(b, xs[i]))
	}
	var chol mat.Cholesky
	chol.Factorize(gram)
	var v mat.VecDense
	_ = chol.SolveVecTo(&v, kb)
	return k(a, b) - mat.Dot(ka, &v)
}

// TestGrid checks the grid's size, order and ends.
func TestGrid(t *testing.T) {
	g := Grid([]int{3, 2})
	want := []float64{0, 0, 0, 1, 0.5, 0, 0.5, 1, 1, 0, 1, 1}
	if len(g) != len(want) {
		t.Fatalf("%d values, want %d", len(g), len(want))
	}
	for i := range want {
		if g[i] != want[i] {
			t.Fatalf("Grid([3 2]) = %v, want %v", g, want)
		}
	}
}

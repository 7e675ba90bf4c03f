package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// additiveKernel is the kernel Components evaluates, computed directly:
// s²·(λ·g(r²) + (1 − λ)/D·Σ_i g(r_i²)).
func additiveKernel(k *Stationary, interaction float64, a, b []float64, ls []float64) float64 {
	d := float64(len(a))
	r2, sum := 0.0, 0.0
	for i := range a {
		diff := (a[i] - b[i]) / ls[min(i, len(ls)-1)]
		g, _ := k.profile(diff * diff)
		r2 += diff * diff
		sum += g
	}
	g, _ := k.profile(r2)
	return k.variance * (interaction*g + (1-interaction)/d*sum)
}

// TestComponentsRows: after Start and after moves of the base along
// several components, Rows agrees with the kernel computed directly for
// every family Components takes, ARD and shared lengthscales, more points
// than a block and more components than one.
func TestComponentsRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for name, family := range componentFamilies {
		for _, tc := range []struct{ dim, n, lengthscales int }{{3, 5, 3}, {70, 150, 70}, {8, 64, 1}} {
			ls := make([]float64, tc.lengthscales)
			for i := range ls {
				ls[i] = 0.2 + rng.Float64()
			}
			points := make([][]float64, tc.n)
			for p := range points {
				points[p] = make([]float64, tc.dim)
				for i := range points[p] {
					points[p][i] = rng.Float64()
				}
			}
			base := make([]float64, tc.dim)
			for i := range base {
				base[i] = rng.Float64()
			}
			const variance, interaction = 1.7, 0.3
			direct := NewStationary(family, variance, []float64{1})
			c := NewComponents(name, tc.dim, tc.n)
			c.Start(variance, interaction, ls, base, tc.n, func(i int) []float64 { return points[i] })
			values := []float64{0, 0.25, 0.5, 1}
			rows, self := make([]float64, len(values)*tc.n), make([]float64, len(values))
			for move := range 4 {
				j := rng.IntN(tc.dim)
				c.Rows(j, values, rows, self)
				worst := 0.0
				for g, v := range values {
					x := append([]float64(nil), base...)
					x[j] = v
					if want := variance; math.Abs(self[g]-want) > 1e-12 {
						t.Errorf("%s: self %v, want %v", name, self[g], want)
					}
					for p := range tc.n {
						want := additiveKernel(direct, interaction, x, points[p], ls)
						worst = max(worst, math.Abs(rows[g*tc.n+p]-want)/want)
					}
				}
				if worst > 1e-12 {
					t.Errorf("%s, %d components, %d points, move %d: rows differ from the kernel by %.3g relative", name, tc.dim, tc.n, move, worst)
				}
				v := rng.Float64()
				c.Move(j, v)
				base[j] = v
			}
		}
	}
}

// TestComponentsAllocations: Start, Move and Rows allocate nothing.
func TestComponentsAllocations(t *testing.T) {
	const dim, n = 20, 100
	points := make([]float64, n*dim)
	for i := range points {
		points[i] = float64(i%17) / 17
	}
	base, values := make([]float64, dim), []float64{0.1, 0.9}
	rows, self := make([]float64, len(values)*n), make([]float64, len(values))
	c := NewComponents("matern52", dim, n)
	point := func(i int) []float64 { return points[i*dim : (i+1)*dim] }
	ls := []float64{0.5}
	if allocs := testing.AllocsPerRun(10, func() {
		c.Start(1, 0.5, ls, base, n, point)
		c.Move(3, 0.4)
		c.Rows(5, values, rows, self)
	}); allocs > 0 {
		t.Errorf("%v allocations", allocs)
	}
}

// BenchmarkComponentsRows is a coordinate sweep's rows of one component
// (64 values) against 400 points in 100 dimensions, beside the same rows
// evaluated point by point with Stationary's profiles (D + 1 per pair).
func BenchmarkComponentsRows(b *testing.B) {
	const dim, n, m = 100, 400, 64
	rng := rand.New(rand.NewPCG(3, 4))
	points := make([]float64, n*dim)
	for i := range points {
		points[i] = rng.Float64()
	}
	base, values := make([]float64, dim), make([]float64, m)
	for i := range base {
		base[i] = rng.Float64()
	}
	for g := range values {
		values[g] = float64(g) / (m - 1)
	}
	ls := []float64{0.5}
	rows, self := make([]float64, m*n), make([]float64, m)
	b.Run("components", func(b *testing.B) {
		c := NewComponents("matern52", dim, n)
		c.Start(1, 0.5, ls, base, n, func(i int) []float64 { return points[i*dim : (i+1)*dim] })
		for b.Loop() {
			c.Rows(7, values, rows, self)
		}
	})
	b.Run("pairs", func(b *testing.B) {
		k := NewStationary(Matern52, 1, []float64{1})
		x := append([]float64(nil), base...)
		for b.Loop() {
			for g, v := range values {
				x[7] = v
				for p := range n {
					rows[g*n+p] = additiveKernel(k, 0.5, x, points[p*dim:(p+1)*dim], ls)
				}
			}
		}
	})
}

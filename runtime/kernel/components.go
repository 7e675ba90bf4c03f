package kernel

import "fmt"

// Components evaluates the kernel a stationary family makes over the
// components one by one (boc's groups = "components", plan/additive.go),
//
//	k(a, b) = s²·(λ·g(r²) + (1 − λ)/D·Σ_i g(r_i²)),  r_i² = (a_i − b_i)²/ℓ_i²,  r² = Σ_i r_i²,
//
// between n points and points that differ from a base point in one
// component only: the rows a coordinate sweep scores (runtime/search). For
// the base it keeps each point's r² and Σ_i g(r_i²), so that the row of a
// point with component j changed costs two profiles per point instead of
// D + 1, and so does moving the base along one component. Its values agree
// with the kernel's to within a few units in the last place (the
// exponentials are runtime/fastexp's, the sums updated in place).
//
// Start and Move change the base and must not run beside anything else;
// Rows only reads, so several goroutines may call it at once. Nothing
// allocates after NewComponents.
type Components struct {
	unit                  Block // the family with variance 1: g
	dim                   int
	variance, interaction float64
	invSquared            []float64 // 1/ℓ_i², dim
	base                  []float64 // dim
	n                     int
	points                []float64 // capacity × dim, row-major
	r2, terms             []float64 // capacity: r² and Σ_i g(r_i²) from the base
}

// componentFamilies are the families Components evaluates: those without a
// shape.
var componentFamilies = map[string]Family{"se": SE, "matern12": Matern12, "matern32": Matern32, "matern52": Matern52}

// ComponentFamily reports whether Components evaluates the family called
// name.
func ComponentFamily(name string) bool {
	_, ok := componentFamilies[name]
	return ok
}

// NewComponents returns the kernel of the family called name over dim
// components, with room for capacity points. It panics on a family
// ComponentFamily refuses, on dim < 1 or capacity < 0, which a checked
// program never passes.
func NewComponents(name string, dim, capacity int) *Components {
	f, ok := componentFamilies[name]
	if !ok || dim < 1 || capacity < 0 {
		panic(fmt.Sprintf("kernel: components of %q over %d components, capacity %d", name, dim, capacity))
	}
	return &Components{unit: Block{Family: f, Variance: 1}, dim: dim, invSquared: make([]float64, dim), base: make([]float64, dim),
		points: make([]float64, capacity*dim), r2: make([]float64, capacity), terms: make([]float64, capacity)}
}

// Start sets the hyperparameters (lengthscales: one shared or one per
// component), the base point and the n points point(0), …, point(n−1),
// and computes every point's terms from the base.
func (c *Components) Start(variance, interaction float64, lengthscales, base []float64, n int, point func(i int) []float64) {
	for i := range c.invSquared {
		l := lengthscales[min(i, len(lengthscales)-1)]
		c.invSquared[i] = 1 / (l * l)
	}
	c.variance, c.interaction, c.n = variance, interaction, n
	copy(c.base, base)
	var r2 [blockChunk]float64
	for p := range n {
		row := c.points[p*c.dim : (p+1)*c.dim]
		copy(row, point(p))
		total, terms := 0.0, 0.0
		for lo := 0; lo < c.dim; lo += blockChunk {
			chunk := r2[:min(blockChunk, c.dim-lo)]
			for i := range chunk {
				d := c.base[lo+i] - row[lo+i]
				chunk[i] = d * d * c.invSquared[lo+i]
				total += chunk[i]
			}
			c.unit.profile(chunk)
			for _, g := range chunk {
				terms += g
			}
		}
		c.r2[p], c.terms[p] = total, terms
	}
}

// Move sets component j of the base point to v and updates every point's
// terms.
func (c *Components) Move(j int, v float64) {
	var before, after [blockChunk]float64
	for lo := 0; lo < c.n; lo += blockChunk {
		m := min(blockChunk, c.n-lo)
		c.componentR2(j, c.base[j], lo, before[:m])
		c.componentR2(j, v, lo, after[:m])
		for p := range m {
			c.r2[lo+p] = max(0, c.r2[lo+p]-before[p]+after[p])
		}
		c.unit.profile(before[:m])
		c.unit.profile(after[:m])
		for p := range m {
			c.terms[lo+p] += after[p] - before[p]
		}
	}
	c.base[j] = v
}

// componentR2 writes r_j² between v (component j of a point) and points
// lo, lo+1, … to out.
func (c *Components) componentR2(j int, v float64, lo int, out []float64) {
	for p := range out {
		d := v - c.points[(lo+p)*c.dim+j]
		out[p] = d * d * c.invSquared[j]
	}
}

// Rows writes to rows[g·n : (g+1)·n] the kernel between the base point
// with component j set to values[g] and the n points, and to self[g] its
// kernel with itself.
func (c *Components) Rows(j int, values, rows, self []float64) {
	var before, after, full, rest [blockChunk]float64
	var zero [1]float64
	c.unit.profile(zero[:])
	for g := range values {
		self[g] = c.variance * zero[0]
	}
	average := (1 - c.interaction) / float64(c.dim)
	n := c.n
	for lo := 0; lo < n; lo += blockChunk {
		m := min(blockChunk, n-lo)
		c.componentR2(j, c.base[j], lo, before[:m])
		for p := range m {
			rest[p] = c.r2[lo+p] - before[p] // r² without component j
		}
		c.unit.profile(before[:m])
		for g, v := range values {
			c.componentR2(j, v, lo, after[:m])
			for p := range m {
				full[p] = max(0, rest[p]+after[p])
			}
			c.unit.profile(after[:m])
			c.unit.profile(full[:m])
			row := rows[g*n+lo : g*n+lo+m]
			for p := range row {
				row[p] = c.variance * (c.interaction*full[p] + average*(c.terms[lo+p]-before[p]+after[p]))
			}
		}
	}
}

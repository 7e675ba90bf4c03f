package kernel

import (
	"fmt"
	"math"
)

// Linear is the dot-product kernel s²·aᵀb + c. θ is (log s²), followed by
// log c when the offset c is positive; a zero offset has no logarithm and
// stays zero.
type Linear struct {
	variance, offset float64
}

// NewLinear returns s²·aᵀb + c with s² = variance > 0 and c = offset >= 0.
// It panics on other values, which a checked program never passes.
func NewLinear(variance, offset float64) *Linear {
	if !(variance > 0) || !(offset >= 0) || math.IsInf(variance, 0) || math.IsInf(offset, 0) {
		panic(fmt.Sprintf("kernel: linear(variance = %v, offset = %v): need variance > 0, offset >= 0", variance, offset))
	}
	return &Linear{variance: variance, offset: offset}
}

// Eval returns s²·aᵀb + c.
func (k *Linear) Eval(a, b []float64) float64 { return k.variance*dot(a, b) + k.offset }

// AddGradX adds w·s²·b to grad and returns k(a, b).
func (k *Linear) AddGradX(a, b []float64, w float64, grad []float64) float64 {
	c := w * k.variance
	b, grad = b[:len(a)], grad[:len(a)]
	for i := range a {
		grad[i] += c * b[i]
	}
	return k.Eval(a, b)
}

// NumParams returns 2 with a positive offset, else 1.
func (k *Linear) NumParams() int {
	if k.offset > 0 {
		return 2
	}
	return 1
}

// Params writes (log s², [log c]) to p.
func (k *Linear) Params(p []float64) {
	p[0] = math.Log(k.variance)
	if k.offset > 0 {
		p[1] = math.Log(k.offset)
	}
}

// SetParams sets s² and, with a positive offset, c from θ.
func (k *Linear) SetParams(p []float64) {
	k.variance = math.Exp(p[0])
	if k.offset > 0 {
		k.offset = math.Exp(p[1])
	}
}

// AddGradParams adds w·(s²·aᵀb, [c]) to grad and returns k(a, b).
func (k *Linear) AddGradParams(a, b []float64, w float64, grad []float64) float64 {
	product := k.variance * dot(a, b)
	grad[0] += w * product
	if k.offset > 0 {
		grad[1] += w * k.offset
	}
	return product + k.offset
}

func dot(a, b []float64) float64 {
	b = b[:len(a)]
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// parts is the list of kernels a sum or product combines, with the offsets
// of their hyperparameters in the combined θ.
type parts struct {
	kernels []Kernel
	offsets []int // offsets[i] is where kernels[i]'s θ starts; the last entry is len(θ)
}

func newParts(op string, kernels []Kernel) parts {
	if len(kernels) == 0 {
		panic(fmt.Sprintf("kernel: %s of no kernels", op))
	}
	p := parts{kernels: append([]Kernel(nil), kernels...), offsets: make([]int, len(kernels)+1)}
	for i, k := range kernels {
		p.offsets[i+1] = p.offsets[i] + k.NumParams()
	}
	return p
}

// param returns kernel i's part of θ.
func (p *parts) param(theta []float64, i int) []float64 {
	return theta[p.offsets[i]:p.offsets[i+1]]
}

// NumParams returns the total number of the parts' hyperparameters.
func (p *parts) NumParams() int { return p.offsets[len(p.kernels)] }

// Params writes the parts' θ, one after the other.
func (p *parts) Params(theta []float64) {
	for i, k := range p.kernels {
		k.Params(p.param(theta, i))
	}
}

// SetParams sets each part from its slice of θ.
func (p *parts) SetParams(theta []float64) {
	for i, k := range p.kernels {
		k.SetParams(p.param(theta, i))
	}
}

// Sum is k_1 + … + k_m; θ concatenates the parts' θ.
type Sum struct{ parts }

// NewSum returns the sum of the kernels (at least one).
func NewSum(kernels ...Kernel) *Sum { return &Sum{newParts("sum", kernels)} }

// Eval returns Σ_i k_i(a, b).
func (s *Sum) Eval(a, b []float64) float64 {
	v := 0.0
	for _, k := range s.kernels {
		v += k.Eval(a, b)
	}
	return v
}

// AddGradX adds each part's weighted gradient and returns the sum.
func (s *Sum) AddGradX(a, b []float64, w float64, grad []float64) float64 {
	v := 0.0
	for _, k := range s.kernels {
		v += k.AddGradX(a, b, w, grad)
	}
	return v
}

// AddGradParams adds each part's weighted gradient to its slice of grad and
// returns the sum.
func (s *Sum) AddGradParams(a, b []float64, w float64, grad []float64) float64 {
	v := 0.0
	for i, k := range s.kernels {
		v += k.AddGradParams(a, b, w, s.param(grad, i))
	}
	return v
}

// Product is k_1·…·k_m; θ concatenates the parts' θ.
type Product struct{ parts }

// NewProduct returns the product of the kernels (at least one).
func NewProduct(kernels ...Kernel) *Product { return &Product{newParts("product", kernels)} }

// Eval returns Π_i k_i(a, b).
func (p *Product) Eval(a, b []float64) float64 {
	v := 1.0
	for _, k := range p.kernels {
		v *= k.Eval(a, b)
	}
	return v
}

// others returns Π_{j≠i} k_j(a, b). Recomputing it per part costs O(m²)
// evaluations for m parts, which is cheap for the few parts a product has
// and, unlike dividing the product by k_i, exact when a part is zero.
func (p *Product) others(a, b []float64, i int) float64 {
	v := 1.0
	for j, k := range p.kernels {
		if j != i {
			v *= k.Eval(a, b)
		}
	}
	return v
}

// AddGradX adds w·Σ_i (Π_{j≠i} k_j)·∂k_i/∂a to grad and returns the product.
func (p *Product) AddGradX(a, b []float64, w float64, grad []float64) float64 {
	v := 1.0
	for i, k := range p.kernels {
		v *= k.AddGradX(a, b, w*p.others(a, b, i), grad)
	}
	return v
}

// AddGradParams adds w·(Π_{j≠i} k_j)·∂k_i/∂θ_i to each part's slice of grad
// and returns the product.
func (p *Product) AddGradParams(a, b []float64, w float64, grad []float64) float64 {
	v := 1.0
	for i, k := range p.kernels {
		v *= k.AddGradParams(a, b, w*p.others(a, b, i), p.param(grad, i))
	}
	return v
}

// Scaled is c·k for a fixed constant c > 0; θ is k's θ.
type Scaled struct {
	factor float64
	kernel Kernel
}

// NewScaled returns factor·k. It panics unless factor is positive and
// finite, which a checked program guarantees.
func NewScaled(factor float64, k Kernel) *Scaled {
	if !(factor > 0) || math.IsInf(factor, 0) {
		panic(fmt.Sprintf("kernel: scale factor %v is not a positive number", factor))
	}
	return &Scaled{factor: factor, kernel: k}
}

// Eval returns c·k(a, b).
func (s *Scaled) Eval(a, b []float64) float64 { return s.factor * s.kernel.Eval(a, b) }

// AddGradX adds w·c·∂k/∂a to grad and returns c·k(a, b).
func (s *Scaled) AddGradX(a, b []float64, w float64, grad []float64) float64 {
	return s.factor * s.kernel.AddGradX(a, b, w*s.factor, grad)
}

// NumParams returns k's number of hyperparameters.
func (s *Scaled) NumParams() int { return s.kernel.NumParams() }

// Params writes k's θ.
func (s *Scaled) Params(p []float64) { s.kernel.Params(p) }

// SetParams sets k's θ.
func (s *Scaled) SetParams(p []float64) { s.kernel.SetParams(p) }

// AddGradParams adds w·c·∂k/∂θ to grad and returns c·k(a, b).
func (s *Scaled) AddGradParams(a, b []float64, w float64, grad []float64) float64 {
	return s.factor * s.kernel.AddGradParams(a, b, w*s.factor, grad)
}

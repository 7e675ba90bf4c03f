package plan

import (
	"fmt"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/runtime/design"
	"github.com/bocdev/boc/runtime/search"
	"github.com/bocdev/boc/stdlib/registry"
)

// maxMemory is the largest memory estimate a plan accepts: beyond it the
// optimiser would not fit on the machines boc is used on, and a budget
// written with a few zeros too many should be an error here, not a crash of
// the emitted program.
const maxMemory = 8 << 30

// limits reports plans the runtime cannot run: a refit draws its starts
// from a Sobol sequence over the learned values, and each draw of the input
// noise from one over its base uniforms; both have at most
// design.MaxSobolDim dimensions.
func (b *builder) limits() {
	p := b.o.Program
	if n := b.o.NumFit(); n > design.MaxSobolDim && p.Model != nil {
		span := p.Model.Span
		if !span.Start.IsValid() && len(p.Dims) > 0 {
			span = p.Dims[0].Span // the default model learns a lengthscale per component
		}
		b.report(dsl.Errorf(span, "the model learns %d values; this version of boc fits at most %d", n, design.MaxSobolDim).
			WithHint("give the lengthscale a fixed value, e.g. kernel = matern52(lengthscale = 0.2): learn fits one per component"))
	}
	if d := b.o.Draws; d != nil && d.BaseLen > design.MaxSobolDim {
		b.report(dsl.Errorf(p.InputNoise[0].Span, "one draw of the input noise takes %d base uniforms; this version of boc supports up to %d", d.BaseLen, design.MaxSobolDim))
	}
	b.o.Memory = b.memory()
	if b.o.Memory > maxMemory {
		if search := b.searchMemory(); search > maxMemory/2 {
			b.report(dsl.Errorf(p.Search.Span, "search %s makes the optimiser hold about %s; this version of boc allows up to %s", name(p.Search), bytes(b.o.Memory), bytes(maxMemory)).
				WithHint("its raw candidates and restarts are held at once: lower raw or restarts"))
		} else {
			hint := "the model's matrices grow with the square of the budget; lower the budget, fix hyperparameters (each learned value adds a budget² matrix), or make the model local: model gp(approx = \"local\")"
			if b.o.Local > 0 {
				hint = "the optimiser keeps every observation: lower the budget"
			}
			b.report(dsl.Errorf(p.BudgetSpan, "budget %d makes the optimiser hold about %s; this version of boc allows up to %s", p.Budget, bytes(b.o.Memory), bytes(maxMemory)).
				WithHint("%s", hint))
		}
	}
}

// memory estimates the optimiser's arrays: the GP's kernel matrix and its
// factor, the refit's matrices (one per learned value and a few
// workspaces), all of the model's size squared (ModelSize: the budget, or
// a local model's subset); per observation its point, unit coordinates
// and a few vectors of D values, a local model's archive of them too, for a model over input
// distributions two representations (the current and the refit's), for
// sweeps by component the kernel terms' copy of the points, and for
// an acquisition over latent draws two more budget² matrices and the draws.
// It is computed in float64, since a budget of 10⁹ overflows an int64 count.
func (b *builder) memory() float64 {
	n, d := float64(b.o.Program.Budget), float64(b.o.Program.D)
	m := float64(b.o.ModelSize())
	square := 2 + float64(b.o.NumFit())
	if b.o.NumFit() > 0 {
		square += 3
	}
	perPoint := 4*d + 8
	if s := float64(b.o.Acquisition.LatentDraws); s > 0 {
		square += 2   // the evaluated points' posterior covariance and its workspace
		perPoint += s // the draws, solved
	}
	if in := b.o.Model.Inputs; in != nil {
		rep := float64(in.Samples)*d + float64(in.Landmarks)
		if in.Rep == registry.MomentRep {
			rep = d + d*d
		}
		perPoint += 2 * rep
	}
	if b.o.Local > 0 {
		perPoint += d + 5 // runtime/subset's archive and selection
	}
	if b.o.SweptByComponent() {
		perPoint += d + 2 // runtime/kernel.Components' points and terms
	}
	perModelPoint := 0.0
	if b.o.BatchedSearch() {
		perModelPoint = search.BatchSize * registry.EstimatedSearchWorkers // each worker's kernel vectors of a batch
	}
	return 8*(m*m*square+n*perPoint+m*perModelPoint) + b.safetyMemory() + b.searchMemory()
}

// searchMemory is what the acquisition search's plugin says it holds.
func (b *builder) searchMemory() float64 {
	p := b.o.Program
	if p.Search == nil {
		return 0
	}
	h, ok := hooks[registry.SearchEmit](b, p.Search)
	if !ok {
		return 0
	}
	return h(&registry.SearchGen{Args: registry.Args{Call: p.Search}, D: p.D}).Memory
}

// safetyMemory estimates the arrays of a safe acquisition's explorer: per
// constraint its Gaussian process (two triangles) and fitter (three
// budget² matrices and one per learned value), L⁻¹k at every point and, for
// GP-optimistic expanders, the posterior covariance over the points; with
// landing constraints, the landing points and each one's covariances with
// every observed aim (at every landing point for a chance constraint).
func (b *builder) safetyMemory() float64 {
	s := b.o.Safety
	if s == nil {
		return 0
	}
	n, m := float64(b.o.Program.Budget), float64(s.Points)
	total := m * float64(b.o.Program.D) // the points
	for _, c := range s.Constraints {
		square := 4.0
		for _, l := range c.Learned {
			if l {
				square++
			}
		}
		total += n*n*square + n*(m+4)
		if s.expandsByCovariance() {
			total += m * m
		}
		if l := c.Constraint.Landing; l.OffAim() {
			width := m
			if l.Mode == "chance" {
				width = m * float64(s.LandingDraws)
				total += 2 * width // the intervals at the landing points
			}
			total += n*width + 3*m*float64(s.LandingDraws)
		}
	}
	total += m * float64(s.LandingDraws*b.o.Program.D) // the landing points
	return 8 * total
}

// bytes renders a size in binary units: 12 GiB, 3.5 MiB.
func bytes(x float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	u := 0
	for x >= 1024 && u < len(units)-1 {
		x, u = x/1024, u+1
	}
	return fmt.Sprintf("%.3g %s", x, units[u])
}

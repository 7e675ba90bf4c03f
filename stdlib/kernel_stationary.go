package stdlib

import (
	"fmt"

	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// Kernels are emitted as straight-line code with their derivatives (MATH.md
// §3). A stationary kernel is s²·f(r²) with r² = Σ_i d_i², d_i = (a_i − b_i)/ℓ_i,
// so with the slope f' = df/dr² every derivative follows from the chain rule:
//
//	∂k/∂a_i     = 2 s² f' d_i / ℓ_i
//	∂k/∂log ℓ_i = −2 s² f' d_i²      (summed over i for one shared ℓ)
//	∂k/∂log s²  = k
//
// and each profile adds the derivatives in its own hyperparameters.

// lengthscale and variance are the hyperparameters every stationary kernel has.
// Inputs are scaled to the unit box before the kernel sees them, so lengthscales
// are fractions of each dimension's range.
var (
	lengthscale = registry.Param{Name: "lengthscale", Type: registry.RealOrVecParam, Default: registry.Learn(), Range: positive, Learnable: true,
		LearnBounds: [2]float64{0.01, 10},
		Doc:         "length scale as a fraction of each dimension's range; a vec[d] gives one per component (ARD); learn fits one per component"}
	variance = registry.Param{Name: "variance", Type: registry.RealParam, Default: registry.Learn(), Range: positive, Learnable: true,
		LearnBounds: [2]float64{0.05, 20},
		Doc:         "signal variance s² (outputs are standardised, so 1 is the natural scale)"}
)

// stationaryKernel is the plugin of the stationary kernel s²·f(r²) called
// name, with lengthscale, variance and the profile's extra parameters.
func stationaryKernel(name, doc string, emit registry.KernelDiffEmit, extra ...registry.Param) *registry.Plugin {
	return &registry.Plugin{Kind: registry.Kernel, Name: name, Doc: doc,
		Params: append([]registry.Param{lengthscale, variance}, extra...), Emit: emit, Family: name, Block: stationaryBlock}
}

// runtimeKernel is the import path of the runtime's generic kernels.
const runtimeKernel = "github.com/bocdev/boc/runtime/kernel"

// blockFamilies name runtime/kernel's Family constant of each stationary
// kernel.
var blockFamilies = map[string]string{"se": "SE", "matern12": "Matern12", "matern32": "Matern32", "matern52": "Matern52", "rq": "RQ", "rqmix": "RQMix"}

// stationaryBlock emits the kernel as a runtime/kernel.Block: its family,
// s², 1/ℓ_i² per component, rq's shape or rqmix's per-term 1/ℓ_a² unless
// they are all 1, and the categorical components' levels.
func stationaryBlock(g *registry.KernelGen) jen.Code {
	name := pluginName(g.Call)
	invSquared := func(param string, n int) []jen.Code {
		values := make([]jen.Code, n)
		for i := range values {
			if h := g.Hyper(param, i); h.Fixed {
				values[i] = jen.Lit(1 / (h.Value * h.Value))
			} else {
				values[i] = jen.Lit(1.0).Op("/").Parens(jen.Add(h.Code).Op("*").Add(h.Code))
			}
		}
		return values
	}
	fields := jen.Dict{
		jen.Id("Family"):     jen.Qual(runtimeKernel, blockFamilies[name]),
		jen.Id("Variance"):   g.Hyper(variance.Name, 0).Code,
		jen.Id("InvSquared"): jen.Index().Float64().Values(invSquared(lengthscale.Name, g.D)...),
	}
	if g.Call.Arg("alpha") != nil {
		fields[jen.Id("Alpha")] = g.Hyper("alpha", 0).Code
	}
	if g.Levels != nil {
		levels := make([]jen.Code, len(g.Levels))
		for i, l := range g.Levels {
			levels[i] = jen.Lit(float64(l))
		}
		fields[jen.Id("Levels")] = jen.Index().Float64().Values(levels...)
	}
	if g.Call.Arg(termLengthscale) != nil {
		for t := range rqMixShapes {
			if h := g.Hyper(termLengthscale, t); !(h.Fixed && h.Value == 1) {
				fields[jen.Id("TermInvSquared")] = jen.Index().Float64().Values(invSquared(termLengthscale, len(rqMixShapes))...)
				break
			}
		}
	}
	return jen.Qual(runtimeKernel, "Block").Values(fields)
}

// profile is the code of a stationary kernel's shape f(r²), for s² = 1.
type profile struct {
	stmts []jen.Code
	value jen.Code // f(r²)
	// slope is df/dr², emitted only when derivatives are wanted.
	slope jen.Code
	// own holds ∂f/∂log θ for the profile's own learned hyperparameters.
	own []hyperTerm
}

// hyperTerm is one term of the derivative in learned hyperparameter index.
type hyperTerm struct {
	index int
	term  jen.Code
}

// shape emits a profile over the local r2 holding r²; its slope only when
// slope is set (otherwise locals only the slope uses would go unused).
type shape func(g *registry.KernelGen, r2 string, slope bool) profile

// stationaryEmit emits s²·f(r²), unrolled over the input dimension; fixed
// inverse lengthscales are folded into literals.
func stationaryEmit(sh shape) registry.KernelDiffEmit {
	return func(g *registry.KernelGen) registry.KernelCode {
		signal := g.Hyper(variance.Name, 0)
		ls := make([]registry.Hyper, g.D)
		diffs := make([]string, g.D)
		stmts := make([]jen.Code, 0, g.D+6)
		var sum *jen.Statement
		for i := range ls {
			ls[i] = g.Hyper(lengthscale.Name, i)
			d := g.Fresh(fmt.Sprintf("d%d", i))
			diffs[i] = d
			diff := jen.Parens(jen.Id(g.A).Index(jen.Lit(i)).Op("-").Id(g.B).Index(jen.Lit(i)))
			if g.Categorical(i) {
				diff = jen.Qual(runtimeKernel, "LevelDistance").Call(jen.Id(g.A).Index(jen.Lit(i)), jen.Id(g.B).Index(jen.Lit(i)), jen.Lit(g.Levels[i]))
			}
			if ls[i].Fixed {
				diff = diff.Op("*").Lit(1 / ls[i].Value)
			} else {
				diff = diff.Op("/").Add(ls[i].Code)
			}
			stmts = append(stmts, jen.Id(d).Op(":=").Add(diff))
			square := jen.Id(d).Op("*").Id(d)
			if sum == nil {
				sum = square
			} else {
				sum = sum.Op("+").Add(square)
			}
		}
		r2 := g.Fresh("r2")
		stmts = append(stmts, jen.Id(r2).Op(":=").Add(sum))
		needSlope := g.Grad == registry.GradInput
		for _, l := range ls {
			needSlope = needSlope || (g.Grad == registry.GradHyper && !l.Fixed)
		}
		p := sh(g, r2, needSlope)
		stmts = append(stmts, p.stmts...)
		if g.Grad == registry.NoGrad {
			return registry.KernelCode{Stmts: stmts, Value: times(signal, p.value)}
		}
		k, dk := g.Fresh("k"), g.Fresh("dk")
		stmts = append(stmts, jen.Id(k).Op(":=").Add(times(signal, p.value)))
		if needSlope {
			stmts = append(stmts, jen.Id(dk).Op(":=").Add(times(signal, p.slope)))
		}
		grad := make([]jen.Code, g.GradLen())
		if g.Grad == registry.GradInput {
			for i, l := range ls {
				if g.Categorical(i) {
					continue // the kernel is flat along a categorical component
				}
				if l.Fixed {
					grad[i] = jen.Lit(2 / l.Value).Op("*").Id(dk).Op("*").Id(diffs[i])
				} else {
					grad[i] = jen.Lit(2.0).Op("*").Id(dk).Op("*").Id(diffs[i]).Op("/").Add(l.Code)
				}
			}
			return registry.KernelCode{Stmts: stmts, Value: jen.Id(k), Grad: grad}
		}
		if !signal.Fixed {
			accumulate(grad, signal.Index, jen.Id(k))
		}
		for i, l := range ls {
			if !l.Fixed {
				accumulate(grad, l.Index, jen.Lit(-2.0).Op("*").Id(dk).Op("*").Id(diffs[i]).Op("*").Id(diffs[i]))
			}
		}
		for _, t := range p.own {
			accumulate(grad, t.index, times(signal, t.term))
		}
		return registry.KernelCode{Stmts: stmts, Value: jen.Id(k), Grad: grad}
	}
}

// times is h·x, leaving out a fixed factor of 1.
func times(h registry.Hyper, x jen.Code) jen.Code {
	if h.Fixed && h.Value == 1 {
		return x
	}
	return jen.Add(h.Code).Op("*").Add(x)
}

// accumulate adds term to grad[j].
func accumulate(grad []jen.Code, j int, term jen.Code) {
	if grad[j] == nil {
		grad[j] = term
		return
	}
	grad[j] = jen.Add(grad[j]).Op("+").Add(term)
}

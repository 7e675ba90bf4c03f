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
	interaction = registry.Param{Name: "interaction", Type: registry.RealParam, Default: registry.Real(1), Range: &registry.Range{Lo: 0, Hi: 1}, Learnable: true,
		LearnBounds: [2]float64{0.05, 1},
		Doc:         "over a domain with choices, the weight λ of the kernel over numbers and choices together; 1 − λ goes to the average of the kernel over the numbers and the one over the choices (CoCaBO's mixture; 1: every choice changes the whole surface, 0: choices shift it)"}
)

// stationaryKernel is the plugin of the stationary kernel s²·f(r²) called
// name, with lengthscale, variance and the profile's extra parameters.
func stationaryKernel(name, doc string, emit registry.KernelDiffEmit, extra ...registry.Param) *registry.Plugin {
	return &registry.Plugin{Kind: registry.Kernel, Name: name, Doc: doc,
		Params: append([]registry.Param{lengthscale, variance, interaction}, extra...), Emit: emit, Family: name, Block: stationaryBlock}
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
	// rate is c where f(r²) = exp(c·r²) (se), whose value at a sum of
	// squared distances is the product of its values at each; 0 otherwise.
	rate float64
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
// inverse lengthscales are folded into literals. Over a domain with
// categorical components whose interaction λ is not 1, the kernel is
// CoCaBO's mixture s²·(λ·f(r²) + (1−λ)/2·(f(r²_x) + f(r²_c))), r²_x summing
// the numeric components and r²_c the categorical ones (mixedEmit).
func stationaryEmit(sh shape) registry.KernelDiffEmit {
	return func(g *registry.KernelGen) registry.KernelCode {
		signal := g.Hyper(variance.Name, 0)
		ls := make([]registry.Hyper, g.D)
		diffs := make([]string, g.D)
		stmts := make([]jen.Code, 0, g.D+6)
		var sums [2]*jen.Statement // Σ d_i² over the numeric components, then the categorical ones
		for i := range ls {
			ls[i] = g.Hyper(lengthscale.Name, i)
			d := g.Fresh(fmt.Sprintf("d%d", i))
			diffs[i] = d
			diff := jen.Parens(jen.Id(g.A).Index(jen.Lit(i)).Op("-").Id(g.B).Index(jen.Lit(i)))
			part := 0
			if g.Categorical(i) {
				diff = jen.Qual(runtimeKernel, "LevelDistance").Call(jen.Id(g.A).Index(jen.Lit(i)), jen.Id(g.B).Index(jen.Lit(i)), jen.Lit(g.Levels[i]))
				part = 1
			}
			if ls[i].Fixed {
				diff = diff.Op("*").Lit(1 / ls[i].Value)
			} else {
				diff = diff.Op("/").Add(ls[i].Code)
			}
			stmts = append(stmts, jen.Id(d).Op(":=").Add(diff))
			square := jen.Id(d).Op("*").Id(d)
			if sums[part] == nil {
				sums[part] = square
			} else {
				sums[part] = sums[part].Op("+").Add(square)
			}
		}
		var slopes [2]bool // whether a derivative needs the slope along each part
		for i, l := range ls {
			if g.Categorical(i) {
				slopes[1] = slopes[1] || (g.Grad == registry.GradHyper && !l.Fixed)
			} else {
				slopes[0] = slopes[0] || g.Grad == registry.GradInput || (g.Grad == registry.GradHyper && !l.Fixed)
			}
		}
		needSlope := slopes[0] || slopes[1]
		if g.Levels != nil {
			if mix := g.Hyper(interaction.Name, 0); !(mix.Fixed && mix.Value == 1) {
				return mixedEmit(g, sh, mixed{stmts: stmts, signal: signal, mix: mix, ls: ls, diffs: diffs, sums: sums}, slopes)
			}
		}
		sum := sums[0]
		if sum == nil {
			sum = sums[1]
		} else if sums[1] != nil {
			sum = sum.Op("+").Add(sums[1])
		}
		r2 := g.Fresh("r2")
		stmts = append(stmts, jen.Id(r2).Op(":=").Add(sum))
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
		code := registry.KernelCode{Stmts: stmts, Value: jen.Id(k), Grad: make([]jen.Code, g.GradLen())}
		lengthscaleGrad(g, &code, ls, diffs, [2]string{dk, dk})
		if g.Grad == registry.GradHyper {
			if !signal.Fixed {
				accumulate(code.Grad, signal.Index, jen.Id(k))
			}
			for _, t := range p.own {
				accumulate(code.Grad, t.index, times(signal, t.term))
			}
		}
		return code
	}
}

// lengthscaleGrad adds the derivatives through the scaled differences d_i
// to code.Grad: in the inputs (none along a categorical component, where the
// kernel is flat) or in the learned lengthscales, with slopes[0] the
// kernel's s²·df/dr² along the numeric components and slopes[1] along the
// categorical ones.
func lengthscaleGrad(g *registry.KernelGen, code *registry.KernelCode, ls []registry.Hyper, diffs []string, slopes [2]string) {
	for i, l := range ls {
		dk := slopes[0]
		if g.Categorical(i) {
			dk = slopes[1]
		}
		switch {
		case g.Grad == registry.GradInput && g.Categorical(i):
		case g.Grad == registry.GradInput && l.Fixed:
			code.Grad[i] = jen.Lit(2 / l.Value).Op("*").Id(dk).Op("*").Id(diffs[i])
		case g.Grad == registry.GradInput:
			code.Grad[i] = jen.Lit(2.0).Op("*").Id(dk).Op("*").Id(diffs[i]).Op("/").Add(l.Code)
		case g.Grad == registry.GradHyper && !l.Fixed:
			accumulate(code.Grad, l.Index, jen.Lit(-2.0).Op("*").Id(dk).Op("*").Id(diffs[i]).Op("*").Id(diffs[i]))
		}
	}
}

// mixed is what stationaryEmit hands mixedEmit: the statements so far, the
// signal variance, the interaction λ, the lengthscales and the locals of the
// scaled differences, and the sums of their squares by part.
type mixed struct {
	stmts       []jen.Code
	signal, mix registry.Hyper
	ls          []registry.Hyper
	diffs       []string
	sums        [2]*jen.Statement
}

// mixedEmit emits s²·(λ·f(r²) + (1−λ)/2·(f(r²_x) + f(r²_c))): the profile at
// the joint distance and at each part's, weighed. With λ = 1 it is the
// product of a numeric and an overlap kernel for the se family (the joint
// kernel for the others), with λ = 0 their average; every weighing is a
// positive combination of kernels, so positive definite. ∂k/∂log λ =
// λ·s²·(f(r²) − (f(r²_x) + f(r²_c))/2).
func mixedEmit(g *registry.KernelGen, sh shape, m mixed, slopes [2]bool) registry.KernelCode {
	stmts := m.stmts
	radius := func(name string, sum *jen.Statement) string {
		r2 := g.Fresh(name)
		if sum == nil {
			sum = jen.Lit(0.0)
		}
		stmts = append(stmts, jen.Id(r2).Op(":=").Add(sum))
		return r2
	}
	needSlope := slopes[0] || slopes[1]
	r2x, r2c := radius("r2x", m.sums[0]), radius("r2c", m.sums[1])
	var profiles [3]profile // at r², r²_x, r²_c
	profiles[1], profiles[2] = sh(g, r2x, slopes[0]), sh(g, r2c, slopes[1])
	stmts = append(append(stmts, profiles[1].stmts...), profiles[2].stmts...)
	switch rate := profiles[1].rate; {
	case m.mix.Fixed && m.mix.Value == 0: // the sum has no joint term
	case rate != 0: // f(r²_x + r²_c) = f(r²_x)·f(r²_c)
		e := g.Fresh("e")
		stmts = append(stmts, jen.Id(e).Op(":=").Add(profiles[1].value).Op("*").Add(profiles[2].value))
		profiles[0] = profile{value: jen.Id(e), slope: jen.Lit(rate).Op("*").Id(e)}
	default:
		profiles[0] = sh(g, radius("r2", jen.Id(r2x).Op("+").Id(r2c)), needSlope)
		stmts = append(stmts, profiles[0].stmts...)
	}
	weigh := func(joint, numeric, categorical jen.Code) jen.Code {
		var parts jen.Code
		switch {
		case numeric != nil && categorical != nil:
			parts = jen.Parens(jen.Add(numeric).Op("+").Add(categorical))
		case numeric != nil:
			parts = numeric
		default:
			parts = categorical
		}
		if m.mix.Fixed && m.mix.Value == 0 {
			return jen.Lit(0.5).Op("*").Add(parts)
		}
		if m.mix.Fixed {
			return jen.Lit(m.mix.Value).Op("*").Add(joint).Op("+").Lit((1 - m.mix.Value) / 2).Op("*").Add(parts)
		}
		return jen.Add(m.mix.Code).Op("*").Add(joint).Op("+").Parens(jen.Lit(1.0).Op("-").Add(m.mix.Code)).Op("*").Lit(0.5).Op("*").Add(parts)
	}
	value := jen.Parens(weigh(profiles[0].value, profiles[1].value, profiles[2].value))
	if g.Grad == registry.NoGrad {
		return registry.KernelCode{Stmts: stmts, Value: times(m.signal, value)}
	}
	k := g.Fresh("k")
	stmts = append(stmts, jen.Id(k).Op(":=").Add(times(m.signal, value)))
	names := [2]string{g.Fresh("dkx"), g.Fresh("dkc")}
	if slopes[0] {
		stmts = append(stmts, jen.Id(names[0]).Op(":=").Add(times(m.signal, jen.Parens(weigh(profiles[0].slope, profiles[1].slope, nil)))))
	}
	if slopes[1] {
		stmts = append(stmts, jen.Id(names[1]).Op(":=").Add(times(m.signal, jen.Parens(weigh(profiles[0].slope, nil, profiles[2].slope)))))
	}
	code := registry.KernelCode{Stmts: stmts, Value: jen.Id(k), Grad: make([]jen.Code, g.GradLen())}
	lengthscaleGrad(g, &code, m.ls, m.diffs, names)
	if g.Grad != registry.GradHyper {
		return code
	}
	if !m.signal.Fixed {
		accumulate(code.Grad, m.signal.Index, jen.Id(k))
	}
	if !m.mix.Fixed {
		accumulate(code.Grad, m.mix.Index, times(m.signal, jen.Add(m.mix.Code).Op("*").Parens(
			jen.Add(profiles[0].value).Op("-").Lit(0.5).Op("*").Parens(jen.Add(profiles[1].value).Op("+").Add(profiles[2].value)))))
	}
	weights := [3]jen.Code{m.mix.Code, jen.Lit(0.5).Op("*").Parens(jen.Lit(1.0).Op("-").Add(m.mix.Code))}
	if m.mix.Fixed {
		weights = [3]jen.Code{jen.Lit(m.mix.Value), jen.Lit((1 - m.mix.Value) / 2)}
	}
	weights[2] = weights[1]
	for j, p := range profiles {
		for _, t := range p.own {
			accumulate(code.Grad, t.index, times(m.signal, jen.Add(weights[j]).Op("*").Add(t.term)))
		}
	}
	return code
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

package stdlib

import (
	"fmt"
	"slices"

	"github.com/bocdev/boc/dsl"
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
		Doc: "the weight λ of the kernel over all components together; 1 − λ goes to the average of the kernels over the groups " +
			"(with groups \"kinds\", over a domain with choices, CoCaBO's mixture: 1, every choice changes the whole surface, 0, choices shift it; " +
			"with groups \"components\", 0 is an additive kernel)"}
	groups = registry.Param{Name: "groups", Type: registry.StringParam, Default: registry.String(registry.GroupsKinds),
		Doc: "the groups of components interaction averages the kernel over: \"kinds\", the numbers and the choices; " +
			"\"components\", each component alone (an additive kernel, for many dimensions that act separately; interaction then defaults to learn)"}
)

// groupChoices lists groups' values in the order messages name them.
var groupChoices = []string{registry.GroupsKinds, registry.GroupsComponents}

// checkGroups reports a groups value that is not one of groupChoices.
func checkGroups(ctx *registry.CheckContext) {
	if a, v := constArg(ctx.Call, groups.Name); v != nil && v.Type.Kind == dsl.String && !slices.Contains(groupChoices, v.Text) {
		ctx.Report(unknownChoice(a, v, "groups", groupChoices))
	}
}

// stationaryKernel is the plugin of the stationary kernel s²·f(r²) called
// name, with lengthscale, variance and the profile's extra parameters.
func stationaryKernel(name, doc string, emit registry.KernelDiffEmit, extra ...registry.Param) *registry.Plugin {
	return &registry.Plugin{Kind: registry.Kernel, Name: name, Doc: doc,
		Params: append([]registry.Param{lengthscale, variance, interaction, groups}, extra...), Emit: emit, Family: name, Block: stationaryBlock,
		Check: checkGroups}
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
// inverse lengthscales are folded into literals. Where its interaction λ is
// not 1 and it has groups to average over (the numbers and the choices of a
// domain with both, or every component with groups "components"), the
// kernel is s²·(λ·f(r²) + (1−λ)/P·Σ_p f(r²_p)) over its P groups, r²_p
// summing group p's components (mixedEmit): CoCaBO's mixture, or an
// additive kernel plus a joint one.
func stationaryEmit(sh shape) registry.KernelDiffEmit {
	return func(g *registry.KernelGen) registry.KernelCode {
		signal := g.Hyper(variance.Name, 0)
		// Programs the checker fills in have groups; kernels built by hand
		// (tests) may leave it out, for the default.
		byComponent := g.Call.Arg(groups.Name) != nil && g.Choice(groups.Name, groupChoices...) == registry.GroupsComponents
		ls := make([]registry.Hyper, g.D)
		diffs := make([]string, g.D)
		stmts := make([]jen.Code, 0, g.D+6)
		var kinds [2]*jen.Statement // Σ d_i² over the numeric components, then the categorical ones
		squares := make([]jen.Code, g.D)
		for i := range ls {
			ls[i] = g.Hyper(lengthscale.Name, i)
			d := g.Fresh(fmt.Sprintf("d%d", i))
			diffs[i] = d
			diff := jen.Parens(jen.Id(g.A).Index(jen.Lit(i)).Op("-").Id(g.B).Index(jen.Lit(i)))
			kind := 0
			if g.Categorical(i) {
				diff = jen.Qual(runtimeKernel, "LevelDistance").Call(jen.Id(g.A).Index(jen.Lit(i)), jen.Id(g.B).Index(jen.Lit(i)), jen.Lit(g.Levels[i]))
				kind = 1
			}
			if ls[i].Fixed {
				diff = diff.Op("*").Lit(1 / ls[i].Value)
			} else {
				diff = diff.Op("/").Add(ls[i].Code)
			}
			stmts = append(stmts, jen.Id(d).Op(":=").Add(diff))
			squares[i] = jen.Id(d).Op("*").Id(d)
			if kinds[kind] == nil {
				kinds[kind] = jen.Add(squares[i])
			} else {
				kinds[kind] = kinds[kind].Op("+").Add(squares[i])
			}
		}
		// needsSlope says whether a derivative needs the slope along component i.
		needsSlope := func(i int) bool {
			learned := g.Grad == registry.GradHyper && !ls[i].Fixed
			return learned || (g.Grad == registry.GradInput && !g.Categorical(i))
		}
		mix := registry.Hyper{Fixed: true, Value: 1} // the joint kernel alone: no groups to average
		if g.Levels != nil || byComponent {
			mix = g.Hyper(interaction.Name, 0)
		}
		if !(mix.Fixed && mix.Value == 1) {
			m := mixed{stmts: stmts, signal: signal, mix: mix, ls: ls, diffs: diffs, group: make([]int, g.D), byComponent: byComponent}
			if byComponent {
				for i := range g.D {
					m.sums = append(m.sums, jen.Add(squares[i]))
					m.group[i] = i
				}
			} else {
				m.sums = kinds[:]
				for i := range g.D {
					if g.Categorical(i) {
						m.group[i] = 1
					}
				}
			}
			slopes := make([]bool, len(m.sums))
			for i, p := range m.group {
				slopes[p] = slopes[p] || needsSlope(i)
			}
			return mixedEmit(g, sh, m, slopes)
		}
		needSlope := false
		for i := range ls {
			needSlope = needSlope || needsSlope(i)
		}
		joint := kinds[0]
		if joint == nil {
			joint = kinds[1]
		} else if kinds[1] != nil {
			joint = joint.Op("+").Add(kinds[1])
		}
		r2 := g.Fresh("r2")
		stmts = append(stmts, jen.Id(r2).Op(":=").Add(joint))
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
		lengthscaleGrad(g, &code, ls, diffs, func(int) string { return dk })
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
// kernel is flat) or in the learned lengthscales, with slope(i) the local
// holding the kernel's s²·df/dr² along component i.
func lengthscaleGrad(g *registry.KernelGen, code *registry.KernelCode, ls []registry.Hyper, diffs []string, slope func(i int) string) {
	for i, l := range ls {
		dk := slope(i)
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
// scaled differences, Σ d_i² over each group (sums; nil for an empty
// group), each component's group, and whether the groups are the components
// (else the numbers and the choices).
type mixed struct {
	stmts       []jen.Code
	signal, mix registry.Hyper
	ls          []registry.Hyper
	diffs       []string
	sums        []*jen.Statement
	group       []int
	byComponent bool
}

// mixedEmit emits s²·(λ·f(r²) + (1−λ)/P·Σ_p f(r²_p)): the profile at the
// joint distance and at each group's, weighed; slopes says along which
// groups a derivative needs the profile's slope. With λ = 1 it is the joint
// kernel (for the se family, the product of the groups' kernels), with λ =
// 0 the groups' average; every weighing is a positive combination of
// kernels, so positive definite. ∂k/∂log λ = λ·s²·(f(r²) − Σ_p f(r²_p)/P).
func mixedEmit(g *registry.KernelGen, sh shape, m mixed, slopes []bool) registry.KernelCode {
	stmts := m.stmts
	radius := func(name string, sum *jen.Statement) string {
		r2 := g.Fresh(name)
		if sum == nil {
			sum = jen.Lit(0.0)
		}
		stmts = append(stmts, jen.Id(r2).Op(":=").Add(sum))
		return r2
	}
	groups := len(m.sums)
	share := 1 / float64(groups) // each group's part of 1 − λ
	needSlope := slices.Contains(slopes, true)
	radii := make([]string, groups)
	for p, sum := range m.sums {
		name := fmt.Sprintf("r2g%d", p)
		if !m.byComponent {
			name = []string{"r2x", "r2c"}[p]
		}
		radii[p] = radius(name, sum)
	}
	// profiles[0] is at r², profiles[1+p] at group p's r²_p.
	profiles := make([]profile, 1+groups)
	for p, r2 := range radii {
		profiles[1+p] = sh(g, r2, slopes[p])
		stmts = append(stmts, profiles[1+p].stmts...)
	}
	switch rate := profiles[1].rate; {
	case m.mix.Fixed && m.mix.Value == 0: // the sum has no joint term
	case rate != 0: // f(Σ_p r²_p) = Π_p f(r²_p)
		e := g.Fresh("e")
		product := jen.Add(profiles[1].value)
		for _, p := range profiles[2:] {
			product = product.Op("*").Add(p.value)
		}
		stmts = append(stmts, jen.Id(e).Op(":=").Add(product))
		profiles[0] = profile{value: jen.Id(e), slope: jen.Lit(rate).Op("*").Id(e)}
	default:
		sum := jen.Id(radii[0])
		for _, r2 := range radii[1:] {
			sum = sum.Op("+").Id(r2)
		}
		profiles[0] = sh(g, radius("r2", sum), needSlope)
		stmts = append(stmts, profiles[0].stmts...)
	}
	// total is the sum of the groups' terms present (not nil), in
	// parentheses when there are several.
	total := func(terms []jen.Code) jen.Code {
		var sum *jen.Statement
		several := false
		for _, t := range terms {
			switch {
			case t == nil:
			case sum == nil:
				sum = jen.Add(t)
			default:
				sum, several = sum.Op("+").Add(t), true
			}
		}
		if several {
			return jen.Parens(sum)
		}
		return sum
	}
	weigh := func(joint jen.Code, parts []jen.Code) jen.Code {
		sum := total(parts)
		if m.mix.Fixed && m.mix.Value == 0 {
			return jen.Lit(share).Op("*").Add(sum)
		}
		if m.mix.Fixed {
			return jen.Lit(m.mix.Value).Op("*").Add(joint).Op("+").Lit((1 - m.mix.Value) * share).Op("*").Add(sum)
		}
		return jen.Add(m.mix.Code).Op("*").Add(joint).Op("+").Parens(jen.Lit(1.0).Op("-").Add(m.mix.Code)).Op("*").Lit(share).Op("*").Add(sum)
	}
	values := make([]jen.Code, groups)
	for p := range values {
		values[p] = profiles[1+p].value
	}
	value := jen.Parens(weigh(profiles[0].value, values))
	if g.Grad == registry.NoGrad {
		return registry.KernelCode{Stmts: stmts, Value: times(m.signal, value)}
	}
	k := g.Fresh("k")
	stmts = append(stmts, jen.Id(k).Op(":=").Add(times(m.signal, value)))
	names := make([]string, groups)
	for p := range names {
		name := fmt.Sprintf("dkg%d", p)
		if !m.byComponent {
			name = []string{"dkx", "dkc"}[p]
		}
		names[p] = g.Fresh(name)
		if slopes[p] {
			only := make([]jen.Code, groups)
			only[p] = profiles[1+p].slope
			stmts = append(stmts, jen.Id(names[p]).Op(":=").Add(times(m.signal, jen.Parens(weigh(profiles[0].slope, only)))))
		}
	}
	code := registry.KernelCode{Stmts: stmts, Value: jen.Id(k), Grad: make([]jen.Code, g.GradLen())}
	lengthscaleGrad(g, &code, m.ls, m.diffs, func(i int) string { return names[m.group[i]] })
	if g.Grad != registry.GradHyper {
		return code
	}
	if !m.signal.Fixed {
		accumulate(code.Grad, m.signal.Index, jen.Id(k))
	}
	if !m.mix.Fixed {
		accumulate(code.Grad, m.mix.Index, times(m.signal, jen.Add(m.mix.Code).Op("*").Parens(
			jen.Add(profiles[0].value).Op("-").Lit(share).Op("*").Add(total(values)))))
	}
	groupWeight := jen.Lit(share).Op("*").Parens(jen.Lit(1.0).Op("-").Add(m.mix.Code))
	weights := []jen.Code{m.mix.Code}
	if m.mix.Fixed {
		groupWeight, weights = jen.Lit((1-m.mix.Value)*share), []jen.Code{jen.Lit(m.mix.Value)}
	}
	for range groups {
		weights = append(weights, groupWeight)
	}
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

package plan

import (
	"math"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// Safety is the plan of a safe acquisition: the finite set of points it
// chooses among and the Gaussian process of every unknown constraint, which
// runtime/safe's Explorer evaluates with its generic kernels.
type Safety struct {
	Spec registry.SafeSpec
	// Grid holds, for a continuous domain, the number of grid values of
	// each component (unit coordinates k/(m−1)); nil when the candidates
	// are the decision set.
	Grid []int
	// Pool, for a continuous domain of more than maxGridDims components, is
	// the number of points of the pool that certified local search grows
	// from the seeds (runtime/safe's Config.Pool); Grid is then nil.
	Pool int
	// Points is the size of the decision set before the known constraints
	// filter it: the candidates, the grid plus the seeds, or the pool.
	Points int
	// Seeds are the points known to be safe (ir.Program.Seeds).
	Seeds [][]float64
	// DrawSeeds, for studies of simulated constraints, draws that many
	// seeds among the truly safe candidates (`seed random(n)`); TrueSafeSet
	// gives the oracle every one of them.
	DrawSeeds   int
	TrueSafeSet bool
	Constraints []OutputModel
	// LandingDraws is the number of landing points that represent the
	// input noise at each decision point, shared by the constraints judged
	// where the queries land (`landing mean` or `chance`): the most any of
	// them asks for; 0 when none is.
	LandingDraws int
}

// OutputModel is the Gaussian process of one measured output, a
// constraint or one of several objectives, as its runtime model
// (runtime/safe, runtime/outcome) takes it.
type OutputModel struct {
	Name string
	// Constraint is the constraint modelled; nil for an objective.
	Constraint *ir.Constraint
	Kernel     *ir.Call // the output's own kernel, or the model's it defaults to
	// Family names runtime/kernel's family; Variance, Alpha and
	// Lengthscales are the starting hyperparameters, and Learned, Lower and
	// Upper follow runtime/kernel's θ = (log s², log ℓ_1.., log α).
	Family          string
	Variance, Alpha float64
	Lengthscales    []float64
	Learned         []bool
	Lower, Upper    []float64
	// Standardise is set when the variance is learned (safe.Constraint).
	Standardise bool
	// WorstMean makes an objective's prior mean the worst value observed
	// (ModelSpec.Mean) instead of the average.
	WorstMean bool
	// NoiseVariance is the declared noise's variance (units of the
	// constraint squared), or −1 when it is learned within [NoiseLower,
	// NoiseUpper] (units of the standardised distance to the limit).
	NoiseVariance          float64
	NoiseLower, NoiseUpper float64
	// Noise is the distribution a simulated constraint's measurements are
	// drawn with: its own noise option, else the observation noise; nil when
	// neither is declared (measured without noise) or it is not simulated.
	Noise *ir.Call
}

// safeGridPoints is the most points a grid over a continuous domain has:
// 4096 in 1-D, 64² in 2-D, 16³ in 3-D. A pool holds as many.
const safeGridPoints = 4096

// maxGridDims is the most components of a continuous domain that a grid
// covers finely enough; larger domains get a pool.
const maxGridDims = 3

// maxCovariancePoints is the largest decision set the GP-optimistic
// expanders of SafeOpt and StageOpt handle: they hold the constraints'
// posterior covariance over it.
const maxCovariancePoints = 1000

// safety plans a safe acquisition.
func (b *builder) safety() {
	spec := b.o.Acquisition.Safe
	if spec == nil {
		return
	}
	p := b.o.Program
	s := &Safety{Spec: *spec, Seeds: p.Seeds()}
	switch {
	case p.Candidates != nil:
		s.Points = len(p.Candidates.Points)
	case p.D > maxGridDims:
		s.Pool, s.Points = safeGridPoints, safeGridPoints
		b.checkPool(s)
	default:
		per := int(math.Floor(math.Pow(safeGridPoints, 1/float64(p.D)) + 1e-9))
		s.Points = 1
		for _, d := range p.Dims {
			for range d.Size {
				m := per
				if (d.Integer || d.Categorical()) && !d.Log && int(d.Hi-d.Lo)+1 < m {
					m = int(d.Hi-d.Lo) + 1 // every whole number, every level
				}
				s.Grid = append(s.Grid, max(m, 2))
				s.Points *= max(m, 2)
			}
		}
		s.Points += len(s.Seeds)
	}
	for _, c := range p.Constraints {
		if c.Safety() {
			s.Constraints = append(s.Constraints, b.constraintModelOf(c))
			s.DrawSeeds = c.RandomSeeds
			if c.Landing != nil {
				s.LandingDraws = max(s.LandingDraws, c.Landing.Draws)
			}
		}
	}
	if s.expandsByCovariance() && s.Pool == 0 && s.Points > maxCovariancePoints {
		b.report(dsl.Errorf(p.Acquisition.Span, "acquisition %s finds expanders with the constraints' posterior covariance over its %d points, which needs %d or fewer",
			name(p.Acquisition), s.Points, maxCovariancePoints).
			WithHint("give a Lipschitz constant (lipschitz = L) or fewer candidates"))
	}
	s.TrueSafeSet = spec.Method == "Oracle"
	if s.TrueSafeSet || spec.Method == "Unsafe" {
		s.DrawSeeds, s.Seeds = 0, nil // the set is given, not grown from seeds
	}
	b.o.Safety = s
}

// checkPool reports what a pool cannot do: only SGP-UCB grows one, and only
// at the aim.
func (b *builder) checkPool(s *Safety) {
	p := b.o.Program
	hint := "give the points to choose among: candidates file \"points.csv\" or candidates sobol(n = 1000)"
	if s.Spec.Method != "SGPUCB" {
		b.report(dsl.Errorf(p.Acquisition.Span, "acquisition %s chooses among the candidates or a grid, which covers %d components or fewer; this domain has %d",
			name(p.Acquisition), maxGridDims, p.D).
			WithHint("%s; or use safe_ucb, whose certified local search grows the safe set of larger domains", hint))
		return
	}
	for _, c := range p.Constraints {
		if c.Landing.OffAim() {
			b.report(dsl.Errorf(c.Landing.Span, "constraint %s: landing %s on a continuous domain of more than %d components is not supported in this version of boc",
				c.Name, c.Landing.Mode, maxGridDims).WithHint("%s", hint))
			return
		}
	}
}

// expandsByCovariance reports whether the method finds the expanders of
// some constraint by the GP-optimistic rule, which holds the posterior
// covariance over the points: one with no Lipschitz constant, neither the
// acquisition's nor its own.
func (s *Safety) expandsByCovariance() bool {
	if s.Spec.Method != "SafeOpt" && s.Spec.Method != "StageOpt" || s.Spec.Lipschitz > 0 {
		return false
	}
	for _, c := range s.Constraints {
		if c.Constraint.Lipschitz == 0 {
			return true
		}
	}
	return false
}

// constraintModelOf plans the Gaussian process of measured constraint c.
func (b *builder) constraintModelOf(c *ir.Constraint) OutputModel {
	sc := b.outputModel(c.Name, c.Kernel, c.Noise, c.Measured.Kind == ir.ExprBinding)
	sc.Constraint = c
	return sc
}

// outputModel plans the Gaussian process of the output called name, with
// its own kernel and noise (nil: the model's kernel, the observation
// noise); simulated says the output is an expression, measured in a study.
// Without noise declared a simulated output is exact and a measured one
// learns its noise.
func (b *builder) outputModel(name string, k, noise *ir.Call, simulated bool) OutputModel {
	p := b.o.Program
	if k == nil {
		k, _ = p.Model.Arg("kernel").Value.(*ir.Call)
	}
	b.refuseAdditive(k, "output "+name)
	plugin, _ := registry.ByID(k.Plugin)
	sc := OutputModel{Name: name, Kernel: k, Family: plugin.Family, Variance: 1, Alpha: 1, NoiseVariance: -1,
		NoiseLower: noiseLearnLo, NoiseUpper: noiseLearnHi}
	// θ = (log s², log ℓ_1.., log α): the variance first, α last.
	learnedVariance := false
	var lsLearned, alphaLearned bool
	var lsLo, lsHi, alphaLo, alphaHi float64
	for _, a := range k.Args {
		slot, learned := b.slotOf(plugin, k, a)
		switch a.Name {
		case "variance":
			if learned {
				sc.Variance, learnedVariance = slot.Init[0], true
				sc.Lower, sc.Upper = append(sc.Lower, slot.Lo), append(sc.Upper, slot.Hi)
			} else {
				sc.Variance = constNumber(a)
				sc.Lower, sc.Upper = append(sc.Lower, 0), append(sc.Upper, 0)
			}
			sc.Learned = append(sc.Learned, learned)
		case "lengthscale":
			if learned {
				sc.Lengthscales, lsLearned, lsLo, lsHi = slot.Init, true, slot.Lo, slot.Hi
			} else {
				sc.Lengthscales = constNumbers(a)
			}
		case "alpha":
			if learned {
				sc.Alpha, alphaLearned, alphaLo, alphaHi = slot.Init[0], true, slot.Lo, slot.Hi
			} else {
				sc.Alpha = constNumber(a)
			}
		}
	}
	for range sc.Lengthscales {
		sc.Learned, sc.Lower, sc.Upper = append(sc.Learned, lsLearned), append(sc.Lower, lsLo), append(sc.Upper, lsHi)
	}
	if plugin.Param("alpha") != nil {
		sc.Learned, sc.Lower, sc.Upper = append(sc.Learned, alphaLearned), append(sc.Lower, alphaLo), append(sc.Upper, alphaHi)
	}
	sc.Standardise = learnedVariance
	if noise == nil && p.ObsNoise.Kind == ir.ObsNoiseDist {
		noise = p.ObsNoise.Dist
	}
	switch {
	case noise != nil:
		if h, _ := registry.DistributionHooks(noise); h.Variance != nil {
			sc.NoiseVariance = h.Variance(&registry.Args{Call: noise})
		}
	case p.ObsNoise.Kind == ir.ObsNoiseNone && simulated:
		sc.NoiseVariance = 0 // a simulated value without noise
	case p.ObsNoise.Kind == ir.ObsNoiseLearn && p.ObsNoise.Learn != nil && p.ObsNoise.Learn.HasBounds:
		sc.NoiseLower, sc.NoiseUpper = p.ObsNoise.Learn.Lo, p.ObsNoise.Learn.Hi
	}
	if simulated {
		sc.Noise = noise
	}
	return sc
}

// constNumber is a constant argument's number.
func constNumber(a *ir.Arg) float64 {
	if k, ok := a.Value.(*ir.ConstExpr); ok {
		return k.Value.Float()
	}
	return math.NaN()
}

// constNumbers is a constant real or vector argument's numbers.
func constNumbers(a *ir.Arg) []float64 {
	if k, ok := a.Value.(*ir.ConstExpr); ok {
		if len(k.Value.Numbers) > 0 {
			return k.Value.Numbers
		}
		return []float64{k.Value.Float()}
	}
	return []float64{math.NaN()}
}

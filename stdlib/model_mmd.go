package stdlib

import (
	"slices"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(&registry.Plugin{Kind: registry.Model, Name: "mmd", UsesInputNoise: true,
		Doc: "AIRBO: GP over input distributions with the kernel exp(−α MMD²)",
		Params: []registry.Param{modelKernel(registry.Call("rqmix", registry.Named("variance", registry.Real(1)))), samplesParam,
			{Name: "landmarks", Type: registry.IntParam, Default: registry.Int(0), Range: nonNegative,
				Doc: "landmarks h; 0 chooses: 32 shared ones for the embedding (dense enough for lengthscales down to about 0.1 in 1-D), AIRBO's 10 for Nyström"},
			{Name: "estimator", Type: registry.StringParam, Default: registry.String("embedding"), Doc: `MMD estimator: "empirical" (V-statistic), "unbiased" (AIRBO's U-statistic), "nystrom" or "embedding"`},
			{Name: "alpha", Type: registry.RealParam, Default: registry.Learn(), Range: positive, Learnable: true, LearnBounds: [2]float64{0.01, 100}, Doc: "α in exp(−α MMD²)"},
			{Name: "draws", Type: registry.StringParam, Default: registry.String(drawsCommon),
				Doc: `"common": every point's samples from the same base uniforms (smooth in x); "fresh": independent samples for every point, as AIRBO's authors draw them`},
			{Name: "variance", Type: registry.RealParam, Default: registry.Real(1), Range: positive, Learnable: true, LearnBounds: [2]float64{0.05, 20},
				Doc: "output scale s² in s²·exp(−α MMD²); AIRBO's authors learn it (variance = learn)"}},
		Check: checkInputModel(false, checkMMD), Emit: mmdModel, Runtime: inputModelRuntime})
}

// mmdSpec represents input distributions as the estimator needs them: an
// embedding over shared landmarks, or samples (with Nyström's landmarks).
func mmdSpec(a *registry.Args, _ bool) registry.InputSpec {
	s := registry.InputSpec{Rep: registry.SampleRep, Samples: a.Int("samples"), Fresh: a.Choice("draws", mmdDraws...) == drawsFresh}
	switch a.Choice("estimator", mmdEstimators...) {
	case "embedding":
		s.Rep, s.Landmarks = registry.EmbeddingRep, landmarksOr(a, embeddingLandmarks)
	case "nystrom":
		s.Landmarks = landmarksOr(a, nystromLandmarks)
	}
	return s
}

// mmdModel is the GP with AIRBO's kernel exp(−α·MMD²(P, Q)), MMD² by the
// chosen estimator. Each is the squared distance of two points of one
// Hilbert space, so the Gram matrices are positive semi-definite: the
// embeddings on R^h, Nyström's mean embeddings ν_P in the base kernel's RKHS
// (each point with its own landmarks, as in AIRBO's code), and for the
// empirical estimator the samples' empirical embeddings, Eq. 8 with the pairs
// of a sample with itself included (the V-statistic). The unbiased estimator
// is Eq. 8 as AIRBO's authors compute it, with k̂(P, P) by the estimator too:
// its Gram matrix is the V-statistic's scaled on both sides by a positive
// diagonal (runtime/uncertain's SelfMMD2), where k̂(P, P) = 1 would make it
// indefinite. Rounding can make the other estimates slightly negative for
// nearly equal distributions, so they are clamped at 0 and the kernel stays
// at most 1.
var mmdModel = inputModel(mmdSpec, func(g *registry.ModelGen) *registry.InputModel {
	alpha := func(ig *registry.InputGen) jen.Code { return ig.Hyper(ig.Call, "alpha", 0).Code }
	exp := func(ig *registry.InputGen, mmd2 jen.Code) jen.Code {
		return jen.Qual("math", "Exp").Call(jen.Op("-").Add(alpha(ig)).Op("*").Add(mmd2))
	}
	kernelOf := func(ig *registry.InputGen, mmd2 jen.Code) jen.Code { return exp(ig, jen.Max(jen.Lit(0.0), mmd2)) }
	one := func(*registry.InputGen) jen.Code { return jen.Lit(1.0) }
	m := &registry.InputModel{Self: one}
	switch g.Choice("estimator", mmdEstimators...) {
	case "unbiased":
		// Not clamped: a negative estimate is part of the D·K·D structure
		// that keeps the Gram matrix positive semi-definite (SelfMMD2).
		m.Stat = func(ig *registry.InputGen) jen.Code {
			return uncertainCall("SelfMeanKernel", ig.Base, ig.A.Samples, jen.Lit(ig.D))
		}
		m.Self = func(ig *registry.InputGen) jen.Code {
			return exp(ig, uncertainCall("SelfMMD2", ig.Base, ig.A.Samples, jen.Lit(ig.D), ig.A.Stat))
		}
		m.Pair = func(ig *registry.InputGen) jen.Code {
			return exp(ig, uncertainCall("MMD2", ig.Base, ig.A.Samples, ig.B.Samples, jen.Lit(ig.D), ig.A.Stat, ig.B.Stat))
		}
	case "embedding":
		m.Pair = func(ig *registry.InputGen) jen.Code {
			return kernelOf(ig, uncertainCall("SqDist", ig.A.Embedding, ig.B.Embedding))
		}
	case "nystrom":
		m.Stat = func(ig *registry.InputGen) jen.Code {
			return jen.Add(ig.Nystrom).Dot("Weights").Call(ig.Base, ig.A.Samples, ig.A.Weights)
		}
		m.Pair = func(ig *registry.InputGen) jen.Code {
			cross := jen.Add(ig.Nystrom).Dot("Cross").Call(ig.Base, ig.A.Samples, ig.A.Weights, ig.B.Samples, ig.B.Weights)
			return kernelOf(ig, jen.Add(ig.A.Stat).Op("+").Add(ig.B.Stat).Op("-").Lit(2).Op("*").Add(cross))
		}
	default:
		m.Stat = vStatistic
		m.Pair = func(ig *registry.InputGen) jen.Code {
			return kernelOf(ig, uncertainCall("MMD2", ig.Base, ig.A.Samples, ig.B.Samples, jen.Lit(ig.D), ig.A.Stat, ig.B.Stat))
		}
	}
	scaleByVariance(m)
	return m
})

// scaleByVariance multiplies m's kernel by mmd's output scale s², unless it
// is fixed to 1.
func scaleByVariance(m *registry.InputModel) {
	self, pair := m.Self, m.Pair
	scaled := func(kernel func(*registry.InputGen) jen.Code) func(*registry.InputGen) jen.Code {
		return func(ig *registry.InputGen) jen.Code {
			s := ig.Hyper(ig.Call, "variance", 0)
			if s.Fixed && s.Value == 1 {
				return kernel(ig)
			}
			return jen.Add(s.Code).Op("*").Add(kernel(ig))
		}
	}
	m.Self, m.Pair = scaled(self), scaled(pair)
}

// The landmarks mmd chooses when landmarks = 0: shared landmarks must be
// dense for the kernel's lengthscale (about 3·width/ℓ per dimension, measured
// in runtime/uncertain), while Nyström's, each point's own, cost O(m·h + h³)
// per point and O(h²) per pair, for which AIRBO's 10 is the setting of its
// Table 1.
const (
	embeddingLandmarks = 32
	nystromLandmarks   = 10
)

// landmarksOr is the model's landmarks argument, or def when it is 0.
func landmarksOr(a *registry.Args, def int) int {
	if h := a.Int("landmarks"); h > 0 {
		return h
	}
	return def
}

// The values of mmd's draws parameter.
const (
	drawsCommon = "common"
	drawsFresh  = "fresh"
)

var mmdDraws = []string{drawsCommon, drawsFresh}

// mmdEstimators are the values of mmd's estimator parameter.
var mmdEstimators = []string{"empirical", "unbiased", "nystrom", "embedding"}

// checkMMD reports an estimator or draws that is not one of the choices and
// warns that landmarks are ignored by the sample-sum estimators.
func checkMMD(ctx *registry.CheckContext) {
	if a, v := constArg(ctx.Call, "draws"); v != nil && v.Type.Kind == dsl.String && !slices.Contains(mmdDraws, v.Text) {
		ctx.Report(unknownChoice(a, v, "draws", mmdDraws))
	}
	a, v := constArg(ctx.Call, "estimator")
	if v == nil || v.Type.Kind != dsl.String {
		return
	}
	if !slices.Contains(mmdEstimators, v.Text) {
		ctx.Report(unknownChoice(a, v, "MMD estimator", mmdEstimators))
		return
	}
	if l := ctx.Call.Arg("landmarks"); (v.Text == "empirical" || v.Text == "unbiased") && l != nil && !l.Default {
		ctx.Report(dsl.Warningf(l.Span, "landmarks is ignored by the %s estimator", v.Text))
	}
}

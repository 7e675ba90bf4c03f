package stdlib

import (
	"slices"
	"strings"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

// The models over input distributions. Each is the exact GP of runtime/gp
// whose kernel vectors hold a kernel between the points' input
// distributions, computed by runtime/uncertain from the representation the
// model chooses (registry.InputModel).

// runtimeUncertain is the import path of the kernels over distributions.
const runtimeUncertain = "github.com/bocdev/boc/runtime/uncertain"

func uncertainCall(name string, args ...jen.Code) *jen.Statement {
	return jen.Qual(runtimeUncertain, name).Call(args...)
}

// inputModelEmit holds the GP of runtime/gp with the kernel that inputs gives.
func inputModelEmit(inputs func(g *registry.ModelGen) *registry.InputModel) registry.ModelEmit {
	return func(g *registry.ModelGen) registry.ModelCode {
		code := gpEmit(g)
		code.Inputs = inputs(g)
		return code
	}
}

// mmdEmit is AIRBO's kernel exp(−α·MMD²(P, Q)) with the chosen estimator of
// MMD². The empirical estimator is Eq. 8 with the pairs of a sample with
// itself included (the V-statistic): then MMD² is the squared distance of
// the samples' empirical embeddings and the kernel matrix is positive
// definite, while Eq. 8's unbiased form makes it indefinite in practice (the
// runtime/uncertain tests measure it). Nyström's estimate can come out
// slightly negative for nearly equal distributions; every estimate is
// clamped at 0 so that the kernel stays at most 1. Even so, Nyström's
// per-pair landmarks make Gram matrices indefinite (pivots of −0.0034,
// −0.046 and −0.287 of the mean diagonal on AIRBO's double-peak problem with
// its m = 100, h = 10), far beyond the jitter a GP allows for rounding, so
// its GP may add up to nystromJitter of the mean diagonal: extra noise on
// the observations whose kernel values disagree with the others', up to
// noise as large as the prior variance, which keeps such an observation but
// trusts it little, rather than stop the run.
var mmdEmit registry.ModelEmit = func(g *registry.ModelGen) registry.ModelCode {
	code := mmdModelEmit(g)
	if g.Choice("estimator", mmdEstimators...) == "nystrom" {
		code.New = jen.Add(code.New).Dot("WithJitterLimit").Call(jen.Lit(nystromJitter))
	}
	return code
}

// nystromJitter is the largest jitter, relative to the mean diagonal, of the
// GP under Nyström's kernel (runtime/gp.GP.WithJitterLimit).
const nystromJitter = 1.0

// mmdModelEmit is the GP with mmd's kernel.
var mmdModelEmit = inputModelEmit(func(g *registry.ModelGen) *registry.InputModel {
	alpha := func(ig *registry.InputGen) jen.Code { return ig.Hyper(ig.Call, "alpha", 0).Code }
	kernelOf := func(ig *registry.InputGen, mmd2 jen.Code) jen.Code {
		return jen.Qual("math", "Exp").Call(jen.Op("-").Add(alpha(ig)).Op("*").Max(jen.Lit(0.0), mmd2))
	}
	one := func(*registry.InputGen) jen.Code { return jen.Lit(1.0) }
	m := &registry.InputModel{Samples: g.Int("samples"), Learned: []string{"alpha"}, Self: one}
	switch g.Choice("estimator", mmdEstimators...) {
	case "embedding":
		m.Rep, m.Landmarks = registry.EmbeddingRep, landmarksOr(g, embeddingLandmarks)
		m.Pair = func(ig *registry.InputGen) jen.Code {
			return kernelOf(ig, uncertainCall("SqDist", ig.A.Embedding, ig.B.Embedding))
		}
	case "nystrom":
		m.Rep, m.Landmarks = registry.SampleRep, landmarksOr(g, nystromLandmarks)
		m.Stat = func(ig *registry.InputGen) jen.Code {
			return jen.Add(ig.Nystrom).Dot("Self").Call(ig.Base, ig.A.Samples)
		}
		m.Pair = func(ig *registry.InputGen) jen.Code {
			cross := jen.Add(ig.Nystrom).Dot("Cross").Call(ig.Base, ig.A.Samples, ig.B.Samples)
			return kernelOf(ig, jen.Add(ig.A.Stat).Op("+").Add(ig.B.Stat).Op("-").Lit(2).Op("*").Add(cross))
		}
	default:
		m.Rep = registry.SampleRep
		m.Stat = vStatistic
		m.Pair = func(ig *registry.InputGen) jen.Code {
			return kernelOf(ig, uncertainCall("MMD2", ig.Base, ig.A.Samples, ig.B.Samples, jen.Lit(ig.D), ig.A.Stat, ig.B.Stat))
		}
	}
	return m
})

// The landmarks mmd chooses when landmarks = 0: shared landmarks must be
// dense for the kernel's lengthscale (about 3·width/ℓ per dimension, measured
// in runtime/uncertain), while Nyström's per-pair ones cost O(h³) each, for
// which AIRBO's 10 is the setting of its Table 1.
const (
	embeddingLandmarks = 32
	nystromLandmarks   = 10
)

// landmarksOr is the model's landmarks argument, or def when it is 0.
func landmarksOr(g *registry.ModelGen, def int) int {
	if h := g.Int("landmarks"); h > 0 {
		return h
	}
	return def
}

// vStatistic is the mean of the kernel over all pairs of a point's samples,
// the norm² of their empirical embedding.
func vStatistic(ig *registry.InputGen) jen.Code {
	return uncertainCall("MeanKernel", ig.Base, ig.A.Samples, ig.A.Samples, jen.Lit(ig.D))
}

// ugpEmit is Oliveira et al.'s integral kernel ∫∫ k dP dQ: in closed form
// (Eq. 80) when the kernel is se and the input noise Gaussian, by Monte Carlo
// over the samples otherwise. k̂(P, P) is then the mean over all pairs of
// P's samples (the V-statistic), which makes the Gram matrix that of the
// samples' empirical embeddings, positive semi-definite; the unbiased
// U-statistic can make it indefinite. The V-statistic exceeds it by
// (k(u, u) − Ê k(u, u'))/m, which acts as a small input-dependent noise.
var ugpEmit = withInflation(inputModelEmit(func(g *registry.ModelGen) *registry.InputModel {
	if k := g.Nested("kernel"); k != nil && k.Plugin == "kernel.se" && g.GaussianNoise {
		return gaussianModel(func(ig *registry.InputGen, a, b registry.RepNames) jen.Code {
			return uncertainCall("IntegralSE", jen.Id("variance"), jen.Id("ls").Index(jen.Empty().Op(":")), a.Mean, a.Cov, b.Mean, b.Cov, ig.Work)
		}, false)
	}
	return &registry.InputModel{Rep: registry.SampleRep, Samples: g.Int("samples"),
		Stat: vStatistic,
		Self: func(ig *registry.InputGen) jen.Code { return ig.A.Stat },
		Pair: func(ig *registry.InputGen) jen.Code {
			return uncertainCall("MeanKernel", ig.Base, ig.A.Samples, ig.B.Samples, jen.Lit(ig.D))
		}}
}))

// erbfEmit is the expected RBF kernel: the integral kernel between the
// Gaussians matching the input noise's moments, with the kernel's variance
// for a point with itself (the expectation of k(x̃, x̃)).
var erbfEmit = inputModelEmit(func(*registry.ModelGen) *registry.InputModel {
	return gaussianModel(func(ig *registry.InputGen, a, b registry.RepNames) jen.Code {
		return uncertainCall("IntegralSE", jen.Id("variance"), jen.Id("ls").Index(jen.Empty().Op(":")), a.Mean, a.Cov, b.Mean, b.Cov, ig.Work)
	}, true)
})

// sklEmit is the symmetric-KL kernel between the Gaussians matching the input
// noise's moments (runtime/uncertain.SymmetricKLSE).
var sklEmit = inputModelEmit(func(*registry.ModelGen) *registry.InputModel {
	return gaussianModel(func(ig *registry.InputGen, a, b registry.RepNames) jen.Code {
		return uncertainCall("SymmetricKLSE", jen.Id("variance"), jen.Id("ls").Index(jen.Empty().Op(":")), a.Mean, a.Cov, b.Mean, b.Cov, ig.Work)
	}, true)
})

// gaussianModel is a model over the input noise's first two moments with an
// se kernel: pair(g, a, b) is its kernel, over the locals ls (the
// lengthscales) and variance; selfIsVariance makes k̂(P, P) the kernel's
// variance instead of pair(P, P).
func gaussianModel(pair func(ig *registry.InputGen, a, b registry.RepNames) jen.Code, selfIsVariance bool) *registry.InputModel {
	m := &registry.InputModel{Rep: registry.MomentRep,
		Prelude: func(ig *registry.InputGen) []jen.Code {
			ls := make([]jen.Code, ig.D)
			for i := range ls {
				ls[i] = ig.Hyper(ig.Kernel, "lengthscale", i).Code
			}
			return []jen.Code{
				jen.Id("ls").Op(":=").Index(jen.Lit(ig.D)).Float64().Values(ls...),
				jen.Id("variance").Op(":=").Add(ig.Hyper(ig.Kernel, "variance", 0).Code),
			}
		},
		Pair: func(ig *registry.InputGen) jen.Code { return pair(ig, ig.A, ig.B) },
		Self: func(ig *registry.InputGen) jen.Code { return pair(ig, ig.A, ig.A) },
	}
	if selfIsVariance {
		m.Self = func(*registry.InputGen) jen.Code { return jen.Id("variance") }
	}
	return m
}

// checkSEKernel reports a model whose closed forms need the se kernel but
// that was given another.
func checkSEKernel(ctx *registry.CheckContext) {
	requireSE(ctx, "has closed forms")
}

// requireSE reports a kernel argument other than se; what says why the
// model needs it.
func requireSE(ctx *registry.CheckContext, what string) {
	a := ctx.Call.Arg("kernel")
	if a == nil {
		return
	}
	if c, ok := a.Value.(*ir.Call); ok && c.Plugin != "kernel.se" {
		_, model, _ := strings.Cut(ctx.Call.Plugin, ".")
		_, got, _ := strings.Cut(c.Plugin, ".")
		ctx.Report(dsl.Errorf(a.Span, "model %s %s for the se kernel only, got %s", model, what, got).
			WithHint("use kernel = se(lengthscale = learn), or model mmd for other kernels"))
	}
}

// checkInflation returns the Check hook of a model whose input_noise is
// other or "inflate": it reports any other value, a kernel other than se with
// "inflate", and an rkhs_bound given without it.
func checkInflation(other string) func(ctx *registry.CheckContext) {
	choices := []string{other, "inflate"}
	return func(ctx *registry.CheckContext) {
		a, v := constArg(ctx.Call, "input_noise")
		if v == nil || v.Type.Kind != dsl.String {
			return
		}
		switch v.Text {
		case "inflate":
			requireSE(ctx, `inflates the noise (input_noise = "inflate")`)
		case other:
			if b := ctx.Call.Arg("rkhs_bound"); b != nil && !b.Default {
				ctx.Report(dsl.Warningf(b.Span, `rkhs_bound is ignored unless input_noise = "inflate"`))
			}
		default:
			d := dsl.Errorf(a.Span, "unknown input_noise %s: want %q or %q", v, choices[0], choices[1])
			if hint := dsl.DidYouMean(v.Text, choices); hint != "" {
				d = d.WithHint("%s", hint)
			}
			ctx.Report(d)
		}
	}
}

// inflates reports whether a model call inflates its noise by the input noise.
func inflates(c *ir.Call) bool {
	_, v := constArg(c, "input_noise")
	return v != nil && v.Type.Kind == dsl.String && v.Text == "inflate"
}

// withInflation is emit, inflating the observation noise by the input noise
// when the model's input_noise is "inflate" (checkInflation has vetted it),
// with the se kernel's ℓ_k² = s²/min_i ℓ_i²: Oliveira et al.'s σ_E² (Prop. 3),
// which IGP-UCB (Thm 2) and uGP-UCB (Thm 5) add to the noise.
func withInflation(emit registry.ModelEmit) registry.ModelEmit {
	return func(g *registry.ModelGen) registry.ModelCode {
		code := emit(g)
		if !inflates(g.Call) {
			return code
		}
		code.Inflation = &registry.Inflation{Bound: g.Real("rkhs_bound"),
			Curvature: func(hyper func(string, int) registry.Hyper, d int) jen.Code {
				squares := make([]jen.Code, d)
				for i := range squares {
					l := hyper("lengthscale", i).Code
					squares[i] = jen.Add(l).Op("*").Add(l)
				}
				denominator := jen.Parens(squares[0])
				if d > 1 {
					denominator = jen.Min(squares...)
				}
				return jen.Parens(jen.Add(hyper("variance", 0).Code).Op("/").Add(denominator))
			}}
		return code
	}
}

// gpModelEmit is the gp model: gpEmit's GP on the target points, inflated
// when asked (IGP-UCB's baseline).
var gpModelEmit = withInflation(gpEmit)

// mmdEstimators are the values of mmd's estimator parameter.
var mmdEstimators = []string{"empirical", "nystrom", "embedding"}

// checkMMD reports an estimator that is not one of mmdEstimators and warns
// that landmarks are ignored by the empirical estimator.
func checkMMD(ctx *registry.CheckContext) {
	a, v := constArg(ctx.Call, "estimator")
	if v == nil || v.Type.Kind != dsl.String {
		return
	}
	if !slices.Contains(mmdEstimators, v.Text) {
		d := dsl.Errorf(a.Span, "unknown MMD estimator %s: want %q, %q or %q", v, mmdEstimators[0], mmdEstimators[1], mmdEstimators[2])
		if hint := dsl.DidYouMean(v.Text, mmdEstimators); hint != "" {
			d = d.WithHint("%s", hint)
		}
		ctx.Report(d)
		return
	}
	if l := ctx.Call.Arg("landmarks"); v.Text == "empirical" && l != nil && !l.Default {
		ctx.Report(dsl.Warningf(l.Span, "landmarks is ignored by the empirical estimator"))
	}
}

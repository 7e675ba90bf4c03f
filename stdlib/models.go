package stdlib

import (
	"github.com/bocdev/boc/stdlib/registry"
)

func init() {
	kernel := func(def registry.Value) registry.Param {
		return registry.Param{Name: "kernel", Type: registry.KernelParam, Default: def, Doc: "covariance function over the inputs"}
	}
	// inflateParam is input_noise, whose values are other (the default)
	// and "inflate"; doc says what they do.
	inflateParam := func(other, doc string) registry.Param {
		return registry.Param{Name: "input_noise", Type: registry.StringParam, Default: registry.String(other), Doc: doc}
	}
	rkhsBound := registry.Param{Name: "rkhs_bound", Type: registry.RealParam, Default: registry.Real(1), Range: positive,
		Doc: `B, a bound on the objective's RKHS norm (standardised), for "inflate"`}
	samples := registry.Param{Name: "samples", Type: registry.IntParam, Default: registry.Int(100), Range: atLeastOne, Doc: "samples m drawn from each input distribution"}
	registry.Register(&registry.Plugin{Kind: registry.Model, Name: "gp",
		Doc:    "exact Gaussian process on the target points; ignores input noise, or inflates the observation noise by it (IGP-UCB)",
		Params: []registry.Param{kernel(registry.Call("matern52")), inflateParam("ignore", `"ignore", or "inflate": IGP-UCB's GP, adding Oliveira et al.'s σ_E² = B²·ℓ_k²·tr Σ_x (Prop. 3) to each observation's noise (se kernel)`), rkhsBound},
		Check: func(ctx *registry.CheckContext) {
			checkInflation("ignore")(ctx)
			checkInflates(ctx)
		},
		Emit: gpModelEmit, Inflates: inflates})
	registry.Register(&registry.Plugin{Kind: registry.Model, Name: "ugp", UsesInputNoise: true,
		Doc: "uGP (Oliveira et al.): GP over input distributions with the integral kernel",
		Params: []registry.Param{kernel(registry.Call("se")), samples,
			inflateParam("model", `"model" (the noise as declared or learned), or "inflate": add Prop. 3's σ_E² to it, uGP-UCB's σ_ν² = σ_E² + σ_ζ² (Thm 5; se kernel)`), rkhsBound},
		Check: checkInputModel(false, checkInflation("model")), Emit: ugpEmit, Inflates: inflates})
	registry.Register(&registry.Plugin{Kind: registry.Model, Name: "mmd", UsesInputNoise: true,
		Doc: "AIRBO: GP over input distributions with the kernel exp(−α MMD²)",
		Params: []registry.Param{kernel(registry.Call("rqmix", registry.Named("variance", registry.Real(1)))), samples,
			{Name: "landmarks", Type: registry.IntParam, Default: registry.Int(0), Range: nonNegative,
				Doc: "landmarks h; 0 chooses: 32 shared ones for the embedding (dense enough for lengthscales down to about 0.1 in 1-D), AIRBO's 10 for Nyström"},
			{Name: "estimator", Type: registry.StringParam, Default: registry.String("embedding"), Doc: `MMD estimator: "empirical", "nystrom" or "embedding"`},
			{Name: "alpha", Type: registry.RealParam, Default: registry.Learn(), Range: positive, Learnable: true, LearnBounds: [2]float64{0.01, 100}, Doc: "α in exp(−α MMD²)"}}, Check: checkInputModel(false, checkMMD), Emit: mmdEmit})
	registry.Register(&registry.Plugin{Kind: registry.Model, Name: "erbf", UsesInputNoise: true,
		Doc:    "expected RBF kernel baseline; assumes Gaussian input noise",
		Params: []registry.Param{kernel(registry.Call("se"))}, Check: checkInputModel(true, checkSEKernel), Emit: erbfEmit})
	registry.Register(&registry.Plugin{Kind: registry.Model, Name: "skl", UsesInputNoise: true,
		Doc:    "symmetric-KL kernel baseline; assumes Gaussian input noise",
		Params: []registry.Param{kernel(registry.Call("se"))}, Check: checkInputModel(true, checkSEKernel), Emit: sklEmit})
}

package driver_test

import (
	"strings"
	"testing"

	"github.com/bocdev/boc/driver"
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/stdlib/registry"
	"github.com/dave/jennifer/jen"
)

func init() {
	registry.Register(&registry.Plugin{Kind: registry.Kernel, Name: "test_unbuilt", Doc: "a kernel without an Emit hook, for tests"})
	registry.Register(&registry.Plugin{Kind: registry.Search, Name: "test_unbuilt", Doc: "a search without an Emit hook, for tests"})
	registry.Register(&registry.Plugin{Kind: registry.Model, Name: "test_unbuilt", Doc: "a model without an Emit hook, for tests"})
	registry.Register(&registry.Plugin{Kind: registry.Distribution, Name: "test_unsampled",
		Doc:    "a distribution with a variance but no sampler, for tests",
		Params: []registry.Param{{Name: "sd", Type: registry.RealParam}},
		Result: func([]registry.Operand) (dsl.Type, error) { return dsl.DistOf(1), nil },
		Emit:   registry.DistributionEmit{Variance: func(a *registry.Args) float64 { return a.Real("sd") * a.Real("sd") }}})
	registry.Register(&registry.Plugin{Kind: registry.Kernel, Name: "test_value_only",
		Doc:    "a kernel without derivatives, for tests",
		Params: []registry.Param{{Name: "scale", Type: registry.RealParam, Default: registry.Real(1), Learnable: true}},
		Emit: registry.KernelEmit(func(g *registry.KernelGen) ([]jen.Code, jen.Code) {
			return nil, jen.Lit(g.Real("scale"))
		})})
}

// problemWith is a small valid problem with extra statements.
func problemWith(lines ...string) string {
	return "problem demo\ndomain {\n    x in [0, 1]\n    y in [0, 1]\n}\nobjective minimize sphere(x, y)\nbudget 10\n" + strings.Join(lines, "\n") + "\n"
}

// categoricalWith is problemWith with y categorical.
func categoricalWith(lines ...string) string {
	return strings.NewReplacer("y in [0, 1]", `y in {"a", "b"}`, "sphere(x, y)", `x + (if y == "a" then 0 else 1)`).Replace(problemWith(lines...))
}

// severalWith is a small valid problem with two objectives and extra
// statements, from line 11.
func severalWith(lines ...string) string {
	return "problem demo\ndomain {\n    x in [0, 1]\n    y in [0, 1]\n}\nobjective {\n    minimize f1 = x^2 + y\n    minimize f2 = (x - 1)^2\n}\nbudget 10\n" +
		strings.Join(lines, "\n") + "\n"
}

type wantDiag struct {
	line, col int
	message   string // the exact message
	hint      string // a substring of the hint
}

// TestCompileRefuses: what this version cannot compile is refused by
// Compile (what `boc check` runs) at the offending line, every problem of a
// file in one run, in source order; code generation is never reached.
func TestCompileRefuses(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []wantDiag
	}{
		{"outcome constraints with reported noise", strings.Replace(problemWith("require purity: reported >= 0.5 { confidence 0.9 }", "observation noise reported"),
			"sphere(x, y)", "external", 1),
			[]wantDiag{{9, 1, "reported observation noise with require is not built in this version of boc", "declare the noise"}}},
		{"outcome constraints over input distributions", problemWith("require purity: simulated x + y >= 0.5", "input noise x ~ normal(0, 0.05)", "model ugp"),
			[]wantDiag{{10, 7, "require with model ugp, over input distributions, is not built in this version of boc", "use model gp"}}},
		{"outcome constraints with a safe acquisition over candidates", problemWith("constraint heat: simulated x <= 0.9 { seed [[0.125, 0.125]] }",
			"require purity: simulated x + y >= 0.5", "acquisition safe_ucb", "candidates grid(n = 9)"),
			[]wantDiag{{9, 1, "require with candidates is not built in this version of boc", "search the domain"}}},
		{"model not built", problemWith("model test_unbuilt"),
			[]wantDiag{{8, 7, "model test_unbuilt is not available in this version of boc", "available model plugins: erbf, gp, mmd, skl, ugp"}}},
		{"uei without a gradient search", problemWith("input noise x ~ normal(0, 0.05)", "acquisition uei", "search pattern"),
			[]wantDiag{{9, 13, "acquisition uei needs a gradient search", "search lbfgs"}}},
		{"uei on a model over input distributions", problemWith("input noise x ~ normal(0, 0.05)", "model ugp", "acquisition uei"),
			[]wantDiag{{10, 13, "acquisition uei averages over the input noise, which model ugp already models", "model gp"}}},
		{"lookahead on a model over input distributions", problemWith("input noise x ~ normal(0, 0.05)", "model ugp", "acquisition kg"),
			[]wantDiag{{10, 13, "acquisition kg needs a model over points, not model ugp", "model gp"}}},
		{"inflation without input noise", problemWith(`model gp(kernel = se, input_noise = "inflate")`),
			[]wantDiag{{8, 7, "model gp inflates its noise by the input noise, but none is declared", "input noise x ~ normal(0, 0.05)"}}},
		{"model over input distributions without input noise", problemWith("model ugp"),
			[]wantDiag{{8, 7, "model ugp models input noise, but none is declared", "input noise x ~ normal(0, 0.05)"}}},
		{"mmd without input noise", problemWith("model mmd(samples = 8)"),
			[]wantDiag{{8, 7, "model mmd models input noise, but none is declared", "use model gp"}}},
		{"observation noise without a sampler", problemWith("observation noise ~ test_unsampled(sd = 0.1)"),
			[]wantDiag{{8, 21, "test_unsampled cannot simulate observation noise on an expression objective in this version of boc", "normal(0, sd)"}}},
		{"input noise without draws", problemWith("input noise x ~ test_unsampled(sd = 0.1)"),
			[]wantDiag{{8, 17, "test_unsampled cannot be used as input noise in this version of boc", "normal"}}},
		{"kernel not built", problemWith("model gp(kernel = se + test_unbuilt)"),
			[]wantDiag{{8, 24, "kernel test_unbuilt is not available in this version of boc", "matern52"}}},
		{"safe acquisition without an unknown constraint", problemWith("acquisition safe_ucb"),
			[]wantDiag{{8, 13, "acquisition safe_ucb keeps to unknown safety constraints, but none is declared", "or use ucb"}}},
		{"unknown constraint without seeds", problemWith(`constraint heat: exec "sensor" <= 80`, "acquisition safe_ucb"),
			[]wantDiag{{8, 1, "constraint heat has no seed points, and acquisition safe_ucb starts from known-safe points", "seed [[...]]"}}},
		{"seeds that no constraint shares", problemWith(`constraint heat: exec "sensor" <= 80 { seed [[0.1, 0.1]] }`,
			`constraint load: exec "gauge" <= 3 { seed [[0.2, 0.2]] }`, "acquisition safe_ucb"),
			[]wantDiag{{9, 1, "no seed point is known safe for every constraint", "every constraint lists"}}},
		{"initial design with a safe acquisition", problemWith(`constraint heat: exec "sensor" <= 80 { seed [[0.1, 0.1]] }`, "acquisition safe_ucb", "init sobol(4)"),
			[]wantDiag{{10, 1, "acquisition safe_ucb evaluates the seed points first: an initial design could leave the safe set", "remove the init"}}},
		{"seed outside the candidates", problemWith(`constraint heat: exec "sensor" <= 80 { seed [[0.15, 0.1]] }`, "acquisition safe_ucb", "candidates grid(n = 11)"),
			[]wantDiag{{8, 1, "seed point 0 of constraint heat, [0.15, 0.1], is not one of the candidates", "seeds must be candidates"}}},
		{"safeopt beyond three components", strings.Replace(problemWith(`constraint heat: exec "sensor" <= 80 { seed [[0.1, 0.1, 0.1, 0.1]] }`, "acquisition safeopt"),
			"y in [0, 1]", "y in [0, 1]\n    z[2] in [0, 1]", 1),
			[]wantDiag{{10, 13, "acquisition safeopt chooses among the candidates or a grid, which covers 3 components or fewer; this domain has 4", "use safe_ucb"}}},
		{"landing on a pool", strings.Replace(problemWith("constraint heat: exec \"sensor\" <= 80 {\n    seed [[0.1, 0.1, 0.1, 0.1]]\n    landing mean\n}",
			"acquisition safe_ucb", "input noise x ~ normal(0, 0.05)"), "y in [0, 1]", "y in [0, 1]\n    z[2] in [0, 1]", 1),
			[]wantDiag{{11, 5, "constraint heat: landing mean on a continuous domain of more than 3 components is not supported in this version of boc", "candidates"}}},
		{"constraint kernel without a generic form", problemWith(`constraint heat: exec "sensor" <= 80 {`, "    seed [[0.1, 0.1]]", "    kernel linear", "}", "acquisition safe_ucb"),
			[]wantDiag{{10, 12, "kernel linear cannot model safety constraint heat: its Gaussian process takes one of matern12, matern32, matern52, rq, rqmix, se", ""}}},
		{"GP-optimistic expanders over a large grid", problemWith(`constraint heat: exec "sensor" <= 80 { seed [[0.1, 0.1]] }`, "acquisition safeopt"),
			[]wantDiag{{9, 13, "acquisition safeopt finds expanders with the constraints' posterior covariance over its 4097 points, which needs 1000 or fewer", "lipschitz"}}},
		{"stop condition on a safe acquisition's value", problemWith(`constraint heat: exec "sensor" <= 80 { seed [[0.1, 0.1]] }`, "acquisition safe_ucb", "stop when evaluations > 5 or acquisition < 0.1"),
			[]wantDiag{{10, 30, "acquisition safe_ucb has no value for a stop condition to use", "stop on best and evaluations"}}},
		{"random seeds of a measured constraint", problemWith(`constraint heat: exec "sensor" <= 80 { seed random(n = 3) }`, "acquisition safe_ucb"),
			[]wantDiag{{8, 45, "seed random(n) draws seeds among the truly safe points, which only a simulated constraint knows", "seed [[...], ...]"}}},
		{"random seeds without candidates", problemWith(`constraint heat: simulated x <= 0.8 { seed random(n = 3) }`, "acquisition safe_ucb"),
			[]wantDiag{{8, 1, "seed random(n) draws the seeds among the candidates: give candidates", "uniform_ball"}}},
		{"random seeds of different sizes", problemWith(`constraint heat: simulated x <= 0.8 { seed random(n = 3) }`,
			`constraint load: simulated y <= 0.8 { seed random(n = 4) }`, "candidates grid(n = 5)", "acquisition safe_ucb"),
			[]wantDiag{{9, 1, "seed random(n) draws the seeds of every constraint at once: all must give it, with the same n", "n = 4"}}},
		{"oracle of a measured constraint", problemWith(`constraint heat: exec "sensor" <= 80`, "candidates grid(n = 5)", "acquisition oracle_ucb"),
			[]wantDiag{{8, 1, "acquisition oracle_ucb plays the true safe set, but constraint heat is measured, not simulated", "simulated EXPR"}}},
		{"input noise without a landing", problemWith(`constraint heat: exec "sensor" <= 80 { seed [[0.1, 0.1]] }`, "acquisition safe_ucb", "input noise x ~ normal(0, 0.05)"),
			[]wantDiag{{8, 1, "constraint heat: the input noise lands queries off their aim; say what the constraint requires there", "landing chance(alpha = 0.05"}}},
		{"landing with safeopt", problemWith("constraint heat: exec \"sensor\" <= 80 {\n    seed [[0.1, 0.1]]\n    landing chance(alpha = 0.1)\n}", "acquisition safeopt", "input noise x ~ normal(0, 0.05)"),
			[]wantDiag{{10, 5, "constraint heat: landing chance with acquisition safeopt is not supported in this version of boc", "safe_ucb"}}},
		{"unscented acquisition without input noise", problemWith("acquisition uei"),
			[]wantDiag{{8, 13, "acquisition uei averages over the input noise, but none is declared", "input noise x ~ normal(0, 0.05)"}}},
		{"search not built", problemWith("search test_unbuilt"),
			[]wantDiag{{8, 8, "search test_unbuilt is not available in this version of boc", "lbfgs, pattern"}}},
		{"learn in a kernel without derivatives", problemWith("model gp(kernel = test_value_only(scale = learn))"),
			[]wantDiag{{8, 35, "kernel test_value_only cannot learn its hyperparameters: give a fixed value, e.g. scale = 1", ""}}},
		{"learn beside a kernel without derivatives", problemWith("model gp(kernel = se + test_value_only)"),
			[]wantDiag{{8, 24, "kernel test_value_only has no derivatives, so no hyperparameter of the kernel it is part of can be learned", "fixed values"}}},
		{"unknown safety constraint without a safe acquisition", problemWith(`constraint heat: exec "sensor" <= 80`),
			[]wantDiag{{8, 1, "unknown safety constraint heat needs a safe acquisition; ei would not keep to it", "oracle_ucb, safe_ucb, safeopt, stageopt or unsafe_ucb"}}},
		{"bounds too wide for float64", strings.Replace(problemWith(), "x in [0, 1]", "x in [-1e308, 1e308]", 1),
			[]wantDiag{{3, 11, "the range [-1e+308, 1e+308] is wider than a float64 can hold", "rescale"}}},
		{"budget beyond memory", strings.Replace(problemWith(`model gp(approx = "exact")`), "budget 10", "budget 1000000000", 1),
			[]wantDiag{{7, 8, "budget 1000000000 makes the optimiser hold about 55.5 EiB; this version of boc allows up to 8 GiB", `approx = "local"`}}},
		{"budget beyond a local model's memory", strings.Replace(problemWith(), "budget 10", "budget 1000000000", 1),
			[]wantDiag{{7, 8, "budget 1000000000 makes the optimiser hold about 171 GiB; this version of boc allows up to 8 GiB", "keeps every observation"}}},
		{"local model with a safe acquisition", strings.Replace(problemWith(`model gp(approx = "local")`, "acquisition safe_ucb", `constraint heat: simulated x <= 0.8 { seed [[0.1, 0.1]] }`), "budget 10", "budget 500", 1),
			[]wantDiag{{8, 10, "a local model is not built with a safe acquisition in this version of boc", `approx = "exact"`}}},
		{"local model over choices", strings.Replace(categoricalWith(`model gp(approx = "local")`), "budget 10", "budget 500", 1),
			[]wantDiag{{8, 10, "a local model is not built over a domain with choices or conditional components in this version of boc", `approx = "exact"`}}},
		{"unknown approx", problemWith(`model gp(approx = "sparse")`),
			[]wantDiag{{8, 10, `unknown approx "sparse": want "auto", "exact" or "local"`, ""}}},
		{"search beyond memory", problemWith("search lbfgs(raw = 1000000000, restarts = 1000000)", "model gp(kernel = se(lengthscale = 0.2))"),
			[]wantDiag{{8, 8, "search lbfgs makes the optimiser hold about 15.2 GiB; this version of boc allows up to 8 GiB", "lower raw or restarts"}}},
		{"too many learned values", "problem demo\ndomain { p[1024] in [0, 1] }\nobjective minimize sphere(p)\nbudget 10\n",
			[]wantDiag{{2, 10, "the model learns 1027 values; this version of boc fits at most 1024", "fixed value"}}},
		{"requirement with a kernel its Gaussian process cannot evaluate", problemWith("require purity: simulated x + y >= 0.5", "model gp(kernel = se + linear)"),
			[]wantDiag{{8, 1, "kernel sum cannot model requirement purity: they take one of matern12, matern32, matern52, rq, rqmix, se", "require purity: ... { kernel matern52 }"}}},
		{"several objectives with a safety constraint without seeds", severalWith(`constraint heat: exec "sensor" <= 80`),
			[]wantDiag{{11, 1, "constraint heat has no seed points, and acquisition ehvi starts from known-safe points", "seed [[...]]"}}},
		{"several objectives with a safety constraint and a design", severalWith(`constraint heat: exec "sensor" <= 80 { seed [[0.1, 0.1]] }`, "init sobol(4)"),
			[]wantDiag{{12, 1, "acquisition ehvi evaluates the seed points first: an initial design could leave the safe set", "remove the init"}}},
		{"several objectives with a safety constraint over four components", strings.Replace(severalWith(`constraint heat: exec "sensor" <= 80 { seed [[0.1, 0.1, 0.1, 0.1]] }`),
			"y in [0, 1]", "y in [0, 1]\n    z[2] in [0, 1]", 1),
			[]wantDiag{{12, 1, "an unknown safety constraint over more than 3 components with several objectives is not built in this version of boc", "make it a requirement"}}},
		{"several objectives with input noise", severalWith("input noise x ~ normal(0, 0.05)"),
			[]wantDiag{{11, 13, "input noise with several objectives is not built in this version of boc", "leave the input noise out"}}},
		{"several objectives over candidates", severalWith("candidates grid(n = 5)"),
			[]wantDiag{{11, 1, "a candidates list with several objectives is not built in this version of boc", "search the domain"}}},
		{"several objectives with a stop condition", severalWith("stop when evaluations > 5"),
			[]wantDiag{{11, 11, "stop when with several objectives is not built in this version of boc", "budget"}}},
		{"several objectives with a search without gradients", severalWith("search pattern"),
			[]wantDiag{{11, 8, "search pattern with several objectives is not built in this version of boc", "search lbfgs"}}},
		{"several objectives with a requirement of its own binding", severalWith(`require purity: exec "assay" >= 0.9`),
			[]wantDiag{{11, 17, "a requirement measured by a binding of its own with several objectives is not built in this version of boc", "reported"}}},
		{"several objectives with a kernel their Gaussian processes cannot evaluate", severalWith("model gp(kernel = se * linear)"),
			[]wantDiag{{11, 7, "kernel product cannot model the objectives' Gaussian processes: they take one of matern12, matern32, matern52, rq, rqmix, se", "model gp(kernel = matern52)"}}},
		{"ehvi beyond three objectives", strings.Replace(severalWith("acquisition ehvi"), "}\nbudget", "    minimize f3 = x\n    minimize f4 = y\n}\nbudget", 1),
			[]wantDiag{{13, 13, "acquisition ehvi is exact for 2 or 3 objectives; this problem has 4", "parego"}}},
		{"a trust region beyond three objectives", strings.Replace(severalWith("search turbo"), "}\nbudget", "    minimize f3 = x\n    minimize f4 = y\n}\nbudget", 1),
			[]wantDiag{{13, 8, "search turbo is not built with more than 3 objectives in this version of boc", "search lbfgs"}}},
		{"a trust region beside a safety constraint with several objectives", severalWith(`constraint heat: exec "sensor" <= 80 { seed [[0.1, 0.1]] }`, "search turbo"),
			[]wantDiag{{12, 8, "search turbo is not built with a safe acquisition, which searches its own decision set in this version of boc", "search lbfgs"}}},
		{"a single-objective acquisition with several objectives", severalWith("acquisition ei"),
			[]wantDiag{{11, 13, "acquisition ei scores one objective; this problem has 2", "ehvi or parego"}}},
		{"an acquisition of several objectives with one", problemWith("acquisition parego"),
			[]wantDiag{{8, 13, "acquisition parego needs several objectives; this problem has one", "objective exec"}}},
		{"warp with fixed hyperparameters", problemWith(`model gp(kernel = se(lengthscale = 0.3, variance = 1), warp = "power")`),
			[]wantDiag{{8, 7, `model gp with warp = "power" needs learned hyperparameters: the warping is refitted with them`, "lengthscale = learn"}}},
		{"warp beside requirements", problemWith(`model gp(warp = "power")`, "require c: simulated x <= 0.5"),
			[]wantDiag{{8, 7, `model gp with warp = "power" is not supported yet beside safety constraints, requirements or several objectives`, "remove warp"}}},
		{"a prior mean misspelt", problemWith(`model gp(mean = "worse")`),
			[]wantDiag{{8, 10, `unknown mean "worse": want "auto", "average" or "worst"`, `did you mean "worst"?`}}},
		{"a warp that is not built", problemWith(`model gp(warp = "log")`),
			[]wantDiag{{8, 10, `unknown warp "log": want "none", "power", "worse_tail" or "auto"`, "power"}}},
		{"a warp misspelt", problemWith(`model gp(warp = "worse_tails")`),
			[]wantDiag{{8, 10, `unknown warp "worse_tails": want "none", "power", "worse_tail" or "auto"`, `did you mean "worse_tail"?`}}},
		{"a kernel that measures a categorical component as a number", categoricalWith("model gp(kernel = linear)"),
			[]wantDiag{{8, 19, "kernel linear treats every component as a number; a categorical dimension (y) needs a stationary kernel", "se, matern12"}}},
		{"an interaction without choices", problemWith("model gp(kernel = matern52(interaction = 0.5))"),
			[]wantDiag{{8, 28, "matern52's interaction weighs the kernel over numbers and choices together against their sum; the domain has no categorical dimension", "leave interaction out"}}},
		{"sweeps over candidates", strings.Replace(problemWith("candidates grid(n = 9)", "search lbfgs(sweeps = 2)"), "budget 10", "budget 5", 1),
			[]wantDiag{{9, 14, "lbfgs's sweeps have nothing to sweep over candidates, a finite decision set", "leave sweeps out"}}},
		{"groups misspelt", problemWith(`model gp(kernel = matern52(groups = "component"))`),
			[]wantDiag{{8, 28, `unknown groups "component": want "kinds" or "components"`, `did you mean "components"?`}}},
		{"an additive kernel over input distributions", problemWith("input noise x ~ normal(0, 0.05)", `model ugp(kernel = se(groups = "components"))`),
			[]wantDiag{{9, 23, `se's groups = "components" is not built for a model over input distributions (its kernel sums know only the kernel over all components)`, "leave groups out"}}},
		{"an additive kernel lent to an outcome's model", problemWith("require purity: simulated x + y >= 0.5", `model gp(kernel = matern52(groups = "components"))`),
			[]wantDiag{{9, 28, `the Gaussian process of output purity takes its kernel over all components together: groups = "components" is not built there`, "a kernel of its own"}}},
		{"an interaction over input distributions", categoricalWith("input noise x ~ normal(0, 0.05)", "model ugp(kernel = se(interaction = learn))"),
			[]wantDiag{{9, 23, "se's interaction is not built for a model over input distributions (its kernel sums know only the product)", "leave interaction out"}}},
		{"a linear part of a sum over a categorical dimension", categoricalWith("model gp(kernel = se + linear)"),
			[]wantDiag{{8, 24, "kernel linear treats every component as a number; a categorical dimension (y) needs a stationary kernel", "sums and products"}}},
		{"a trust region over a categorical dimension", categoricalWith("search turbo"),
			[]wantDiag{{8, 8, "search turbo is not built over a domain with categorical dimensions in this version of boc", "search lbfgs"}}},
		{"several trust regions with a local model", strings.Replace(problemWith(`model gp(approx = "local", local_size = 16)`, "search turbo(regions = 3)"), "budget 10", "budget 40", 1),
			[]wantDiag{{9, 14, "several trust regions are not built with a local model in this version of boc", "one centre"}}},
		{"several trust regions with several objectives", severalWith("search turbo(regions = 2)"),
			[]wantDiag{{11, 14, "several trust regions are not built with several objectives in this version of boc", "turbo(regions = 1)"}}},
		{"a trust region's length outside its bounds", problemWith("search turbo(length = 2)"),
			[]wantDiag{{8, 14, "turbo's length 2 must lie in [min_length, max_length] = [0.0078125, 1.6]", "TuRBO's"}}},
		{"a go objective over a categorical dimension", strings.Replace(categoricalWith(), `x + (if y == "a" then 0 else 1)`, `go "github.com/bocdev/boc/typecheck/testdata/field".Measure`, 1),
			[]wantDiag{{6, 72, "Measure is declared at ../typecheck/testdata/field/field.go:12:6 as func(x [2]float64) float64; a categorical dimension (y) cannot be passed in [2]float64", "take a struct"}}},
		{"candidates over a categorical dimension", categoricalWith("candidates uniform_ball(n = 10, radius = 1)"),
			[]wantDiag{{8, 1, "a candidate generator draws numbers; a domain with categorical dimensions takes its candidates from a file", `candidates file "points.csv"`}}},
		{"the plan's errors wait for the checker's", problemWith(
			"search test_unbuilt",
			"model gp(kernel = matern32(lengthscale = 0.2, variance = 1) * test_value_only(scale = learn))"),
			[]wantDiag{
				{8, 8, "search test_unbuilt is not available in this version of boc", ""},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := driver.Compile("demo.bo", []byte(tt.src), driver.Options{})
			if u.Program != nil || u.Plan != nil {
				t.Errorf("Compile accepted the file")
			}
			errs := u.Diagnostics.Errors()
			if len(errs) != len(tt.want) {
				t.Fatalf("got %d errors, want %d: %v", len(errs), len(tt.want), errs)
			}
			for i, w := range tt.want {
				d := errs[i]
				if d.Span.Start.Line != w.line || d.Span.Start.Col != w.col || d.Message != w.message || !strings.Contains(d.Hint, w.hint) {
					t.Errorf("error %d: got %d:%d %q (hint %q)\nwant %d:%d %q (hint containing %q)",
						i, d.Span.Start.Line, d.Span.Start.Col, d.Message, d.Hint, w.line, w.col, w.message, w.hint)
				}
			}
		})
	}
}

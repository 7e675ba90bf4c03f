package typecheck

import (
	"fmt"
	"go/token"
	"regexp"
	"slices"
	"strings"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// statements is the file's statements by kind. A statement that may appear
// once is kept at its first occurrence; later ones were reported as
// duplicates and are not checked further.
type statements struct {
	problem     *ast.ProblemStmt
	domain      *ast.DomainStmt
	objective   *ast.ObjectiveStmt
	candidates  *ast.CandidatesStmt
	inputNoise  *ast.InputNoiseStmt
	obsNoise    *ast.ObservationNoiseStmt
	plugins     map[string]*ast.PluginStmt // by keyword: model, acquisition, search, init
	values      map[string]*ast.ValueStmt  // by keyword: budget, seed, stop
	lets        []*ast.LetStmt
	constraints []*ast.ConstraintStmt
}

// pluginKinds maps the keyword of a plugin statement to the kind of its call.
var pluginKinds = map[string]registry.Kind{
	"model":       registry.Model,
	"acquisition": registry.Acquisition,
	"search":      registry.Search,
	"init":        registry.Init,
}

// The language's defaults for statements left out (LANGUAGE.md). The init
// design's size is computed in defaultInit, and the acquisition of noisy
// observations is noisyAcquisition (defaultPlugin).
var defaultPlugins = map[string]string{
	"model":       "gp",
	"acquisition": "ei",
	"search":      "lbfgs",
	"init":        "sobol",
}

// The default acquisitions when the observations are noisy (declared,
// learned or reported noise), the domain continuous and no constraint
// unknown. With a model over points it is the knowledge gradient, ahead of
// the portfolio and of ei on eleven noisy problems over 40 seeds
// (docs/noise-factors.md, "the knowledge gradient"); a model over input
// distributions has no lookahead and keeps the portfolio, level with ei in
// 2 and 3 dimensions and well ahead of it in 6 ("a portfolio"). Exact
// observations keep ei: the portfolio's exploiting pi arm costs precision
// there, and the knowledge gradient was 8 times behind ei on Hartmann6.
const (
	noisyAcquisition      = "kg"
	noisyInputAcquisition = "hedge"
)

// The default acquisitions of several objectives: the expected hypervolume
// improvement where it is exact, up to exactObjectives of them, and ParEGO
// beyond. EHVI found 90–92 % of BraninCurrin's hypervolume in 24
// evaluations where ParEGO found 72–82 % (runtime/pareto's tests).
const (
	severalObjectivesAcquisition = "ehvi"
	manyObjectivesAcquisition    = "parego"
	exactObjectives              = 3
)

// defaultPlugin is the plugin a left-out statement key takes.
func (c *checker) defaultPlugin(key string) string {
	if key == "acquisition" && c.prog.Objective.Outputs != nil {
		if len(c.prog.Objective.Outputs) > exactObjectives {
			return manyObjectivesAcquisition
		}
		return severalObjectivesAcquisition
	}
	if key == "acquisition" && c.prog.ObsNoise.Kind != ir.ObsNoiseNone && c.prog.Candidates == nil &&
		!slices.ContainsFunc(c.prog.Constraints, (*ir.Constraint).Safety) {
		if c.statedModelUsesInputNoise() {
			return noisyInputAcquisition
		}
		return noisyAcquisition
	}
	if key == "search" && c.prog.D >= trustRegionDimension && c.trustRegionFits() && !c.additiveFits() {
		return trustRegionSearch
	}
	return defaultPlugins[key]
}

// defaultCall is the call a left-out statement key takes: its default
// plugin, with the arguments of the additive recipe where it applies.
func (c *checker) defaultCall(key string) ast.Expr {
	sp := c.noSource()
	ident := func(name string) *ast.Ident { return &ast.Ident{Pos: sp, Name: name} }
	plugin := ident(c.defaultPlugin(key))
	if !c.additiveFits() {
		return plugin
	}
	var args []*ast.Arg
	switch key {
	case "model": // gp(kernel = matern52(groups = "components"), warp = "power")
		kernel := &ast.CallExpr{Pos: sp, Fun: ident(additiveFamily),
			Args: []*ast.Arg{{Pos: sp, Name: ident("groups"), Value: &ast.StringLit{Pos: sp, Value: registry.GroupsComponents}}}}
		args = []*ast.Arg{{Pos: sp, Name: ident("kernel"), Value: kernel},
			{Pos: sp, Name: ident("warp"), Value: &ast.StringLit{Pos: sp, Value: additiveWarp}}}
	case "search": // lbfgs(sweeps = 2, near_best = 0)
		args = []*ast.Arg{{Pos: sp, Name: ident("sweeps"),
			Value: &ast.NumberLit{Pos: sp, Text: fmt.Sprint(additiveSweeps), Value: additiveSweeps, Int: true}},
			{Pos: sp, Name: ident("near_best"), Value: &ast.NumberLit{Pos: sp, Text: "0", Value: 0, Int: true}}}
	default:
		return plugin
	}
	return &ast.CallExpr{Pos: sp, Fun: plugin, Args: args}
}

// The default model and search from additiveDimension components on, where
// they fit (additiveFits): an additive kernel, additiveFamily over the
// components one by one averaged with the kernel over all of them by a
// learned interaction (with which the plan learns a residual variance),
// values warped by additiveWarp, and additiveSweeps coordinate sweeps of
// the global search, whose raw candidates stay all quasi-random (near_best
// = 0): the sweeps search along each component from the best refined point
// already, and candidates near the incumbent as well raised the recipe's
// regret on Ackley 30 and Rosenbrock 20 (5 seeds, docs/quality.md,
// "Candidates near the best point"). At 400 evaluations the kernel and the sweeps were
// ahead of the trust region, the default before them, on Levy in 20, 30 and
// 60 dimensions, Ackley in 30 and 60 and Hartmann6 among 100 (by 1.2 to 9
// times), behind it on Ackley 20 (within the quartiles) and level on
// Rosenbrock 20; the warping then cut the regret on Rosenbrock 20 by 3.2,
// Levy 20 by 1.6 and Ackley 30 by 1.2, and raised it on Levy 30 by 1.7 and
// Ackley 20 by 1.1 (docs/quality.md, "High dimensions").
const (
	additiveDimension = 20
	additiveFamily    = "matern52"
	additiveWarp      = "power"
	additiveSweeps    = 2
)

// additiveFits reports whether the additive recipe is the default: from
// additiveDimension components on, where a trust region would fit, for a
// file that leaves the model out and measures no constraint (a
// requirement's or a safety constraint's Gaussian process, which takes the
// model's kernel, is not built over components one by one).
func (c *checker) additiveFits() bool {
	return c.prog.D >= additiveDimension && c.stmts.plugins["model"] == nil && c.trustRegionFits() &&
		!slices.ContainsFunc(c.prog.Constraints, func(k *ir.Constraint) bool { return !k.Known })
}

// The default search from trustRegionDimension components on, where it
// fits and the additive recipe does not (a file that states its model):
// TuRBO-1's trust region, ahead of the global lbfgs on Ackley and
// Levy in 20, 30 and 60 dimensions, at half lbfgs's regret on Levy
// (docs/quality.md, "High dimensions"). Below, the global search keeps the
// default: the trust region was not measured ahead there. Several
// objectives keep it at every dimension: their region was ahead on DTLZ2
// but behind on ZDT1–3 (docs/quality.md, "Several objectives against Optuna's MOTPE and NSGA-II").
const (
	trustRegionSearch    = "turbo"
	trustRegionDimension = 20
)

// trustRegionFits reports whether a trust-region search is built for the
// program and is the default there (plan.trustRegion refuses the rest): a
// domain without choices, no candidates, one objective, an acquisition
// that is not safe and a model over points.
func (c *checker) trustRegionFits() bool {
	p := c.prog
	if p.Candidates != nil || p.Objective.Outputs != nil || slices.ContainsFunc(p.Dims, (*ir.Dim).Categorical) {
		return false
	}
	if a := p.Acquisition; a != nil {
		if acq, ok := c.plugins.ByID(a.Plugin); ok && acq.Safe {
			return false
		}
	}
	if m := p.Model; m != nil {
		if model, ok := c.plugins.ByID(m.Plugin); ok && model.UsesInputNoise {
			return false
		}
	}
	return true
}

// statedModelUsesInputNoise reports whether the file's model statement names
// a model over input distributions (the default model, gp, is not one).
func (c *checker) statedModelUsesInputNoise() bool {
	s := c.stmts.plugins["model"]
	if s == nil {
		return false
	}
	name, _, ok := splitCall(s.Call)
	if !ok {
		return false
	}
	p, ok := c.plugins.Lookup(registry.Model, name.Name)
	return ok && p.UsesInputNoise
}

// required lists the statements every file needs, with an example for the hint.
var required = []struct{ key, example string }{
	{"problem", "problem my_problem"},
	{"domain", "domain { x in [0, 1] }"},
	{"objective", "objective minimize sphere(x)"},
	{"budget", "budget 50"},
}

// stmtKey names the statement for "at most once" bookkeeping and messages; ""
// for statements that may repeat (let, constraint) and for unknown keywords.
func stmtKey(s ast.Stmt) string {
	switch s := s.(type) {
	case *ast.ProblemStmt:
		return "problem"
	case *ast.DomainStmt:
		return "domain"
	case *ast.ObjectiveStmt:
		return "objective"
	case *ast.CandidatesStmt:
		return "candidates"
	case *ast.InputNoiseStmt:
		return "input noise"
	case *ast.ObservationNoiseStmt:
		return "observation noise"
	case *ast.PluginStmt:
		if _, ok := pluginKinds[s.Keyword]; ok {
			return s.Keyword
		}
	case *ast.ValueStmt:
		switch s.Keyword {
		case "budget", "seed":
			return s.Keyword
		case "stop":
			return "stop when"
		}
	}
	return ""
}

// collect sorts the statements by kind, reports duplicates, and declares the
// names of lets and dimensions in source order.
func (c *checker) collect() {
	st := &c.stmts
	st.plugins = map[string]*ast.PluginStmt{}
	st.values = map[string]*ast.ValueStmt{}
	first := map[string]ast.Stmt{}
	for _, s := range c.file.Stmts {
		if isNil(s) {
			c.incomplete("statement")
			continue
		}
		key := stmtKey(s)
		if key != "" {
			if prev, dup := first[key]; dup {
				c.errorHint(s.Span(), fmt.Sprintf("the first %s statement is at line %d", key, prev.Span().Start.Line),
					"duplicate %s statement", key)
				continue
			}
			first[key] = s
		}
		switch s := s.(type) {
		case *ast.ProblemStmt:
			st.problem = s
		case *ast.DomainStmt:
			st.domain = s
			for _, d := range s.Dims {
				if d != nil && d.Name != nil {
					c.declare(d.Name, dimSym)
				}
			}
		case *ast.ObjectiveStmt:
			st.objective = s
		case *ast.CandidatesStmt:
			st.candidates = s
		case *ast.InputNoiseStmt:
			st.inputNoise = s
		case *ast.ObservationNoiseStmt:
			st.obsNoise = s
		case *ast.LetStmt:
			st.lets = append(st.lets, s)
			if s.Name != nil {
				c.declare(s.Name, letSym)
			}
		case *ast.ConstraintStmt:
			st.constraints = append(st.constraints, s)
		case *ast.PluginStmt:
			if key == "" {
				c.errorf(s.Pos, "unknown statement %q", s.Keyword)
				continue
			}
			st.plugins[key] = s
		case *ast.ValueStmt:
			if key == "" {
				c.errorf(s.Pos, "unknown statement %q", s.Keyword)
				continue
			}
			st.values[s.Keyword] = s
		}
	}
}

// reportMissing reports the required statements the file lacks, at its start.
func (c *checker) reportMissing() {
	present := map[string]bool{
		"problem":   c.stmts.problem != nil,
		"domain":    c.stmts.domain != nil,
		"objective": c.stmts.objective != nil,
		"budget":    c.stmts.values["budget"] != nil,
	}
	for _, r := range required {
		if !present[r.key] {
			c.errorHint(c.fileStart(), fmt.Sprintf("add one, e.g. `%s`", r.example), "missing %s statement", r.key)
		}
	}
}

// goPackageName is what a Go package name may look like; boc asks for the
// conventional form (lowercase), which is also a valid directory name.
var goPackageName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

func (c *checker) checkProblem() {
	s := c.stmts.problem
	if s == nil {
		return
	}
	c.stmtSpan = s.Pos
	if s.Name == nil {
		c.incomplete("problem statement")
		return
	}
	name := s.Name.Name
	switch {
	case !goPackageName.MatchString(name):
		c.errorHint(s.Name.Pos, fmt.Sprintf("use lowercase letters, digits and underscores, e.g. %s", packageNameLike(name)),
			"problem name %q is not a valid Go package name", name)
	case token.IsKeyword(name):
		c.errorHint(s.Name.Pos, fmt.Sprintf("e.g. %s_problem", name), "problem name %q is a Go keyword", name)
	case name == "main":
		c.errorHint(s.Name.Pos, "e.g. main_problem",
			"problem name \"main\" is taken by the generated program; the library package needs another name")
	}
	c.prog.Name = name
}

// packageNameLike turns name into a valid package name for a hint.
func packageNameLike(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		case b.Len() > 0:
			b.WriteByte('_')
		}
	}
	s := strings.Trim(b.String(), "_")
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		s = "problem_" + s
	}
	s = strings.TrimRight(s, "_")
	if token.IsKeyword(s) || s == "main" {
		s += "_problem" // Func would become func, itself refused
	}
	return s
}

func (c *checker) checkBudget() {
	s := c.stmts.values["budget"]
	if s == nil {
		return
	}
	c.stmtSpan = s.Pos
	n, ok := c.constInt(s.Value, "budget", exprCtx{})
	if !ok {
		return
	}
	if n < 1 {
		c.errorf(s.Value.Span(), "budget must be positive, got %d", n)
		return
	}
	c.prog.Budget, c.prog.BudgetSpan = n, s.Value.Span()
	c.budgetOK = true
}

func (c *checker) checkSeed() {
	s := c.stmts.values["seed"]
	if s == nil {
		return
	}
	c.stmtSpan = s.Pos
	n, ok := c.constInt(s.Value, "seed", exprCtx{})
	if !ok {
		return
	}
	if n < 0 {
		c.errorf(s.Value.Span(), "seed must not be negative, got %d", n)
		return
	}
	c.prog.Seed = uint64(n)
}

// checkPluginStmt checks `model CALL`, `acquisition CALL` or `search CALL`, or
// fills in the language's default.
func (c *checker) checkPluginStmt(key string, dst **ir.Call) {
	kind := pluginKinds[key]
	ctx := constCtx(fmt.Sprintf("%s arguments must be constant", key))
	if s := c.stmts.plugins[key]; s != nil {
		c.stmtSpan = s.Pos
		if cc := c.call(kind, s.Call, ctx); cc != nil {
			*dst = cc.call
		}
		return
	}
	if cc := c.call(kind, c.defaultCall(key), ctx); cc != nil {
		markDefault(cc.call)
		*dst = cc.call
	}
}

// markDefault marks every argument of a call the file left out as a
// default, those of its nested calls too: the additive recipe's arguments
// (defaultCall) are the language's, not the file's.
func markDefault(call *ir.Call) {
	for _, a := range call.Args {
		a.Default = true
		if nested, ok := a.Value.(*ir.Call); ok {
			markDefault(nested)
		}
	}
}

// checkModel checks the model and warns when it ignores declared input noise
// and the acquisition does too.
func (c *checker) checkModel() {
	c.checkPluginStmt("model", &c.prog.Model)
	noise := c.stmts.inputNoise
	if noise == nil || c.prog.Model == nil || c.prog.Objective.Outputs != nil {
		return // several objectives refuse input noise (plan)
	}
	p, ok := c.plugins.ByID(c.prog.Model.Plugin)
	if !ok || p.UsesInputNoise || (p.Inflates != nil && p.Inflates(c.prog.Model)) {
		return
	}
	if a := c.prog.Acquisition; a != nil {
		if acq, ok := c.plugins.ByID(a.Plugin); ok && (acq.UsesInputNoise || acq.Safe) {
			return // the acquisition accounts for the noise (uei), or the constraints' landing does
		}
	}
	aware := map[registry.Kind][]string{}
	for _, m := range c.plugins.All() {
		if m.UsesInputNoise {
			aware[m.Kind] = append(aware[m.Kind], m.Name)
		}
	}
	msg := fmt.Sprintf("input noise is declared but model %s ignores it", p.Name)
	var uses []string
	if models := aware[registry.Model]; len(models) > 0 {
		uses = append(uses, "model "+orList(models))
	}
	if acqs := aware[registry.Acquisition]; len(acqs) > 0 {
		uses = append(uses, "acquisition "+orList(acqs))
	}
	if len(uses) > 0 {
		msg += "; use " + strings.Join(uses, ", or ")
	}
	c.report(dsl.Warningf(noise.Pos, "%s", msg))
}

// orList renders "a", "a or b", "a, b or c".
func orList(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// checkInit checks the initial design, or fills in sobol(n) with
// n = min(budget, max(4, 2·D)).
func (c *checker) checkInit() {
	s := c.stmts.plugins["init"]
	if s == nil {
		c.defaultInit()
		return
	}
	c.stmtSpan = s.Pos
	c.prog.Init.Span = s.Pos
	if lit, ok := s.Call.(*ast.VecLit); ok {
		pts, _ := c.points(lit, "initial point", "initial points must be constant")
		c.prog.Init.Points = pts
		if c.budgetOK && len(pts) > c.prog.Budget {
			c.errorHint(lit.Pos, "remove points or raise the budget",
				"%d initial points exceed the budget of %d evaluations", len(pts), c.prog.Budget)
		}
		return
	}
	cc := c.call(registry.Init, s.Call, constCtx("initial design arguments must be constant"))
	if cc == nil {
		return
	}
	c.prog.Init.Call = cc.call
	if n := c.prog.Init.Size(); c.budgetOK && n > c.prog.Budget {
		sp := cc.call.Span
		if a := cc.call.Arg("n"); a != nil {
			sp = a.Span
		}
		c.errorHint(sp, "lower n or raise the budget",
			"the initial design has %d points but the budget is %d evaluations", n, c.prog.Budget)
	}
}

func (c *checker) defaultInit() {
	if !c.budgetOK || !c.domainOK {
		return
	}
	sp := c.noSource()
	n := min(c.prog.Budget, max(4, 2*c.prog.D))
	call := &ast.CallExpr{Pos: sp, Fun: &ast.Ident{Pos: sp, Name: defaultPlugins["init"]},
		Args: []*ast.Arg{{Pos: sp, Value: &ast.NumberLit{Pos: sp, Text: fmt.Sprint(n), Value: float64(n), Int: true}}}}
	if cc := c.call(registry.Init, call, constCtx("")); cc != nil {
		c.prog.Init = ir.Init{Span: sp, Call: cc.call}
	}
}

// stopNames are the names a stop condition may use, with their types.
var stopNames = map[string]dsl.Type{
	"acquisition": dsl.RealType, // the last maximised acquisition value
	"best":        dsl.RealType, // the best observed value, in the user's sign
	"evaluations": dsl.IntType,  // objective evaluations so far
}

func (c *checker) checkStop() {
	s := c.stmts.values["stop"]
	if s == nil {
		return
	}
	c.stmtSpan = s.Pos
	e := c.expr(s.Value, exprCtx{stop: true,
		why: "a stop condition can use acquisition, best, evaluations and constants"})
	if isInvalid(e) {
		return
	}
	if e.Type().Kind != dsl.Bool {
		c.errorHint(e.Span(), "e.g. stop when acquisition < 0.001", "stop condition must be a bool, got %s", e.Type())
		return
	}
	if v, ok := constOf(e); ok {
		c.report(dsl.Warningf(e.Span(), "stop condition is always %v", v.Truth))
	}
	c.prog.Stop = e
}

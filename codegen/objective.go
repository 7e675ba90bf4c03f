package codegen

import (
	"fmt"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/dave/jennifer/jen"
)

// programPath is the import path of the runtime package of emitted programs.
const programPath = "github.com/bocdev/boc/runtime/program"

// feasibleDecl emits the known constraints as one predicate over a point in
// user units: every G(x) >= 0. A constraint whose value is NaN is violated.
func (g *generator) feasibleDecl(f *jen.File) {
	names := newNamer("x")
	var body []jen.Code
	constraintNames := make([]string, len(g.known))
	for i, c := range g.known {
		constraintNames[i] = c.Name
		e := &exprEmitter{g: g, names: names, point: "x"}
		v, ok := e.expr(c.G)
		if !ok {
			continue
		}
		body = append(body, jen.Comment(c.Name))
		body = append(body, e.stmts...)
		body = append(body, jen.If(jen.Op("!").Parens(jen.Add(v.elems[0].in(precCompare+1)).Op(">=").Lit(0))).Block(jen.Return(jen.False())))
	}
	body = append(body, jen.Return(jen.True()))
	f.Comment("feasible reports whether x, in user units, satisfies the known constraints: " + strings.Join(constraintNames, ", ") + ".")
	f.Func().Id("feasible").Params(jen.Id("x").Id("Point")).Bool().Block(body...)
}

// objectiveDecl emits Objective, the evaluator of the objective's binding.
func (g *generator) objectiveDecl(f *jen.File) {
	b := g.p.Objective.Binding
	ctx := "_"
	var doc []string
	var body []jen.Code
	switch b.Kind {
	case ir.ExprBinding:
		doc = []string{"Objective evaluates the problem's objective expression at x."}
		e := &exprEmitter{g: g, names: newNamer("x"), point: "x"}
		v, ok := e.expr(b.Expr)
		if !ok {
			return
		}
		body = append(e.stmts, jen.Return(v.elems[0].code, jen.Nil()))
	case ir.GoBinding:
		doc = []string{fmt.Sprintf("Objective calls %s.%s with x.", b.GoPackage, b.GoFunc)}
		var args []jen.Code
		if b.GoContext {
			ctx = "ctx"
			args = append(args, jen.Id("ctx"))
		}
		args = append(args, jen.Index(jen.Id("Dim")).Float64().Call(jen.Id("x")))
		f.ImportAlias(b.GoPackage, importAlias(b.GoPackage))
		call := jen.Qual(b.GoPackage, b.GoFunc).Call(args...)
		if b.GoError {
			body = []jen.Code{jen.Return(call)}
		} else {
			body = []jen.Code{jen.Return(call, jen.Nil())}
		}
	case ir.ExecBinding:
		ctx = "ctx"
		doc = []string{"Objective runs " + strconv.Quote(strings.Join(b.Exec, " ")) + ` with {"x": {...}} on its standard`,
			`input and reads {"y": value} from its standard output (see runtime/program.Exec).`}
		args := make([]jen.Code, len(b.Exec))
		for i, a := range b.Exec {
			args[i] = jen.Lit(a)
		}
		f.Comment("command is the objective's command line.")
		f.Var().Id("command").Op("=").Index().String().Values(args...)
		f.Comment("layout names the dimensions of a Point for the command's input.")
		f.Var().Id("layout").Op("=").Add(g.layout())
		body = []jen.Code{jen.Return(jen.Qual(programPath, "Exec").Call(jen.Id("ctx"), jen.Id("command"), jen.Id("layout"), whole(jen.Id("x"))))}
	}
	for _, line := range doc {
		f.Comment(line)
	}
	f.Func().Id("Objective").Params(jen.Id(ctx).Qual("context", "Context"), jen.Id("x").Id("Point")).Params(jen.Float64(), jen.Error()).Block(body...)
}

// importAlias names the package of a Go binding in the emitted file: the last
// element of its path that is not a major version, as an identifier, renamed
// when it would clash with the emitted declarations, imports or Objective's
// parameters.
func importAlias(importPath string) string {
	elems := strings.Split(importPath, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && isMajorVersion(name) {
		name = elems[len(elems)-2]
	}
	name = strings.Map(func(r rune) rune {
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return '_'
	}, name)
	if !token.IsIdentifier(name) || slices.Contains(reservedNames, name) || name == "ctx" || name == "x" {
		name = "user_" + name
	}
	return name
}

func isMajorVersion(elem string) bool {
	n, err := strconv.Atoi(strings.TrimPrefix(elem, "v"))
	return strings.HasPrefix(elem, "v") && err == nil && n >= 2
}

// layout is a []program.Dim literal describing the dimensions, in order.
func (g *generator) layout() jen.Code {
	dims := make([]jen.Code, len(g.p.Dims))
	for i, d := range g.p.Dims {
		fields := []kv{{"Name", jen.Lit(d.Name)}, {"Size", jen.Lit(d.Size)}}
		if d.Vector {
			fields = append(fields, kv{"Vector", jen.True()})
		}
		dims[i] = keyed(false, fields...)
	}
	return jen.Index().Qual(programPath, "Dim").Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, dims...)
}

// runDecls emits Run, which drives the optimiser with Objective, and its
// options and result types.
func (g *generator) runDecls(f *jen.File) {
	f.Comment("RunOptions configures Run.")
	f.Type().Id("RunOptions").Struct(
		jen.Comment("Seed seeds the optimiser; the problem's seed is Seed."),
		jen.Id("Seed").Uint64(),
		jen.Comment("Budget is the number of evaluations, at most Budget; 0 means Budget."),
		jen.Id("Budget").Int(),
		jen.Comment("Progress, if not nil, is called after every evaluation."),
		jen.Id("Progress").Func().Params(jen.Id("Progress")),
	)
	f.Comment("Progress describes one evaluation of a run.")
	f.Type().Id("Progress").Struct(
		jen.Id("Evaluation").Int().Comment("1 for the first"),
		jen.Id("Budget").Int().Comment("the run's budget"),
		jen.Id("X").Id("Point").Comment("the point evaluated"),
		jen.Id("Y").Float64().Comment("its value"),
		jen.Id("BestX").Id("Point").Comment("the best point observed so far"),
		jen.Id("BestY").Float64().Comment("its value"),
	)
	f.Comment("Result is the outcome of a run.")
	f.Type().Id("Result").Struct(
		jen.Id("Evaluations").Int(),
		jen.Comment("Recommendation is the evaluated point with the best posterior mean,"),
		jen.Comment("RecommendationMean that mean."),
		jen.Id("Recommendation").Id("Point"),
		jen.Id("RecommendationMean").Float64(),
		jen.Comment("BestX is the evaluated point with the best observed value, BestY."),
		jen.Id("BestX").Id("Point"),
		jen.Id("BestY").Float64(),
		jen.Comment("Stopped says why the run ended: StoppedBudget, StoppedCondition or"),
		jen.Comment("StoppedExhausted."),
		jen.Id("Stopped").String(),
	)
	f.Comment("Why a run stopped.")
	f.Const().Defs(
		jen.Id("StoppedBudget").Op("=").Lit("budget"),
		jen.Id("StoppedCondition").Op("=").Lit("stop when"),
		jen.Id("StoppedExhausted").Op("=").Lit("exhausted"),
	)

	loop := []jen.Code{
		jen.If(jen.Id("err").Op(":=").Id("ctx").Dot("Err").Call(), jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(jen.Id("o").Dot("result").Call(jen.Id("stopped")), jen.Id("err")),
		),
		jen.List(jen.Id("x"), jen.Id("err")).Op(":=").Id("o").Dot("Suggest").Call(),
		jen.If(jen.Qual("errors", "Is").Call(jen.Id("err"), jen.Id("ErrExhausted"))).Block(
			jen.Id("stopped").Op("=").Id("StoppedExhausted"),
			jen.Break(),
		),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("o").Dot("result").Call(jen.Id("stopped")), jen.Id("err"))),
	}
	stopDoc := ""
	if g.p.Stop != nil {
		stopDoc = " or the stop condition holds"
		loop = append(loop, jen.If(jen.List(jen.Id("value"), jen.Id("ok")).Op(":=").Id("o").Dot("Acquisition").Call(), jen.Id("ok")).Block(
			jen.List(jen.Id("_"), jen.Id("best"), jen.Id("_")).Op(":=").Id("o").Dot("BestObserved").Call(),
			jen.If(jen.Id("stopWhen").Call(jen.Id("value"), jen.Id("best"), jen.Float64().Call(jen.Id("o").Dot("Evaluations").Call()))).Block(
				jen.Id("stopped").Op("=").Id("StoppedCondition"),
				jen.Break(),
			),
		))
	}
	loop = append(loop,
		jen.List(jen.Id("y"), jen.Id("err")).Op(":=").Id("Objective").Call(jen.Id("ctx"), jen.Id("x")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(jen.Id("o").Dot("result").Call(jen.Id("stopped")),
				g.errorf("evaluation %d at %v: %w", jen.Id("o").Dot("Evaluations").Call().Op("+").Lit(1), jen.Id("x"), jen.Id("err"))),
		),
		jen.If(jen.Id("err").Op(":=").Id("o").Dot("Observe").Call(jen.Id("x"), jen.Id("y")), jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(jen.Id("o").Dot("result").Call(jen.Id("stopped")), jen.Id("err")),
		),
		jen.If(jen.Id("opt").Dot("Progress").Op("!=").Nil()).Block(
			jen.List(jen.Id("bestX"), jen.Id("bestY"), jen.Id("_")).Op(":=").Id("o").Dot("BestObserved").Call(),
			jen.Id("opt").Dot("Progress").Call(jen.Id("Progress").Add(keyed(true,
				kv{"Evaluation", method("Evaluations")},
				kv{"Budget", jen.Id("budget")},
				kv{"X", jen.Id("x")},
				kv{"Y", jen.Id("y")},
				kv{"BestX", jen.Id("bestX")},
				kv{"BestY", jen.Id("bestY")},
			))),
		),
	)
	f.Comment("Run optimises the objective: it suggests, evaluates and observes points until the")
	f.Comment("budget is spent" + stopDoc + ", and returns the recommendation. When it fails")
	f.Comment("(an objective error, a numerical failure, ctx cancelled) the Result describes")
	f.Comment("the evaluations made before the error.")
	f.Func().Id("Run").Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("opt").Id("RunOptions")).Params(jen.Id("Result"), jen.Error()).Block(
		jen.Id("budget").Op(":=").Id("opt").Dot("Budget"),
		jen.If(jen.Id("budget").Op("==").Lit(0)).Block(jen.Id("budget").Op("=").Id("Budget")),
		jen.If(jen.Id("budget").Op("<").Lit(0).Op("||").Id("budget").Op(">").Id("Budget")).Block(
			jen.Return(jen.Id("Result").Values(), g.errorf("budget %d is outside 1..%d, the budget the optimiser was compiled for", jen.Id("budget"), jen.Id("Budget"))),
		),
		jen.Id("o").Op(":=").Id("New").Call(jen.Id("opt").Dot("Seed")),
		jen.Id("stopped").Op(":=").Id("StoppedBudget"),
		jen.For(jen.Id("o").Dot("Evaluations").Call().Op("<").Id("budget")).Block(loop...),
		jen.Return(jen.Id("o").Dot("result").Call(jen.Id("stopped")), jen.Nil()),
	)

	f.Comment("result summarises the run so far.")
	f.Func().Params(o().Op("*").Id("Optimizer")).Id("result").Params(jen.Id("stopped").String()).Id("Result").Block(
		jen.Id("r").Op(":=").Id("Result").Add(keyed(false, kv{"Evaluations", method("Evaluations")}, kv{"Stopped", jen.Id("stopped")})),
		jen.List(jen.Id("r").Dot("Recommendation"), jen.Id("r").Dot("RecommendationMean"), jen.Id("_")).Op("=").Add(method("Best")),
		jen.List(jen.Id("r").Dot("BestX"), jen.Id("r").Dot("BestY"), jen.Id("_")).Op("=").Add(method("BestObserved")),
		jen.Return(jen.Id("r")),
	)

	if g.p.Stop != nil {
		g.stopDecl(f)
	}
}

// stopDecl emits the stop condition as a predicate of the names it may use.
func (g *generator) stopDecl(f *jen.File) {
	params := []string{"acquisition", "best", "evaluations"}
	e := &exprEmitter{g: g, names: newNamer(params...), context: map[string]operand{}}
	for _, name := range params {
		e.context[name] = operand{code: jen.Id(name), prec: precPrimary, cheap: true}
	}
	v, ok := e.expr(g.p.Stop)
	if !ok {
		return
	}
	if v.typ.Kind != dsl.Bool {
		g.internal(g.p.Stop.Span(), "stop condition of type %s", v.typ)
		return
	}
	f.Comment("stopWhen is the problem's stop condition. Run checks it before evaluating each")
	f.Comment("point the search suggested (not the initial design), with the maximum of the")
	f.Comment("acquisition there, the best value observed so far and the number of evaluations.")
	f.Func().Id("stopWhen").Params(jen.List(jen.Id("acquisition"), jen.Id("best"), jen.Id("evaluations")).Float64()).Bool().
		Block(append(e.stmts, jen.Return(v.elems[0].code))...)
}

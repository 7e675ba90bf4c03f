package typecheck

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// kindNouns names each kind of plugin in messages.
var kindNouns = map[registry.Kind]string{
	registry.Model:        "model",
	registry.Kernel:       "kernel",
	registry.Acquisition:  "acquisition function",
	registry.Distribution: "distribution",
	registry.Benchmark:    "benchmark function",
	registry.Function:     "function",
	registry.Init:         "initial design",
	registry.Search:       "search",
	registry.Candidates:   "candidate generator",
}

// alternatives says how else to get what a kind of plugin gives, for hints
// when no plugin of the kind fits.
var alternatives = map[registry.Kind]string{
	registry.Candidates: `list the points in a CSV file: candidates file "points.csv"`,
}

func kindNoun(k registry.Kind) string {
	if n, ok := kindNouns[k]; ok {
		return n
	}
	return string(k)
}

// aKind names a kind with its article: "a kernel", "an initial design".
func aKind(k registry.Kind) string {
	n := kindNoun(k)
	if strings.ContainsRune("aeiou", rune(n[0])) {
		return "an " + n
	}
	return "a " + n
}

// checkedCall is a checked plugin call with its type: dist[n] for a
// distribution (from the plugin's Result hook), kernel for a kernel.
type checkedCall struct {
	plugin *registry.Plugin
	call   *ir.Call
	typ    dsl.Type
}

// call checks a call of a plugin of the given kind. e is a *ast.CallExpr, or a
// bare *ast.Ident for a call without arguments. Every kind goes through this
// one routine: name lookup, argument matching, per-parameter type, range,
// learn and domain-dependence checks, defaults, then the plugin's Result and
// Check hooks. It returns nil after an error.
func (c *checker) call(kind registry.Kind, e ast.Expr, ctx exprCtx) *checkedCall {
	name, args, ok := c.callParts(kind, e)
	if !ok {
		return nil
	}
	p, found := c.plugins.Lookup(kind, name.Name)
	if !found {
		c.unknownPlugin(kind, name)
		return nil
	}
	if !p.Built() {
		c.notBuilt(p, name.Span())
		return nil
	}
	bound, ok := c.bindArgs(p.Name, p.Params, args)
	if !ok {
		return nil
	}
	call := &ir.Call{Plugin: p.ID(), Span: e.Span(), Args: make([]*ir.Arg, len(p.Params))}
	var ops []registry.Operand
	for i := range p.Params {
		arg, argOps, argOK := c.argument(p, &p.Params[i], bound[i], e.Span(), ctx)
		call.Args[i], ops, ok = arg, append(ops, argOps...), ok && argOK
	}
	if !ok {
		return nil
	}
	typ := dsl.Type{}
	if kind == registry.Kernel {
		typ = dsl.KernelType
	}
	if p.Result != nil {
		t, err := p.Result(ops)
		if err != nil {
			c.errorf(e.Span(), "%s", err)
			return nil
		}
		typ = t
	}
	if p.Check != nil {
		c.pluginChecks = append(c.pluginChecks, pluginCheck{p, call})
	}
	return &checkedCall{plugin: p, call: call, typ: typ}
}

// pluginCheck is a call whose plugin's Check hook runs once the whole
// program is built, since its rules may span other statements.
type pluginCheck struct {
	plugin *registry.Plugin
	call   *ir.Call
}

// runPluginChecks runs the deferred Check hooks, in the order the calls were
// checked, each with a view of the program.
func (c *checker) runPluginChecks() {
	complete := !c.diags.HasErrors() && !c.cfg.StatementsOnly
	for _, pc := range c.pluginChecks {
		pc.plugin.Check(&registry.CheckContext{Call: pc.call, Dim: c.prog.D, Program: c.prog, Complete: complete, Report: c.report})
	}
}

// argument checks the value of one parameter: the arguments given for it
// (several for a variadic one), or else its default. It returns the operands
// for the plugin's Result hook: one per value.
func (c *checker) argument(p *registry.Plugin, prm *registry.Param, given []*ast.Arg, callSpan dsl.Span, ctx exprCtx) (*ir.Arg, []registry.Operand, bool) {
	owner := p.Name + "'s " + prm.Name
	arg := &ir.Arg{Name: prm.Name, Span: callSpan}
	if len(given) == 0 {
		if !prm.Default.IsSet() {
			c.errorHint(callSpan, "signature: "+signature(p.Name, p.Params), "%s needs an argument %s", p.Name, prm.Name)
			return arg, nil, false
		}
		v, op, ok := c.defaultValue(owner, prm, callSpan)
		arg.Default, arg.Value = true, v
		if prm.Variadic {
			arg.Value = appendList(nil, v)
		}
		return arg, []registry.Operand{op}, ok
	}
	arg.Span = given[0].Pos
	var ops []registry.Operand
	var list *ir.List
	ok := true
	for _, a := range given {
		v, op, vok := c.paramValue(owner, prm, a.Value, ctx)
		ops, ok = append(ops, op), ok && vok
		arg.Value = v
		if prm.Variadic {
			list = appendList(list, v)
			arg.Value = list
		}
	}
	return arg, ops, ok
}

// appendList adds v to a variadic argument's list, creating it if nil.
func appendList(l *ir.List, v ir.Value) *ir.List {
	if l == nil {
		l = &ir.List{}
	}
	l.Values = append(l.Values, v)
	return l
}

// callParts splits a call or bare name into the name and the arguments.
func (c *checker) callParts(kind registry.Kind, e ast.Expr) (*ast.Ident, []*ast.Arg, bool) {
	if name, args, ok := splitCall(e); ok {
		return name, args, true
	}
	if isNil(e) {
		c.incomplete(kindNoun(kind))
		return nil, nil, false
	}
	example := ""
	if names := c.plugins.Names(kind); len(names) > 0 {
		example = fmt.Sprintf("e.g. %s(...)", names[0])
	}
	c.errorHint(e.Span(), example, "expected %s call", aKind(kind))
	return nil, nil, false
}

// splitCall splits a plugin call, or a bare name, into name and arguments;
// ok is false for any other expression.
func splitCall(e ast.Expr) (name *ast.Ident, args []*ast.Arg, ok bool) {
	switch e := e.(type) {
	case *ast.CallExpr:
		if e != nil && e.Fun != nil {
			return e.Fun, e.Args, true
		}
	case *ast.Ident:
		if e != nil {
			return e, nil, true
		}
	}
	return nil, nil, false
}

// unknownPlugin reports a name that is no plugin of the kind.
func (c *checker) unknownPlugin(kind registry.Kind, id *ast.Ident) {
	if p := c.pluginNamed(id.Name, registry.Kinds...); p != nil {
		c.errorf(id.Pos, "%s is %s, not %s", id.Name, aKind(p.Kind), aKind(kind))
		return
	}
	names := c.plugins.Names(kind)
	hint := dsl.DidYouMean(id.Name, c.commonFirst(names))
	switch {
	case hint != "":
	case len(names) > 0:
		hint = "available: " + strings.Join(names, ", ")
	default:
		hint = fmt.Sprintf("this version of boc has no %ss", kindNoun(kind))
		if alt := alternatives[kind]; alt != "" {
			hint += "; " + alt
		}
	}
	c.errorHint(id.Pos, hint, "unknown %s %q", kindNoun(kind), id.Name)
}

// notBuilt reports a plugin that is specified but that this version of boc
// cannot compile yet.
func (c *checker) notBuilt(p *registry.Plugin, span dsl.Span) {
	var built []string
	for _, name := range c.plugins.Names(p.Kind) {
		if q, ok := c.plugins.Lookup(p.Kind, name); ok && q.Built() {
			built = append(built, name)
		}
	}
	d := dsl.Errorf(span, "%s %s is not available in this version of boc", p.Kind, p.Name)
	if len(built) > 0 {
		d = d.WithHint("available %s plugins: %s", p.Kind, strings.Join(built, ", "))
	}
	c.report(d)
}

// commonFirst orders plugin names for "did you mean": dsl.Suggest breaks ties
// by order, and among equally close names the common choices, those the
// language or a plugin uses as a default, are the likelier intent (matern42
// suggests matern52, the default kernel, rather than matern12).
func (c *checker) commonFirst(names []string) []string {
	common := map[string]bool{}
	for _, name := range defaultPlugins {
		common[name] = true
	}
	for _, p := range c.plugins.All() {
		for _, prm := range p.Params {
			if prm.Default.Kind == registry.PluginValue {
				common[prm.Default.Text] = true
			}
		}
	}
	out := append([]string(nil), names...)
	sort.SliceStable(out, func(i, j int) bool { return common[out[i]] && !common[out[j]] })
	return out
}

// bindArgs matches arguments to parameters: positional ones in order (a
// variadic last parameter takes the rest), then named ones. It returns the
// arguments of each parameter; ok is false after an error.
func (c *checker) bindArgs(owner string, params []registry.Param, args []*ast.Arg) ([][]*ast.Arg, bool) {
	bound := make([][]*ast.Arg, len(params))
	ok, named, next := true, false, 0
	for _, a := range args {
		if a == nil {
			c.incomplete("argument list")
			ok = false
			continue
		}
		if a.Name == nil {
			switch {
			case named:
				c.errorf(a.Pos, "positional argument after a named argument")
				ok = false
			case next < len(params):
				bound[next] = append(bound[next], a)
				if !params[next].Variadic {
					next++
				}
			case len(params) == 0:
				c.errorf(a.Pos, "%s takes no arguments", owner)
				ok = false
			default:
				c.errorHint(a.Pos, "signature: "+signature(owner, params), "too many arguments: %s takes %d", owner, len(params))
				ok = false
			}
			continue
		}
		named = true
		i := paramIndex(params, a.Name.Name)
		switch {
		case i < 0:
			names := make([]string, len(params))
			for j := range params {
				names[j] = params[j].Name
			}
			hint := dsl.DidYouMean(a.Name.Name, names)
			if hint == "" {
				hint = "signature: " + signature(owner, params)
			}
			c.errorHint(a.Name.Pos, hint, "%s has no parameter %s", owner, a.Name.Name)
			ok = false
		case len(bound[i]) > 0:
			c.errorHint(a.Pos, fmt.Sprintf("the first is at %d:%d", bound[i][0].Pos.Start.Line, bound[i][0].Pos.Start.Col),
				"%s is given twice", a.Name.Name)
			ok = false
		default:
			bound[i] = append(bound[i], a)
		}
	}
	return bound, ok
}

func paramIndex(params []registry.Param, name string) int {
	for i := range params {
		if params[i].Name == name {
			return i
		}
	}
	return -1
}

// signature renders a plugin's parameters for hints: normal(mean = 0, sd).
func signature(owner string, params []registry.Param) string {
	parts := make([]string, len(params))
	for i, p := range params {
		parts[i] = p.Name
		switch {
		case p.Variadic:
			parts[i] += "..."
		case p.Default.IsSet():
			parts[i] += " = " + p.Default.String()
		}
	}
	return owner + "(" + strings.Join(parts, ", ") + ")"
}

// paramValue checks one argument against its parameter; owner names the
// parameter in messages ("normal's sd").
func (c *checker) paramValue(owner string, prm *registry.Param, e ast.Expr, ctx exprCtx) (ir.Value, registry.Operand, bool) {
	if l, ok := e.(*ast.LearnExpr); ok && l != nil {
		if !prm.Learnable {
			c.errorHint(l.Pos, "give a value", "%s cannot be learned", owner)
			return nil, registry.Operand{}, false
		}
		learned, typ, ok := c.learn(owner, prm, l, ctx)
		return learned, registry.Operand{Type: typ}, ok
	}
	switch prm.Type {
	case registry.KernelParam:
		k := c.kernel(e, ctx)
		if k == nil {
			return nil, registry.Operand{}, false
		}
		return k, registry.Operand{Type: dsl.KernelType}, true
	case registry.DistParam:
		cc := c.call(registry.Distribution, e, ctx)
		if cc == nil {
			return nil, registry.Operand{}, false
		}
		return cc.call, registry.Operand{Type: cc.typ}, true
	}
	vctx := ctx
	if !prm.DomainDependent {
		vctx = ctx.requireConst(owner + " must be constant")
	}
	x, ok := c.typedValue(owner, prm, e, vctx)
	if !ok {
		return nil, registry.Operand{}, false
	}
	op := registry.Operand{Type: x.Type()}
	if v, ok := constOf(x); ok {
		op.Const = &v
	}
	return x.(ir.Value), op, true // every IR expression is also an argument value
}

// typedValue checks an expression argument: its type against the parameter
// and, when constant, its range. Non-constant values are allowed only where
// the context allows domain variables.
func (c *checker) typedValue(owner string, prm *registry.Param, e ast.Expr, ctx exprCtx) (ir.Expr, bool) {
	x := c.expr(e, ctx)
	if isInvalid(x) {
		return nil, false
	}
	x, ok := c.convertParam(owner, prm, x)
	if !ok {
		return nil, false
	}
	v, isConst := constOf(x)
	switch {
	case isConst:
		return x, c.inRange(owner, prm.Range, v, x.Span())
	case !ctx.domain:
		c.errorf(x.Span(), "%s; this value is only known at run time", ctx.why)
		return nil, false
	}
	return x, c.rangeOverDomain(owner, prm.Range, x)
}

// rangeOverDomain checks a value that varies over the domain against the
// parameter's range, as far as interval arithmetic bounds it (valueRange):
// one that can never be in range is an error, one that may leave it a
// warning.
func (c *checker) rangeOverDomain(owner string, r *registry.Range, x ir.Expr) bool {
	lo, hi, ok := valueRange(x)
	if r == nil || !ok {
		return true
	}
	values := fmt.Sprintf("[%s, %s]", fmtNum(lo), fmtNum(hi))
	switch {
	case hi < r.Lo || hi == r.Lo && r.LoOpen || lo > r.Hi || lo == r.Hi && r.HiOpen:
		c.errorf(x.Span(), "%s must be in %s, but over the domain it stays within %s", owner, r, values)
		return false
	case !r.Contains(lo) || !r.Contains(hi):
		c.report(dsl.Warningf(x.Span(), "%s must be in %s, but over the domain it may take values in %s", owner, r, values).
			WithHint("keep it in range, e.g. with max(...) or min(...), or narrow the domain"))
	}
	return true
}

// exactParams are the parameter types a value satisfies exactly when it has
// one kind, with how messages name what they want.
var exactParams = map[registry.ParamType]struct {
	kind dsl.Kind
	want string
}{
	registry.IntParam:    {dsl.Int, "an int"},
	registry.BoolParam:   {dsl.Bool, "a bool"},
	registry.StringParam: {dsl.String, "a string"},
	registry.VecParam:    {dsl.Vec, "a vector"},
	registry.MatParam:    {dsl.Mat, "a matrix"},
}

// convertParam checks x's type against a parameter type, turning ints into
// reals where reals are wanted.
func (c *checker) convertParam(owner string, prm *registry.Param, x ir.Expr) (ir.Expr, bool) {
	t, xt := prm.Type, x.Type()
	want := t.String()
	switch exact, ok := exactParams[t]; {
	case ok:
		if xt.Kind == exact.kind {
			return x, true
		}
		want = exact.want
	case t == registry.RealParam:
		if xt.IsNumeric() {
			return toReal(x), true
		}
		want = "a real"
	case t == registry.RealOrVecParam:
		if xt.IsNumeric() {
			return toReal(x), true
		}
		if prm.Len > 0 {
			if xt.Kind == dsl.Vec && xt.Rows == prm.Len {
				return x, true
			}
			want = fmt.Sprintf("a real or a vec[%d]", prm.Len)
			break
		}
		if xt.Kind == dsl.Vec && (!c.domainOK || xt.Rows == c.prog.D) {
			return x, true
		}
		want = fmt.Sprintf("a real or a vec[%d] (one value per domain component)", c.prog.D)
	}
	c.errorf(x.Span(), "%s must be %s, got %s", owner, want, xt)
	return nil, false
}

// inRange checks every number of a constant against the parameter's range.
func (c *checker) inRange(owner string, r *registry.Range, v dsl.Value, sp dsl.Span) bool {
	if r == nil {
		return true
	}
	for i, x := range v.Numbers {
		if !r.Contains(x) {
			where := ""
			if len(v.Numbers) > 1 {
				where = fmt.Sprintf(" (element %d)", i)
			}
			c.errorf(sp, "%s must be in %s, got %s%s", owner, r, fmtNum(x), where)
			return false
		}
	}
	return true
}

// learnParams is the signature of learn(init, bounds).
var learnParams = []registry.Param{
	{Name: "init", Type: registry.RealParam, Doc: "starting value of the fit"},
	{Name: "bounds", Type: registry.VecParam, Doc: "[lo, hi]: the fit stays inside"},
}

// learn checks `learn` or `learn(init = ..., bounds = [lo, hi])` for a
// learnable parameter: init and bounds inside the parameter's range, lo < hi,
// init inside the bounds. It returns the learned value's type.
func (c *checker) learn(owner string, prm *registry.Param, e *ast.LearnExpr, ctx exprCtx) (*ir.Learn, dsl.Type, bool) {
	typ := dsl.RealType
	bound, ok := c.bindArgs("learn", learnParams, e.Args)
	if !ok {
		return nil, typ, false
	}
	ctx = ctx.requireConst("learn's init and bounds must be constant")
	l := &ir.Learn{}
	if a := bound[1]; len(a) == 1 {
		v, ok := c.constExpr(a[0].Value, ctx)
		if !ok {
			return nil, typ, false
		}
		sp := a[0].Value.Span()
		if v.Type != dsl.VecOf(2) {
			c.errorHint(sp, "e.g. bounds = [0.01, 10]", "learn bounds must be [lo, hi], got %s", v.Type)
			return nil, typ, false
		}
		lo, hi := v.Numbers[0], v.Numbers[1]
		if !(lo < hi) {
			c.errorf(sp, "learn bounds must have lo < hi, got %s", v)
			return nil, typ, false
		}
		if !c.inRange(owner+" bounds", prm.Range, v, sp) {
			return nil, typ, false
		}
		l.HasBounds, l.Lo, l.Hi = true, lo, hi
	}
	if a := bound[0]; len(a) == 1 {
		x, ok := c.typedValue(owner+" init", prm, a[0].Value, ctx)
		if !ok {
			return nil, typ, false
		}
		v, _ := constOf(x)
		for _, n := range v.Numbers {
			if l.HasBounds && (n < l.Lo || n > l.Hi) {
				c.errorf(x.Span(), "learn init %s is outside the bounds [%s, %s]", fmtNum(n), fmtNum(l.Lo), fmtNum(l.Hi))
				return nil, typ, false
			}
		}
		l.HasInit, l.Init, typ = true, v.Numbers, v.Type
	}
	return l, typ, true
}

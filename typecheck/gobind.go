package typecheck

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
)

// goPackages holds the packages of a file's go bindings by import path.
type goPackages map[string]*goPackage

// goPackage is a loaded package, or why it does not load.
type goPackage struct {
	pkg     *packages.Package
	problem string
}

// loadMode is the least go/packages needs to give exact declaration
// positions: the bound packages are type-checked from source, their
// dependencies read from export data. About 70 ms for a small package.
const loadMode = packages.NeedName | packages.NeedTypes | packages.NeedSyntax

// loadPackages loads Go packages from dir. It is a variable so that tests can
// share loads between many checks.
var loadPackages = func(dir string, paths []string) ([]*packages.Package, error) {
	return packages.Load(&packages.Config{Mode: loadMode, Dir: dir}, paths...)
}

// goBindings returns the file's go bindings, objective first.
func (c *checker) goBindings() []*ast.GoBinding {
	var out []*ast.GoBinding
	add := func(b ast.Binding) {
		if g, ok := b.(*ast.GoBinding); ok && g != nil && g.Path != nil && importPathProblem(g.Path.Value) == "" {
			out = append(out, g)
		}
	}
	if s := c.stmts.objective; s != nil {
		add(s.Binding)
	}
	for _, s := range c.stmts.constraints {
		add(s.LHS)
		add(s.RHS)
	}
	return out
}

// loadGoPackages loads every package the file's go bindings name, in one
// go/packages call: the objective and the constraints often share one.
func (c *checker) loadGoPackages() {
	c.goPkgs = goPackages{}
	var paths []string
	for _, b := range c.goBindings() {
		if _, seen := c.goPkgs[b.Path.Value]; !seen {
			c.goPkgs[b.Path.Value] = &goPackage{problem: "it was not found"}
			paths = append(paths, b.Path.Value)
		}
	}
	if len(paths) == 0 {
		return
	}
	sort.Strings(paths)
	pkgs, err := loadPackages(c.cfg.Dir, paths)
	if err != nil {
		for _, gp := range c.goPkgs {
			gp.problem = oneLine(err.Error())
		}
		return
	}
	for _, p := range pkgs {
		gp := c.goPkgs[p.PkgPath]
		if gp == nil {
			continue
		}
		gp.problem = ""
		switch {
		case len(p.Errors) > 0:
			gp.problem = c.loadErrors(p.Errors)
		case p.Types == nil:
			gp.problem = "go/packages returned no type information"
		case p.Name == "main":
			gp.problem = "it is a main package; the generated code can only import library packages"
		default:
			gp.pkg = p
		}
	}
}

// loadErrors summarises a package's errors: the first, and how many more.
// Errors with a position (type and syntax errors) are preferred over the go
// command's summary of the same failure.
func (c *checker) loadErrors(errs []packages.Error) string {
	var placed []packages.Error
	for _, e := range errs {
		if e.Pos != "" && e.Pos != "-" {
			placed = append(placed, e)
		}
	}
	if len(placed) > 0 {
		errs = placed
	}
	e := errs[0]
	msg := e.Msg
	if strings.HasPrefix(msg, "# ") { // the go command's "# import/path" header line
		if _, rest, ok := strings.Cut(msg, "\n"); ok {
			msg = rest
		}
	}
	msg = oneLine(msg)
	if pos := e.Pos; pos != "" && pos != "-" {
		if i := strings.Index(pos, ".go:"); i >= 0 {
			pos = c.relPath(pos[:i+3]) + pos[i+3:]
		}
		msg = pos + ": " + msg
	}
	if n := len(errs) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return msg
}

// oneLine joins a multi-line tool message into one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// relPath shows a file relative to the .bo file's directory.
func (c *checker) relPath(file string) string {
	dir, err := filepath.Abs(c.cfg.Dir)
	if err != nil {
		return file
	}
	rel, err := filepath.Rel(dir, file)
	if err != nil {
		return file
	}
	return filepath.ToSlash(rel)
}

// importPathProblem says what is wrong with the import path of a go binding.
func importPathProblem(path string) string {
	switch {
	case path == "":
		return "the import path is empty"
	case strings.HasPrefix(path, ".") || strings.HasPrefix(path, "/") || filepath.IsAbs(path):
		return fmt.Sprintf("%q is a file path; go bindings take an import path", path)
	case strings.ContainsAny(path, " \t\\`\"'"):
		return fmt.Sprintf("%q is not a valid import path", path)
	}
	return ""
}

// goForm is one of the accepted shapes of a bound Go function: an optional
// leading context.Context, the value, under `observation noise reported` its
// noise sd after it, and an optional trailing error.
type goForm struct {
	context, sd, err bool
	// outcomes: the function returns no value of its own, only the struct
	// of values (several objectives).
	outcomes bool
}

// goForms are the accepted forms, with or without the sd.
func goForms(sd bool) []goForm {
	var forms []goForm
	for _, context := range []bool{false, true} {
		for _, err := range []bool{false, true} {
			forms = append(forms, goForm{context: context, sd: sd, err: err})
		}
	}
	return forms
}

// valueShape is what a measured binding returns.
type valueShape int

const (
	valueOnly        valueShape = iota // a constraint's value
	objectiveValue                     // the objective's value
	objectiveValueSD                   // the objective's value and noise sd (observation noise reported)
)

// goBinding checks `go "import/path".Func` against the loaded package: the
// function exists, is exported, and has one of the accepted signatures for
// this domain's D and shape: under objectiveValueSD exactly the forms that
// return the noise sd after the value, otherwise those that do not.
func (c *checker) goBinding(b *ast.GoBinding, shape valueShape) (ir.Binding, bool) {
	gf, ok := c.loadGoFunc(b)
	if !ok {
		return ir.Binding{}, false
	}
	path, name, gp, sig, ctxType, declared := b.Path.Value, b.Func.Name, gf.pkg, gf.sig, gf.ctxType, gf.declared
	withSD := shape == objectiveValueSD
	var reports []string
	var values types.Type
	if shape != valueOnly {
		reports = c.reportedConstraints()
		values, sig = splitValues(sig, withSD)
	}
	in := c.pointInput(sig, ctxType)
	if form, ok := matchGoForm(sig, withSD, in, ctxType); ok {
		input, ok := c.goInput(b.Func, declared, in)
		if !ok {
			return ir.Binding{}, false
		}
		bound := ir.Binding{Kind: ir.GoBinding, Span: b.Pos, GoPackage: path, GoFunc: name,
			GoContext: form.context, GoError: form.err, GoSD: form.sd, GoInput: input}
		switch {
		case values != nil:
			if len(reports) == 0 {
				c.report(dsl.Warningf(b.Func.Pos, "%s returns constraint values, but no constraint is reported by the objective: they are not used", name).
					WithHint("to keep to one, declare it: constraint NAME: reported <= LIMIT"))
			}
			fields, ok := c.valueFields(b.Func, declared, values, nil, reports)
			bound.GoValues, bound.GoFields = true, fields
			return bound, ok
		case len(reports) > 0:
			c.errorHint(b.Func.Pos, fmt.Sprintf("return them in a struct after the value: %s, with a float64 field per constraint",
				types.TypeString(goSignature(form, in, ctxType, wantValues(reports)), types.RelativeTo(gp.pkg.Types))),
				"%s: it returns no constraint values, but the objective reports %s", declared, constraintList(reports))
			return ir.Binding{}, false
		}
		return bound, true
	}
	if _, other := matchGoForm(sig, !withSD, in, ctxType); other && shape != valueOnly {
		if withSD {
			c.errorHint(b.Func.Pos, "return (value, sd) or (value, sd, error); or, if the noise is known, declare it: observation noise ~ normal(0, sd)",
				"%s: it returns no noise sd, but the observation noise is reported, so every value needs its sd", declared)
		} else {
			c.errorHint(b.Func.Pos, "declare `observation noise reported` to use the sd it returns with each value",
				"%s: it returns a value and its noise sd, but the observation noise is not reported", declared)
		}
		return ir.Binding{}, false
	}
	wanted := values
	if wanted == nil && len(reports) > 0 {
		wanted = wantValues(reports)
	}
	want := goSignature(closestForm(sig, withSD, ctxType), in, ctxType, wanted)
	noun := "components"
	if c.prog.D == 1 {
		noun = "component"
	}
	accepted := "accepted: func([N]float64) float64 or (float64, error), optionally with a leading context.Context; a struct with a field per dimension in place of [N]float64"
	if withSD {
		accepted = "accepted (the noise is reported): func([N]float64) (value, sd float64) or (value, sd float64, err error), optionally with a leading context.Context; a struct with a field per dimension in place of [N]float64"
	}
	c.errorHint(b.Func.Pos, accepted, "%s; want %s (%d scalar domain %s: %s)",
		declared, types.TypeString(want, types.RelativeTo(gp.pkg.Types)), c.prog.D, noun, c.componentList())
	return ir.Binding{}, false
}

// goFuncOf is a go binding's function, loaded: its package, its signature,
// context.Context as its package sees it (nil when it does not import
// context), and where and how it is declared, for messages.
type goFuncOf struct {
	pkg      *goPackage
	sig      *types.Signature
	ctxType  types.Type
	declared string
}

// loadGoFunc finds the function a go binding names in its loaded package,
// reporting why when it cannot, or when the domain did not check.
func (c *checker) loadGoFunc(b *ast.GoBinding) (goFuncOf, bool) {
	if b.Path == nil || b.Func == nil {
		c.incomplete("go binding")
		return goFuncOf{}, false
	}
	path, name := b.Path.Value, b.Func.Name
	if msg := importPathProblem(path); msg != "" {
		c.errorHint(b.Path.Pos, `e.g. go "example.com/mymodule/field".Measure`, "%s", msg)
		return goFuncOf{}, false
	}
	gp := c.goPkgs[path]
	if gp == nil || gp.pkg == nil {
		problem := "it was not loaded"
		if gp != nil {
			problem = gp.problem
		}
		c.errorHint(b.Path.Pos, fmt.Sprintf("the package must build from the .bo file's directory: go build %s", path),
			"Go package %q does not load: %s", path, problem)
		return goFuncOf{}, false
	}
	fn, ok := c.goFunc(gp.pkg, b.Func)
	if !ok || !c.domainOK {
		return goFuncOf{}, false
	}
	sig := fn.Type().(*types.Signature)
	pos := gp.pkg.Fset.Position(fn.Pos())
	declared := fmt.Sprintf("%s is declared at %s:%d:%d as %s", name, c.relPath(pos.Filename), pos.Line, pos.Column,
		types.TypeString(sig, types.RelativeTo(gp.pkg.Types)))
	return goFuncOf{pkg: gp, sig: sig, ctxType: contextType(gp.pkg.Types), declared: declared}, true
}

// matchGoForm finds the accepted form, with or without the sd, that sig is,
// taking the point as in.
func matchGoForm(sig *types.Signature, sd bool, in types.Type, ctxType types.Type) (goForm, bool) {
	for _, form := range goForms(sd) {
		if form.context && ctxType == nil {
			continue
		}
		if types.Identical(sig, goSignature(form, in, ctxType, nil)) {
			return form, true
		}
	}
	return goForm{}, false
}

// goFunc finds the exported function id names in pkg.
func (c *checker) goFunc(pkg *packages.Package, id *ast.Ident) (*types.Func, bool) {
	scope := pkg.Types.Scope()
	obj := scope.Lookup(id.Name)
	switch {
	case obj == nil:
		var funcs []string
		for _, n := range scope.Names() {
			if f, ok := scope.Lookup(n).(*types.Func); ok && f.Exported() {
				funcs = append(funcs, n)
			}
		}
		hint := dsl.DidYouMean(id.Name, funcs)
		if hint == "" && len(funcs) > 0 {
			hint = "exported functions: " + strings.Join(funcs, ", ")
		}
		c.errorHint(id.Pos, hint, "Go package %q has no function %s", pkg.PkgPath, id.Name)
		return nil, false
	case !obj.Exported():
		hint := "export it: give it a name that starts with an upper-case letter"
		if first := id.Name[0]; first >= 'a' && first <= 'z' {
			hint = "export it: rename it to " + strings.ToUpper(id.Name[:1]) + id.Name[1:]
		}
		c.errorHint(id.Pos, hint,
			"%s is not exported from Go package %q; the generated code cannot call it", id.Name, pkg.PkgPath)
		return nil, false
	}
	fn, ok := obj.(*types.Func)
	if !ok {
		c.errorf(id.Pos, "%s in Go package %q is a %s, not a function", id.Name, pkg.PkgPath, objectNoun(obj))
		return nil, false
	}
	return fn, true
}

func objectNoun(obj types.Object) string {
	switch obj.(type) {
	case *types.Var:
		return "variable"
	case *types.Const:
		return "constant"
	case *types.TypeName:
		return "type"
	}
	return "declaration"
}

// goSignature constructs the accepted signature of a form taking the point
// as in ([D]float64 or a struct), with values, the struct of constraint
// values, after the value when not nil.
func goSignature(form goForm, in types.Type, ctxType, values types.Type) *types.Signature {
	param := func(t types.Type) *types.Var { return types.NewParam(token.NoPos, nil, "", t) }
	var params, results []*types.Var
	if form.context {
		params = append(params, param(ctxType))
	}
	params = append(params, param(in))
	if !form.outcomes {
		results = append(results, param(types.Typ[types.Float64]))
	}
	if form.sd {
		results = append(results, param(types.Typ[types.Float64]))
	}
	if values != nil {
		results = append(results, param(values))
	}
	if form.err {
		results = append(results, param(types.Universe.Lookup("error").Type()))
	}
	return types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), types.NewTuple(results...), false)
}

// closestForm guesses which accepted form a mismatching declaration meant,
// for the "want" in the message; sd says whether the forms return the sd.
func closestForm(sig *types.Signature, sd bool, ctxType types.Type) goForm {
	values := 1
	if sd {
		values = 2
	}
	f := goForm{sd: sd, err: sig.Results().Len() > values}
	if ctxType != nil && sig.Params().Len() > 0 {
		f.context = types.Identical(sig.Params().At(0).Type(), ctxType)
	}
	return f
}

// contextType finds context.Context among the packages pkg depends on; nil
// when pkg cannot mention it.
func contextType(pkg *types.Package) types.Type {
	seen := map[*types.Package]bool{}
	var walk func(p *types.Package) types.Type
	walk = func(p *types.Package) types.Type {
		if seen[p] {
			return nil
		}
		seen[p] = true
		if p.Path() == "context" {
			if obj := p.Scope().Lookup("Context"); obj != nil {
				return obj.Type()
			}
			return nil
		}
		for _, q := range p.Imports() {
			if t := walk(q); t != nil {
				return t
			}
		}
		return nil
	}
	return walk(pkg)
}

package cli

import (
	"github.com/bocdev/boc/codegen"
	"github.com/bocdev/boc/driver"
	"github.com/bocdev/boc/dsl"
)

// compile reads and compiles the .bo file at path, printing every diagnostic
// against its source. ok is false if the file has errors; the unit, nil when
// the file cannot be read, then holds whatever stages succeeded.
func compile(e *env, path string) (u *driver.Unit, ok bool) {
	u, err := driver.Load(path, driver.Options{})
	if err != nil {
		e.failf("%v", err)
		return nil, false
	}
	return u, report(e, u, u.Diagnostics)
}

// report renders diags against u's source to stderr and reports whether
// none of them is an error.
func report(e *env, u *driver.Unit, diags dsl.Diagnostics) bool {
	diags.Render(e.stderr, u.Source)
	return !diags.HasErrors()
}

// generate compiles the file at path to Go code, printing every diagnostic.
func generate(e *env, path string, opt codegen.Options) (*driver.Unit, *codegen.Output, bool) {
	u, ok := compile(e, path)
	if !ok {
		return u, nil, false
	}
	out, diags := u.Generate(opt)
	return u, out, report(e, u, diags)
}

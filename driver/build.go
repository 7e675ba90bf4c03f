package driver

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"

	"github.com/bocdev/boc"
	"github.com/bocdev/boc/codegen"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/internal/gobuild"
)

// libraryDir is where the optimiser package goes in a program module.
const libraryDir = "lib"

// ProgramOptions generate the code of a program: the library and the main
// package importing it, as Build lays them out.
var ProgramOptions = codegen.Options{ImportPath: gobuild.ProgramModule + "/" + libraryDir}

// NoModuleError says that a file binds Go code that no Go module holds, so
// the program cannot link it.
type NoModuleError struct {
	Package string // the bound Go package
	Dir     string // where the module was looked for
	Err     error
}

func (e *NoModuleError) Error() string {
	return fmt.Sprintf("the objective binds Go package %q, but no Go module contains %s: %v", e.Package, e.Dir, e.Err)
}

func (e *NoModuleError) Unwrap() error { return e.Err }

// BuildError is a failed `go build` of a generated program.
type BuildError struct {
	Err    error
	Output string // what the go command printed
	// UserModule is the directory of the user's Go module the program
	// links (for a Go binding), "" when it links none: a failure is then a
	// bug in boc, since generated code always builds.
	UserModule string
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("go build: %v\n%s", e.Err, strings.TrimRight(e.Output, "\n"))
}

func (e *BuildError) Unwrap() error { return e.Err }

// Build compiles out, generated from u with ProgramOptions, into the
// executable exe. It needs only the go command: the runtime travels inside
// boc (boc.Module) and dependencies come from the module cache, so it works
// offline. The Go module holding a Go-bound objective or constraint is
// linked in. Errors are a *NoModuleError, a *BuildError, or the context's.
func (u *Unit) Build(ctx context.Context, out *codegen.Output, exe string) error {
	var prog gobuild.Program
	for _, f := range out.Library {
		prog.Files = append(prog.Files, gobuild.File{Path: libraryDir + "/" + f.Name, Content: f.Content})
	}
	for _, f := range out.Main {
		prog.Files = append(prog.Files, gobuild.File{Path: f.Name, Content: f.Content})
	}
	if pkg, ok := firstGoBinding(u.Program); ok {
		mod, err := gobuild.FindModule(u.dir)
		if err != nil {
			return &NoModuleError{Package: pkg, Dir: u.dir, Err: err}
		}
		prog.Uses = []gobuild.LocalModule{mod}
	}
	b := &gobuild.Builder{Carried: boc.Module}
	err := b.Build(ctx, prog, exe)
	var be *gobuild.BuildError
	if errors.As(err, &be) && ctx.Err() == nil {
		e := &BuildError{Err: be.Err, Output: be.Output}
		if len(prog.Uses) > 0 {
			e.UserModule = prog.Uses[0].Dir
		}
		return e
	}
	return err
}

// firstGoBinding returns the package of the first measured quantity bound to
// Go code, if any: the program then has to link the user's module.
func firstGoBinding(p *ir.Program) (string, bool) {
	if p.Objective.Binding.Kind == ir.GoBinding {
		return p.Objective.Binding.GoPackage, true
	}
	for _, c := range p.Constraints {
		if !c.Known && c.Measured.Kind == ir.GoBinding {
			return c.Measured.GoPackage, true
		}
	}
	return "", false
}

// ExeSuffix is the file name suffix of executables on this system.
func ExeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

package typecheck

import (
	"github.com/bocdev/boc/dsl"
	"github.com/bocdev/boc/dsl/ast"
	"github.com/bocdev/boc/dsl/ir"
	"github.com/bocdev/boc/stdlib/registry"
)

// Kernel algebra: wherever a kernel is expected, k1 + k2, k1 * k2 and c * k
// (or k * c, c a positive constant) are kernels too. They are checked into
// calls of the combinator plugins kernel.sum, kernel.product and
// kernel.scale, so the code generator emits them through the plugins' hooks
// like any other kernel. Nested sums and products are flattened.

// Names of the combinator plugins.
const (
	kernelSum     = "sum"
	kernelProduct = "product"
	kernelScale   = "scale"
)

// kernel checks a kernel expression and returns its call, or nil after an
// error.
func (c *checker) kernel(e ast.Expr, ctx exprCtx) *ir.Call {
	switch x := e.(type) {
	case *ast.ParenExpr:
		if x != nil && !isNil(x.X) {
			return c.kernel(x.X, ctx)
		}
	case *ast.BinaryExpr:
		if x != nil && (x.Op == "+" || x.Op == "*") && (c.isKernelExpr(x.X) || c.isKernelExpr(x.Y)) {
			return c.kernelAlgebra(x, ctx)
		}
	}
	cc := c.call(registry.Kernel, e, ctx)
	if cc == nil {
		return nil
	}
	return cc.call
}

// isKernelExpr reports whether e has kernel type: a kernel's name or call,
// or + or * with a kernel operand.
func (c *checker) isKernelExpr(e ast.Expr) bool {
	if isNil(e) {
		return false
	}
	switch x := e.(type) {
	case *ast.Ident:
		_, ok := c.plugins.Lookup(registry.Kernel, x.Name)
		return ok
	case *ast.CallExpr:
		if x.Fun == nil {
			return false
		}
		_, ok := c.plugins.Lookup(registry.Kernel, x.Fun.Name)
		return ok
	case *ast.ParenExpr:
		return c.isKernelExpr(x.X)
	case *ast.BinaryExpr:
		return (x.Op == "+" || x.Op == "*") && (c.isKernelExpr(x.X) || c.isKernelExpr(x.Y))
	}
	return false
}

// meantAsKernel reports whether an operand of kernel algebra that is no
// kernel was still meant as one: a name or call that is nothing else, such
// as a misspelt kernel, which is then reported as an unknown kernel.
func (c *checker) meantAsKernel(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return x != nil && c.scope.names[x.Name] == nil
	case *ast.CallExpr:
		return x != nil && x.Fun != nil && c.pluginNamed(x.Fun.Name, registry.Function, registry.Benchmark) == nil
	}
	return false
}

// kernelAlgebra checks x + y or x * y with at least one kernel operand.
func (c *checker) kernelAlgebra(x *ast.BinaryExpr, ctx exprCtx) *ir.Call {
	kx := c.isKernelExpr(x.X) || c.meantAsKernel(x.X)
	ky := c.isKernelExpr(x.Y) || c.meantAsKernel(x.Y)
	if !(kx && ky) {
		other, k := x.Y, x.X
		if !kx {
			other, k = x.X, x.Y
		}
		if x.Op == "+" {
			c.notAKernel(other, ctx, "cannot add a value of type %s to a kernel", "kernels add to kernels; to scale a kernel, multiply it by a positive constant: 0.5 * se")
			c.kernel(k, ctx) // report the kernel's own errors too
			return nil
		}
		return c.scaledKernel(x, other, k, ctx)
	}
	left, right := c.kernel(x.X, ctx), c.kernel(x.Y, ctx)
	if left == nil || right == nil {
		return nil
	}
	name := kernelSum
	if x.Op == "*" {
		name = kernelProduct
	}
	p, ok := c.combinator(name, x.Pos)
	if !ok {
		return nil
	}
	list := &ir.List{}
	for _, part := range []*ir.Call{left, right} {
		if part.Plugin == p.ID() && len(part.Args) == 1 {
			if nested, ok := part.Args[0].Value.(*ir.List); ok {
				list.Values = append(list.Values, nested.Values...)
				continue
			}
		}
		list.Values = append(list.Values, part)
	}
	return &ir.Call{Plugin: p.ID(), Span: x.Pos, Args: []*ir.Arg{{Name: p.Params[0].Name, Span: x.Pos, Value: list}}}
}

// scaledKernel checks factor * k (or k * factor).
func (c *checker) scaledKernel(x *ast.BinaryExpr, factor, k ast.Expr, ctx exprCtx) *ir.Call {
	v, ok := c.constExpr(factor, ctx.requireConst("a kernel's scale factor must be constant"))
	kernel := c.kernel(k, ctx)
	if !ok {
		return nil
	}
	if !v.Type.IsNumeric() {
		c.errorHint(factor.Span(), "e.g. 0.5 * se", "a kernel can only be scaled by a positive real constant, got %s", v.Type)
		return nil
	}
	if !(v.Float() > 0) {
		c.errorHint(factor.Span(), "kernels must stay positive definite", "a kernel's scale factor must be positive, got %s", fmtNum(v.Float()))
		return nil
	}
	p, found := c.combinator(kernelScale, x.Pos)
	if kernel == nil || !found {
		return nil
	}
	return &ir.Call{Plugin: p.ID(), Span: x.Pos, Args: []*ir.Arg{
		{Name: p.Params[0].Name, Span: factor.Span(), Value: &ir.ConstExpr{At: factor.Span(), Value: dsl.RealValue(v.Float())}},
		{Name: p.Params[1].Name, Span: k.Span(), Value: kernel},
	}}
}

// notAKernel reports an operand of kernel algebra that is not a kernel,
// naming its type.
func (c *checker) notAKernel(e ast.Expr, ctx exprCtx, format, hint string) {
	x := c.expr(e, ctx)
	if isInvalid(x) {
		return
	}
	c.errorHint(e.Span(), hint, format, x.Type())
}

// combinator returns a kernel combinator plugin; its absence is a bug.
func (c *checker) combinator(name string, sp dsl.Span) (*registry.Plugin, bool) {
	p, ok := c.plugins.Lookup(registry.Kernel, name)
	if !ok {
		c.errorf(sp, "internal error: kernel algebra needs the kernel plugin %q, which is not registered", name)
	}
	return p, ok
}

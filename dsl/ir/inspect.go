package ir

// Inspect calls f for e and every expression inside it, parents first. A
// nil e is skipped.
func Inspect(e Expr, f func(Expr)) {
	if e == nil {
		return
	}
	f(e)
	switch e := e.(type) {
	case *UnaryExpr:
		Inspect(e.X, f)
	case *BinaryExpr:
		Inspect(e.X, f)
		Inspect(e.Y, f)
	case *CondExpr:
		Inspect(e.Cond, f)
		Inspect(e.Then, f)
		Inspect(e.Else, f)
	case *IndexExpr:
		Inspect(e.X, f)
		Inspect(e.Index, f)
	case *SliceExpr:
		Inspect(e.X, f)
	case *VecExpr:
		for _, x := range e.Elems {
			Inspect(x, f)
		}
	case *CallExpr:
		for _, x := range e.Args {
			Inspect(x, f)
		}
	}
}

package ast

// Inspect visits n and the nodes below it depth-first, in source order: f
// is called with each node, and the node's children are visited when it
// returns true. Absent children (nil) are skipped.
func Inspect(n Node, f func(Node) bool) {
	if isNil(n) || !f(n) {
		return
	}
	_, _, children := describe(n)
	for _, c := range children {
		Inspect(c.node, f)
	}
}

package parser

// scope counts how deeply the parser recurses inside one bracket (or at the
// top of a statement), following precedence.go's climber and the grammar:
//
//   - each `if` nests its branches, and an else branch extends to the end of
//     the bracket, so ifs add up until the bracket closes;
//   - `not` applies to everything up to the next `and` or `or`;
//   - prefix minus and `^` nest what binds tighter than they do, so a chain
//     of them ends at the next binary operator looser than `^`;
//   - `then`, `else`, `,`, `:` and `=` end the expression before them.
//
// Left-associative operators are applied in a loop, not by recursion, so a
// long sum stays one level deep.
type scope struct {
	base             int // the depth outside this bracket, the bracket included
	ifs, nots, chain int
}

func (s scope) depth() int { return s.base + s.ifs + s.nots + s.chain }

// step counts the token v; prefix says a minus sign is unary here. It
// reports whether v nests deeper.
func (s *scope) step(v string, prefix bool) bool {
	switch {
	case v == "if":
		s.ifs++
		return true
	case v == "not":
		s.nots++
		return true
	case v == "^" || prefix:
		s.chain++
		return true
	case v == "and" || v == "or":
		s.nots, s.chain = 0, 0
	case binaryPrecedence[v] > 0:
		s.chain = 0
	case v == "then" || v == "else":
		s.nots, s.chain = 0, 0
	case v == "," || v == ":" || v == "=":
		*s = scope{base: s.base}
	}
	return false
}

package parser

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/bocdev/boc/dsl/ast"
)

// The grammar of one statement, as participle structs. They stay private to
// the parser and are converted to dsl/ast by convert.go.
//
// The grammar is LL(1): every choice is decided by the next token, or by an
// explicit lookahead group, and the parser runs with no backtracking
// (UseLookahead(0)). So once a production has consumed a token it is committed,
// and an error is reported where it happens ("expected an expression" at the
// second comma of `[1, , 2]`), not where some earlier alternative gave up.
// Every production starts with a token rather than something optional, so
// that one that does not apply fails cleanly, without an error that would
// then be reported in place of the real one.
//
// Expression precedence is in precedence.go.

// grammar is built once: building walks the grammar by reflection.
var grammar = participle.MustBuild[stmt](
	participle.Lexer(boLexer),
	participle.UseLookahead(0),
)

// statementParsers parse each kind of statement, chosen by its keyword, so
// that a statement is not tried against the other kinds first. They share
// the grammar built for stmt.
var statementParsers = map[string]statementParser{
	"problem":     parserFor((*converter).problem),
	"let":         parserFor((*converter).let),
	"domain":      parserFor((*converter).domain),
	"candidates":  parserFor((*converter).candidates),
	"objective":   parserFor((*converter).objective),
	"input":       parserFor((*converter).inputNoise),
	"observation": parserFor((*converter).observationNoise),
	"constraint":  parserFor((*converter).constraint),
	"require":     parserFor((*converter).constraint),
	"model":       parserFor((*converter).plugin),
	"acquisition": parserFor((*converter).plugin),
	"search":      parserFor((*converter).plugin),
	"init":        parserFor((*converter).initDesign),
	"budget":      parserFor((*converter).value),
	"seed":        parserFor((*converter).value),
	"stop":        parserFor((*converter).value),
}

// statementParser parses the tokens of one statement and converts the tree.
type statementParser func(c *converter, lex *lexer.PeekingLexer) (ast.Stmt, error)

func parserFor[P any](convert func(*converter, *P) ast.Stmt) statementParser {
	p, err := participle.ParserForProduction[P](grammar)
	if err != nil {
		panic(err) // P is not in the grammar: a bug every test finds
	}
	return func(c *converter, lex *lexer.PeekingLexer) (ast.Stmt, error) {
		tree, err := p.ParseFromLexer(lex)
		if err != nil {
			return nil, err
		}
		return convert(c, tree), nil
	}
}

// matched is embedded in every production: participle (or, for expressions,
// expr.go) fills Tokens with the tokens the production consumed, from which
// the node's span is computed.
// (participle's EndPos is where the next token starts, so a span ending there
// would take in the spaces and comments after the node.)
type matched struct {
	Tokens []lexer.Token
}

func (m matched) tokens() []lexer.Token { return m.Tokens }

// stmt is the root the grammar is built from: it gathers every kind of
// statement. Statements are parsed with statementParsers.
type stmt struct {
	Problem     *problemStmt     `parser:"  @@"`
	Let         *letStmt         `parser:"| @@"`
	Domain      *domainStmt      `parser:"| @@"`
	Candidates  *candidatesStmt  `parser:"| @@"`
	Objective   *objectiveStmt   `parser:"| @@"`
	InputNoise  *inputNoiseStmt  `parser:"| @@"`
	Observation *observationStmt `parser:"| @@"`
	Constraint  *constraintStmt  `parser:"| @@"`
	Plugin      *pluginStmt      `parser:"| @@"`
	Init        *initStmt        `parser:"| @@"`
	Value       *valueStmt       `parser:"| @@"`
}

type problemStmt struct {
	matched
	Name *ident `parser:"'problem' @@"`
}

type letStmt struct {
	matched
	Name  *ident `parser:"'let' @@ '='"`
	Value *expr  `parser:"@@"`
}

type domainStmt struct {
	matched
	Block *block[dim] `parser:"'domain' @@"`
}

// block is `{ ITEM \n ITEM ... }`: one item per line. The splitter collapses
// blank lines to one Newline token, so a newline followed by anything but `}`
// commits to another item.
type block[T any] struct {
	matched
	Items []*T `parser:"'{' Newline? ( '}' | @@ ( (?= Newline ~'}') Newline @@ )* ( Newline '}' | '}' ) )"`
}

type dim struct {
	matched
	Name     *ident    `parser:"@@"`
	Size     *expr     `parser:"( '[' @@ ']' )?"`
	Interval *interval `parser:"'in' ( @@"`
	Levels   *levelSet `parser:"     | @@"`
	Range    *intRange `parser:"     | @@ )"`
	Log      bool      `parser:"@'log'?"`
	When     *expr     `parser:"( 'when' @@ )?"`
}

type interval struct {
	matched
	Lo *expr `parser:"'[' @@ ','"`
	Hi *expr `parser:"@@ ']'"`
}

type intRange struct {
	matched
	Lo *expr `parser:"@@ '..'"`
	Hi *expr `parser:"@@"`
}

// levelSet is a categorical dimension's `{"a", "b", ...}`, read by hand
// (expr.go) so that it may span lines and end with a comma.
type levelSet struct {
	matched
	Names []*stringLit
}

type candidatesStmt struct {
	matched
	File *stringLit `parser:"'candidates' ( 'file' @@"`
	Call *call      `parser:"             | @@ )"`
}

// objectiveStmt is `objective SENSE BINDING` or, with several objectives,
// `objective BINDING { SENSE NAME ... }` or, each computed, `objective {
// SENSE NAME = EXPR ... }`.
type objectiveStmt struct {
	matched
	Sense    string                `parser:"'objective' ( @('maximize' | 'minimize')"`
	Binding  *binding              `parser:"              @@"`
	Measured *measuredObjectives   `parser:"            | @@"`
	Computed *block[objectiveLine] `parser:"            | @@ )"`
}

// measuredObjectives is the block of several objectives with the binding
// that measures them all.
type measuredObjectives struct {
	matched
	Binding *measuredBinding      `parser:"@@"`
	Lines   *block[objectiveLine] `parser:"@@"`
}

// measuredBinding is a binding that is not an expression.
type measuredBinding struct {
	matched
	Go       *goBinding   `parser:"  @@"`
	Exec     *execBinding `parser:"| @@"`
	External bool         `parser:"| @'external'"`
}

// objectiveLine is `maximize NAME [= EXPR] [CMP THRESHOLD] [{ OPTIONS }]`.
type objectiveLine struct {
	matched
	Sense     string         `parser:"@('maximize' | 'minimize')"`
	Name      *ident         `parser:"@@"`
	Expr      *arith         `parser:"( '=' @@ )?"`
	Op        *cmpOp         `parser:"( @@"`
	Threshold *arith         `parser:"  @@ )?"`
	Options   *block[option] `parser:"@@?"`
}

type binding struct {
	matched
	Go       *goBinding   `parser:"  @@"`
	Exec     *execBinding `parser:"| @@"`
	External bool         `parser:"| @'external'"`
	Expr     *expr        `parser:"| @@"`
}

type goBinding struct {
	matched
	Path *stringLit `parser:"'go' @@ '.'"`
	Func *ident     `parser:"@@"`
}

type execBinding struct {
	matched
	Args []*stringLit `parser:"'exec' @@+"`
}

type inputNoiseStmt struct {
	matched
	Block *block[noiseDecl] `parser:"'input' 'noise' ( @@"`
	One   *noiseDecl        `parser:"                | @@ )"`
}

type noiseDecl struct {
	matched
	Target *target `parser:"@@ '~'"`
	Dist   *expr   `parser:"@@"`
}

// target is what input noise perturbs: `x`, `p[2]`, `p[0:2]` or `(x, y)`.
type target struct {
	matched
	Tuple []*targetAtom `parser:"  '(' @@ ( ',' @@ )+ ')'"`
	One   *targetAtom   `parser:"| @@"`
}

type targetAtom struct {
	matched
	Name  *ident  `parser:"@@"`
	Index *suffix `parser:"@@?"`
}

type observationStmt struct {
	matched
	Dist     *expr  `parser:"'observation' 'noise' ( '~' @@"`
	Learn    *learn `parser:"                      | @@"`
	Reported bool   `parser:"                      | @'reported' )"`
}

// constraintStmt is `constraint NAME: ...` or, for an outcome constraint,
// `require NAME: ...`.
type constraintStmt struct {
	matched
	Keyword string         `parser:"@( 'constraint' | 'require' )"`
	Name    *ident         `parser:"@@ ':'"`
	LHS     *side          `parser:"@@"`
	Op      *cmpOp         `parser:"@@"`
	RHS     *side          `parser:"@@"`
	Options *block[option] `parser:"@@?"`
}

// side is one side of a constraint. Its expression stops below the
// comparisons, so that the comparison belongs to the constraint.
type side struct {
	matched
	Go        *goBinding   `parser:"  @@"`
	Exec      *execBinding `parser:"| @@"`
	Reported  bool         `parser:"| @'reported'"`
	Simulated *arith       `parser:"| 'simulated' @@"`
	Expr      *arith       `parser:"| @@"`
}

// option is a constraint option: `seed EXPR`, `kernel CALL` or `noise ~ DIST`;
// the name is its first token. Which names are known is the type checker's
// business.
type option struct {
	matched
	Noise bool   `parser:"( @'noise' '~'"`
	Name  string `parser:"| @( Ident | 'seed' ) )"`
	Value *expr  `parser:"@@"`
}

// pluginStmt is `model CALL`, `acquisition CALL` or `search CALL`.
type pluginStmt struct {
	matched
	Keyword string `parser:"@( 'model' | 'acquisition' | 'search' )"`
	Call    *call  `parser:"@@"`
}

type initStmt struct {
	matched
	Points *vecLit `parser:"'init' ( @@"`
	Call   *call   `parser:"       | @@ )"`
}

// valueStmt is `budget EXPR`, `seed EXPR` or `stop when EXPR`.
type valueStmt struct {
	matched
	Keyword string `parser:"( @( 'budget' | 'seed' ) | @'stop' 'when' )"`
	Value   *expr  `parser:"@@"`
}

// ---- expressions ----

// The expression productions are read by hand (expr.go); these structs are
// what it fills, and what the converter reads.

// expr is operands joined by binary operators. It is kept flat; the
// converter applies precedence and associativity (precedence.go).
type expr struct {
	matched
	X    *operand
	Rest []*binaryOperand
}

type binaryOperand struct {
	matched
	Op string
	Y  *operand
}

// arith is the expression on a side of a constraint: arithmetic only, so
// that the comparison after it is the constraint's own.
type arith struct {
	matched
	X    *operand
	Rest []*arithOperand
}

type arithOperand struct {
	matched
	Op string
	Y  *operand
}

// operand is one operand: a prefix operator (`-`, `not`) applied to an
// operand, an if-then-else, a vector literal, or a primary with its indexes
// and slices. A vector literal takes none: `[[1, 2] [3, 4]]` is a matrix
// missing a comma, not an index. The else branch of an if extends as far right
// as it can, so `if c then a else b + 1` adds to b.
type operand struct {
	matched
	X        *primary
	Suffixes []*suffix
	Vec      *vecLit
	Table    *tableLit
	Prefix   *prefixed
	If       *ifExpr
}

type prefixed struct {
	matched
	Op string
	X  *operand
}

type ifExpr struct {
	matched
	Cond, Then, Else *expr
}

type cmpOp struct {
	matched
	Op string `parser:"@( '<=' | '>=' | '<' | '>' | '==' | '!=' )"`
}

// suffix is `[i]`, `[i:j]`, `[i:]`, `[:j]` or `[:]`.
type suffix struct {
	matched
	OpenLo *sliceEnd
	Index  *expr
	Slice  *sliceEnd
}

// sliceEnd is the `:j` part of a slice; j may be left out.
type sliceEnd struct {
	matched
	Hi *expr
}

type primary struct {
	matched
	Call   *call
	Number *numberLit
	String *stringLit
	Learn  *learn
	Name   bool // `acquisition`, a keyword that also names a value
	Paren  *parenExpr
}

type numberLit struct {
	matched
	Text string
}

type stringLit struct {
	matched
	Quoted string `parser:"@String"`
}

type ident struct {
	matched
	Name string `parser:"@Ident"`
}

// call is `f` or `f(args)`; a bare name is a call without arguments only
// where a plugin is expected, and a plain name elsewhere.
type call struct {
	matched
	Fun  *ident
	Args *argList
}

type learn struct {
	matched
	Args *argList
}

// argList allows a trailing comma, handy when arguments span lines.
type argList struct {
	matched
	Args []*arg
}

// arg is `value` or `name = value`. The splitter types a word followed by
// `=` inside parentheses as an ArgName, so the choice takes one token and a
// keyword can name an argument (`learn(init = 0.3)`).
type arg struct {
	matched
	Name  *argName
	Value *expr
}

type argName struct {
	matched
	Name string
}

// vecLit allows a trailing comma, handy when rows span lines.
type vecLit struct {
	matched
	Elems []*expr
}

// tableLit is `{"a": x, "b": y, ...}`; it allows a trailing comma and may
// span lines.
type tableLit struct {
	matched
	Entries []*tableEntry
}

type tableEntry struct {
	matched
	Key   *stringLit
	Value *expr
}

// parenExpr is `(x)` or a tuple `(a, b, ...)`.
type parenExpr struct {
	matched
	Elems []*expr
}

package syntax

// The AST is the grammar: each struct below is a production of grammar.md,
// with the same name, and its participle tags are the production's
// right-hand side. Productions, by family:
//
//	file:        File, Decl (Import | Controller | Workload | Policy | Mask | Invariant | Plan | Test)
//	bodies:      Body, Attr, Ident, Name
//	workloads:   Workload, Param, Step (Apply | Patch | Delete | Scale | Wait | Settle), WaitCond, Cond, Path, PathElem
//	faults:      Mask, MaskRule, Invariant, Plan, PlanStep, Action (Crash | Restart | Stale | Hold | Release | Pause | PauseController | ResumeController),
//	             Trigger, Either, Both, TriggerAtom (Group | Event | Write | Timeout)
//	expressions: Expr, SumOp, Term, MulOp, Unary, Primary (KeyLit | DurationLit | NumberLit | StringLit | BoolLit | NullLit | List | Object | Call | Paren), Field, Arg
//
// Every node embeds Span, so it starts with Pos and EndPos (filled by
// participle, which converts its lexer.Position into diag.Position because
// the two structs have the same fields) and has a Range method.

import "github.com/sievetool/sieve/lang/diag"

// Span is the source range of a node: Pos is its first character, EndPos
// the character after its last token.
type Span struct {
	Pos    diag.Position
	EndPos diag.Position
}

// Range returns the node's source range.
func (s Span) Range() diag.Range { return diag.Range{Start: s.Pos, End: s.EndPos} }

// Node is any AST node.
type Node interface {
	Range() diag.Range
}

// File is a parsed .sieve file.
type File struct {
	Span
	Decls []Decl `parser:"@@*"`

	// Comments holds every comment in the file, in source order. It is
	// filled by Parse, not by the grammar.
	Comments []*Comment
}

// Comment is a // line comment or a /* block */ comment, with its
// delimiters.
type Comment struct {
	Span
	Text string
}

// Decl is a top-level declaration: *Import, *Controller, *Workload,
// *Policy, *Mask, *Invariant, *Plan or *Test.
type Decl interface {
	Node
	decl()
}

// Import brings the names of another file into scope under Alias (by
// default the last element of Path).
type Import struct {
	Span
	Alias *Ident     `parser:"'import' @@?"`
	Path  *StringLit `parser:"@@"`
}

// Controller declares how to start a controller under test.
type Controller struct {
	Span
	Name *Ident `parser:"'controller' @@"`
	Body *Body  `parser:"@@"`
}

// Policy declares which fault plans to generate.
type Policy struct {
	Span
	Name *Ident `parser:"'policy' @@"`
	Body *Body  `parser:"@@"`
}

// Test binds a controller, workloads, policies, masks, invariants and
// plans; it may extend Base.
type Test struct {
	Span
	Name *Ident `parser:"'test' @@"`
	Base *Name  `parser:"(':' @@)?"`
	Body *Body  `parser:"@@"`
}

// Body is a braced list of attributes.
type Body struct {
	Span
	Attrs []*Attr `parser:"'{' @@* '}'"`
}

// Attr is one attribute, NAME VALUE; Append is set for NAME += VALUE.
type Attr struct {
	Span
	Name   *Ident `parser:"@@"`
	Append bool   `parser:"@'+='?"`
	Value  *Expr  `parser:"@@"`
}

// Ident is an identifier.
type Ident struct {
	Span
	Name string `parser:"@Ident"`
}

// Name is a possibly qualified name: masks.default.
type Name struct {
	Span
	Parts []string `parser:"@Ident ('.' @Ident)*"`
}

// String returns the name with its parts joined by dots.
func (n *Name) String() string {
	s := ""
	for i, p := range n.Parts {
		if i > 0 {
			s += "."
		}
		s += p
	}
	return s
}

func (*Import) decl()     {}
func (*Controller) decl() {}
func (*Workload) decl()   {}
func (*Policy) decl()     {}
func (*Mask) decl()       {}
func (*Invariant) decl()  {}
func (*Plan) decl()       {}
func (*Test) decl()       {}

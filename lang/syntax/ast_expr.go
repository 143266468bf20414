package syntax

// Expressions have one production per precedence level, each a loop
// (Expr = Term (("+" | "-") Term)*), so there is no left recursion and the
// whole expression grammar stays visible in the EBNF. With two binary
// levels this is precedence climbing unrolled; a hand-written climbing
// parser (a participle Parseable) would hide the grammar from parser.String().

// Expr is a sum: Left followed by + and - operations, left-associative.
type Expr struct {
	Span
	Left *Term    `parser:"@@"`
	Rest []*SumOp `parser:"@@*"`
}

// SumOp is one "+ Term" or "- Term".
type SumOp struct {
	Span
	Op    string `parser:"@('+' | '-')"`
	Right *Term  `parser:"@@"`
}

// Term is a product: Left followed by * operations.
type Term struct {
	Span
	Left *Unary   `parser:"@@"`
	Rest []*MulOp `parser:"@@*"`
}

// MulOp is one "* Unary".
type MulOp struct {
	Span
	Op    string `parser:"@'*'"`
	Right *Unary `parser:"@@"`
}

// Unary is a primary, negated when Neg is set.
type Unary struct {
	Span
	Neg     bool    `parser:"@'-'?"`
	Primary Primary `parser:"@@"`
}

// Primary is *KeyLit, *DurationLit, *NumberLit, *StringLit, *BoolLit,
// *NullLit, *List, *Object, *Call or *Paren.
type Primary interface {
	Node
	primary()
}

// KeyLit is a resource key, kind/namespace/name or kind/name, with globs
// and ${param} references, as written.
type KeyLit struct {
	Span
	Text string `parser:"@Key"`
}

// DurationLit is a duration as written: 30s, 1h30m.
type DurationLit struct {
	Span
	Text string `parser:"@Duration"`
}

// NumberLit is a number as written.
type NumberLit struct {
	Span
	Text string `parser:"@Number"`
}

// StringLit is a string or raw string as written, quotes included; Value
// returns its contents.
type StringLit struct {
	Span
	Text string `parser:"@(String | RawString)"`
}

// BoolLit is true or false.
type BoolLit struct {
	Span
	Text string `parser:"@('true' | 'false')"`
}

// NullLit is null.
type NullLit struct {
	Span
	Null bool `parser:"@'null'"`
}

// List is [a, b, c].
type List struct {
	Span
	Elems []*Expr `parser:"'[' (@@ ((?! ',' ']') ',' @@)* ','?)? ']'"`
}

// Object is { path: value ... }; commas between fields are optional.
type Object struct {
	Span
	Fields []*Field `parser:"'{' (@@ ','?)* '}'"`
}

// Field is one object field.
type Field struct {
	Span
	Key   *Path `parser:"@@ ':'"`
	Value *Expr `parser:"@@"`
}

// Call is a name, possibly with arguments: replicas, masks.default,
// recreate(replicas = 3). Parens records that an argument list was written,
// even empty.
type Call struct {
	Span
	Name   *Name  `parser:"@@"`
	Parens bool   `parser:"( @'('"`
	Args   []*Arg `parser:"  (@@ ((?! ',' ')') ',' @@)* ','?)? ')' )?"`
}

// Arg is a call argument, named when Name is set.
type Arg struct {
	Span
	Name  *Ident `parser:"((?= Ident '=') @@ '=')?"`
	Value *Expr  `parser:"@@"`
}

// Paren is a parenthesised expression.
type Paren struct {
	Span
	X *Expr `parser:"'(' @@ ')'"`
}

func (*KeyLit) primary()      {}
func (*DurationLit) primary() {}
func (*NumberLit) primary()   {}
func (*StringLit) primary()   {}
func (*BoolLit) primary()     {}
func (*NullLit) primary()     {}
func (*List) primary()        {}
func (*Object) primary()      {}
func (*Call) primary()        {}
func (*Paren) primary()       {}

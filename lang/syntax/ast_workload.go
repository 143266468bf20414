package syntax

// Workload declares parameterised workload steps.
type Workload struct {
	Span
	Name   *Ident   `parser:"'workload' @@"`
	Params []*Param `parser:"('(' (@@ ((?! ',' ')') ',' @@)* ','?)? ')')?"`
	Steps  []Step   `parser:"'{' @@* '}'"`
}

// Param is a workload or invariant parameter with an optional default.
type Param struct {
	Span
	Name    *Ident `parser:"@@"`
	Default *Expr  `parser:"('=' @@)?"`
}

// Step is one workload step: *Apply, *Patch, *Delete, *Scale, *Wait,
// *Settle, *Sleep or *Explore.
type Step interface {
	Node
	step()
}

// Apply applies a manifest file or inline manifest (Source), with field
// overrides.
type Apply struct {
	Span
	Source *Expr   `parser:"'apply' @@"`
	Set    *Object `parser:"('set' @@)?"`
}

// Patch patches Target with Patch; Type is "merge", "json", "strategic" or
// empty (merge).
type Patch struct {
	Span
	Target *Expr  `parser:"'patch' @@"`
	Type   string `parser:"@('merge' | 'json' | 'strategic')?"`
	Patch  *Expr  `parser:"@@"`
}

// Delete deletes the objects Target matches.
type Delete struct {
	Span
	Target *Expr `parser:"'delete' @@"`
}

// Scale sets the replicas of Target.
type Scale struct {
	Span
	Target   *Expr `parser:"'scale' @@"`
	Replicas *Expr `parser:"'to' @@"`
}

// Wait waits until a CEL expression is true (Until) or a condition holds on
// Target, for at most Within; with Else, a wait that times out lets the
// workload go on.
type Wait struct {
	Span
	Until  *Expr     `parser:"'wait' ( 'until' @@"`
	Target *Expr     `parser:"       | @@"`
	Cond   *WaitCond `parser:"         @@ )"`
	Within *Expr     `parser:"('within' @@)?"`
	Else   *Else     `parser:"@@?"`
}

// WaitCond is what a wait step waits for on its target: State is "exists",
// "gone" or "ready"; or Where holds; or Count objects are ready.
type WaitCond struct {
	Span
	State string `parser:"  @('exists' | 'gone' | 'ready')"`
	Where *Cond  `parser:"| 'where' @@"`
	Count *Expr  `parser:"| @@ 'ready'"`
}

// Settle waits until the controller has been quiet for Quiet, or for the
// duration in the workload parameter Param (default decided by the
// checker). A step keyword after settle starts the next step.
type Settle struct {
	Span
	Quiet *DurationLit `parser:"'settle' ( @@"`
	Param *Ident       `parser:"  | (?! 'apply' | 'patch' | 'delete' | 'scale' | 'wait' | 'settle' | 'sleep' | 'explore') @@ )?"`
}

// Cond is a condition on one object: a CEL expression over `object`, or a
// field equal to a value, or a field that exists.
type Cond struct {
	Span
	CEL    *StringLit `parser:"  @@"`
	Path   *Path      `parser:"| @@ ("`
	Equals *Expr      `parser:"    '==' @@"`
	Exists bool       `parser:"  | @'exists' )"`
}

// Path is a field path: spec.replicas, metadata.annotations."a/b",
// status.conditions[*].type. Head and the names in Elems keep their source
// text (quotes included).
type Path struct {
	Span
	Head  string      `parser:"@(Ident | String | '*')"`
	Elems []*PathElem `parser:"@@*"`
}

// PathElem is one element after the head of a path: .name, ."quoted", .*,
// [N] or [*].
type PathElem struct {
	Span
	Field string `parser:"  '.' @(Ident | String | '*')"`
	Index string `parser:"| '[' @(Number | '*') ']'"`
}

func (*Apply) step()  {}
func (*Patch) step()  {}
func (*Delete) step() {}
func (*Scale) step()  {}
func (*Wait) step()   {}
func (*Settle) step() {}

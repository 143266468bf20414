package syntax

// Mask declares fields the oracle ignores.
type Mask struct {
	Span
	Name  *Ident      `parser:"'mask' @@"`
	Rules []*MaskRule `parser:"'{' @@* '}'"`
}

// MaskRule masks one thing on the objects Target matches (every object when
// Target is nil): a key at any depth (Key, source text, quoted or not), a
// Path, string values of a kind (Value), or the whole object. Oracle is
// "end", "history" or empty (every oracle).
type MaskRule struct {
	Span
	Target *KeyLit `parser:"@@?"`
	Key    string  `parser:"(  'key' @(Ident | String)"`
	Path   *Path   `parser:" | 'path' @@"`
	Value  string  `parser:" | 'value' @Ident"`
	Whole  bool    `parser:" | @'whole' )"`
	Oracle string  `parser:"('in' @('end' | 'history'))?"`
}

// Invariant declares a CEL expression that must hold; When is "always",
// "end", "eventually", "never" or empty (always). Between, if set, limits
// an invariant over the history to the states between two workload steps.
// Params, as a workload's, are constants the expression refers to by name,
// given their values where a test uses the invariant.
type Invariant struct {
	Span
	Name    *Ident     `parser:"'invariant' @@"`
	Params  []*Param   `parser:"('(' (@@ ((?! ',' ')') ',' @@)* ','?)? ')')?"`
	When    string     `parser:"@('always' | 'end' | 'eventually' | 'never')?"`
	Between *Window    `parser:"@@?"`
	CEL     *StringLit `parser:"@@"`
}

// Window is the stretch of a run from the end of workload step From to the
// start of step To.
type Window struct {
	Span
	From *StepRef `parser:"'between' @@"`
	To   *StepRef `parser:"'and' @@"`
}

// StepRef names a workload's step by its number, from 1: resize[2].
type StepRef struct {
	Span
	Workload *Ident     `parser:"@@"`
	Step     *NumberLit `parser:"'[' @@ ']'"`
}

// Plan declares an explicit test plan: steps run one after another.
type Plan struct {
	Span
	Name  *Ident      `parser:"'plan' @@"`
	Steps []*PlanStep `parser:"'{' @@* '}'"`
}

// PlanStep is an action, fired by Trigger (or right after the previous
// step when Trigger is nil).
type PlanStep struct {
	Span
	Trigger *Trigger `parser:"(@@ ':')?"`
	Action  Action   `parser:"@@"`
}

// Action is what a plan step does: *Crash, *Restart, *Stale, *Hold,
// *Release, *Pause, *PauseController, *ResumeController, *APIError or
// *AppFault.
type Action interface {
	Node
	action()
}

// Crash kills the controller and starts it again.
type Crash struct {
	Span
	Crash bool `parser:"@'crash'"`
}

// Restart kills the controller and starts it again, as Crash does.
type Restart struct {
	Span
	Restart bool `parser:"@'restart'"`
}

// Stale freezes (Switch "on") or unfreezes (Switch "off") the controller's
// view of Scope; At, with "on", freezes it at the revision the controller
// had been shown when an earlier event happened.
type Stale struct {
	Span
	Switch string   `parser:"'stale' @('on' | 'off')"`
	Scope  *Expr    `parser:"@@"`
	At     *StaleAt `parser:"@@?"`
}

// Hold holds watch events for Scope, for at most For.
type Hold struct {
	Span
	Scope *Expr    `parser:"'hold' @@"`
	For   *HoldFor `parser:"@@?"`
}

// Release delivers the newest held state of Scope.
type Release struct {
	Span
	Scope *Expr `parser:"'release' @@"`
}

// Pause pauses the plan for Duration ("wait D").
type Pause struct {
	Span
	Duration *Expr `parser:"'wait' @@"`
}

// APIError answers the write (or ends the watch) its trigger ends on with
// the API error Name, in the API server's place.
type APIError struct {
	Span
	Name *Ident `parser:"'error' @@"`
}

// AppFault answers the call its trigger ends on with the application fault
// Name, in the application's place.
type AppFault struct {
	Span
	Name *Ident `parser:"'appfault' @@"`
}

// Trigger is a sequence A ; B ; ...: each part after the previous fired.
type Trigger struct {
	Span
	Seq []*Either `parser:"@@ (';' @@)*"`
}

// Either fires when any of its alternatives A | B | ... fires.
type Either struct {
	Span
	Alts []*Both `parser:"@@ ('|' @@)*"`
}

// Both fires when all of its parts A & B & ... have fired.
type Both struct {
	Span
	All []TriggerAtom `parser:"@@ ('&' @@)*"`
}

// TriggerAtom is *Group, *CallLeaf, *ReadLeaf, *Event, *Write, *Timeout
// or *Quiet.
type TriggerAtom interface {
	Node
	triggerAtom()
}

// Group is a parenthesised trigger.
type Group struct {
	Span
	Trigger *Trigger `parser:"'(' @@ ')'"`
}

// Event fires when the controller observes the Count-th matching event.
type Event struct {
	Span
	Verb   string     `parser:"'on' @('create' | 'update' | 'delete')"`
	Target *Expr      `parser:"@@"`
	Opts   []*LeafOpt `parser:"@@*"`
	Where  *Cond      `parser:"('where' @@)?"`
	Count  *NumberLit `parser:"('#' @@)?"`
}

// CallLeaf fires when the controller's Count-th matching call to its
// application is about to be answered: an exec (Exec, running Command if
// given) or an HTTP request (Method, Path, to the stand-in Standin), into
// or answered for the pod Pod. What is not given matches any call. With
// Changed, it fires once the application has answered the call, on the
// Count-th call whose answer differs from the previous equal call's.
type CallLeaf struct {
	Span
	Exec    bool       `parser:"(?= 'on' 'call') 'on' 'call' ( @'exec'"`
	Command *List      `parser:"@@?"`
	Method  string     `parser:"| ((?! 'in' | 'to' | 'changed') @Ident)?"`
	Path    *StringLit `parser:"@@?"`
	Standin *StringLit `parser:"('to' @@)? )"`
	Pod     *Expr      `parser:"('in' @@)?"`
	Changed bool       `parser:"@'changed'?"`
	Count   *NumberLit `parser:"('#' @@)?"`
}

// ReadLeaf fires when the controller's Count-th matching read (a get of
// one object, a list of a kind) is sent, before the API server has seen
// it.
type ReadLeaf struct {
	Span
	Verb   string     `parser:"(?= 'on' 'read') 'on' 'read' @('get' | 'list')"`
	Target *Expr      `parser:"@@"`
	Count  *NumberLit `parser:"('#' @@)?"`
}

// Write fires when the controller's Count-th matching write succeeded
// (or, Failed, was refused; or, Sent, is sent, before the API server has
// seen it).
type Write struct {
	Span
	Failed bool       `parser:"(?= 'after' ('write' | 'failed' | 'sending')) 'after' (@'failed'"`
	Sent   bool       `parser:"| @'sending')? 'write'"`
	Verb   string     `parser:"@('create' | 'update' | 'patch' | 'delete' | 'deletecollection')"`
	Target *Expr      `parser:"@@"`
	Opts   []*LeafOpt `parser:"@@*"`
	Where  *Cond      `parser:"('where' @@)?"`
	Count  *NumberLit `parser:"('#' @@)?"`
}

// Timeout fires Duration after the step started.
type Timeout struct {
	Span
	Duration *Expr `parser:"'after' @@"`
}

func (*Crash) action()    {}
func (*Restart) action()  {}
func (*Stale) action()    {}
func (*Hold) action()     {}
func (*Release) action()  {}
func (*Pause) action()    {}
func (*APIError) action() {}
func (*AppFault) action() {}

func (*Group) triggerAtom()    {}
func (*Event) triggerAtom()    {}
func (*CallLeaf) triggerAtom() {}
func (*ReadLeaf) triggerAtom() {}
func (*Write) triggerAtom()    {}
func (*Timeout) triggerAtom()  {}
func (*Quiet) triggerAtom()    {}

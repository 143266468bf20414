// Package celenv is the CEL environment of sieve specs. The checker
// compiles every expression with it at check time. The interpreter
// compiles each expression once and evaluates it against objects that it
// supplies as Go maps.
//
// There are three kinds of expression. Invariants see objects(kind,
// namespace) and object(kind, namespace, name). Wait conditions see the
// same two functions plus the variable `object`, bound to each object that
// the step's target matches (null when the step has no target). Trigger
// `where` conditions see only `object`, the object whose change fired the
// trigger. Every expression must yield a bool.
//
// CompileParams compiles an expression that also sees named constants: an
// invariant's parameters, with the arguments of one use (or of any type,
// to check the declaration alone). Names lists the identifiers that an
// expression refers to and those that its macros bind. The checker uses
// it to find unused parameters and macro variables that hide one. Reserved
// lists the names a parameter may not take.
//
// UnknownFields walks an expression with the shapes of the objects it
// reads (Shape, given by the caller). It returns the fields that the
// expression selects and a shape does not have, for the checker's field
// lint.
//
// Every evaluation has a Budget in CEL's cost units and in time; past it,
// Eval returns a *BudgetError, so a hostile expression cannot hang a check
// or a run. The budget also bounds all evaluations of one expression over
// a run together; the caller that repeats them keeps that account. The
// environment variables CostEnv, TimeEnv and RunTimeEnv raise the bounds.
//
// It does not fetch objects: the caller passes a World. It imports
// nothing of the interpreter.
package celenv

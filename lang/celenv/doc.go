// Package celenv is the CEL environment of sieve specs, shared by the
// checker (which compiles every expression at check time) and the
// interpreter (which compiles once and evaluates against objects it
// supplies as Go maps).
//
// Three kinds of expression exist. Invariants see objects(kind, namespace)
// and object(kind, namespace, name). Wait conditions see the same two
// functions plus the variable `object`, bound to each object the step's
// target matches (null when the step has no target). Trigger `where`
// conditions see only the variable `object`, the object whose change fired
// the trigger. Every expression must yield a bool.
//
// CompileParams compiles an expression that sees named constants besides:
// an invariant's parameters, with the arguments of one use (or of any
// type, to check the declaration on its own). Names lists the identifiers
// an expression refers to and those its macros bind, so the checker can
// find unused parameters and macro variables that hide one; Reserved are
// the names a parameter may not take.
//
// UnknownFields walks an expression with the shapes of the objects it
// reads (Shape, given by the caller) and returns the fields it selects that
// a shape does not have, for the checker's field lint.
//
// Every evaluation has a Budget, in CEL's cost units and in time (the
// environment variables CostEnv and TimeEnv raise it); past it, Eval
// returns a *BudgetError, so a hostile expression cannot hang a check or
// a run. The budget also bounds the evaluations of one expression over a
// run together (RunTimeEnv), which the caller that repeats them keeps.
//
// It does not fetch objects: the caller passes a World. It imports nothing
// of the interpreter.
package celenv

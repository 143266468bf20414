package celenv

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"
)

// Kind says where an expression appears and so what it may refer to.
type Kind int

// Expression kinds.
const (
	Invariant Kind = iota // objects(), object()
	Wait                  // objects(), object(), and the variable object
	Where                 // the variable object only
)

// String names the kind as the spec language does.
func (k Kind) String() string {
	switch k {
	case Wait:
		return "wait condition"
	case Where:
		return "where condition"
	}
	return "invariant"
}

// Limits that keep hostile expressions from hanging a check or a run.
const (
	maxExprSize  = 100_000
	maxRecursion = 200
)

// Budget bounds each evaluation of an expression (Cost, Time) and all of
// them over one run (Run); an evaluation past it fails with a
// *BudgetError. New takes it from the environment (CostEnv, TimeEnv,
// RunTimeEnv), else the defaults.
type Budget struct {
	// Cost is in CEL's cost units: about one per step of a comprehension,
	// comparison or field selection. Default DefaultCost.
	Cost uint64
	// Time bounds the evaluation's wall-clock time, for what the cost
	// does not count (a long list from objects(), a regular expression
	// over a long string). Default DefaultTime.
	Time time.Duration
	// Run bounds the time of all the evaluations of one expression over
	// one run together (an invariant on each state of a trace), which no
	// single evaluation shows: one well within its budget, over thousands
	// of states. The caller that evaluates over a run keeps it. Default
	// DefaultRunTime.
	Run time.Duration
}

// The default budget: 10 million cost units (a few seconds; an invariant
// over every pair of a few hundred objects costs about a million), and
// 30 seconds.
const (
	DefaultCost    = 10_000_000
	DefaultTime    = 30 * time.Second
	DefaultRunTime = 2 * time.Minute
)

// The environment variables that raise the budget: a number of cost units,
// and Go durations.
const (
	CostEnv    = "SIEVE_CEL_COST"
	TimeEnv    = "SIEVE_CEL_TIME"
	RunTimeEnv = "SIEVE_CEL_RUN_TIME"
)

// budgetFromEnv is the budget that CostEnv and TimeEnv set, with the
// defaults for what they do not.
func budgetFromEnv() Budget {
	b := Budget{Cost: DefaultCost, Time: DefaultTime, Run: DefaultRunTime}
	if n, err := strconv.ParseUint(os.Getenv(CostEnv), 10, 64); err == nil && n > 0 {
		b.Cost = n
	}
	if d, err := time.ParseDuration(os.Getenv(TimeEnv)); err == nil && d > 0 {
		b.Time = d
	}
	if d, err := time.ParseDuration(os.Getenv(RunTimeEnv)); err == nil && d > 0 {
		b.Run = d
	}
	return b
}

// BudgetError is an evaluation that went past its budget.
type BudgetError struct {
	Budget Budget
	// Time says the time ran out, not the cost.
	Time bool
	// Run says the time of the run's evaluations together ran out
	// (Budget.Run).
	Run bool
}

// Error says which budget ran out, and how to raise it.
func (e *BudgetError) Error() string {
	if e.Run {
		return fmt.Sprintf("evaluations over the run's states exceeded their time budget of %s together (simplify it, or raise the budget with %s=DURATION)", e.Budget.Run, RunTimeEnv)
	}
	if e.Time {
		return fmt.Sprintf("evaluation exceeded its time budget of %s (simplify it, or raise the budget with %s=DURATION)", e.Budget.Time, TimeEnv)
	}
	return fmt.Sprintf("evaluation exceeded its cost budget of %d (simplify it: fewer nested all/exists over long lists; or raise the budget with %s=N)", e.Budget.Cost, CostEnv)
}

// World gives an expression the cluster state it evaluates against. Objects
// are decoded JSON: map[string]any, []any, string, bool, nil, and numbers as
// int64 or float64 (the two compare equal across types).
type World interface {
	// Objects returns the objects of a kind (lowercase singular, as in
	// resource keys) in a namespace; namespace "" means every namespace.
	Objects(kind, namespace string) []map[string]any
	// Object returns one object, or nil when it does not exist.
	Object(kind, namespace, name string) map[string]any
}

// Error is one problem CEL found in an expression. Line and Column are
// 1-based and count runes within the expression text.
type Error struct {
	Line, Column int
	Msg          string
}

// Error formats the error as "line:col: msg".
func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg) }

// Errors is the list of problems in one expression; Compile returns it as
// its error.
type Errors []*Error

// Error joins the messages.
func (es Errors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "; ")
}

// Env holds the compiled CEL environments, one per kind. Building one takes
// a while, so a caller makes one Env and compiles every expression with it.
// An Env is safe for concurrent use.
type Env struct {
	envs   [3]*cel.Env
	budget Budget
}

// New builds the environments, with the budget that the environment
// variables CostEnv and TimeEnv set (the defaults when they do not).
func New() (*Env, error) {
	e := &Env{budget: budgetFromEnv()}
	for k := range e.envs {
		env, err := newEnv(Kind(k))
		if err != nil {
			return nil, err
		}
		e.envs[k] = env
	}
	return e, nil
}

// Program is a compiled expression, safe for concurrent use. Planned CEL
// programs, each bound to a slot for the World of one evaluation, are kept
// in a pool so that Eval does not plan the expression again.
type Program struct {
	kind   Kind
	env    *cel.Env
	ast    *cel.Ast
	budget Budget
	pool   sync.Pool // of *planned
}

// planned is a CEL program whose world functions read w.
type planned struct {
	prg cel.Program
	err error
	w   World
}

func (p *Program) get() *planned {
	if x, ok := p.pool.Get().(*planned); ok {
		return x
	}
	pl := &planned{}
	opts := []cel.ProgramOption{cel.CostLimit(p.budget.Cost), cel.InterruptCheckFrequency(100)}
	if p.kind != Where {
		opts = append(opts, cel.Functions(worldBindings(func() World { return pl.w })...))
	}
	pl.prg, pl.err = p.env.Program(p.ast, opts...)
	return pl
}

// Compile parses and type-checks expr for kind. The error, when not nil, is
// an Errors value with positions inside expr.
func (e *Env) Compile(kind Kind, expr string) (*Program, error) {
	if kind < Invariant || kind > Where {
		return nil, fmt.Errorf("celenv: unknown kind %d", kind)
	}
	return compileIn(e.envs[kind], kind, expr, e.budget)
}

// compileIn compiles expr in env, which is kind's environment or one
// that extends it; its evaluations get budget b.
func compileIn(env *cel.Env, kind Kind, expr string, b Budget) (*Program, error) {
	ast, iss := env.Compile(expr)
	if iss != nil && iss.Err() != nil {
		return nil, toErrors(iss)
	}
	if t := ast.OutputType(); !t.IsExactType(cel.BoolType) && !t.IsExactType(cel.DynType) {
		return nil, Errors{{Line: 1, Column: 1, Msg: fmt.Sprintf("the result must be a bool, not %s", t)}}
	}
	return &Program{kind: kind, env: env, ast: ast, budget: b}, nil
}

// Compile is New followed by Env.Compile, for a one-off expression.
func Compile(kind Kind, expr string) (*Program, error) {
	e, err := New()
	if err != nil {
		return nil, err
	}
	return e.Compile(kind, expr)
}

// Budget is the budget of the program's evaluations.
func (p *Program) Budget() Budget { return p.budget }

// Eval evaluates the program against w with `object` bound to obj (which
// Invariant programs ignore; nil binds null). w may be nil for Where
// programs. It returns an error when evaluation fails or yields no bool,
// a *BudgetError when it goes past the program's Budget.
func (p *Program) Eval(ctx context.Context, w World, obj map[string]any) (bool, error) {
	pl := p.get()
	if pl.err != nil {
		return false, fmt.Errorf("cel: %w", pl.err)
	}
	pl.w = w
	defer func() { pl.w = nil; p.pool.Put(pl) }()
	vars := map[string]any{}
	if p.kind != Invariant {
		vars["object"] = nullable(obj)
	}
	inner, cancel := context.WithTimeout(ctx, p.budget.Time)
	defer cancel()
	out, _, err := pl.prg.ContextEval(inner, vars)
	if err != nil {
		return false, p.evalError(ctx, inner, err)
	}
	b, ok := out.Value().(bool)
	if !ok {
		return false, fmt.Errorf("cel: %s yielded %s, not a bool", p.kind, out.Type())
	}
	return b, nil
}

// evalError wraps an evaluation error, turning one of the budget's into a
// *BudgetError: the cost, or the time of the evaluation's own deadline
// (not the caller's context, whose end is no fault of the expression).
func (p *Program) evalError(outer, ctx context.Context, err error) error {
	var c interpreter.EvalCancelledError
	switch {
	case errors.As(err, &c) && c.Cause == interpreter.CostLimitExceeded:
		return &BudgetError{Budget: p.budget}
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil && outer.Err() == nil:
		return &BudgetError{Budget: p.budget, Time: true}
	}
	return fmt.Errorf("cel: %w", err)
}

// IsMissing reports whether err is an evaluation error about something
// that is not there. That is a key or field the object does not have
// ("no such key: updatedReplicas"), a field of a null object (object() of
// one that does not exist), or a list index past the end. (The API server
// leaves out fields whose value is zero.) A wait treats these as "not yet"
// and keeps waiting; any other error, a type error or a division by zero,
// is a real one.
func IsMissing(err error) bool {
	var e *types.Err
	if !errors.As(err, &e) {
		return false
	}
	msg := e.Error()
	for _, prefix := range []string{"no such key", "no such field", "index out of bounds"} {
		if strings.HasPrefix(msg, prefix) {
			return true
		}
	}
	return false
}

func nullable(obj map[string]any) any {
	if obj == nil {
		return types.NullValue
	}
	return obj
}

// newEnv builds the environment for kind. The world functions are declared
// without implementations; Eval binds them to its World.
func newEnv(kind Kind) (*cel.Env, error) {
	opts := []cel.EnvOption{
		ext.Strings(), ext.Lists(), ext.Sets(),
		cel.CrossTypeNumericComparisons(true),
		cel.ParserExpressionSizeLimit(maxExprSize),
		cel.ParserRecursionLimit(maxRecursion),
	}
	if kind != Where {
		opts = append(opts,
			cel.Function("objects", cel.Overload(overloadObjects,
				[]*cel.Type{cel.StringType, cel.StringType}, cel.ListType(cel.DynType))),
			cel.Function("object", cel.Overload(overloadObject,
				[]*cel.Type{cel.StringType, cel.StringType, cel.StringType}, cel.DynType)))
	}
	if kind != Invariant {
		opts = append(opts, cel.Variable("object", cel.DynType))
	}
	env, err := cel.NewEnv(opts...)
	if err != nil {
		return nil, fmt.Errorf("cel environment: %w", err)
	}
	return env, nil
}

// Overload identifiers of the world functions.
const (
	overloadObjects = "objects_string_string"
	overloadObject  = "object_string_string_string"
)

// worldBindings implements objects() and object() over the World that
// world returns at call time. A nil world has no objects.
func worldBindings(world func() World) []*functions.Overload {
	return []*functions.Overload{
		{Operator: overloadObjects, Binary: func(k, ns ref.Val) ref.Val {
			var list []map[string]any
			if w := world(); w != nil {
				list = w.Objects(str(k), str(ns))
			}
			out := make([]any, len(list))
			for i, o := range list {
				out[i] = o
			}
			return types.DefaultTypeAdapter.NativeToValue(out)
		}},
		{Operator: overloadObject, Function: func(args ...ref.Val) ref.Val {
			var o map[string]any
			if w := world(); w != nil && len(args) == 3 {
				o = w.Object(str(args[0]), str(args[1]), str(args[2]))
			}
			return types.DefaultTypeAdapter.NativeToValue(nullable(o))
		}},
	}
}

func str(v ref.Val) string {
	s, _ := v.Value().(string)
	return s
}

func toErrors(iss *cel.Issues) error {
	var out Errors
	for _, e := range iss.Errors() {
		line, col := e.Location.Line(), e.Location.Column()+1
		out = append(out, &Error{Line: max(line, 1), Column: max(col, 1), Msg: firstLine(e.Message)})
	}
	if len(out) == 0 {
		return errors.New(iss.String())
	}
	return out
}

// firstLine shortens a CEL message: its first line, without the list of
// tokens the parser expected, starting in lower case.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	s, _, _ = strings.Cut(s, " expecting {")
	return strings.Replace(s, "Syntax error:", "syntax error:", 1)
}

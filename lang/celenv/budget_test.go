package celenv_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/lang/celenv"
)

// nested is an expression that visits every pair (or triple) of a list:
// a million steps for a list of a thousand.
const (
	nested2 = "object.items.all(a, object.items.all(b, b >= 0))"
	nested3 = "object.items.all(a, object.items.all(b, object.items.all(c, c >= 0)))"
)

func longList(n int) map[string]any {
	items := make([]any, n)
	for i := range items {
		items[i] = int64(i)
	}
	return map[string]any{"items": items}
}

// evalBudget compiles expr with the budget the environment sets, and
// evaluates it over a list of n.
func evalBudget(t *testing.T, expr string, n int) (time.Duration, error) {
	t.Helper()
	env, err := celenv.New()
	if err != nil {
		t.Fatal(err)
	}
	p, err := env.Compile(celenv.Where, expr)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = p.Eval(context.Background(), nil, longList(n))
	return time.Since(start), err
}

// TestCostBudget checks that an evaluation past its cost budget stops
// there, with an error that names the budget and how to raise it.
func TestCostBudget(t *testing.T) {
	t.Setenv(celenv.CostEnv, "50000")
	_, err := evalBudget(t, nested2, 1000)
	var be *celenv.BudgetError
	if !errors.As(err, &be) || be.Time {
		t.Fatalf("got %v, want a cost budget error", err)
	}
	want := "evaluation exceeded its cost budget of 50000 (simplify it: fewer nested all/exists over long lists; or raise the budget with SIEVE_CEL_COST=N)"
	if err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
}

// TestDefaultCostBudget checks the default budget stays within seconds:
// at most 10 million units, a tenth of what a nested invariant once had.
func TestDefaultCostBudget(t *testing.T) {
	t.Setenv(celenv.CostEnv, "")
	if celenv.DefaultCost > 10_000_000 {
		t.Errorf("DefaultCost %d", celenv.DefaultCost)
	}
	if _, err := evalBudget(t, nested2, 300); err != nil { // 90,000 steps
		t.Errorf("a modest nested expression: %v", err)
	}
}

// TestTimeBudget checks that an evaluation past its time budget stops
// soon after, with an error that names the budget and how to raise it.
func TestTimeBudget(t *testing.T) {
	t.Setenv(celenv.CostEnv, "100000000000")
	t.Setenv(celenv.TimeEnv, "50ms")
	took, err := evalBudget(t, nested3, 1000)
	var be *celenv.BudgetError
	if !errors.As(err, &be) || !be.Time || !strings.Contains(err.Error(), "time budget of 50ms") || !strings.Contains(err.Error(), "SIEVE_CEL_TIME=DURATION") {
		t.Fatalf("got %v, want a time budget error", err)
	}
	if took > 5*time.Second {
		t.Errorf("stopped after %s", took)
	}
}

// TestCallerDeadline checks that the caller's own deadline is not the
// expression's fault: no budget error.
func TestCallerDeadline(t *testing.T) {
	env, err := celenv.New()
	if err != nil {
		t.Fatal(err)
	}
	p, err := env.Compile(celenv.Where, nested3)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = p.Eval(ctx, nil, longList(1000))
	var be *celenv.BudgetError
	if err == nil || errors.As(err, &be) {
		t.Errorf("got %v, want the caller's deadline", err)
	}
}

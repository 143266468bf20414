package celenv_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sievetool/sieve/internal/hostile"
	"github.com/sievetool/sieve/lang/celenv"
)

// fuzzWorld holds a few claims and the ring of the example specs, with a
// list long enough for nested comprehensions to cost.
type fuzzWorld struct{}

func (fuzzWorld) Objects(kind, ns string) []map[string]any {
	var out []map[string]any
	for i := range 50 {
		out = append(out, map[string]any{
			"metadata": map[string]any{"name": "data-cass-" + string(rune('a'+i%26))},
			"spec":     map[string]any{"resources": map[string]any{"requests": map[string]any{"storage": "1Gi"}}},
		})
	}
	return out
}

func (fuzzWorld) Object(kind, ns, name string) map[string]any {
	return map[string]any{"metadata": map[string]any{"name": name}, "spec": map[string]any{"members": int64(3), "storage": "1Gi"}}
}

// FuzzEval compiles arbitrary expressions of each kind and evaluates those
// that compile against a small world, under a small budget. Compiling and
// evaluating must never panic. An evaluation ends within its time budget
// (with a margin for a loaded machine), and errors are clear. Seeds: the
// invariants and wait conditions of the example specs, and expressions
// that cost.
func FuzzEval(f *testing.F) {
	for _, s := range []string{
		`objects("persistentvolumeclaim", "default").filter(p, p.metadata.name.startsWith("data-cass-") && !has(p.metadata.deletionTimestamp)).size() == object("ring", "default", "cass").spec.members`,
		`objects("persistentvolumeclaim", "default").filter(p, p.metadata.name.startsWith("data-bc-")).all(p, p.spec.resources.requests.storage == object("brokercluster", "default", "bc").spec.storage)`,
		`object.spec.members == 3 && object.metadata.name.matches("^d.*$")`,
		`objects("a", "").all(x, objects("a", "").all(y, objects("a", "").all(z, x == y)))`,
		`[1, 2, 3].map(x, [x, x]).size() > 0`,
		`-(-(-(-1))) == -1 && !!!!true`,
		`"x" + string(1) == "x1" || 1 / 0 == 0`,
	} {
		f.Add(s)
	}
	t0 := time.Second
	f.Setenv(celenv.CostEnv, "200000")
	f.Setenv(celenv.TimeEnv, t0.String())
	env, err := celenv.New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		for _, kind := range []celenv.Kind{celenv.Invariant, celenv.Wait, celenv.Where} {
			p, err := env.Compile(kind, expr)
			if err != nil {
				hostile.CheckError(t, err, []byte(expr))
				continue
			}
			start := time.Now()
			_, err = p.Eval(context.Background(), fuzzWorld{}, fuzzWorld{}.Object("ring", "default", "cass"))
			if d := time.Since(start); d > 5*t0 {
				t.Fatalf("%s: evaluation took %s, past its budget of %s", kind, d, t0)
			}
			var be *celenv.BudgetError
			if err != nil && !errors.As(err, &be) {
				hostile.CheckError(t, err, []byte(expr))
			}
		}
	})
}

package check_test

import (
	"context"
	"testing"

	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/stdlib"
)

// claims is a cluster for the std invariants: a StatefulSet ds whose
// claims data-ds-0 and data-ds-1 exist, data-ds-2 being deleted.
type claims struct{}

func (claims) Objects(kind, ns string) []map[string]any { return nil }

func (claims) Object(kind, ns, name string) map[string]any {
	meta := map[string]any{"name": name, "namespace": ns}
	switch kind + "/" + name {
	case "statefulset/ds", "persistentvolumeclaim/data-ds-0", "persistentvolumeclaim/data-ds-1":
		return map[string]any{"metadata": meta}
	case "persistentvolumeclaim/data-ds-2":
		meta["deletionTimestamp"] = "2026-12-04T00:00:00Z"
		return map[string]any{"metadata": meta}
	}
	return nil
}

// TestStdInvariants checks std/invariants and evaluates each use against
// the claims cluster: a claim being deleted counts as lost.
func TestStdInvariants(t *testing.T) {
	src := `import "std/invariants"
controller c { command "true" }
workload w { settle }
test t {
  controller c
  workloads  [w]
  invariants [
    invariants.exists("statefulset", "ds"),
    invariants.exists(kind = "statefulset", name = "gone"),
    invariants.exists("persistentvolumeclaim", "data-ds-2"),
    invariants.claims_kept(set = "ds", replicas = 2),
    invariants.claims_kept(set = "ds", replicas = 3),
    invariants.claims_kept("ds", 1, claim = "logs"),
  ]
}
`
	spec, ds := check.File("std.sieve", []byte(src), check.Options{Std: stdlib.FS()})
	if len(ds) > 0 || spec == nil {
		t.Fatalf("check: %v", ds)
	}
	env, err := celenv.New()
	if err != nil {
		t.Fatal(err)
	}
	want := []bool{true, false, false, true, false, false}
	invs := spec.Tests[0].Invariants
	if len(invs) != len(want) {
		t.Fatalf("%d invariants, want %d", len(invs), len(want))
	}
	for i, inv := range invs {
		p, err := env.CompileParams(celenv.Invariant, inv.Expr, inv.ArgMap())
		if err != nil {
			t.Errorf("%s: %v", inv.Label(), err)
			continue
		}
		got, err := p.Eval(context.Background(), claims{}, nil)
		if err != nil || got != want[i] {
			t.Errorf("%s = %v, %v; want %v", inv.Label(), got, err, want[i])
		}
	}
}

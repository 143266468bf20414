package oracle

import (
	"fmt"
	"testing"

	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/lang/ir"
)

// TestFormatMaskRoundTrip feeds FormatMask's output to the .sieve checker
// and expects the same rules back in the IR.
func TestFormatMaskRoundTrip(t *testing.T) {
	rules := []*ir.MaskRule{
		{Target: ir.Ref{Kind: "statefulset", Namespace: "default", Name: "ds"}, Path: "status.readyReplicas", Oracle: ir.OracleEnd},
		{Target: ir.Ref{Kind: "pod", Namespace: "default", Name: "web-*"}, Whole: true},
		{Target: ir.Ref{Kind: "persistentvolumeclaim", Namespace: "default", Name: "data-ds-0"}, Whole: true, Oracle: ir.OracleHistory},
		{Target: ir.Ref{Kind: "configmap", Namespace: "default", Name: "cfg"}, Path: `data."app.conf"`, Oracle: ir.OracleEnd},
		{Target: ir.Ref{Kind: "pod", Namespace: "default", Name: "x"}, Path: "spec.containers.*.image"},
		{Target: ir.Ref{Kind: "pod", Namespace: "default", Name: "x"}, Path: `metadata.labels."pod-template-hash"`},
		{Target: ir.Ref{Kind: "pod", Namespace: "default", Name: "x"}, Path: "spec.containers[0].image"},
		{Key: "app.kubernetes.io/name"},
		{Key: "uid"},
		{Value: "timestamp"},
	}
	b, err := FormatMask("learned", []string{"learned"}, rules)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b) + `
controller c { command ["true"] }
workload w { settle 1s }
test t {
  controller c
  workloads [w]
  masks [learned]
}
`
	spec, ds := check.File("learned.sieve", []byte(src), check.Options{})
	if ds.HasErrors() {
		t.Fatalf("the printed mask does not check:\n%v\n%s", ds, src)
	}
	got := spec.Tests[0].Masks[0].Rules
	if len(got) != len(rules) {
		t.Fatalf("%d rules back, want %d", len(got), len(rules))
	}
	for i, r := range rules {
		g := got[i]
		want := fmt.Sprintf("%s|%s|%s|%s|%v|%s", r.Target, r.Key, r.Path, r.Value, r.Whole, r.Oracle)
		have := fmt.Sprintf("%s|%s|%s|%s|%v|%s", g.Target, g.Key, g.Path, g.Value, g.Whole, g.Oracle)
		if isAny(r.Target) && isAny(g.Target) {
			have = fmt.Sprintf("%s|%s|%s|%s|%v|%s", r.Target, g.Key, g.Path, g.Value, g.Whole, g.Oracle)
		}
		if want != have {
			t.Errorf("rule %d: printed %q, read back %s, want %s", i, formatRule(r), have, want)
		}
	}
}

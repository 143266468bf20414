package oracle

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/syntax"
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
			t.Errorf("rule %d: read back %s, want %s\n%s", i, have, want, b)
		}
	}
}

// TestFormatMaskCommentLines: a comment of several lines stays a comment;
// a line of it that reads as a declaration does not become one.
func TestFormatMaskCommentLines(t *testing.T) {
	b, err := FormatMask("learned", []string{"from test t\nmask evil { whole }"}, []*ir.MaskRule{{Key: "uid"}})
	if err != nil {
		t.Fatal(err)
	}
	f, ds := syntax.Parse("learned.sieve", b)
	if len(ds) > 0 {
		t.Fatalf("%v\n%s", ds, b)
	}
	if len(f.Decls) != 1 || len(f.Comments) != 2 {
		t.Errorf("%d declarations and %d comments, want 1 and 2:\n%s", len(f.Decls), len(f.Comments), b)
	}
}

// TestFormatMaskErrors: a rule with no .sieve form is refused, naming the
// rule.
func TestFormatMaskErrors(t *testing.T) {
	cases := map[string]*ir.MaskRule{
		"rule 1: masks nothing":           {Target: ir.Ref{Kind: "pod", Name: "x"}},
		`rule 1: field path "a..b"`:       {Path: "a..b"},
		`rule 1: resource key "pod/x y"`:  {Target: ir.Ref{Kind: "pod", Name: "x y"}, Whole: true},
		`rule 1: identifier "time-stamp"`: {Value: "time-stamp"},
		`rule 1: oracle "sometimes"`:      {Whole: true, Oracle: "sometimes"},
	}
	for want, r := range cases {
		_, err := FormatMask("learned", nil, []*ir.MaskRule{r})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: error %v, want %q", r, err, want)
		}
	}
}

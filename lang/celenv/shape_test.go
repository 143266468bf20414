package celenv_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sievetool/sieve/lang/celenv"
)

// pod is a small shape: spec.replicas, spec.containers[].image, an open
// map of labels.
func podShape() *celenv.Shape {
	container := &celenv.Shape{Fields: map[string]*celenv.Shape{"image": nil, "name": nil}}
	spec := &celenv.Shape{Fields: map[string]*celenv.Shape{
		"replicas":   nil,
		"containers": {List: true, Elem: container},
	}}
	meta := &celenv.Shape{Fields: map[string]*celenv.Shape{"name": nil, "labels": nil}}
	return &celenv.Shape{Fields: map[string]*celenv.Shape{"metadata": meta, "spec": spec}}
}

// TestUnknownFields holds where UnknownFields finds a field a shape lacks
// (through the variable object, objects() macros, object(), indexes and
// nested macros) and where it stays silent (has() tests, open values,
// unknown kinds, a kind that is not a literal).
func TestUnknownFields(t *testing.T) {
	env, err := celenv.New()
	if err != nil {
		t.Fatal(err)
	}
	roots := celenv.Roots{Object: podShape(), Kind: func(k string) *celenv.Shape {
		if k == "pod" {
			return podShape()
		}
		return nil
	}}
	for _, tc := range []struct {
		kind celenv.Kind
		expr string
		want string
	}{
		{celenv.Wait, "object.sepc.replicas == 1 && has(object.foo)", "[:sepc object.sepc 1:8]"},
		{celenv.Wait, "object.spec.replicaz == 1", "[:spec.replicaz object.spec.replicaz 1:13]"},
		{celenv.Invariant, `objects("pod", "").filter(p,` + "\n" + `p.spec.replicaz > 1).size() == 0`, "[pod:spec.replicaz p.spec.replicaz 2:8]"},
		{celenv.Invariant, `objects("pod", "").all(p, p.spec.containers.all(c, c.imagez != ""))`, "[pod:spec.containers.*.imagez c.imagez 1:54]"},
		{celenv.Invariant, `object("pod", "d", "x").spec.containers[0].imag == ""`, "[pod:spec.containers.*.imag object(...).spec.containers[*].imag 1:44]"},
		{celenv.Invariant, `objects("pod", "")[0].status.phase == ""`, "[pod:status objects(...)[*].status 1:23]"},
		{celenv.Invariant, `objects("pod", "").filter(p, p.metadata.name != "").all(q, q.spec.replicaz > 0)`, "[pod:spec.replicaz q.spec.replicaz 1:67]"},
		{celenv.Invariant, `objects("pod", "").map(p, p.spec).all(s, s.nosuch > 0)`, "[]"},
		{celenv.Where, `object.metadata.labels.anything == "x" && has(object.spec.nosuch)`, "[]"},
		{celenv.Invariant, `objects("secret", "").all(s, s.whatever == 1)`, "[]"},
		{celenv.Invariant, `objects("pod", "").exists(i, v, v.spec.replicas > 0)`, "[]"},
		{celenv.Invariant, `[1].all(x, x == 1) && objects("po" + "d", "").all(p, p.nosuch == 1)`, "[]"},
		{celenv.Invariant, `(`, "[]"},
	} {
		var got []string
		for _, m := range env.UnknownFields(tc.kind, tc.expr, roots) {
			got = append(got, fmt.Sprintf("%s:%s %s %d:%d", m.Kind, strings.Join(m.Path, "."), m.Text, m.Line, m.Column))
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("UnknownFields(%q) = %v, want %s", tc.expr, got, tc.want)
		}
	}
}

// FuzzUnknownFields holds that walking any expression with shapes never
// panics and reports only positions inside the expression.
func FuzzUnknownFields(f *testing.F) {
	for _, s := range []string{
		`objects("pod", "").all(p, p.spec.containers.all(c, c.imagez != ""))`,
		`object("pod", "d", "x").spec.containers[0].imag == ""`,
		`objects("pod", "")[0].status.phase == "" && [1, 2][0] == 1 && {"a": object.x}.a == 1`,
		`object.spec.replicaz == 1 && objects("pod", "").exists(i, v, v.nosuch)`,
	} {
		f.Add(s)
	}
	env, err := celenv.New()
	if err != nil {
		f.Fatal(err)
	}
	roots := celenv.Roots{Object: podShape(), Kind: func(string) *celenv.Shape { return podShape() }}
	f.Fuzz(func(t *testing.T, expr string) {
		lines := strings.Split(expr, "\n")
		for _, k := range []celenv.Kind{celenv.Invariant, celenv.Wait, celenv.Where} {
			for _, m := range env.UnknownFields(k, expr, roots) {
				if m.Line < 1 || m.Line > len(lines) || m.Column < 1 || len(m.Path) == 0 {
					t.Errorf("UnknownFields(%q): miss %+v outside the expression", expr, m)
				}
			}
		}
	})
}

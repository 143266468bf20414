package celenv_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/sievetool/sieve/lang/celenv"
)

// TestCompileParams evaluates expressions that refer to parameters, as
// the checker and the oracle compile an invariant's, including values
// that went through JSON (a whole number decoded as float64).
func TestCompileParams(t *testing.T) {
	var w world
	if err := json.Unmarshal([]byte(cluster), &w); err != nil {
		t.Fatal(err)
	}
	env, err := celenv.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		expr   string
		params map[string]any
		want   bool
	}{
		{`object("statefulset", ns, name) != null`, map[string]any{"ns": "default", "name": "ds"}, true},
		{`object("statefulset", ns, name) != null`, map[string]any{"ns": "default", "name": "gone"}, false},
		{`objects("pod", ns).size() == n + 1`, map[string]any{"ns": "default", "n": int64(1)}, true},
		{`objects("pod", ns).size() == n + 1`, map[string]any{"ns": "default", "n": float64(1)}, true},
		{`objects("pod", "default").all(p, p.metadata.name in names)`, map[string]any{"names": []any{"ds-0", "ds-1"}}, true},
		{`strict && ratio > 0.5`, map[string]any{"strict": true, "ratio": 0.75}, true},
	} {
		p, err := env.CompileParams(celenv.Invariant, c.expr, c.params)
		if err != nil {
			t.Errorf("%q %v: compile: %v", c.expr, c.params, err)
			continue
		}
		got, err := p.Eval(context.Background(), w, nil)
		if err != nil || got != c.want {
			t.Errorf("%q %v = %v, %v; want %v", c.expr, c.params, got, err, c.want)
		}
	}
}

// TestCompileParamsTypes holds that an argument of the wrong type fails
// to compile, and that an unknown value (nil) compiles as any type.
func TestCompileParamsTypes(t *testing.T) {
	env, err := celenv.New()
	if err != nil {
		t.Fatal(err)
	}
	expr := `object("pod", "default", name) != null`
	if _, err := env.CompileParams(celenv.Invariant, expr, map[string]any{"name": nil}); err != nil {
		t.Errorf("unknown value: %v", err)
	}
	_, err = env.CompileParams(celenv.Invariant, expr, map[string]any{"name": int64(3)})
	if err == nil || !strings.Contains(err.Error(), "no matching overload") {
		t.Errorf("integer name: err = %v, want no matching overload", err)
	}
}

// TestNames lists free and macro-bound identifiers with their positions.
func TestNames(t *testing.T) {
	env, err := celenv.New()
	if err != nil {
		t.Fatal(err)
	}
	expr := "objects(\"pod\", ns).all(p, p.metadata.name != name) &&\n  [1].exists(ns, ns > 0)"
	var got []string
	for _, n := range env.Names(celenv.Invariant, expr) {
		got = append(got, fmt.Sprintf("%s/%v@%d:%d", n.Name, n.Bound, n.Line, n.Column))
	}
	want := "ns/false@1:16 p/true@1:23 name/false@1:46 ns/true@2:13"
	if strings.Join(got, " ") != want {
		t.Errorf("Names = %s\nwant    %s", strings.Join(got, " "), want)
	}
}

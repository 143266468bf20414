package celenv_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sievetool/sieve/lang/celenv"
)

// world is a fake cluster: objects keyed by kind, namespace and name.
type world []map[string]any

func (w world) Objects(kind, ns string) []map[string]any {
	var out []map[string]any
	for _, o := range w {
		if o["kind"] == kind && (ns == "" || meta(o, "namespace") == ns) {
			out = append(out, o)
		}
	}
	return out
}

func (w world) Object(kind, ns, name string) map[string]any {
	for _, o := range w.Objects(kind, ns) {
		if meta(o, "name") == name {
			return o
		}
	}
	return nil
}

func meta(o map[string]any, key string) any {
	m, _ := o["metadata"].(map[string]any)
	return m[key]
}

const cluster = `[
 {"kind": "pod", "metadata": {"namespace": "default", "name": "ds-0"}, "status": {"phase": "Running"}},
 {"kind": "pod", "metadata": {"namespace": "default", "name": "ds-1"}, "status": {"phase": "Pending"}},
 {"kind": "persistentvolumeclaim", "metadata": {"namespace": "default", "name": "data-ds-0"}},
 {"kind": "statefulset", "metadata": {"namespace": "default", "name": "ds"}, "spec": {"replicas": 2}}
]`

func TestEval(t *testing.T) {
	var w world
	if err := json.Unmarshal([]byte(cluster), &w); err != nil {
		t.Fatal(err)
	}
	env, err := celenv.New()
	if err != nil {
		t.Fatal(err)
	}
	self := w[0]
	for _, c := range []struct {
		kind celenv.Kind
		expr string
		want bool
	}{
		{celenv.Invariant, `objects("pod", "default").size() == 2`, true},
		{celenv.Invariant, `objects("pod", "").filter(p, p.status.phase == "Running").size() == 1`, true},
		{celenv.Invariant, `objects("persistentvolumeclaim", "default").size() <= object("statefulset", "default", "ds").spec.replicas`, true},
		{celenv.Invariant, `object("statefulset", "default", "ds").spec.replicas == 2`, true},
		{celenv.Invariant, `object("statefulset", "default", "gone") == null`, true},
		{celenv.Invariant, `objects("pod", "default").all(p, p.metadata.name.startsWith("ds-"))`, true},
		{celenv.Wait, `object.status.phase == "Running" && object("statefulset", "default", "ds") != null`, true},
		{celenv.Wait, `object.status.phase == "Pending"`, false},
		{celenv.Where, `object.metadata.name == "ds-0"`, true},
		{celenv.Where, `has(object.metadata.deletionTimestamp)`, false},
	} {
		p, err := env.Compile(c.kind, c.expr)
		if err != nil {
			t.Errorf("%s %q: compile: %v", c.kind, c.expr, err)
			continue
		}
		got, err := p.Eval(context.Background(), w, self)
		if err != nil || got != c.want {
			t.Errorf("%s %q = %v, %v; want %v", c.kind, c.expr, got, err, c.want)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	env, err := celenv.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind      celenv.Kind
		expr      string
		line, col int
		msg       string
	}{
		{celenv.Invariant, `objects("pod")`, 1, 8, "found no matching overload"},
		{celenv.Invariant, "true &&\n  nosuch > 1", 2, 3, "undeclared reference to 'nosuch'"},
		{celenv.Invariant, `object.status`, 1, 1, "undeclared reference to 'object'"},
		{celenv.Where, `objects("pod", "default").size() > 0`, 1, 8, "undeclared reference to 'objects'"},
		{celenv.Invariant, `1 + 2`, 1, 1, "the result must be a bool, not int"},
		{celenv.Invariant, `(`, 1, 2, "syntax error"},
		{celenv.Invariant, strings.Repeat("[", 10000), 1, 1, ""},
	} {
		_, err := env.Compile(c.kind, c.expr)
		var es celenv.Errors
		if !errors.As(err, &es) || len(es) == 0 {
			t.Errorf("%q: got %v, want celenv.Errors", c.expr, err)
			continue
		}
		if c.msg != "" && (es[0].Line != c.line || es[0].Column != c.col || !strings.Contains(es[0].Msg, c.msg)) {
			t.Errorf("%q: got %v, want %d:%d: ...%s...", c.expr, es[0], c.line, c.col, c.msg)
		}
	}
}

func TestEvalNotBool(t *testing.T) {
	p, err := celenv.Compile(celenv.Where, `object.spec`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Eval(context.Background(), nil, map[string]any{"spec": map[string]any{}})
	if err == nil || !strings.Contains(err.Error(), "not a bool") {
		t.Errorf("Eval = %v, want a not-a-bool error", err)
	}
}

func BenchmarkEval(b *testing.B) {
	var w world
	if err := json.Unmarshal([]byte(cluster), &w); err != nil {
		b.Fatal(err)
	}
	p, err := celenv.Compile(celenv.Invariant, `objects("pod", "default").size() <= 3`)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := p.Eval(context.Background(), w, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompile(b *testing.B) {
	env, err := celenv.New()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := env.Compile(celenv.Invariant, `objects("pod", "default").filter(p, p.metadata.name.startsWith("x")).size() <= 3`); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEvalConcurrent evaluates one program from many goroutines, each with
// its own world: every result must come from its own world.
func TestEvalConcurrent(t *testing.T) {
	p, err := celenv.Compile(celenv.Invariant, `objects("pod", "").size() % 2 == 0`)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 16)
	for g := range 16 {
		go func() {
			w := make(world, g)
			for i := range w {
				w[i] = map[string]any{"kind": "pod", "metadata": map[string]any{"name": "p"}}
			}
			for range 50 {
				got, err := p.Eval(context.Background(), w, nil)
				if err != nil || got != (g%2 == 0) {
					errs <- fmt.Errorf("world of %d pods: got %v, %v", g, got, err)
					return
				}
			}
			errs <- nil
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

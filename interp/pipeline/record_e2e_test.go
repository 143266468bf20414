package pipeline_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/interp/run/session/sessiontest"
	"github.com/sievetool/sieve/lang/ir"
)

// TestReferenceSpecErrors holds that Test stops after the reference
// runs, before any plan, when the fault-free run fails a workload step or
// breaks an invariant, with a SpecError naming the step or invariant in
// the spec and the trace entry where it broke.
func TestReferenceSpecErrors(t *testing.T) {
	cases := []struct{ test, at, what string }{
		{"late", "wait configmap/e2e/never", "wait: configmap/e2e/never exists: timed out after 1s"},
		{"broken", "invariant no_copies", `invariant "no_copies" is false at trace entry`},
	}
	for _, c := range cases {
		t.Run(c.test, func(t *testing.T) {
			cl := cluster(t)
			test := loadTest(t, c.test)
			test.Runs = 1
			out := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			env := pipeline.Env{Spec: specFile, BaseDir: filepath.Dir(specFile), Workers: []*session.Worker{{Backend: cl}}}
			o, err := pipeline.Test(ctx, env, test, results.Layout{Root: out}, pipeline.Options{})
			var es pipeline.SpecErrors
			if !errors.As(err, &es) || len(es) != 1 {
				t.Fatalf("Test: %v; want one SpecError", err)
			}
			if len(o.Plans) != 0 {
				t.Errorf("%d plans generated after the reference broke", len(o.Plans))
			}
			e := es[0]
			if got, want := e.Src.String(), sessiontest.Position(t, specFile, c.at); got != want {
				t.Errorf("at %s, want %s (%s)", got, want, c.at)
			}
			if !strings.Contains(e.What, c.what) {
				t.Errorf("what: %s\nwant it to contain %s", e.What, c.what)
			}
			tr, err := trace.Read(e.Trace)
			if err != nil {
				t.Fatal(err)
			}
			if e.Seq <= 0 || e.Seq > tr.Entries[len(tr.Entries)-1].Seq {
				t.Errorf("trace entry %d is not in the trace", e.Seq)
			}
		})
	}
}

// TestLearnedMasks records two real reference runs of the same test (whose
// headers name its workload hash) and learns the masks that make them agree: run-specific fields such as uid
// and creationTimestamp are learned, and every learned field differs
// between the two runs.
func TestLearnedMasks(t *testing.T) {
	c := cluster(t)
	test := loadTest(t, "crash")
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	env := pipeline.Env{Spec: specFile, BaseDir: filepath.Dir(specFile), Workers: []*session.Worker{{Backend: c}}}
	_, err := pipeline.References(ctx, env, test, results.Layout{Root: out}, pipeline.RefOptions{})
	if err != nil {
		t.Fatalf("recording the references: %v", err)
	}
	layout := results.Layout{Root: out}
	hash, err := pipeline.WorkloadHash(test, filepath.Dir(specFile))
	if err != nil {
		t.Fatal(err)
	}
	var refs []*trace.Trace
	for i := 1; i <= 2; i++ {
		tr, err := trace.Read(layout.ReferenceTrace(i))
		if err != nil {
			t.Fatal(err)
		}
		if tr.Header.Workload != hash {
			t.Errorf("reference run %d's header names workload %q, want %s", i, tr.Header.Workload, hash)
		}
		refs = append(refs, tr)
	}
	rules, err := oracle.Learn(refs, oracle.Options{Masks: test.Masks})
	if err != nil {
		t.Fatal(err)
	}
	learned := map[string]bool{}
	for _, r := range rules {
		learned[r.Target.String()+" "+r.Path] = true
		t.Logf("learned %s %s whole=%v oracle=%s", r.Target, r.Path, r.Whole, r.Oracle)
	}
	for _, want := range []string{"metadata.uid", "metadata.creationTimestamp"} {
		for _, obj := range []string{"configmap/e2e/in-a", "configmap/e2e/out-a"} {
			if !learned[obj+" "+want] {
				t.Errorf("not learned: %s %s", obj, want)
			}
		}
	}
	a, b := endState(refs[0]), endState(refs[1])
	for _, r := range rules {
		if !differs(r, a, b) {
			t.Errorf("learned %s %s (whole %v), which is equal in both runs", r.Target, r.Path, r.Whole)
		}
	}
	file, err := os.ReadFile(layout.Learned())
	if err != nil || !strings.Contains(string(file), "configmap/e2e/out-a path metadata.uid") {
		t.Errorf("learned masks file (%v) does not mask out-a's uid:\n%s", err, file)
	}
}

// endState is every object at the end of a trace's history, by key.
func endState(tr *trace.Trace) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, e := range tr.Entries {
		if e.Type != trace.History || e.Key == nil {
			continue
		}
		if e.Event == "DELETED" {
			delete(out, e.Key.String())
			continue
		}
		var m map[string]any
		if json.Unmarshal(e.Object, &m) == nil {
			out[e.Key.String()] = m
		}
	}
	return out
}

// differs reports whether a learned rule covers something that differs
// between the end states a and b: an object in one only, or a field whose
// values differ. Globs in the target (generated names) match any object.
func differs(r *ir.MaskRule, a, b map[string]map[string]any) bool {
	for key := range union(a, b) {
		if !matchRef(r.Target, key) {
			continue
		}
		x, inA := a[key]
		y, inB := b[key]
		if inA != inB || r.Whole {
			if inA != inB {
				return true
			}
			continue
		}
		path, _ := ir.ParsePath(r.Path)
		if fmt.Sprint(at(x, path)) != fmt.Sprint(at(y, path)) {
			return true
		}
	}
	return r.Whole // a whole rule may be for creation counts, which end states do not show
}

func union(a, b map[string]map[string]any) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// matchRef matches a key against a ref with a "*"-suffixed name.
func matchRef(r ir.Ref, key string) bool {
	want := r.String()
	if p, ok := strings.CutSuffix(want, "*"); ok {
		return strings.HasPrefix(key, p)
	}
	return key == want
}

// at is the value at a path ("*" for any list index: all of them).
func at(v any, path ir.Path) any {
	if len(path) == 0 {
		return v
	}
	switch v := v.(type) {
	case map[string]any:
		return at(v[path[0].Key()], path[1:])
	case []any:
		if path[0].Kind != ir.PathAny {
			return nil
		}
		var out []any
		for _, x := range v {
			out = append(out, at(x, path[1:]))
		}
		return out
	}
	return nil
}

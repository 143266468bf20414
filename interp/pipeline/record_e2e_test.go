package pipeline_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/interp/report"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/lang/ir"
)

// TestBadInput runs tests whose controller or workload cannot work: each
// run's error names the spec line of the culprit, and the run's directory
// keeps the controller log and the trace written so far.
func TestBadInput(t *testing.T) {
	cases := []struct {
		test string
		// at is the text the error must point at in specFile.
		at string
		// want are parts of the error message.
		want []string
		// workload is set when the workload fails, not the run.
		workload bool
		// log is a line the controller log must hold.
		log string
		// lifecycle is the controller's lifecycle in the trace.
		lifecycle []string
	}{
		{test: "missing", at: "controller missing", want: []string{"controller missing", "command not found", "no-such-controller-sieve"},
			log: "controller not started: " + specFile},
		{test: "quits", at: "controller quits", want: []string{"controller quits", "exited at once", "exit status 3", "giving up"},
			log: "giving up", lifecycle: []string{"controller:start", "controller:crash"}},
		{test: "mute", at: "controller mute", want: []string{"controller mute", "never became ready within 2s", "^READY$"},
			log: "--- sieve: starting", lifecycle: []string{"controller:start", "controller:kill"}},
		{test: "late", at: "wait configmap/e2e/never", want: []string{"wait", "configmap/e2e/never", "timed out after 1s"}, workload: true,
			log: "READY", lifecycle: []string{"controller:start", "controller:kill"}},
		{test: "refused", at: "apply `\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: Not_A_Name}", want: []string{"apply", "Not_A_Name", "Invalid"}, workload: true,
			log: "READY", lifecycle: []string{"controller:start", "controller:kill"}},
	}
	for _, c := range cases {
		t.Run(c.test, func(t *testing.T) {
			r := execute(t, c.test, nil)
			err := r.err
			if c.workload {
				if r.err != nil {
					t.Fatalf("run: %v (want only the workload to fail)", r.err)
				}
				err = r.out.WorkloadErr
			}
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if pos := position(t, c.at); !strings.HasPrefix(msg, pos+": ") {
				t.Errorf("error %q does not start with the spec position %s", msg, pos)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not say %q", msg, w)
				}
			}
			b, lerr := os.ReadFile(filepath.Join(r.dir, "controller.log"))
			switch {
			case lerr != nil:
				t.Errorf("no controller log: %v", lerr)
			case !strings.Contains(string(b), c.log):
				t.Errorf("controller log does not hold %q:\n%s", c.log, b)
			}
			if c.workload {
				checkFailedStep(t, r, msg)
			}
			if lc := r.lifecycle(); !slices.Equal(lc, c.lifecycle) {
				t.Errorf("lifecycle in the trace: %v, want %v", lc, c.lifecycle)
			}
		})
	}
}

// checkFailedStep checks that the trace ends the failed step with its
// error and position.
func checkFailedStep(t *testing.T, r *run, msg string) {
	t.Helper()
	steps := r.entries(trace.Step, "")
	if len(steps) == 0 {
		t.Fatal("no step in the trace")
	}
	last := steps[len(steps)-1]
	if last.Phase != "end" || last.Error != msg || !strings.HasPrefix(msg, last.Src) {
		t.Errorf("last step entry %+v, want the end of the failed step with its error", last)
	}
	if len(r.entries(trace.History, "")) == 0 {
		t.Error("the trace holds no history")
	}
}

// position is specFile:line:col of the first occurrence of text.
func position(t *testing.T, text string) string {
	t.Helper()
	b, err := os.ReadFile(specFile)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(b), text)
	if i < 0 {
		t.Fatalf("%s does not contain %q", specFile, text)
	}
	before := string(b[:i])
	line := strings.Count(before, "\n") + 1
	col := i - strings.LastIndex(before, "\n")
	return fmt.Sprintf("%s:%d:%d", specFile, line, col)
}

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
			o, err := pipeline.Test(ctx, env, test, report.Layout{Root: out}, pipeline.Options{})
			var es pipeline.SpecErrors
			if !errors.As(err, &es) || len(es) != 1 {
				t.Fatalf("Test: %v; want one SpecError", err)
			}
			if len(o.Plans) != 0 {
				t.Errorf("%d plans generated after the reference broke", len(o.Plans))
			}
			e := es[0]
			if got, want := e.Src.String(), position(t, c.at); got != want {
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
	_, err := pipeline.References(ctx, env, test, report.Layout{Root: out}, pipeline.RefOptions{})
	if err != nil {
		t.Fatalf("recording the references: %v", err)
	}
	layout := report.Layout{Root: out}
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

// TestStepsSayWhatTheySaw runs the copy workload fault-free: the apply's
// end says the resourceVersion of the ConfigMap it wrote, and the wait's
// end one at least as high as the out-a that met its condition (the
// history entry an invariant's stretch must include, trace.Aligned).
func TestStepsSayWhatTheySaw(t *testing.T) {
	r := execute(t, "crash", nil)
	r.mustSucceed(t)
	var met string
	for _, e := range r.entries(trace.History, "configmap/e2e/out-a") {
		if met == "" && strings.Contains(string(e.Object), `"v":"1"`) {
			met = e.ResourceVersion
		}
	}
	in := r.entries(trace.History, "configmap/e2e/in-a")
	if met == "" || len(in) == 0 {
		t.Fatalf("the history has no in-a, or no out-a with v=1")
	}
	ends := map[string]trace.Entry{}
	for _, e := range r.entries(trace.Step, "") {
		if e.Phase == "end" {
			ends[e.What] = e
		}
	}
	if got := ends["apply"].Seen["configmap"]; got != in[0].ResourceVersion {
		t.Errorf("apply's end saw configmap %q, want in-a's first resourceVersion %s", got, in[0].ResourceVersion)
	}
	if got := ends["wait"].Seen["configmap"]; got == "" || rv(t, got) < rv(t, met) {
		t.Errorf("wait's end saw configmap %q, want at least %s (out-a with v=1)", got, met)
	}
}

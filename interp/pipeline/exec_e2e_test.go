package pipeline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/interp/run/session/sessiontest"
	"github.com/sievetool/sieve/lang/ir"
)

// execSpec holds the exec stand-in tests and their controller.
const execSpec = "testdata/exec.sieve"

func loadExecTest(t *testing.T, name string) *ir.Test { return sessiontest.LoadTest(t, execSpec, name) }

// answer is the data of ConfigMap answer, as the controller wrote it, in
// a trace.
func answer(t *testing.T, tr *trace.Trace) map[string]string {
	t.Helper()
	for _, e := range tr.Entries {
		if e.Type == trace.Request && e.Verb == "create" && e.Key.String() == "configmap/e2e/answer" {
			var cm struct{ Data map[string]string }
			if err := json.Unmarshal(e.Body, &cm); err != nil {
				t.Fatal(err)
			}
			return cm.Data
		}
	}
	t.Fatal("the controller wrote no answer")
	return nil
}

// execs are the trace's exec requests.
func execs(tr *trace.Trace) []trace.Entry {
	var out []trace.Entry
	for _, e := range tr.Entries {
		if e.Type == trace.Request && e.Verb == "connect" && e.Subresource == "exec" {
			out = append(out, e)
		}
	}
	return out
}

// TestExecStandIns: a controller whose reconcile execs into a simulated
// pod through client-go's remotecommand gets the stand-in's answer (a
// scripted reply, a failing exit code, a program fed the exec's stdin and
// command) and writes it into a ConfigMap; each exec is in the trace.
func TestExecStandIns(t *testing.T) {
	c := cluster(t)
	cases := []struct {
		test string
		want map[string]string
	}{
		{"reply", map[string]string{"stdout": "server.1=zk-0:2888:3888\n", "stderr": "WATCHER::\n", "exit": "0", "error": ""}},
		{"failing", map[string]string{"stdout": "", "stderr": "Node not empty\n", "exit": "3", "error": ""}},
		{"program", map[string]string{"stdout": "HELLO", "stderr": "zk-0: admin rebalance --now\n", "exit": "4", "error": ""}},
	}
	for _, tc := range cases {
		t.Run(tc.test, func(t *testing.T) {
			if err := c.Reset(context.Background()); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			w := &session.Worker{Backend: c}
			out, err := w.Execute(ctx, session.Run{Test: sessiontest.SettleQuickly(loadExecTest(t, tc.test)), BaseDir: filepath.Dir(execSpec), Dir: dir,
				Header: trace.Header{Test: tc.test, Spec: execSpec}})
			if err != nil || out.WorkloadErr != nil {
				t.Fatalf("run: %v, workload: %v", err, out.WorkloadErr)
			}
			tr, err := trace.Read(filepath.Join(dir, results.TraceFile))
			if err != nil {
				t.Fatal(err)
			}
			got := answer(t, tr)
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("answer %s = %q, want %q", k, got[k], v)
				}
			}
			ex := execs(tr)
			if len(ex) != 1 || ex[0].Code != 101 || ex[0].Key.String() != "pod/e2e/zk-0" || !strings.Contains(string(ex[0].Body), `"container":"zk"`) {
				t.Errorf("exec entries %+v, want one answered exec into pod/e2e/zk-0", ex)
			}
		})
	}
}

// TestExecNoStandIn: an exec no stand-in matches fails as an exec into a
// container that does not run, the controller sees that failure, and the
// two reference runs warn about it once, naming the pod and the command.
func TestExecNoStandIn(t *testing.T) {
	c := cluster(t)
	var progress bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	env := pipeline.Env{Spec: execSpec, BaseDir: filepath.Dir(execSpec), Workers: []*session.Worker{{Backend: c}}, Progress: &progress}
	out := results.Layout{Root: t.TempDir()}
	refs, err := pipeline.References(ctx, env, loadExecTest(t, "none"), out, pipeline.RefOptions{})
	t.Logf("progress:\n%s", progress.String())
	if err != nil {
		t.Fatalf("references: %v", err)
	}
	if n := strings.Count(progress.String(), "warning: "); n != 1 {
		t.Errorf("%d warnings, want 1", n)
	}
	want := `warning: exec into pod e2e/zk-0: no exec stand-in for ["rebalance", "now"], so it fails with container not found ("zk")`
	if !strings.Contains(progress.String(), want) || !strings.Contains(progress.String(), "(add to the controller: exec [{ pod: \"zk-0\"") {
		t.Errorf("progress does not hold %s with the stand-in to add", want)
	}
	for i, tr := range refs.Traces {
		got := answer(t, tr)
		if !strings.Contains(got["error"], `container not found ("zk")`) {
			t.Errorf("reference run %d: the controller got %q, want container not found", i+1, got["error"])
		}
		for _, e := range execs(tr) {
			if e.Code != 500 {
				t.Errorf("reference run %d: exec recorded with code %d, want 500", i+1, e.Code)
			}
		}
	}
}

// TestExecAppFault: a plan's app-fault action answers the controller's
// exec in its stand-in's place (exec_error: exit 1, a line on stderr,
// nothing on stdout); the controller gets that answer, and the trace's
// fault entry names the exec.
func TestExecAppFault(t *testing.T) {
	c := cluster(t)
	if err := c.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	leaf := observe.ExecCall("e2e", "zk-0", []string{"zkCli.sh", "get", "/zookeeper/config"}).Leaf(1)
	p := &planfile.Plan{Name: "appfault-zk-0", Pattern: ir.AppFault, Actions: []*planfile.Action{{Kind: ir.ActAppFault, AppFault: ir.FaultExecError, Trigger: leaf}}}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	w := &session.Worker{Backend: c}
	out, err := w.Execute(ctx, session.Run{Test: sessiontest.SettleQuickly(loadExecTest(t, "reply")), BaseDir: filepath.Dir(execSpec), Dir: dir, Plan: p,
		Header: trace.Header{Test: "reply", Spec: execSpec, Plan: p.Name}, Errors: func(err error) { t.Errorf("injected action failed: %v", err) }})
	if err != nil || out.WorkloadErr != nil {
		t.Fatalf("run: %v, workload: %v", err, out.WorkloadErr)
	}
	tr, err := trace.Read(filepath.Join(dir, results.TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	got := answer(t, tr)
	if got["stdout"] != "" || got["exit"] != "1" || !strings.Contains(got["stderr"], "application fault") {
		t.Errorf("answer %v, want exit 1, nothing on stdout and the fault's line on stderr", got)
	}
	faults := 0
	for _, e := range tr.Entries {
		if e.Type == trace.Fault && e.What == string(ir.ActAppFault) && strings.Contains(e.Message, `exec ["zkCli.sh","get","/zookeeper/config"] in pod/e2e/zk-0`) {
			faults++
		}
	}
	if faults != 1 {
		t.Errorf("%d app-fault entries naming the exec, want 1", faults)
	}
}

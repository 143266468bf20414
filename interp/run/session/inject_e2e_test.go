package session_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/lang/ir"
)

// One test per fault mechanism: a hand-written plan runs through
// Worker.Execute against the embedded control plane with the relay
// controller, and the test checks the effect itself — in the cluster, in
// the controller's own log and in the trace.

// TestCrashAfterWrite: the controller's create of out-a is committed, but
// the controller is killed before the answer reaches it, then restarted.
func TestCrashAfterWrite(t *testing.T) {
	p := &planfile.Plan{Name: "crash-out-a", Pattern: ir.Intermediate, Actions: []*planfile.Action{
		{Kind: ir.ActCrash, Trigger: &planfile.Trigger{Op: ir.TrigWrite, On: "create", Target: ref("configmap", "out-a")}},
	}}
	r := execute(t, "crash", p)
	r.mustSucceed(t)
	if !slices.Equal(r.fired(), []bool{true}) {
		t.Fatalf("actions fired: %v, want the crash", r.fired())
	}
	// Persisted: the server answered 201 and holds the object.
	creates := r.entries(trace.Request, "configmap/e2e/out-a")
	creates = slices.DeleteFunc(creates, func(e trace.Entry) bool { return e.Verb != "create" })
	if len(creates) != 1 || creates[0].Code != 201 {
		t.Fatalf("creates of out-a: %+v, want one, answered 201 by the server", creates)
	}
	if creates[0].Done != nil {
		t.Errorf("the answer to the create reached the controller at %v", creates[0].Done)
	}
	if v := dataV(t, "out-a"); v != "1" {
		t.Errorf("out-a in the cluster: v=%q, want 1", v)
	}
	// Died before the answer: the first process sent the create and got no
	// answer; the runner saw it killed.
	lives := r.lives(t)
	if len(lives) != 2 {
		t.Fatalf("controller processes: %d, want 2 (the killed one and the restarted one)", len(lives))
	}
	post := "POST /api/v1/namespaces/e2e/configmaps"
	first := strings.Join(lives[0], "\n")
	if !strings.Contains(first, "SEND "+post) || strings.Contains(first, "RESP "+post) {
		t.Errorf("first process: want the create sent and no answer to it")
	}
	if last := lives[0][len(lives[0])-1]; !strings.Contains(last, "ended (kill") {
		t.Errorf("first process ended with %q, want a kill", last)
	}
	// Restarted: the trace has kill then restart, and the new process
	// found out-a in the cluster instead of creating it again.
	lc := r.lifecycle()
	start, kill, fault, restart := index(lc, "controller:start"), index(lc, "controller:kill"), index(lc, "fault:crash"), index(lc, "controller:restart")
	if start < 0 || fault < start || kill < fault || restart < kill {
		t.Errorf("lifecycle %v, want start, the crash fault, kill, restart", lc)
	}
	if got := events(lives[1], "out-a"); len(got) == 0 || !strings.HasSuffix(got[0], " v=1") {
		t.Errorf("restarted process's events of out-a: %v, want the persisted v=1", got)
	}
	if strings.Contains(strings.Join(lives[1], "\n"), "SEND "+post) {
		t.Errorf("the restarted process created out-a again")
	}
}

// TestStaleView: the view of in-a is frozen at its first revision; the
// controller is restarted after in-a changed on the server, lists the old
// revision, and sees the new one only after stale-off. Stale-off waits for
// the restarted process to have read the config maps and gone quiet, not
// for a time: with both processors busy, a new process can take more than
// 3 s to list.
func TestStaleView(t *testing.T) {
	inA := ref("configmap", "in-a")
	p := &planfile.Plan{Name: "stale-in-a", Pattern: ir.Stale, Actions: []*planfile.Action{
		// Freeze at the state being delivered: in-a's creation.
		{Kind: ir.ActStaleOn, Scope: inA, Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "create", Target: inA}},
		// Restart once the server holds the change.
		{Kind: ir.ActRestart, Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "update", Target: inA, Seen: planfile.SeenCluster}},
		{Kind: ir.ActStaleOff, Scope: inA, Trigger: &planfile.Trigger{Op: ir.TrigQuiet, Target: inA, Duration: ir.Duration(time.Second)}},
	}}
	r := execute(t, "stale", p)
	r.mustSucceed(t)
	if !slices.Equal(r.fired(), []bool{true, true, true}) {
		t.Fatalf("actions fired: %v, want all three", r.fired())
	}
	hist := r.entries(trace.History, "configmap/e2e/in-a")
	if len(hist) < 2 || hist[0].Event != "ADDED" || hist[1].Event != "MODIFIED" {
		t.Fatalf("history of in-a: %d entries, want its creation and its change", len(hist))
	}
	old, cur := hist[0].ResourceVersion, hist[1].ResourceVersion
	lives := r.lives(t)
	if len(lives) != 2 {
		t.Fatalf("controller processes: %d, want 2", len(lives))
	}
	// The restarted process's first view of in-a is the old revision,
	// although the server held the new one when it started (the restart
	// fired on the history of the change).
	got := events(lives[1], "in-a")
	want := []string{"ADDED " + old + " v=1", "MODIFIED " + cur + " v=2"}
	if !slices.Equal(got, want) {
		t.Fatalf("restarted process's events of in-a: %v, want %v", got, want)
	}
	if rv(t, old) >= rv(t, cur) {
		t.Errorf("revision seen %s is not older than the server's %s", old, cur)
	}
	if seqOf(r, trace.History, "configmap/e2e/in-a", cur) > seqOf(r, trace.Controller, "", "restart") {
		t.Errorf("the controller restarted before the server held revision %s", cur)
	}
	// It saw the new revision only after stale-off.
	if seqOf(r, trace.Delivery, "configmap/e2e/in-a", cur) < seqOf(r, trace.Fault, "", "stale-off") {
		t.Errorf("revision %s was delivered before stale-off", cur)
	}
	if v := dataV(t, "out-a"); v != "2" {
		t.Errorf("out-a in the cluster: v=%q, want 2", v)
	}
}

// seqOf is the sequence number of the first entry of a type about key
// with that resourceVersion (or, for lifecycle and faults, that What);
// it is 1<<62 when there is none.
func seqOf(r *run, typ trace.Type, key, what string) int64 {
	for _, e := range r.entries(typ, key) {
		if e.ResourceVersion == what || e.What == what {
			return e.Seq
		}
	}
	return 1 << 62
}

// TestHoldAndCoalesce: the change of in-a to v=2 is held and replaced by
// its change to v=3; the controller never receives v=2.
func TestHoldAndCoalesce(t *testing.T) {
	inA := ref("configmap", "in-a")
	p := &planfile.Plan{Name: "unobserved-in-a", Pattern: ir.Unobserved, Actions: []*planfile.Action{
		{Kind: ir.ActHold, Scope: inA, Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "update", Target: inA}},
		{Kind: ir.ActRelease, Scope: inA, Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "update", Target: inA}},
	}}
	r := execute(t, "hide", p)
	r.mustSucceed(t)
	if !slices.Equal(r.fired(), []bool{true, true}) {
		t.Fatalf("actions fired: %v, want both", r.fired())
	}
	var hidden, later string
	for _, e := range r.entries(trace.History, "configmap/e2e/in-a") {
		switch {
		case strings.Contains(string(e.Object), `"v":"2"`):
			hidden = e.ResourceVersion
		case strings.Contains(string(e.Object), `"v":"3"`):
			later = e.ResourceVersion
		}
	}
	if hidden == "" || later == "" {
		t.Fatalf("the server never held in-a at v=2 (%q) and v=3 (%q)", hidden, later)
	}
	var delivered []string
	for _, e := range r.entries(trace.Delivery, "configmap/e2e/in-a") {
		delivered = append(delivered, e.Event+" "+e.ResourceVersion)
	}
	if slices.Contains(delivered, "MODIFIED "+hidden) || !slices.Contains(delivered, "MODIFIED "+later) {
		t.Errorf("deliveries of in-a: %v, want %s and not %s", delivered, later, hidden)
	}
	lives := r.lives(t)
	if len(lives) != 1 {
		t.Fatalf("controller processes: %d, want 1", len(lives))
	}
	got := events(lives[0], "in-a")
	if len(got) != 2 || !strings.HasSuffix(got[0], "v=1") || got[1] != "MODIFIED "+later+" v=3" {
		t.Errorf("controller's events of in-a: %v, want v=1 then v=3 only", got)
	}
	if v := dataV(t, "out-a"); v != "3" {
		t.Errorf("out-a in the cluster: v=%q, want 3", v)
	}
}

// TestPauseResume: the controller is paused (SIGSTOP) when in-a's change
// to v=2 is on its way to it and resumed once the server holds v=3: it
// sends nothing meanwhile, then receives both changes, one process
// throughout.
func TestPauseResume(t *testing.T) {
	inA := ref("configmap", "in-a")
	p := &planfile.Plan{Name: "pause-in-a", Pattern: planfile.User, Actions: []*planfile.Action{
		{Kind: ir.ActPause, Duration: ir.Duration(30 * time.Second), Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "update", Target: inA}},
		{Kind: ir.ActResume, Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "update", Target: inA, Seen: planfile.SeenCluster,
			Where: &ir.Cond{Path: "data.v", Value: "3"}}},
	}}
	r := execute(t, "hide", p)
	r.mustSucceed(t)
	if !slices.Equal(r.fired(), []bool{true, true}) {
		t.Fatalf("actions fired: %v, want both", r.fired())
	}
	faults := r.entries(trace.Fault, "")
	at := func(what string) time.Time {
		for _, e := range faults {
			if e.What == what {
				return e.Time
			}
		}
		t.Fatalf("no %s fault in %v", what, r.lifecycle())
		return time.Time{}
	}
	paused, resumed := at("pause"), at("resume")
	var v3 int64
	for _, e := range r.entries(trace.History, "configmap/e2e/in-a") {
		if strings.Contains(string(e.Object), `"v":"3"`) && v3 == 0 {
			v3 = e.Seq
		}
	}
	if pause, resume := seqOf(r, trace.Fault, "", "pause"), seqOf(r, trace.Fault, "", "resume"); !(pause < v3 && v3 < resume) {
		t.Errorf("pause #%d, in-a at v=3 #%d, resume #%d: want the pause to last until v=3", pause, v3, resume)
	}
	// Stopped, it sent nothing: no request began while it was paused
	// (one already on the wire may reach the proxy just after).
	for _, e := range r.entries(trace.Request, "") {
		if e.Time.After(paused.Add(100*time.Millisecond)) && e.Time.Before(resumed) {
			t.Errorf("request #%d %s %s sent at %s, while paused (%s to %s)", e.Seq, e.Verb, e.Key, e.Time.Format(time.StampMilli),
				paused.Format(time.StampMilli), resumed.Format(time.StampMilli))
		}
	}
	lives := r.lives(t)
	if len(lives) != 1 {
		t.Fatalf("controller processes: %d, want 1", len(lives))
	}
	got := events(lives[0], "in-a")
	if len(got) != 3 || !strings.HasSuffix(got[1], "v=2") || !strings.HasSuffix(got[2], "v=3") {
		t.Errorf("controller's events of in-a: %v, want v=1, v=2 and v=3: a pause hides nothing", got)
	}
	if v := dataV(t, "out-a"); v != "3" {
		t.Errorf("out-a in the cluster: v=%q, want 3", v)
	}
}

// TestPlanNeverFires: a plan whose trigger never matches is reported not
// injected, never passed.
func TestPlanNeverFires(t *testing.T) {
	p := &planfile.Plan{Name: "crash-never", Pattern: ir.Intermediate, Actions: []*planfile.Action{
		{Kind: ir.ActCrash, Trigger: &planfile.Trigger{Op: ir.TrigWrite, On: "create", Target: ref("configmap", "never")}},
	}}
	r := execute(t, "crash", p)
	r.mustSucceed(t)
	if !slices.Equal(r.fired(), []bool{false}) {
		t.Fatalf("actions fired: %v, want none", r.fired())
	}
	if n := len(r.entries(trace.Fault, "")); n != 0 {
		t.Errorf("fault entries: %d, want none", n)
	}
	if oracle.Injected(r.trace) {
		t.Error("oracle.Injected: true")
	}
	orc, err := oracle.New([]*trace.Trace{r.trace}, oracle.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.Judge(orc, p, r.trace, results.Layout{Root: t.TempDir()}, "plans/crash-never")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != results.NotInjected {
		t.Errorf("status %s, want %s", res.Status, results.NotInjected)
	}
	if want := "action 1 of 1 (crash) never fired: the test run never met its trigger: after write create configmap/"; res.NotFired == nil || !strings.HasPrefix(res.NotFired.String(), want) {
		t.Errorf("not fired: %v, want %s...", res.NotFired, want)
	}
}

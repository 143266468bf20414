package inject

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/proxy"
	"github.com/sievetool/sieve/lang/ir"
)

// pausePlan pauses the controller when pod ds-1 is updated (for bound at
// most; 0: the default), optionally crashes it then, and resumes it when
// the pod is deleted.
func pausePlan(bound time.Duration, crash bool) *planfile.Plan {
	pod := &ir.Ref{Kind: "pod", Namespace: "default", Name: "ds-1"}
	acts := []*planfile.Action{{Kind: ir.ActPause, Duration: ir.Duration(bound), Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "update", Target: pod}}}
	if crash {
		acts = append(acts, &planfile.Action{Kind: ir.ActCrash})
	}
	acts = append(acts, &planfile.Action{Kind: ir.ActResume, Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "delete", Target: pod}})
	return &planfile.Plan{Name: "p", Pattern: planfile.User, Actions: acts}
}

// pauseRun is an injector of a pause plan with its fake controller and
// the fault entries it wrote.
type pauseRun struct {
	in     *Injector
	c      *fakeController
	mu     sync.Mutex
	faults []trace.Entry
}

func startPause(t *testing.T, p *planfile.Plan) *pauseRun {
	t.Helper()
	r := &pauseRun{c: &fakeController{}}
	in, err := New(Options{Plan: p, Proxy: &fakeProxy{}, Controller: r.c,
		Sink:   func(e trace.Entry) { r.mu.Lock(); r.faults = append(r.faults, e); r.mu.Unlock() },
		Errors: func(err error) { t.Errorf("action failed: %v", err) }})
	if err != nil {
		t.Fatal(err)
	}
	r.in = in
	in.Start(context.Background())
	t.Cleanup(in.Stop)
	return r
}

// deliver shows the injector a watch event of pod ds-1.
func (r *pauseRun) deliver(typ, rv string) proxy.Verdict {
	ev := proxy.Event{Type: typ, Key: trace.Key{Kind: "pod", Namespace: "default", Name: "ds-1"}, ResourceVersion: rv, Object: obj("ds-1", rv, nil)}
	return r.in.Hooks().Filter(nil, &ev)
}

// counts returns how often the controller was paused and resumed, and
// the messages of the faults written.
func (r *pauseRun) counts() (pauses, resumes int, faults string) {
	r.c.mu.Lock()
	pauses, resumes = r.c.pauses, r.c.resumes
	r.c.mu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	var msgs []string
	for _, e := range r.faults {
		msgs = append(msgs, e.What+": "+e.Message)
	}
	return pauses, resumes, strings.Join(msgs, "\n")
}

// TestPauseBetweenTwoEvents pauses the controller at one event and lets
// it go on at a later one, delivering both: the controller reads them
// when it runs again.
func TestPauseBetweenTwoEvents(t *testing.T) {
	r := startPause(t, pausePlan(time.Hour, false))
	if v := r.deliver("MODIFIED", "2"); v != proxy.Deliver {
		t.Errorf("the pausing event: verdict %d, want delivered", v)
	}
	if p, res, _ := r.counts(); p != 1 || res != 0 || !r.in.Paused() {
		t.Fatalf("after the update: %d pauses, %d resumes, paused %v; want paused once", p, res, r.in.Paused())
	}
	if v := r.deliver("DELETED", "3"); v != proxy.Deliver {
		t.Errorf("the resuming event: verdict %d, want delivered", v)
	}
	p, res, faults := r.counts()
	if p != 1 || res != 1 || r.in.Paused() || !r.in.Injected() {
		t.Fatalf("after the delete: %d pauses, %d resumes, paused %v, injected %v; want resumed once", p, res, r.in.Paused(), r.in.Injected())
	}
	if !strings.Contains(faults, "pause: controller paused (SIGSTOP), for 1h0m0s at most") || !strings.Contains(faults, "resume: controller resumed (SIGCONT)") {
		t.Errorf("faults:\n%s", faults)
	}
}

// TestPauseEnds lets a paused controller go on without its resume: once
// the pause's bound has passed, when the workload is over (Finish), and
// at a crash (the new process runs, so the resume that comes later finds
// nothing paused).
func TestPauseEnds(t *testing.T) {
	bound := startPause(t, pausePlan(100*time.Millisecond, false))
	bound.deliver("MODIFIED", "2")
	for end := time.Now().Add(5 * time.Second); bound.in.Paused() && time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
	}
	if _, res, faults := bound.counts(); res != 1 || !strings.Contains(faults, "no resume within 100ms") {
		t.Errorf("bound: %d resumes, faults:\n%s", res, faults)
	}

	finish := startPause(t, pausePlan(0, false))
	finish.deliver("MODIFIED", "2")
	if !finish.in.Finish(context.Background()) {
		t.Error("Finish did nothing to a paused controller")
	}
	if _, res, faults := finish.counts(); res != 1 || finish.in.Paused() || !strings.Contains(faults, "the workload is over") {
		t.Errorf("finish: %d resumes, faults:\n%s", res, faults)
	}

	crash := startPause(t, pausePlan(time.Hour, true))
	crash.deliver("MODIFIED", "2")
	crash.deliver("DELETED", "3")
	if _, res, faults := crash.counts(); res != 0 || crash.in.Paused() || !strings.Contains(faults, "not paused any more") {
		t.Errorf("crash: %d resumes, faults:\n%s", res, faults)
	}
}

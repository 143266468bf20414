package pipeline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/report"
	"github.com/sievetool/sieve/lang/ir"
)

// fixture is the results directory that interp/report's goldens are
// rendered from; its result.json files are the verdicts Judge gives on
// its traces.
const fixture = "../report/testdata/results"

// fixtureLayout names the fixture as its reproduce commands do.
var fixtureLayout = report.Layout{Root: "results"}

// TestResultsFromTraces holds each plans/*/result.json of the fixture equal
// to what the oracle says about that plan's trace (SIEVE_UPDATE=1 rewrites
// them), so the report goldens below rest on real oracle output.
func TestResultsFromTraces(t *testing.T) {
	o := fixtureOracle(t)
	traces, _ := filepath.Glob(filepath.Join(fixture, "plans", "*", report.TraceFile))
	if len(traces) == 0 {
		t.Fatal("no plan traces in the fixture")
	}
	for _, file := range traces {
		tr, err := trace.Read(file)
		if err != nil {
			t.Fatal(err)
		}
		p, err := planfile.Read(filepath.Join(filepath.Dir(file), report.PlanFile))
		if err != nil {
			t.Fatal(err)
		}
		r, err := Judge(o, p, tr, fixtureLayout, report.PlanRel(tr.Header.Plan))
		if err != nil {
			t.Fatal(err)
		}
		r.Version, r.Started, r.Seconds = report.Version, tr.Header.Started, float64(len(tr.Entries))/2
		r.Timing = fixtureTiming(t, filepath.Dir(file))
		if r.Status == report.Failed {
			r.Confirm(fixtureReruns(t, o, p, filepath.Dir(file), r.Dir))
		}
		got, _ := json.MarshalIndent(r, "", "  ")
		golden.File(t, filepath.Join(filepath.Dir(file), report.ResultFile), append(got, '\n'))
	}
}

// fixtureTiming is the timing the fixture's result.json in dir holds:
// the oracle does not judge time, so the fixture's phases are kept.
func fixtureTiming(t *testing.T, dir string) report.Timing {
	var r report.Result
	b, err := os.ReadFile(filepath.Join(dir, report.ResultFile))
	if err == nil {
		err = json.Unmarshal(b, &r)
	}
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return r.Timing
}

func fixtureOracle(t *testing.T) *oracle.Oracle {
	var opts struct {
		Masks   []*ir.Mask  `json:"masks"`
		OwnKeys []trace.Key `json:"ownKeys"`
	}
	b, err := os.ReadFile(filepath.Join(fixture, "oracle.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &opts); err != nil {
		t.Fatal(err)
	}
	var refs []*trace.Trace
	for i := 1; i <= 2; i++ {
		r, err := trace.Read(filepath.Join(report.Layout{Root: fixture}.ReferenceDir(i), report.TraceFile))
		if err != nil {
			t.Fatal(err)
		}
		refs = append(refs, r)
	}
	o, err := oracle.New(refs, oracle.Options{Masks: opts.Masks, OwnKeys: opts.OwnKeys})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// fixtureReruns judges the reruns of a plan of the fixture
// (plans/PLAN/rerun-N), as the pipeline does when it confirms findings.
func fixtureReruns(t *testing.T, o *oracle.Oracle, p *planfile.Plan, dir, rel string) []*report.Result {
	t.Helper()
	traces, _ := filepath.Glob(filepath.Join(dir, "rerun-*", report.TraceFile))
	var out []*report.Result
	for _, file := range traces {
		tr, err := trace.Read(file)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Judge(o, p, tr, fixtureLayout, rel+"/"+filepath.Base(filepath.Dir(file)))
		if err != nil {
			t.Fatal(err)
		}
		r.Seconds = float64(len(tr.Entries)) / 2
		out = append(out, r)
	}
	return out
}

// TestJudgeNotInjected: a run whose only action never fired is
// not-injected even when the oracle finds something in it.
func TestJudgeNotInjected(t *testing.T) {
	o := fixtureOracle(t)
	tr, err := trace.Read(filepath.Join(fixture, "plans", "intermediate-3", report.TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	var kept []trace.Entry
	for _, e := range tr.Entries {
		if e.Type != trace.Fault {
			kept = append(kept, e)
		}
	}
	tr.Entries = kept
	r, err := Judge(o, nil, tr, fixtureLayout, "plans/intermediate-3")
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != report.NotInjected || len(r.Findings) != 0 || len(r.Untested) == 0 {
		t.Errorf("status %s, %d findings, %d untested; want not-injected, 0, some", r.Status, len(r.Findings), len(r.Untested))
	}
	if got, want := r.NotFired.String(), "action 1 of 1 never fired"; got != want {
		t.Errorf("not fired: %q, want %q", got, want)
	}
}

// TestJudgeUnreleased: a hold that fired and whose release never came
// injected its fault (the hold was lifted when the workload was over):
// the run is judged as usual, its finding counted, and the result says
// which release never came.
func TestJudgeUnreleased(t *testing.T) {
	o := fixtureOracle(t)
	dir := filepath.Join(fixture, "plans", "unobserved-2")
	tr, err := trace.Read(filepath.Join(dir, report.TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	p, err := planfile.Read(filepath.Join(dir, report.PlanFile))
	if err != nil {
		t.Fatal(err)
	}
	hold := 0
	tr.Entries = append(tr.Entries, trace.Entry{Seq: 100, Type: trace.Fault, Action: &hold, What: string(ir.ActHold),
		Key: &trace.Key{Kind: "pod", Namespace: "default", Name: "web-x7k2p"}, Message: "holding events"})
	r, err := Judge(o, p, tr, fixtureLayout, "plans/unobserved-2")
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != report.Failed || len(r.Findings) != 1 || r.NotFired != nil || r.Unreleased == nil {
		t.Fatalf("status %s, %d findings, not fired %v, unreleased %v; want failed, 1, none, the release", r.Status, len(r.Findings), r.NotFired, r.Unreleased)
	}
	want := "action 2 of 2 (release pod/default/web-x7k2p) never fired: after action 1 fired (trace entry 100), " +
		"the test run never met its trigger: on delete pod/default/web-x7k2p in the cluster"
	if got := r.Unreleased.String(); got != want {
		t.Errorf("unreleased: %q, want %q", got, want)
	}
	// A plan whose hold is followed by a crash that never came was not
	// injected: the crash was the fault.
	p.Actions[1] = &planfile.Action{Kind: ir.ActCrash, Trigger: p.Actions[1].Trigger}
	if r, err = Judge(o, p, tr, fixtureLayout, "plans/unobserved-2"); err != nil || r.Status != report.NotInjected {
		t.Errorf("hold then a crash that never fired: status %v (err %v), want not-injected", r.Status, err)
	}
}

// TestJudgeStaleAtMissed: a stale-on action whose freeze point never came
// froze nothing (trace.Missed): the plan is not-injected, and says which
// point never came, though the actions after it fired.
func TestJudgeStaleAtMissed(t *testing.T) {
	o := fixtureOracle(t)
	tr, err := trace.Read(filepath.Join(fixture, "plans", "stale-1", report.TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	ds := &ir.Ref{Kind: "datastore", Namespace: "default", Name: "ds"}
	at := &planfile.Trigger{Op: ir.TrigEvent, On: "update", Target: ds, Count: 3}
	p := &planfile.Plan{Name: "stale-1", Pattern: ir.Stale, Actions: []*planfile.Action{
		{Kind: ir.ActStaleOn, Scope: ds, At: at, Trigger: &planfile.Trigger{Op: ir.TrigEvent, On: "delete", Target: ds}},
		{Kind: ir.ActRestart},
	}}
	tr.Header.Actions = 2
	var kept []trace.Entry
	for _, e := range tr.Entries {
		if e.Type == trace.Fault {
			zero, one := 0, 1
			why := "the test run never came to its freeze point: " + at.String()
			e.Action, e.What, e.Message = &zero, trace.Missed, why
			kept = append(kept, e, trace.Entry{Seq: e.Seq, Time: e.Time, Type: trace.Fault, Action: &one, What: string(ir.ActRestart)})
			continue
		}
		kept = append(kept, e)
	}
	tr.Entries = kept
	r, err := Judge(o, p, tr, fixtureLayout, "plans/stale-1")
	if err != nil {
		t.Fatal(err)
	}
	want := "action 1 of 2 (stale on datastore/default/ds at on update datastore/default/ds #3) never took effect: " +
		"the test run never came to its freeze point: on update datastore/default/ds #3"
	if r.Status != report.NotInjected || r.NotFired == nil || r.NotFired.String() != want {
		t.Errorf("status %s, not fired %v; want not-injected, %q", r.Status, r.NotFired, want)
	}
}

package trigger_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/analysis/plan"
	"github.com/sievetool/sieve/interp/analysis/trigger"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// TestReplayGenerated replays the fixture reference trace through an
// engine for every plan generated from it with every pruning pass off.
// (So failed and no-op writes, generated names and repeated signatures
// are all there.) Each plan's first action must fire on exactly the entry
// the plan was made from: the write for intermediate, the object coming
// back for stale, the hidden event for unobserved. An unobserved plan's
// release must fire on the cancelling event. This holds generation and
// the engine to the same diffs and counts.
func TestReplayGenerated(t *testing.T) {
	for _, name := range []string{"datastore", "podreaper"} {
		t.Run(name, func(t *testing.T) { replayFixture(t, name) })
	}
}

// replayFixture replays one fixture trace for all its plans.
func replayFixture(t *testing.T, name string) {
	tr, err := trace.Read(filepath.Join("..", "plan", "testdata", name+".trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	test := &ir.Test{Name: "buggy", Policies: []*ir.Policy{{
		Name: "all", Patterns: []ir.Pattern{ir.Intermediate, ir.Stale, ir.Unobserved}, Prune: ir.Prune{},
	}}}
	set, err := plan.Generate(tr, test, plan.Options{MaxOccurrence: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Plans) < 20 {
		t.Fatalf("only %d plans generated from the fixture", len(set.Plans))
	}
	masks, err := observe.Masks(test)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range set.Plans {
		fired := replay(t, tr, p, masks)
		checkReplay(t, p, fired)
	}
	t.Logf("%d plans replayed", len(set.Plans))
}

// replay feeds the trace to an engine for p, with the clock following the
// entries' times, and returns what fired. A request after a restart action
// is the restarted controller's.
func replay(t *testing.T, tr *trace.Trace, p *planfile.Plan, masks *mask.Matcher) []trigger.Fired {
	t.Helper()
	clock := &replayClock{now: tr.Header.Started}
	e, err := trigger.New(p, trigger.Options{Clock: clock, Masks: masks})
	if err != nil {
		t.Fatal(err)
	}
	e.Start()
	for i := range tr.Entries {
		ent := &tr.Entries[i]
		if ent.Time.After(clock.now) {
			clock.now = ent.Time
		}
		if ent.Type == trace.Request {
			e.Restarted(ent.Time) // as the injector hears a request
		}
		e.Observe(ent)
	}
	clock.now = clock.now.Add(time.Hour)
	e.Tick()
	return e.Fired()
}

// checkReplay checks the fired actions against the plan's Why entries.
func checkReplay(t *testing.T, p *planfile.Plan, fired []trigger.Fired) {
	t.Helper()
	want := map[plan.Pattern][]string{
		ir.Intermediate: {"write"},
		ir.Stale:        {"back"},
		ir.Unobserved:   {"event", "cancel"},
	}[p.Pattern]
	for i, role := range want {
		seq := whySeq(p, role)
		if i >= len(fired) || fired[i].Seq != seq {
			t.Errorf("%s: action %d should fire at seq %d (%s), fired: %+v", p.Name, i, seq, role, fired)
		}
	}
	if p.Pattern == ir.Stale && len(fired) != 3 {
		t.Errorf("%s: want stale-on, restart and (after the timeout) stale-off, fired: %+v", p.Name, fired)
	}
}

// whySeq returns the sequence number of the plan's Why entry with role.
func whySeq(p *planfile.Plan, role string) int64 {
	for _, w := range p.Why {
		if w.Role == role {
			return w.Seq
		}
	}
	return -1
}

// replayClock is a settable clock.
type replayClock struct{ now time.Time }

func (c *replayClock) Now() time.Time { return c.now }

// TestReplayStaleFewerPolls is the shape of a flake: the controller
// polls its members API, and how many polls come before the members
// change differs from run to run. Every stale plan generated from the
// ensemble fixture must fire on the call whose answer changed, in the
// reference and in a run that made fewer polls before each change (the
// fixture without its repeated answers): a leaf that counted polls
// would fire on a later change there, or never.
func TestReplayStaleFewerPolls(t *testing.T) {
	tr, err := trace.Read(filepath.Join("..", "plan", "testdata", "ensemble.trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	test := &ir.Test{Name: "buggy", Policies: []*ir.Policy{{
		Name: "all", Patterns: []ir.Pattern{ir.AppFault}, AppFaults: []ir.AppFaultKind{ir.FaultStale},
	}}}
	set, err := plan.Generate(tr, test, plan.Options{MaxOccurrence: 1000})
	if err != nil {
		t.Fatal(err)
	}
	fewer := withoutRepeats(tr)
	if len(fewer.Entries) >= len(tr.Entries)-10 {
		t.Fatalf("the fixture has %d entries, %d without repeated answers: too few polls dropped", len(tr.Entries), len(fewer.Entries))
	}
	n := 0
	for _, p := range set.Plans {
		call := whySeq(p, "call")
		for name, run := range map[string]*trace.Trace{"reference": tr, "fewer polls": fewer} {
			fired, err := trigger.Replay(p, run, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(fired) != 1 || fired[0].Seq != call {
				t.Errorf("%s (%s): fired %+v, want the call at seq %d, whose answer changed", p.Name, name, fired, call)
			}
		}
		n++
	}
	if n < 3 {
		t.Fatalf("%d stale plans from the ensemble fixture, want one per change of the members (3 or more)", n)
	}
}

// withoutRepeats is tr without the HTTP calls that got the same answer
// as the equal call before them: a run in which the controller polled
// less often.
func withoutRepeats(tr *trace.Trace) *trace.Trace {
	out := &trace.Trace{Header: tr.Header}
	last := map[string]*planfile.Answer{}
	for _, e := range tr.Entries {
		if c, ok := observe.CallOf(&e); ok && e.Type == trace.HTTP {
			a, sig := observe.AnswerOf(&e), c.Signature()
			prev, seen := last[sig]
			last[sig] = a
			if seen && !observe.AnswerChanged(prev, a) {
				continue
			}
		}
		out.Entries = append(out.Entries, e)
	}
	return out
}

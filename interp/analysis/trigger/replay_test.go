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
// entries' times, and returns what fired.
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

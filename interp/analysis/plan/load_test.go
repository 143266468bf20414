package plan

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// stretch returns a copy of tr recorded "under load". Every gap between two
// consecutive instants of the trace (when an entry was recorded, when a
// request's answer came back) is lengthened by a factor between lo and hi.
// The factors come from a generator seeded with seed. The order of all
// instants is kept (equal instants stay equal), so the trace shows the same
// controller doing the same things, only slower and unevenly so.
func stretch(tr *trace.Trace, seed uint64, lo, hi float64) *trace.Trace {
	var instants []time.Time
	for _, e := range tr.Entries {
		instants = append(instants, e.Time)
		if e.Done != nil {
			instants = append(instants, *e.Done)
		}
	}
	sort.Slice(instants, func(i, j int) bool { return instants[i].Before(instants[j]) })
	instants = slices.CompactFunc(instants, time.Time.Equal)
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	warped := map[time.Time]time.Time{}
	var at time.Time
	for i, t := range instants {
		if i == 0 {
			at = t
		} else {
			f := lo + rng.Float64()*(hi-lo)
			at = at.Add(time.Duration(float64(t.Sub(instants[i-1])) * f))
		}
		warped[t] = at
	}
	out := &trace.Trace{Header: tr.Header, Entries: slices.Clone(tr.Entries)}
	for i := range out.Entries {
		e := &out.Entries[i]
		e.Time = warped[e.Time]
		if e.Done != nil {
			d := warped[*e.Done]
			e.Done = &d
		}
	}
	return out
}

// TestStretch holds the helper to what the load tests rely on: every gap
// grows within its bounds, the order of instants is kept, and a seed
// gives one stretching.
func TestStretch(t *testing.T) {
	tr, err := trace.Read(filepath.Join("testdata", "datastore.trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := stretch(tr, 7, 3, 10), stretch(tr, 7, 3, 10), stretch(tr, 8, 3, 10)
	same, differs := true, false
	for i := range tr.Entries {
		same = same && a.Entries[i].Time.Equal(b.Entries[i].Time)
		differs = differs || !a.Entries[i].Time.Equal(c.Entries[i].Time)
		for j := range i {
			was, now := tr.Entries[i].Time.Sub(tr.Entries[j].Time), a.Entries[i].Time.Sub(a.Entries[j].Time)
			if (was > 0) != (now > 0) || (was < 0) != (now < 0) {
				t.Fatalf("entries #%d and #%d change order: %v apart, then %v", tr.Entries[j].Seq, tr.Entries[i].Seq, was, now)
			}
			if j == i-1 && was > 0 && (now < 3*was || now > 10*was) {
				t.Errorf("gap before #%d: %v stretched to %v, not 3 to 10 times", tr.Entries[i].Seq, was, now)
			}
		}
	}
	if !same || !differs {
		t.Errorf("seed 7 twice gives the same stretching: %v; seeds 7 and 8 differ: %v", same, differs)
	}
}

// TestPlansDoNotDependOnLoad generates the plans of every case in
// testdata/cases from its traces as recorded ("idle"), and stretched as by
// a loaded machine (every gap 3 to 10 times as long, unevenly; see
// stretch). It wants the same plan set: no plan kept at idle is lost under
// load, none appears. The controller does the same things in the same
// order; only the wall clock differs, and a bug found on an idle machine
// must be found on a busy one.
func TestPlansDoNotDependOnLoad(t *testing.T) {
	eachCase(t, func(t *testing.T, _ string, ar *txtar.Archive) {
		tr, test, opts := caseInputs(t, ar)
		idle := planNames(t, tr, test, opts)
		for seed := uint64(1); seed <= 8; seed++ {
			loaded := opts
			loaded.Others = nil
			for i, o := range opts.Others {
				loaded.Others = append(loaded.Others, stretch(o, seed*100+uint64(i), 3, 10))
			}
			got := planNames(t, stretch(tr, seed, 3, 10), test, loaded)
			lost, gained := setDiff(idle, got), setDiff(got, idle)
			if len(lost)+len(gained) > 0 {
				t.Errorf("seed %d: %d plans idle, %d loaded; lost under load: %v; gained: %v", seed, len(idle), len(got), lost, gained)
			}
		}
	})
}

// planNames generates the plans and returns their names.
func planNames(t *testing.T, tr *trace.Trace, test *ir.Test, opts Options) map[string]bool {
	t.Helper()
	set, err := Generate(tr, test, opts)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, p := range set.Plans {
		names[p.Name] = true
	}
	return names
}

// setDiff returns the names in a and not in b, sorted.
func setDiff(a, b map[string]bool) []string {
	var out []string
	for n := range a {
		if !b[n] {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// TestSplitReconcile holds issue 38's case. One reconcile is recorded idle
// (keeper.trace.jsonl), with a pause that split its requests in two
// (keeper-split.trace.jsonl: 161 ms, longer than a burst gap and shorter
// than the controller's pace), and stretched as by a loaded machine. All
// give the same plans, among them the true one (see the cases' true
// sections).
func TestSplitReconcile(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "cases", "keeper.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	idle, test, opts := caseInputs(t, ar)
	split, err := trace.Read(filepath.Join("testdata", "keeper-split.trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := planNames(t, idle, test, opts)
	if len(want) == 0 {
		t.Fatal("no plans from the idle recording")
	}
	for name, tr := range map[string]*trace.Trace{
		"split": split, "loaded (seed 1)": stretch(idle, 1, 3, 10), "loaded (seed 2)": stretch(idle, 2, 3, 10),
	} {
		got := planNames(t, tr, test, opts)
		if lost, gained := setDiff(want, got), setDiff(got, want); len(lost)+len(gained) > 0 {
			t.Errorf("%s: %d plans, %d idle; lost: %v; gained: %v", name, len(got), len(want), lost, gained)
		}
	}
}

package trigger

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sievetool/sieve/internal/hostile"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// FuzzEngine builds the engine of an arbitrary plan file (sieve reproduce
// and hand-edited plans run any) and replays an arbitrary trace through
// it. It is seeded with the report fixtures' plans and the traces of their
// runs. Building and replaying must never panic and must end in bounded
// time, and an error must be clear. What fires was completed by an
// observation of the trace, or by none.
func FuzzEngine(f *testing.F) {
	plans, _ := filepath.Glob("../../report/testdata/results/plans/*/plan.json")
	for _, file := range plans {
		p, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		tr, _ := os.ReadFile(filepath.Join(filepath.Dir(file), "trace.jsonl"))
		f.Add(p, tr[:min(len(tr), 6<<10)])
	}
	f.Fuzz(func(t *testing.T, pb, tb []byte) {
		p, err := planfile.Decode(pb)
		if err != nil {
			return
		}
		tr, err := trace.Decode(bytes.NewReader(tb))
		if err != nil {
			return
		}
		clock := &fakeClock{now: tr.Header.Started}
		e, err := New(p, Options{Clock: clock})
		if err != nil {
			hostile.CheckError(t, err, pb)
			return
		}
		var fired []Fired
		hostile.Within(t, hostile.MaxTime, func() {
			e.Start()
			for i := range tr.Entries {
				ent := &tr.Entries[i]
				if ent.Time.After(clock.now) {
					clock.now = ent.Time
				}
				e.Observe(ent)
				e.Tick()
			}
			clock.now = clock.now.Add(time.Hour)
			e.Tick()
			e.EndStale()
			fired = e.Fired()
			e.Status()
		})
		seqs := map[int64]bool{0: true}
		for _, ent := range tr.Entries {
			seqs[ent.Seq] = true
		}
		for _, fi := range fired {
			if !seqs[fi.Seq] || fi.Action < 0 || fi.Action >= len(p.Actions) {
				t.Fatalf("fired %+v: no such observation or action", fi)
			}
		}
	})
}

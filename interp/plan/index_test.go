package plan

import (
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/observe"
	"github.com/sievetool/sieve/interp/trace"
)

// TestCurrent holds the stale pattern's recency rule: a write may have been
// based only on a state of an object that was still the newest when the
// reconcile that sent it may have begun, however many watches delivered it.
// Without a burst (so no pace), that is when the write was sent; with one,
// the controller's pace before the burst's first request.
func TestCurrent(t *testing.T) {
	k := trace.Key{Kind: "datastore.example.com", Namespace: "default", Name: "ds"}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	seq := int64(0)
	delivery := func(ms int, rv string) *item {
		seq++
		return &item{Observed: observe.Observed{Entry: &trace.Entry{Seq: seq, Time: at(ms), ResourceVersion: rv}, Stream: observe.Delivered, Key: k}}
	}
	r1, r2, r3, r4, r4again, r5 := delivery(10, "1"), delivery(20, "2"), delivery(30, "3"), delivery(40, "4"), delivery(41, "4"), delivery(60, "5")
	list := []*item{r1, r2, r3, r4, r4again, r5}
	w := &item{Observed: observe.Observed{Entry: &trace.Entry{Seq: 99, Time: at(50)}, Stream: observe.Written, Key: k}, burst: -1}
	for _, c := range []struct {
		pace time.Duration
		n    *item
		want bool
	}{
		{0, r1, false}, {0, r2, false}, {0, r3, false}, {0, r4, true}, {0, r4again, true}, {0, r5, false},
		// The burst starts at 45ms; at a pace of 20ms its reconcile may
		// have read the cache from 25ms on, when revision 2 was newest.
		{20 * time.Millisecond, r1, false}, {20 * time.Millisecond, r2, true}, {20 * time.Millisecond, r3, true}, {20 * time.Millisecond, r4, true}, {20 * time.Millisecond, r5, false},
	} {
		ix := &index{delivByKey: map[trace.Key][]*item{k: list}, pace: c.pace}
		w.burst = -1
		if c.pace > 0 {
			ix.bursts = []burst{{start: at(45), end: at(51)}}
			w.burst = 0
		}
		if got := ix.current(c.n, w); got != c.want {
			t.Errorf("pace %v: current(revision %s delivered at %v) = %v, want %v", c.pace, c.n.Entry.ResourceVersion, c.n.at().Sub(t0), got, c.want)
		}
	}
}

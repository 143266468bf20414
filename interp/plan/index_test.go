package plan

import (
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/trace"
)

// TestCurrent holds the stale pattern's recency rule: a write may have been
// based only on the newest state of an object delivered before it, however
// many watches delivered it.
func TestCurrent(t *testing.T) {
	k := trace.Key{Kind: "datastore.example.com", Namespace: "default", Name: "ds"}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	delivery := func(ms int, rv string) *item {
		return &item{Observed: Observed{Entry: &trace.Entry{Time: at(ms), ResourceVersion: rv}, Stream: Delivered, Key: k}}
	}
	r1, r2, r3, r4, r4again, r5 := delivery(10, "1"), delivery(20, "2"), delivery(30, "3"), delivery(40, "4"), delivery(41, "4"), delivery(60, "5")
	ix := &index{delivByKey: map[trace.Key][]*item{k: {r1, r2, r3, r4, r4again, r5}}}
	w := &item{Observed: Observed{Entry: &trace.Entry{Time: at(50)}, Stream: Written, Key: k}}
	for _, c := range []struct {
		n    *item
		want bool
	}{{r1, false}, {r2, false}, {r3, false}, {r4, true}, {r4again, true}, {r5, false}} {
		if got := ix.current(c.n, w); got != c.want {
			t.Errorf("current(revision %s delivered at %v) = %v, want %v", c.n.Entry.ResourceVersion, c.n.at().Sub(t0), got, c.want)
		}
	}
}

package leader

import (
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// FuzzRead feeds arbitrary objects from the cluster to the reader of
// leader-election records. It must never panic. An object that carries a
// record is a heartbeat of itself once a holder is named (nothing
// changed). The wait it leads to (Until) is never before the record's
// renewal: a hostile lease duration (negative, or past what a Duration
// holds) must not wrap around.
func FuzzRead(f *testing.F) {
	lease := `{"metadata":{"name":"l","resourceVersion":"1"},"spec":{"holderIdentity":"a","leaseDurationSeconds":15,"renewTime":"2026-12-02T10:00:00.000000Z"}}`
	cm := `{"metadata":{"name":"c","annotations":{"` + Annotation + `":"{\"holderIdentity\":\"a\",\"leaseDurationSeconds\":15,\"renewTime\":\"2026-12-02T10:00:00Z\"}"}}}`
	f.Add("lease", []byte(lease))
	f.Add("configmap", []byte(cm))
	f.Add("endpoints", []byte(`{"metadata":{"annotations":{"`+Annotation+`":"{\"leaseDurationSeconds\":-9223372036854775807}"}}}`))
	f.Add("lease", []byte(`{"spec":{"holderIdentity":"a","leaseDurationSeconds":9223372036854775807}}`))
	f.Fuzz(func(t *testing.T, kind string, obj []byte) {
		rec, ok := Read(kind, obj)
		if !ok {
			return
		}
		if rec.Holder != "" && !Heartbeat(kind, obj, obj) {
			t.Fatalf("an unchanged %s is not a heartbeat: %s", kind, obj)
		}
		if rec.Duration < 0 {
			t.Fatalf("a record with a negative lease duration %s", rec.Duration)
		}
		at := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
		l := &Locks{}
		l.read = map[trace.Key]seen{{Kind: kind}: {rec: rec, at: at}}
		if u := l.Until(); u.Before(at) {
			t.Fatalf("waits until %s, before the read at %s (lease duration %s)", u, at, rec.Duration)
		}
	})
}

package leader

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// TestLocksHeld replays testdata/restart.trace.jsonl: the lock the first
// process created and renewed is held by it until the restarted process
// takes it over, then by the new one.
func TestLocksHeld(t *testing.T) {
	tr, err := trace.Read("testdata/restart.trace.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var l Locks
	holders := map[int64]string{}
	for i := range tr.Entries {
		if e := &tr.Entries[i]; e.Type == trace.Request {
			l.Request(e)
			for k, h := range l.Held() {
				holders[e.Seq] = fmt.Sprintf("%s %s", k.Kind, h)
			}
		}
	}
	first, renewed, taken := holders[2], holders[4], holders[17]
	if first == "" || first != renewed || taken == "" || taken == first || holders[1] != "" {
		t.Errorf("held after the create %q, the renewal %q, the takeover %q, before the create %q", first, renewed, taken, holders[1])
	}
}

// TestRelease lets go the records of a Lease and of a ConfigMap lock that
// the holder holds, keeping the rest of the object, and nothing else.
func TestRelease(t *testing.T) {
	renew := time.Date(2026, 12, 6, 20, 0, 0, 0, time.UTC)
	rec := fmt.Sprintf(`{"holderIdentity":"a_1","leaseDurationSeconds":6,"acquireTime":%q,"renewTime":%q,"leaderTransitions":2}`,
		renew.Format(time.RFC3339), renew.Format(time.RFC3339))
	ann, _ := json.Marshal(rec)
	objs := map[string]string{
		"lease":     `{"metadata":{"name":"l","resourceVersion":"7"},"spec":` + rec + `}`,
		"configmap": `{"metadata":{"name":"c","resourceVersion":"7","annotations":{"x":"y","` + Annotation + `":` + string(ann) + `}},"data":{"k":"v"}}`,
	}
	for kind, obj := range objs {
		if _, ok := Release(kind, []byte(obj), "b_2"); ok {
			t.Errorf("%s: released a lock another process holds", kind)
		}
		out, ok := Release(kind, []byte(obj), "a_1")
		if !ok {
			t.Fatalf("%s: the holder's lock not released", kind)
		}
		got, ok := Read(kind, out)
		if !ok || got.Holder != "" || got.Duration != time.Second || !got.Renew.Equal(renew) {
			t.Errorf("%s: released record %+v (%v)", kind, got, ok)
		}
		again, _ := Release(kind, out, "a_1")
		if again != nil {
			t.Errorf("%s: a released lock released again", kind)
		}
		var m map[string]any
		_ = json.Unmarshal(out, &m)
		meta := m["metadata"].(map[string]any)
		if meta["resourceVersion"] != "7" || (kind == "configmap" && (m["data"] == nil || meta["annotations"].(map[string]any)["x"] != "y")) {
			t.Errorf("%s: the rest of the object changed: %s", kind, out)
		}
	}
	if _, ok := Release("configmap", []byte(`{"metadata":{"name":"c"}}`), "a_1"); ok {
		t.Error("released a ConfigMap that is no lock")
	}
}

package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/controller"
	"github.com/sievetool/sieve/lang/ir"
)

// convergeFixture reads one of the oracle's convergence goldens: its
// oracle, and the test run split at its converge mark.
func convergeFixture(t *testing.T, name string) (*oracle.Oracle, *trace.Trace, []trace.Entry) {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("..", "..", "analysis", "oracle", "testdata", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var refs []*trace.Trace
	var test *trace.Trace
	var opts struct {
		Masks   []*ir.Mask  `json:"masks"`
		OwnKeys []trace.Key `json:"ownKeys"`
	}
	for _, f := range ar.Files {
		if f.Name == "options.json" {
			if err := json.Unmarshal(f.Data, &opts); err != nil {
				t.Fatal(err)
			}
		}
		if !strings.HasSuffix(f.Name, ".jsonl") {
			continue
		}
		tr, err := trace.Decode(bytes.NewReader(f.Data))
		if err != nil {
			t.Fatal(err)
		}
		if f.Name == "test.jsonl" {
			test = tr
		} else {
			refs = append(refs, tr)
		}
	}
	o, err := oracle.New(refs, oracle.Options{Masks: opts.Masks, OwnKeys: opts.OwnKeys})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range test.Entries {
		if e.Type == trace.Converge {
			return o, &trace.Trace{Header: test.Header, Entries: test.Entries[:i]}, test.Entries[i+1:]
		}
	}
	t.Fatalf("%s: no converge mark", name)
	return nil, nil, nil
}

// writeTrace writes tr to a file, as a run's trace writer does.
func writeTrace(t *testing.T, tr *trace.Trace) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	w, err := trace.Create(path, tr.Header)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, e := range tr.Entries {
		if _, err := w.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// TestFollowConverges: a session that has settled follows the objects
// that differ (read from its trace file), and the history entries written
// after, shown to it as sink does, repair them.
func TestFollowConverges(t *testing.T) {
	o, settled, later := convergeFixture(t, "converge-repaired")
	s := &session{tracePath: writeTrace(t, settled)}
	c := s.follow(o)
	if c == nil {
		t.Fatal("nothing followed, want the missing PodDisruptionBudget and the StatefulSet")
	}
	if got := keyList(c.Pending()); got != "poddisruptionbudget/default/ds, statefulset/default/ds" {
		t.Fatalf("pending %q", got)
	}
	for _, e := range later {
		s.observe(e)
	}
	if p := c.Pending(); len(p) != 0 {
		t.Errorf("still pending after the repair: %v", p)
	}
}

// TestWaitConvergedControllerGone: a run whose controller is not running
// stops waiting at once, saying so, since no repair can come.
func TestWaitConvergedControllerGone(t *testing.T) {
	o, settled, _ := convergeFixture(t, "converge-persists")
	s := &session{tracePath: writeTrace(t, settled), runner: &controller.Runner{}}
	c := s.follow(o)
	if c == nil {
		t.Fatal("nothing followed")
	}
	start := time.Now()
	how := s.waitConverged(context.Background(), c, time.Now(), time.Minute)
	if !strings.Contains(how, "the controller is not running") || time.Since(start) > 10*time.Second {
		t.Errorf("waitConverged: %q after %s, want at once that the controller is not running", how, time.Since(start))
	}
}

// TestRecheckBound learns the recheck after a relist from the reference
// runs: twice the controller's longest burst of deliveries and writes
// (split where it was quiet for the window; reads, and renewals of a
// Lease or a ConfigMap lock, do not count) plus the window, and at least
// minRecheck; or, when the controller sends the same requests again with
// nothing from outside in between (its own timer), one period of that
// timer plus twice the window, heartbeats aside.
func TestRecheckBound(t *testing.T) {
	t0 := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	at := func(ms int, typ trace.Type, verb, kind string) trace.Entry {
		e := trace.Entry{Time: t0.Add(time.Duration(ms) * time.Millisecond), Type: typ, Verb: verb, Key: &trace.Key{Kind: kind, Namespace: "default", Name: "x"}}
		if typ == trace.Delivery {
			e.Event, e.ResourceVersion = "MODIFIED", strconv.Itoa(ms)
		}
		return e
	}
	burst := &trace.Trace{Entries: []trace.Entry{
		at(0, trace.Delivery, "", "configmap"),
		at(400, trace.Request, "create", "configmap"),
		at(1500, trace.Request, "update", "configmap"), // 1.5s from the first: one burst
		at(4000, trace.Delivery, "", "configmap"),      // quiet for 2.5s: a new one
		at(4300, trace.Request, "update", "configmap"),
	}}
	lock := func(ms int, verb, kind string) trace.Entry {
		e := at(ms, trace.Request, verb, kind)
		rec := fmt.Sprintf(`{"holderIdentity":"op-a","leaseDurationSeconds":15,"renewTime":%q}`, e.Time.Format(time.RFC3339Nano))
		e.Code, e.Response = 200, []byte(`{"metadata":{"name":"x","namespace":"default"},"spec":`+rec+`}`)
		if kind == "configmap" {
			ann, _ := json.Marshal(map[string]string{"control-plane.alpha.kubernetes.io/leader": rec})
			e.Response = []byte(`{"metadata":{"name":"x","namespace":"default","annotations":` + string(ann) + `}}`)
		}
		return e
	}
	leases := &trace.Trace{Entries: []trace.Entry{
		lock(0, "get", "lease"),
		lock(10, "update", "lease"),
		lock(1900, "update", "lease"),
		lock(3800, "get", "configmap"),
		lock(3810, "update", "configmap"),
		lock(5700, "update", "lease"),
		lock(5710, "update", "configmap"),
	}}
	m, err := observe.Masks(nil)
	if err != nil {
		t.Fatal(err)
	}
	// A controller that requeues its object every 30s (RequeueAfter):
	// nothing from outside reaches it after the first event, and it reads
	// and writes the object again on its own timer.
	requeue := &trace.Trace{Entries: []trace.Entry{at(0, trace.Delivery, "", "configmap")}}
	for _, s := range []int{0, 30, 60} {
		requeue.Entries = append(requeue.Entries, at(s*1000+100, trace.Request, "get", "configmap"), at(s*1000+200, trace.Request, "update", "configmap"))
	}
	// A retry every second is faster than the settle window, which
	// already waits through it.
	retry := &trace.Trace{Entries: []trace.Entry{at(0, trace.Delivery, "", "configmap")}}
	for _, s := range []int{0, 1, 2} {
		retry.Entries = append(retry.Entries, at(s*1000+100, trace.Request, "get", "configmap"), at(s*1000+200, trace.Request, "update", "configmap"))
	}
	// A leader renewing its lock every 10s is no timer of its reconciles.
	slowLeases := &trace.Trace{Entries: []trace.Entry{lock(0, "get", "lease"), lock(10, "update", "lease"), lock(10010, "update", "lease"), lock(20010, "update", "lease")}}
	for _, tc := range []struct {
		name   string
		refs   []*trace.Trace
		want   time.Duration
		period time.Duration // of the timer it names
	}{
		{"longest burst", []*trace.Trace{leases, burst}, 2*1500*time.Millisecond + 2*time.Second, 0},
		{"no burst", []*trace.Trace{leases}, minRecheck, 0},
		{"no reference", nil, minRecheck, 0},
		{"requeue timer", []*trace.Trace{burst, requeue}, 30*time.Second + 2*2*time.Second, 30 * time.Second},
		{"heartbeats are no timer", []*trace.Trace{slowLeases}, minRecheck, 0},
		{"a retry faster than the window", []*trace.Trace{retry}, 2*2200*time.Millisecond + 2*time.Second, 0},
	} {
		for i := range tc.refs {
			tc.refs[i].Header.Run = i + 1
			for j := range tc.refs[i].Entries {
				tc.refs[i].Entries[j].Seq = int64(j + 1)
			}
		}
		got, timer := RecheckBound(tc.refs, m, 2*time.Second)
		if got != tc.want || timer.Period != tc.period {
			t.Errorf("%s: RecheckBound %s (timer %s), want %s (a timer of %s)", tc.name, got, timer, tc.want, tc.period)
		}
	}
}

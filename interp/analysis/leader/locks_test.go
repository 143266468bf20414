package leader

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// TestLocksRestartedController replays testdata/restart.trace.jsonl. A
// controller creates its ConfigMap lock and renews it, and is killed. Its
// restarted process lists, then reads every two seconds the lock that the
// killed one never let go, until the record expires (15s after it first
// read it). It takes the lock over and reconciles. Its reads and the
// renewal are heartbeats; the creation, the takeover and the reconcile
// are not. It waits from its first read until the takeover (the old
// leader's read before its renewal, too, for the moment between them). It
// never waits past the bound Until gives: twice the lease after that
// first read.
func TestLocksRestartedController(t *testing.T) {
	tr, err := trace.Read("testdata/restart.trace.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var l Locks
	var got []string
	for i := range tr.Entries {
		e := &tr.Entries[i]
		if e.Type != trace.Request {
			continue
		}
		beat := l.Request(e)
		line := fmt.Sprintf("%d %s %s", e.Seq, e.Verb, e.Key.Kind)
		if beat {
			line += " heartbeat"
		}
		if until := l.Until(); e.Time.Before(until) {
			line += fmt.Sprintf(" waiting %s", until.Sub(e.Time).Round(time.Millisecond))
		}
		got = append(got, line)
	}
	want := []string{
		"1 get configmap",
		"2 create configmap",
		"3 get configmap heartbeat waiting 30s",
		"4 update configmap heartbeat",
		"7 list statefulset",
		"8 get configmap heartbeat waiting 30s",
		"9 get configmap heartbeat waiting 28s",
		"10 get configmap heartbeat waiting 26s",
		"11 get configmap heartbeat waiting 24s",
		"12 get configmap heartbeat waiting 22s",
		"13 get configmap heartbeat waiting 20s",
		"14 get configmap heartbeat waiting 18s",
		"15 get configmap heartbeat waiting 16s",
		"16 get configmap heartbeat waiting 14s",
		"17 update configmap",
		"18 update statefulset",
	}
	if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
		t.Errorf("replayed:\n%s\nwant:\n%s", g, w)
	}
}

// TestLocksWaitBound: a lock whose holder keeps renewing keeps the
// controller waiting, each renewal a lease (and a margin) on; a record
// with no holder, or a lock the controller writes, does not.
func TestLocksWaitBound(t *testing.T) {
	key := &trace.Key{Kind: "lease", Namespace: "ops", Name: "op-lock"}
	t0 := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	get := func(at time.Duration, holder string) *trace.Entry {
		renew := t0.Add(at - time.Second).Format(time.RFC3339Nano)
		return &trace.Entry{Type: trace.Request, Time: t0.Add(at), Key: key, Verb: "get", Code: 200, Response: lease(holder, renew, "1")}
	}
	var l Locks
	l.Request(get(0, "other"))
	if got, want := l.Until(), t0.Add(30*time.Second); !got.Equal(want) {
		t.Errorf("after the first read: until %s, want %s", got, want)
	}
	l.Request(get(40*time.Second, "other")) // renewed meanwhile
	if got, want := l.Until(), t0.Add(70*time.Second); !got.Equal(want) {
		t.Errorf("after a read of a renewed record: until %s, want %s", got, want)
	}
	l.Request(get(41*time.Second, ""))
	if got := l.Until(); !got.IsZero() {
		t.Errorf("after a read of a released lock: until %s, want none", got)
	}
	l.Request(get(42*time.Second, "other"))
	l.Request(&trace.Entry{Type: trace.Request, Time: t0.Add(43 * time.Second), Key: key, Verb: "update", Code: 409})
	if got := l.Until(); got.IsZero() {
		t.Error("a write refused ended the wait")
	}
	l.Request(&trace.Entry{Type: trace.Request, Time: t0.Add(44 * time.Second), Key: key, Verb: "update", Code: 200, Response: lease("me", t0.Add(44*time.Second).Format(time.RFC3339Nano), "2")})
	if got := l.Until(); !got.IsZero() {
		t.Errorf("after the controller wrote the lock: until %s, want none", got)
	}
}

package plan

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// synth builds a synthetic reference trace of about n entries: several
// custom resources, each reconciled into a ConfigMap, a Service and a
// StatefulSet with pods and PVCs, status updates, pod churn, lease
// renewals, deletions with PVC cleanup and re-creations, interleaved.
type synth struct {
	tr  trace.Trace
	now time.Time
	rv  int
}

func (s *synth) add(e trace.Entry) {
	s.now = s.now.Add(3 * time.Millisecond)
	if e.Time.IsZero() {
		e.Time = s.now
	}
	e.Seq = int64(len(s.tr.Entries) + 1)
	s.tr.Entries = append(s.tr.Entries, e)
}

func (s *synth) object(k trace.Key, owner string, extra map[string]any) json.RawMessage {
	s.rv++
	md := map[string]any{"name": k.Name, "namespace": k.Namespace, "resourceVersion": fmt.Sprint(s.rv),
		"uid": fmt.Sprintf("uid-%s-%d", k.Name, s.rv/1000), "creationTimestamp": s.now.Format(time.RFC3339)}
	if owner != "" {
		md["ownerReferences"] = []any{map[string]any{"apiVersion": "example.com/v1", "kind": "Datastore", "name": owner, "controller": true}}
	}
	o := map[string]any{"metadata": md}
	for k, v := range extra {
		o[k] = v
	}
	b, _ := json.Marshal(o)
	return b
}

// change records a cluster change, its delivery (if watched) and, when
// the controller made it, its request.
func (s *synth) change(k trace.Key, event, owner string, extra map[string]any, verb string, watched bool) {
	start := s.now
	obj := s.object(k, owner, extra)
	s.add(trace.Entry{Type: trace.History, Key: &k, Event: event, ResourceVersion: fmt.Sprint(s.rv), Object: obj})
	if watched {
		s.add(trace.Entry{Type: trace.Delivery, Key: &k, Event: event, ResourceVersion: fmt.Sprint(s.rv), Object: obj})
	}
	if verb != "" {
		done := s.now.Add(time.Millisecond)
		code := 200
		if verb == "create" {
			code = 201
		}
		s.add(trace.Entry{Type: trace.Request, Time: start, Key: &k, Verb: verb, Code: code, Body: obj, Response: obj, Done: &done})
	}
}

func (s *synth) cycle(cr string, round int) {
	key := func(kind, name string) trace.Key { return trace.Key{Kind: kind, Namespace: "default", Name: name} }
	crk := key("datastore.example.com", cr)
	spec := map[string]any{"spec": map[string]any{"replicas": 2, "round": round}}
	s.change(crk, "ADDED", "", spec, "", true)
	s.now = s.now.Add(200 * time.Millisecond)
	s.change(crk, "MODIFIED", "", map[string]any{"spec": spec["spec"], "metadata2": "finalizer"}, "update", true)
	for _, kind := range []string{"configmap", "service", "statefulset"} {
		s.change(key(kind, cr), "ADDED", cr, map[string]any{"spec": map[string]any{"v": round}}, "create", true)
	}
	s.change(crk, "MODIFIED", "", map[string]any{"spec": spec["spec"], "status": map[string]any{"phase": "Creating"}}, "update", true)
	s.now = s.now.Add(200 * time.Millisecond)
	for i := range 2 {
		s.change(key("persistentvolumeclaim", fmt.Sprintf("data-%s-%d", cr, i)), "ADDED", "", nil, "", false)
		for phase := range 3 {
			s.change(key("pod", fmt.Sprintf("%s-%d", cr, i)), map[bool]string{true: "ADDED", false: "MODIFIED"}[phase == 0], cr,
				map[string]any{"status": map[string]any{"phase": phase}}, "", true)
		}
	}
	s.now = s.now.Add(200 * time.Millisecond)
	s.change(crk, "MODIFIED", "", map[string]any{"spec": spec["spec"], "status": map[string]any{"phase": "Ready"}}, "update", true)
	s.change(key("statefulset", cr), "MODIFIED", cr, map[string]any{"spec": map[string]any{"v": round}}, "update", true) // no-op
	s.now = s.now.Add(200 * time.Millisecond)
	s.change(key("lease", "leader"), "MODIFIED", "", map[string]any{"spec": map[string]any{"renewTime": s.now.Format(time.RFC3339Nano)}}, "update", false)
	s.now = s.now.Add(200 * time.Millisecond)
	s.change(crk, "MODIFIED", "", map[string]any{"spec": spec["spec"], "metadata2": "deleting"}, "", true)
	s.now = s.now.Add(20 * time.Millisecond)
	for i := range 2 {
		s.change(key("persistentvolumeclaim", fmt.Sprintf("data-%s-%d", cr, i)), "DELETED", "", nil, "delete", false)
	}
	s.change(crk, "DELETED", "", nil, "update", true)
	for _, kind := range []string{"configmap", "service", "statefulset", "pod"} {
		s.change(key(kind, cr), "DELETED", cr, nil, "", true)
	}
	s.now = s.now.Add(300 * time.Millisecond)
}

// synthTrace returns a synthetic trace of at least n entries.
func synthTrace(n int) *trace.Trace {
	s := &synth{now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), rv: 1000}
	s.tr.Header = trace.Header{Trace: trace.Version, Test: "bench", Started: s.now}
	for round := 0; len(s.tr.Entries) < n; round++ {
		for c := range 5 {
			s.cycle(fmt.Sprintf("ds%d", c), round)
		}
	}
	return &s.tr
}

// BenchmarkGenerate measures generation and pruning of every pattern on a
// synthetic trace of 5,000 entries (target: under 1 s).
func BenchmarkGenerate(b *testing.B) {
	tr := synthTrace(5000)
	test := &ir.Test{Name: "bench", Policies: []*ir.Policy{{
		Name: "all", Patterns: []ir.Pattern{ir.Intermediate, ir.Stale, ir.Unobserved}, Prune: ir.DefaultPrune,
	}}}
	var plans int
	for b.Loop() {
		set, err := Generate(tr, test, Options{})
		if err != nil {
			b.Fatal(err)
		}
		plans = len(set.Plans)
	}
	b.ReportMetric(float64(len(tr.Entries)), "entries")
	b.ReportMetric(float64(plans), "plans")
}

// TestSynthCounts checks that the synthetic trace exercises every pass: a
// large stale baseline that causality cuts down, and no-op writes.
func TestSynthCounts(t *testing.T) {
	tr := synthTrace(5000)
	test := &ir.Test{Name: "bench", Policies: []*ir.Policy{{
		Name: "all", Patterns: []ir.Pattern{ir.Intermediate, ir.Stale, ir.Unobserved}, Prune: ir.DefaultPrune,
	}}}
	set, err := Generate(tr, test, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range set.Counts {
		t.Logf("%s %s: baseline %d, final %d, passes %+v", c.Policy, c.Pattern, c.Baseline, c.Final, c.Passes)
		if c.Final >= c.Baseline || c.Final == 0 {
			t.Errorf("%s: pruning did nothing or everything: %d -> %d", c.Pattern, c.Baseline, c.Final)
		}
	}
}

// BenchmarkGenerateSizes measures generation on synthetic traces of
// 10,000, 40,000 and 80,000 entries: the intermediate and unobserved
// patterns grow with the trace; stale pairs every delete with every event
// before it, and past DefaultMaxCandidates fails at once instead of
// pairing them.
func BenchmarkGenerateSizes(b *testing.B) {
	for _, n := range []int{10_000, 40_000, 80_000} {
		tr := synthTrace(n)
		for _, pats := range [][]ir.Pattern{{ir.Intermediate, ir.Unobserved}, {ir.Stale}} {
			test := &ir.Test{Name: "bench", Policies: []*ir.Policy{{Name: "p", Patterns: pats, Prune: ir.DefaultPrune}}}
			b.Run(fmt.Sprintf("%d/%s", n, pats[0]), func(b *testing.B) {
				var plans int
				for b.Loop() {
					set, err := Generate(tr, test, Options{})
					if err != nil && !strings.Contains(err.Error(), "--max-candidates") {
						b.Fatal(err)
					}
					if set != nil {
						plans = len(set.Plans)
					}
				}
				b.ReportMetric(float64(plans), "plans")
			})
		}
	}
}

// TestMaxCandidates checks that a trace whose stale pairs number in the
// millions fails before they are made, naming the limit and its flag.
func TestMaxCandidates(t *testing.T) {
	tr := synthTrace(20_000)
	test := &ir.Test{Name: "bench", Policies: []*ir.Policy{{Name: "all", Patterns: []ir.Pattern{ir.Stale}, Prune: ir.DefaultPrune}}}
	_, err := Generate(tr, test, Options{})
	want := fmt.Sprintf("more than the limit of %d (raise it with --max-candidates", DefaultMaxCandidates)
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "policy all: stale: ") {
		t.Fatalf("got %v, want an error with %q", err, want)
	}
	if _, err := Generate(synthTrace(2000), test, Options{MaxCandidates: 1000}); err == nil || !strings.Contains(err.Error(), "limit of 1000 ") {
		t.Errorf("MaxCandidates 1000: got %v, want the limit named", err)
	}
}

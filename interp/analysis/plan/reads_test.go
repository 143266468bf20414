package plan

import (
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// readsTrace is a controller's reads: its informer's list of pods and the
// watch after it, its read of its leader-election Lease, four lists of
// pods of its own (the first answered after the second was sent), and a
// get of a ConfigMap the API server failed.
func readsTrace() *trace.Trace {
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	req := func(seq int64, ms int, verb string, k trace.Key, code int) trace.Entry {
		return trace.Entry{Seq: seq, Time: t0.Add(time.Duration(ms) * time.Millisecond), Type: trace.Request, Key: &k, Verb: verb, Code: code}
	}
	pods := trace.Key{Kind: "pod", Namespace: "default"}
	return &trace.Trace{Entries: []trace.Entry{
		req(1, 1, "list", pods, 200),
		req(2, 2, "watch", pods, 200),
		req(3, 3, "get", trace.Key{Kind: "lease", Namespace: "default", Name: "leader"}, 200),
		req(5, 4, "list", pods, 200),
		req(4, 5, "list", pods, 200),
		req(6, 6, "get", trace.Key{Kind: "configmap", Namespace: "default", Name: "settings"}, 500),
		req(7, 7, "list", pods, 200),
		req(8, 8, "list", pods, 200),
	}}
}

// TestReadCandidates makes apierror candidates of the controller's own
// reads only, numbers each among the reads its leaf matches in the order
// they were sent (the informer's list too, the engine counts it), and
// prunes the failed get and the lists past MaxOccurrence (3): the
// informer's list is the first, the controller's first list the second.
func TestReadCandidates(t *testing.T) {
	pol := ir.NewPolicy("reads", ir.Policy{}.Src)
	pol.Patterns, pol.APIErrors, pol.APIReads = []ir.Pattern{ir.APIError}, []ir.APIErrorKind{ir.ErrConflict, ir.ErrInternal}, []string{"get", "list"}
	test := &ir.Test{Name: "t", Policies: []*ir.Policy{pol}}
	set, err := Generate(readsTrace(), test, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range set.Candidates {
		got = append(got, c.What+": "+c.Plan+c.Pass)
	}
	want := []string{
		"answer #5 list pod/default/* with internal_error: apierror-internal-error-pod-default-list-",
		"answer #4 list pod/default/* with internal_error: apierror-internal-error-pod-default-list-",
		"answer #6 get configmap/default/settings with internal_error: failed",
		"answer #7 list pod/default/* with internal_error: duplicates",
		"answer #8 list pod/default/* with internal_error: duplicates",
	}
	if len(set.Plans) != 2 || len(got) != len(want) {
		t.Fatalf("candidates:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("candidate %d: got %q, want %q...", i, got[i], want[i])
		}
	}
	counts := map[string]int{}
	for _, p := range set.Plans {
		counts[p.Actions[0].Trigger.String()]++
	}
	for _, leaf := range []string{"on read list pod/default/* #2", "on read list pod/default/* #3"} {
		if counts[leaf] != 1 {
			t.Errorf("no plan fires on %q (plans: %v)", leaf, counts)
		}
	}
}

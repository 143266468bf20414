package workload

import (
	"strconv"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// seen gathers what one step saw of the cluster, for its end entry's
// Seen: per kind, the highest resourceVersion among the objects it wrote,
// waited on or read. The informers of a wait add to it from their own
// goroutines.
type seen struct {
	mu sync.Mutex
	rv map[string]uint64
}

// note adds an object (or a deleted object's last state) that the step saw.
// Kinds the history does not record are left out: the history would never
// reach them.
func (s *seen) note(o any) {
	if d, ok := o.(cache.DeletedFinalStateUnknown); ok {
		o = d.Obj
	}
	u, ok := o.(*unstructured.Unstructured)
	if s == nil || !ok || u == nil {
		return
	}
	kind := trace.KindName(u.GroupVersionKind().Group, u.GetKind())
	rv, err := strconv.ParseUint(u.GetResourceVersion(), 10, 64)
	if u.GetKind() == "" || err != nil || unrecorded(kind, u) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rv == nil {
		s.rv = map[string]uint64{}
	}
	s.rv[kind] = max(s.rv[kind], rv)
}

// entry returns what was seen, as trace.Entry.Seen.
func (s *seen) entry() map[string]string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.rv) == 0 {
		return nil
	}
	out := make(map[string]string, len(s.rv))
	for k, rv := range s.rv {
		out[k] = strconv.FormatUint(rv, 10)
	}
	return out
}

// unrecorded reports whether the history leaves an object out: events
// are a log, not state, and node leases are heartbeats.
func unrecorded(kind string, u *unstructured.Unstructured) bool {
	return ir.Unrecorded(kind) || (kind == "lease" && u.GetNamespace() == "kube-node-lease")
}

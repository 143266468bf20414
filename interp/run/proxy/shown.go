package proxy

import (
	"strconv"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// Version is a version of an object that a write outside the controller
// made (a workload step): the object's key, the resourceVersion the
// write's answer gave it, and its labels (for the watches' label
// selectors).
type Version struct {
	Key             trace.Key
	ResourceVersion string
	Labels          map[string]string
}

// Shown reports whether every open watch of the controller that is sent
// v's object has been passed v: an event at v's resourceVersion or later
// has reached the proxy on it and gone through the filter (delivered, or
// held or dropped by a hook on purpose), or the watch started from a
// resourceVersion at least as late (its list had v). A watch's events come
// in the order of the cluster's revisions, so a later event of any object
// says the watch is past v. A watch of another kind, another namespace, a
// label selector v's labels do not match, or a field selector other than
// the object's name is not sent v and needs nothing. A version that is not
// a number (not an etcd revision) cannot be compared: it is shown.
func (p *Proxy) Shown(v Version) bool {
	rv, err := strconv.ParseUint(v.ResourceVersion, 10, 64)
	if err != nil {
		return true
	}
	for _, s := range p.Streams() {
		if s.sent(v) && s.passedRV() < rv {
			return false
		}
	}
	return true
}

// sent reports whether the watch is sent v's object's changes.
func (s *Stream) sent(v Version) bool {
	k, q := s.Request.Key, s.Request.Query
	if k.Kind != v.Key.Kind || (k.Namespace != "" && k.Namespace != v.Key.Namespace) || (k.Name != "" && k.Name != v.Key.Name) {
		return false
	}
	if fs := q.Get("fieldSelector"); fs != "" && nameFromFieldSelector(fs) == "" {
		return false // a field the proxy does not know: not judged
	}
	sel, err := labels.Parse(q.Get("labelSelector"))
	return err == nil && sel.Matches(labels.Set(v.Labels))
}

// passedRV is the latest resourceVersion the watch has been passed: its
// starting one, raised by every event that went through the filter.
func (s *Stream) passedRV() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.passed
}

// pass raises the watch's passed resourceVersion to rv (a number; other
// values are ignored).
func (s *Stream) pass(rv string) {
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return
	}
	s.mu.Lock()
	s.passed = max(s.passed, n)
	s.mu.Unlock()
}

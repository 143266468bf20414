package oracle

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// run is what the oracle needs from one trace, computed once.
type run struct {
	header trace.Header
	// end holds the last non-deleted object per key.
	end map[trace.Key]map[string]any
	// counts holds creations and deletions per key over the run; pre, those
	// before the plan's first fault (nil for a run without one).
	counts, pre map[trace.Key]*Counts
	// fold maps keys with generated names to kind/ns/prefix*.
	fold map[trace.Key]trace.Key
	// trace is the trace itself, for the invariant and event checks.
	trace *trace.Trace
}

// replay reads the cluster history of t. Objects the own predicate accepts
// are left out, and so is what belongs to them (ownership), what an earlier
// run left behind (leftovers), and own pods' entries in Endpoints and
// EndpointSlices (dropOwnEndpoints).
func replay(t *trace.Trace, own func(trace.Key) bool) (*run, error) {
	return replayUntil(t, own, 0)
}

// replayUntil is replay of the entries up to sequence number until (0:
// all of them).
func replayUntil(t *trace.Trace, own func(trace.Key) bool, until int64) (*run, error) {
	isOwn := ownership(t, own)
	isLeftover := leftovers(t)
	r := &run{
		header: t.Header,
		end:    map[trace.Key]map[string]any{},
		counts: map[trace.Key]*Counts{},
		fold:   map[trace.Key]trace.Key{},
		trace:  t,
	}
	for i := range t.Entries {
		e := &t.Entries[i]
		if until > 0 && e.Seq > until {
			break
		}
		if e.Type == trace.Fault && r.pre == nil {
			r.pre = cloneCounts(r.counts)
		}
		if e.Type != trace.History || e.Key == nil {
			continue
		}
		obj, err := decodeObject(e)
		if err != nil {
			return nil, err
		}
		if isOwn(*e.Key, obj) || isLeftover(obj) {
			continue
		}
		r.apply(*e.Key, e.Event, dropOwnEndpoints(*e.Key, obj, own))
	}
	return r, nil
}

// apply records one history event.
func (r *run) apply(k trace.Key, event string, obj map[string]any) {
	c := r.counts[k]
	if c == nil {
		c = &Counts{}
		r.counts[k] = c
	}
	if f, ok := foldKey(k, obj); ok {
		r.fold[k] = f
	}
	switch event {
	case "ADDED":
		c.Created++
		r.end[k] = obj
	case "DELETED":
		c.Deleted++
		delete(r.end, k)
	case "MODIFIED":
		r.end[k] = obj
	}
}

// cloneCounts copies counts, so that replay can go on counting.
func cloneCounts(m map[trace.Key]*Counts) map[trace.Key]*Counts {
	out := make(map[trace.Key]*Counts, len(m))
	for k, c := range m {
		cp := *c
		out[k] = &cp
	}
	return out
}

// decodeObject decodes the object of a history entry.
func decodeObject(e *trace.Entry) (map[string]any, error) {
	if len(e.Object) == 0 {
		return nil, nil
	}
	var obj map[string]any
	if err := json.Unmarshal(e.Object, &obj); err != nil {
		return nil, fmt.Errorf("trace entry %d: object of %s: %w", e.Seq, e.Key, err)
	}
	return obj, nil
}

// foldKey returns the fold key of an object whose name differs from run
// to run:
//
//   - kind/ns/prefix* for a name generated from metadata.generateName;
//   - the name with "*" for its UID-like part, for names made from another
//     object's UID (a provisioned volume's "pvc-<uid>");
//   - parent-* for a ControllerRevision named by its parent and the hash
//     of a template (which may hold a restart timestamp);
//   - kind/* for objects named by an IP address the cluster allocated
//     (IPAddress).
func foldKey(k trace.Key, obj map[string]any) (trace.Key, bool) {
	fold := func(name string) (trace.Key, bool) {
		return trace.Key{Kind: k.Kind, Namespace: k.Namespace, Name: name}, true
	}
	meta, _ := obj["metadata"].(map[string]any)
	gen, _ := meta["generateName"].(string)
	labels, _ := meta["labels"].(map[string]any)
	hash, _ := labels[revisionHashLabel].(string)
	switch {
	case gen != "" && strings.HasPrefix(k.Name, gen):
		return fold(gen + "*")
	case uid.MatchString(k.Name):
		return fold(uid.ReplaceAllString(k.Name, "*"))
	case hash != "" && strings.HasSuffix(k.Name, "-"+hash):
		return fold(strings.TrimSuffix(k.Name, hash) + "*")
	case mask.IsIP(k.Name):
		return fold("*")
	}
	return trace.Key{}, false
}

// revisionHashLabel holds the template hash that names a ControllerRevision
// of a StatefulSet or DaemonSet (parent-hash).
const revisionHashLabel = "controller.kubernetes.io/hash"

// uid matches a UUID in an object name.
var uid = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// folded reports whether k (in either run) has a generated name, and its
// fold key.
func folded(k trace.Key, runs ...*run) (trace.Key, bool) {
	for _, r := range runs {
		if f, ok := r.fold[k]; ok {
			return f, true
		}
	}
	return trace.Key{}, false
}

// foldedCounts sums, per fold key, the objects present at the end (as
// Created) and the creations and deletions over the run.
func (r *run) foldedCounts() (end map[trace.Key]int, hist map[trace.Key]*Counts) {
	end = map[trace.Key]int{}
	hist = map[trace.Key]*Counts{}
	for k, c := range r.counts {
		f, ok := r.fold[k]
		if !ok {
			continue
		}
		h := hist[f]
		if h == nil {
			h = &Counts{}
			hist[f] = h
		}
		h.Created += c.Created
		h.Deleted += c.Deleted
		if _, present := r.end[k]; present {
			end[f]++
		} else if _, seen := end[f]; !seen {
			end[f] = 0
		}
	}
	return end, hist
}

// sortedKeys returns the union of the keys of maps, sorted.
func sortedKeys[V any](ms ...map[trace.Key]V) []trace.Key {
	seen := map[trace.Key]bool{}
	var out []trace.Key
	for _, m := range ms {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

package trace

import "strconv"

// Aligned returns the entries with each step entry moved after the history
// entries of what the steps up to it saw (Entry.Seen). sieve's history
// watch may record a change a moment after the wait that saw it ended. A
// reader that takes the step's end as a point of the history (an
// invariant's window) must see that change before it. A step entry waits
// for the history of each kind it saw to reach the resourceVersion it
// saw, and keeps its place among the other step entries; the other entries
// keep their order. A resourceVersion that is not a number holds nothing
// (the API server's are etcd revisions), and what the history never
// reaches is released at the end.
func Aligned(entries []Entry) []Entry {
	out := make([]Entry, 0, len(entries))
	var held []Entry
	need := map[string]uint64{}
	reached := map[string]uint64{}
	for _, e := range entries {
		switch {
		case e.Type == Step:
			want(need, e.Seen)
			held = append(held, e)
		case e.Type == History && e.Key != nil:
			out = append(out, e)
			if rv, ok := revision(e.ResourceVersion); ok && rv > reached[e.Key.Kind] {
				reached[e.Key.Kind] = rv
			}
		default:
			out = append(out, e)
			continue
		}
		if covered(need, reached) {
			out = append(out, held...)
			held = held[:0]
			clear(need)
		}
	}
	return append(out, held...)
}

// want raises need to what seen names.
func want(need map[string]uint64, seen map[string]string) {
	for kind, v := range seen {
		if rv, ok := revision(v); ok && rv > need[kind] {
			need[kind] = rv
		}
	}
}

// covered reports whether the history reached every needed revision.
func covered(need, reached map[string]uint64) bool {
	for kind, rv := range need {
		if reached[kind] < rv {
			return false
		}
	}
	return true
}

// revision parses a resourceVersion as the number it is on an etcd-backed
// API server.
func revision(v string) (uint64, bool) {
	rv, err := strconv.ParseUint(v, 10, 64)
	return rv, err == nil
}

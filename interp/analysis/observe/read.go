package observe

import (
	"fmt"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// IsRead reports whether a request verb is a read a read leaf matches: a
// get of one object, a list of a kind (a watch is not).
func IsRead(verb string) bool { return verb == "get" || verb == "list" }

// ReadLeaf returns the read leaf that matches read request e (a get or a
// list, trace.Request), the count-th of the reads it matches from when it
// is armed. A get names its object; a list its kind and namespace, its
// name a glob (a list names no object, or one by a field selector).
func ReadLeaf(e *trace.Entry, count int) *planfile.Trigger {
	t := &planfile.Trigger{Op: ir.TrigRead, On: e.Verb, Target: &ir.Ref{Kind: e.Key.Kind, Namespace: e.Key.Namespace, Name: e.Key.Name}, Count: count}
	if e.Verb == "list" {
		t.Target.Name = "*"
	}
	return t
}

// MatchRead reports whether read leaf t matches read request e as it is
// sent: its verb (t.On; empty: get or list) and its object (globs
// allowed; a list's empty name matches only "*" or no name).
func MatchRead(t *planfile.Trigger, e *trace.Entry) bool {
	if e.Type != trace.Request || !IsRead(e.Verb) || e.Key == nil || (t.On != "" && t.On != e.Verb) {
		return false
	}
	return MatchRef(t.Target, e.Key.Kind, e.Key.Namespace, e.Key.Name)
}

// ReadError says what is wrong with a read leaf, or nil.
func ReadError(t *planfile.Trigger) error {
	if t.On != "" && !IsRead(t.On) {
		return fmt.Errorf("read leaf: unknown verb %q (want get or list)", t.On)
	}
	return nil
}

package oracle

import (
	"fmt"
	"reflect"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// rollback reports, for each operation that brings the resource's spec
// back to what it was before an earlier operation, the objects the
// controller owns that do not come back to their state from then:
// missing, extra, or with a field that differs (masks apply; objects
// with generated names are left out, as their names do not come back).
func (x *explored) rollback() []*Finding {
	var fs []*Finding
	for j := range x.stretches {
		s := &x.stretches[j]
		if s.refused || !x.resourceChanged(s) {
			continue
		}
		if i := x.undone(j); i >= 0 {
			fs = append(fs, x.rollbackFindings(&x.stretches[i], s)...)
		}
	}
	return fs
}

// undone returns the latest operation i < j whose starting spec of the
// resource is the one operation j leaves, or -1.
func (x *explored) undone(j int) int {
	after := desired(x.stretches[j].after[x.ex.Resource])
	for i := j - 1; i >= 0; i-- {
		if reflect.DeepEqual(desired(x.stretches[i].before[x.ex.Resource]), after) {
			return i
		}
	}
	return -1
}

// rollbackFindings compares the owned objects before operation from with
// their state after operation to.
func (x *explored) rollbackFindings(from, to *stretch) []*Finding {
	var fs []*Finding
	op := x.ex.Operations[to.op]
	what := fmt.Sprintf("after %s, which undoes operation %d", x.describe(to), from.op+1)
	for _, k := range sortedKeys(from.before, to.after) {
		if !x.owned[k] || x.end.Whole(k) {
			continue
		}
		if _, gen := foldKey(k, orEither(from.before[k], to.after[k])); gen {
			continue
		}
		for _, f := range x.restored(k, from.before[k], to.after[k]) {
			f.Property, f.Seq, f.Src = op.Path.String(), to.step.Seq, to.step.Src
			f.Message = what + ", " + f.Message
			fs = append(fs, f)
		}
	}
	return fs
}

// restored compares one object before and after; a finding's message
// says what differs.
func (x *explored) restored(k trace.Key, before, after map[string]any) []*Finding {
	switch {
	case before == nil && after == nil:
		return nil
	case after == nil:
		return []*Finding{{Check: CheckRollback, Key: k.String(), Reference: rawJSON(x.end.Strip(k, before)),
			Message: fmt.Sprintf("%s is gone (it existed before)", k)}}
	case before == nil:
		return []*Finding{{Check: CheckRollback, Key: k.String(), Value: rawJSON(x.end.Strip(k, after)),
			Message: fmt.Sprintf("%s exists (it did not before)", k)}}
	}
	var fs []*Finding
	m := x.end.Object(k)
	for _, d := range diff(x.keys, x.keys.root(k, before), m.Strip(before), m.Strip(after)) {
		p := d.path.String()
		fs = append(fs, &Finding{Check: CheckRollback, Key: k.String(), Path: p,
			Reference: rawJSON(d.ref), Value: rawJSON(d.val),
			Message: fmt.Sprintf("%s: %s is %s (before: %s)", k, p, show(d.val), show(d.ref))})
	}
	return fs
}

// orEither returns a if it is not nil, else b.
func orEither(a, b map[string]any) map[string]any {
	if a != nil {
		return a
	}
	return b
}

package oracle

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// compareEnd compares the end states, object by object, leaving out
// generated names (see compareFolded) and masked objects and fields.
func (o *Oracle) compareEnd(test *run) []*Finding {
	var fs []*Finding
	for _, k := range o.endKeys(test) {
		val, inTest := test.end[k]
		fs = append(fs, o.compareObject(k, val, inTest)...)
	}
	return fs
}

// endKeys are the objects present at the end of the reference or of test
// that compareEnd compares one by one, sorted.
func (o *Oracle) endKeys(test *run) []trace.Key {
	var out []trace.Key
	for _, k := range sortedKeys(o.ref.end, test.end) {
		if _, ok := folded(k, o.ref, test); !ok && !o.end.Whole(k) {
			out = append(out, k)
		}
	}
	return out
}

// compareObject compares one object's end state, val (present says it
// exists), with the reference's.
func (o *Oracle) compareObject(k trace.Key, val map[string]any, present bool) []*Finding {
	ref, inRef := o.ref.end[k]
	switch {
	case !present && !inRef:
		return nil
	case !present:
		return []*Finding{{Check: CheckMissing, Key: k.String(), Reference: rawJSON(o.end.Strip(k, ref)),
			Message: fmt.Sprintf("%s is missing at the end (the reference has it)", k)}}
	case !inRef:
		return []*Finding{{Check: CheckExtra, Key: k.String(), Value: rawJSON(o.end.Strip(k, val)),
			Message: fmt.Sprintf("%s exists at the end (the reference does not have it)", k)}}
	}
	return fieldFindings(k, o.end.Object(k), o.keys, ref, val)
}

// fieldFindings reports each differing field of one object. An object
// being deleted in one run only is one finding that says so, not a
// difference in the fields deletion sets.
func fieldFindings(k trace.Key, m *mask.Object, keys *listKeys, ref, val map[string]any) []*Finding {
	var fs []*Finding
	del := deletionFinding(k, m, ref, val)
	if del != nil {
		fs = append(fs, del)
	}
	for _, d := range diff(keys, keys.root(k, ref), m.Strip(ref), m.Strip(val)) {
		if del != nil && deletionField(d.path) {
			continue
		}
		p := d.path.String()
		fs = append(fs, &Finding{
			Check: CheckField, Key: k.String(), Path: p,
			Reference: rawJSON(d.ref), Value: rawJSON(d.val),
			Message: fmt.Sprintf("%s: %s is %s (reference: %s)", k, p, show(d.val), show(d.ref)),
		})
	}
	return fs
}

// deletionFinding reports an object whose deletionTimestamp is set at the
// end of one run only (it waits for its finalizers), or returns nil. A
// mask on metadata.deletionTimestamp by key or path turns it off; one on
// timestamp values does not.
func deletionFinding(k trace.Key, m *mask.Object, ref, val map[string]any) *Finding {
	rd, vd := deletionTimestamp(ref), deletionTimestamp(val)
	if (rd == nil) == (vd == nil) || m.Field(ir.Path{ir.FieldElem("metadata"), ir.FieldElem("deletionTimestamp")}) {
		return nil
	}
	f := &Finding{Check: CheckField, Key: k.String(), Path: "metadata.deletionTimestamp",
		Reference: rawJSON(orAbsent(rd)), Value: rawJSON(orAbsent(vd))}
	if vd != nil {
		f.Message = fmt.Sprintf("%s is being deleted at the end (deletionTimestamp set; the reference's is not)", k)
	} else {
		f.Message = fmt.Sprintf("%s is not being deleted at the end (the reference's is: deletionTimestamp set)", k)
	}
	return f
}

// deletionTimestamp returns metadata.deletionTimestamp of obj, or nil.
func deletionTimestamp(obj map[string]any) any {
	meta, _ := obj["metadata"].(map[string]any)
	return meta["deletionTimestamp"]
}

// orAbsent returns v, or absent{} for nil.
func orAbsent(v any) any {
	if v == nil {
		return absent{}
	}
	return v
}

// deletionField reports whether path is a field the API server sets when
// it starts deleting an object.
func deletionField(path ir.Path) bool {
	s := path.String()
	return s == "metadata.deletionTimestamp" || s == "metadata.deletionGracePeriodSeconds"
}

// compareCounts compares creations and deletions per object, except for
// objects already reported missing or extra, generated names and
// differences complete before the plan's first fault.
func (o *Oracle) compareCounts(test *run) []*Finding {
	var fs []*Finding
	for _, k := range sortedKeys(o.ref.counts, test.counts) {
		if _, ok := folded(k, o.ref, test); ok || o.hist.Whole(k) || o.presenceDiffers(k, test) {
			continue
		}
		rc, tc := countsOf(o.ref.counts, k), countsOf(test.counts, k)
		if rc == tc || beforeFault(rc, tc, countsOf(test.pre, k)) {
			continue
		}
		fs = append(fs, &Finding{Check: CheckCount, Key: k.String(), RefCounts: &rc, TestCounts: &tc,
			Message: fmt.Sprintf("%s was created %d and deleted %d times (reference: created %d, deleted %d)",
				k, tc.Created, tc.Deleted, rc.Created, rc.Deleted)})
	}
	return fs
}

// beforeFault reports whether a test run's counts differ from the
// reference's only by what happened before the plan's first fault (pre):
// each count that differs already exceeded the reference's then, and did
// not change after. Until its first action fires a plan changes nothing,
// so the run had done more than the whole reference without a fault:
// nondeterminism the reference runs missed, which no fault can have caused.
// (The StatefulSet controller, for one, may create a ControllerRevision
// again for a set being deleted, right after the garbage collector has
// deleted it, which then deletes the new one too.)
func beforeFault(ref, test, pre Counts) bool {
	early := func(r, t, p int) bool { return t == r || (p > r && t == p) }
	return early(ref.Created, test.Created, pre.Created) && early(ref.Deleted, test.Deleted, pre.Deleted)
}

// presenceDiffers reports whether compareEnd reported k missing or extra.
func (o *Oracle) presenceDiffers(k trace.Key, test *run) bool {
	if o.end.Whole(k) {
		return false
	}
	_, inRef := o.ref.end[k]
	_, inTest := test.end[k]
	return inRef != inTest
}

func countsOf(m map[trace.Key]*Counts, k trace.Key) Counts {
	if c := m[k]; c != nil {
		return *c
	}
	return Counts{}
}

// compareFolded compares objects with generated names per prefix: the
// number present at the end, then (if equal) creations and deletions.
func (o *Oracle) compareFolded(test *run) []*Finding {
	refEnd, refHist := o.ref.foldedCounts()
	testEnd, testHist := test.foldedCounts()
	var fs []*Finding
	for _, f := range sortedKeys(refEnd, testEnd) {
		re, te := refEnd[f], testEnd[f]
		switch {
		case re != te && !o.end.Whole(f):
			fs = append(fs, &Finding{Check: CheckGenerated, Key: f.String(),
				RefCounts: &Counts{Created: re}, TestCounts: &Counts{Created: te},
				Message: fmt.Sprintf("%s: %d objects at the end (reference: %d)", f, te, re)})
		case !o.hist.Whole(f) && countsOf(refHist, f) != countsOf(testHist, f):
			rc, tc := countsOf(refHist, f), countsOf(testHist, f)
			fs = append(fs, &Finding{Check: CheckGenerated, Key: f.String(), RefCounts: &rc, TestCounts: &tc,
				Message: fmt.Sprintf("%s: %d created and %d deleted (reference: created %d, deleted %d)",
					f, tc.Created, tc.Deleted, rc.Created, rc.Deleted)})
		}
	}
	return fs
}

// rawJSON encodes a value for a finding; absent{} gives nil.
func rawJSON(v any) json.RawMessage {
	if _, ok := v.(absent); ok {
		return nil
	}
	// Unescaped, so that a value's "->" or "&" reads as it is in a
	// finding's message; JSON output escapes it again.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return json.RawMessage(`"<unencodable>"`)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// show renders a value for a message, shortened.
func show(v any) string {
	if _, ok := v.(absent); ok {
		return "absent"
	}
	s := string(rawJSON(v))
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

package planfile

import (
	"bytes"
	"encoding/json"
)

// Diff is a slim diff between two states of an object: only the fields that
// differ, recursively, with unchanged list elements as observe.Skip and masked
// values as observe.NonNil. Prev holds the old values, Cur the new ones; a field
// present on one side only is absent from the other.
type Diff struct {
	Prev map[string]any `json:"prev"`
	Cur  map[string]any `json:"cur"`
}

// Empty reports whether nothing changed.
func (d *Diff) Empty() bool { return d == nil || (len(d.Prev) == 0 && len(d.Cur) == 0) }

// String is the canonical JSON of the diff (map keys sorted), used in
// signatures.
func (d *Diff) String() string {
	if d == nil {
		return ""
	}
	return Canonical(d)
}

// Canonical encodes v as compact JSON with sorted map keys and no HTML
// escaping: the form in which signatures, state hashes and plan names
// compare values.
func Canonical(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "<unencodable>"
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

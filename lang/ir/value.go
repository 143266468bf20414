package ir

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/sievetool/sieve/lang/diag"
)

// Value is a JSON value: nil, bool, int64, float64, string, []any or
// map[string]any, with the same element types. Both front ends produce
// integers as int64 so the dumps agree.
type Value = any

// Duration is a time.Duration that encodes as a Go duration string ("30s").
type Duration time.Duration

// D returns the duration as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// String formats the duration like time.Duration.
func (d Duration) String() string { return time.Duration(d).String() }

// MarshalJSON encodes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON decodes a duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration: want a string such as \"30s\", got %s", diag.Quote(string(b)))
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("duration: bad duration %q (want one such as \"30s\" or \"1m30s\")", diag.Quote(s))
	}
	*d = Duration(v)
	return nil
}

// Dump returns the deterministic, indented JSON form of the spec, ending in
// a newline. Map keys are sorted by encoding/json. It fails only if a front
// end put a non-JSON value into a Value.
func Dump(s *Spec) ([]byte, error) {
	var compact bytes.Buffer
	enc := json.NewEncoder(&compact)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, fmt.Errorf("ir: dump: %w", err)
	}
	// Indenting into a buffer sized up front is several times faster than
	// the encoder's own indenting, which regrows its output as it goes.
	var out bytes.Buffer
	out.Grow(3 * compact.Len())
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return nil, fmt.Errorf("ir: dump: %w", err)
	}
	return out.Bytes(), nil
}

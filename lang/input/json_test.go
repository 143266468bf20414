package input

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestJSONError checks that encoding/json's errors are told in JSON's
// words, with the line of a file of several, and still unwrap to json's.
func TestJSONError(t *testing.T) {
	type run struct {
		Runs  []int          `json:"runs"`
		Name  string         `json:"name"`
		Count int8           `json:"count"`
		Meta  map[string]any `json:"meta"`
	}
	for _, tc := range []struct{ in, want string }{
		{`{"runs": "x"}`, `runs: want a list, got a string`},
		{"{\n  \"name\": 3\n}", `line 2: name: want a string, got a number`},
		{`{"count": 300}`, `count: want an integer, got 300 (out of range, or not whole)`},
		{`{"count": 1.5}`, `count: want an integer, got 1.5 (out of range, or not whole)`},
		{`{"meta": []}`, `meta: want an object, got a list`},
		{"{\n\n  \"runs\": [1,}", `line 3: invalid character '}' looking for beginning of value`},
		{`{"runs": [1]`, `unexpected end of JSON input`},
	} {
		var v run
		err := JSONError([]byte(tc.in), json.Unmarshal([]byte(tc.in), &v))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %q", tc.in, err, tc.want)
		}
	}
	var v struct{ A int }
	err := JSONError(nil, json.Unmarshal([]byte(`{"A": "x"}`), &v))
	var typ *json.UnmarshalTypeError
	if !errors.As(err, &typ) {
		t.Errorf("%v does not unwrap to json's error", err)
	}
	yamlKey := errors.New("error converting YAML to JSON: unsupported map key of type: []interface {}, key: []interface {}{1}, value: 0")
	if got := JSONError(nil, yamlKey).Error(); got != "a mapping key that is not a string, a number or a bool (JSON has no other)" {
		t.Errorf("YAML key: got %q", got)
	}
	other := errors.New("duration: bad")
	if JSONError(nil, other) != other {
		t.Error("an error not of encoding/json was changed")
	}
}

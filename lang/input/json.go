package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/sievetool/sieve/lang/diag"
)

// JSONError rewords an error of encoding/json about the JSON src for the
// user who wrote or handed over the file. It says where (the line, when
// src has several) and what, in JSON's words: "line 3: runs: want a list,
// got a string". It never says Go's type names ("Go struct field
// Summary.runs of type []*results.TestRun"). It rewords the one error of
// sigs.k8s.io/yaml's YAML-to-JSON conversion that shows Go values too.
// The result wraps err; any other error is returned as it is.
func JSONError(src []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return &jsonError{err: err, msg: where(src, syn.Offset) + syn.Error()}
	case errors.As(err, &typ):
		msg := fmt.Sprintf("want %s, got %s", jsonType(typ.Type), jsonValue(typ.Value))
		if typ.Field != "" {
			msg = typ.Field + ": " + msg
		}
		return &jsonError{err: err, msg: where(src, typ.Offset) + msg}
	case err != nil && (strings.Contains(err.Error(), "unsupported map key") || strings.Contains(err.Error(), "invalid map key")):
		// sigs.k8s.io/yaml (and its YAML parser), turning YAML into
		// JSON, print the key and its value with %#v, whole.
		return &jsonError{err: err, msg: "a mapping key that is not a string, a number or a bool (JSON has no other)"}
	case err != nil && strings.HasPrefix(err.Error(), "json: "):
		// Go's message quotes what it names whole (an unknown field's
		// name, which a file may make any size).
		return &jsonError{err: err, msg: diag.Quote(strings.TrimPrefix(err.Error(), "json: "))}
	}
	return err
}

type jsonError struct {
	err error
	msg string
}

func (e *jsonError) Error() string { return e.msg }
func (e *jsonError) Unwrap() error { return e.err }

// where is "line N: " for the byte offset of src, or "" when src is one
// line (its reader names the line).
func where(src []byte, offset int64) string {
	if bytes.Count(bytes.TrimRight(src, "\n"), []byte("\n")) == 0 {
		return ""
	}
	offset = min(max(offset, 0), int64(len(src)))
	return fmt.Sprintf("line %d: ", bytes.Count(src[:offset], []byte("\n"))+1)
}

// jsonType names the JSON a Go type decodes from.
func jsonType(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "another value"
}

// jsonValue names the JSON value of an UnmarshalTypeError.
func jsonValue(v string) string {
	switch v {
	case "string", "number", "bool":
		return "a " + v
	case "array":
		return "a list"
	case "object":
		return "an object"
	}
	if n, ok := strings.CutPrefix(v, "number "); ok {
		return diag.Quote(n) + " (out of range, or not whole)"
	}
	return diag.Quote(v)
}

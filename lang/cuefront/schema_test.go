package cuefront

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/sievetool/sieve/lang/ir"
)

// TestIRSchemaCoversIR checks that every JSON field of the IR's Go types
// is a field of the CUE schema of the IR, so #IR (and the JSON Schema made
// from it) follows the IR when a field is added.
func TestIRSchemaCoversIR(t *testing.T) {
	labels := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s*([A-Za-z]+)\??:`).FindAllStringSubmatch(IRSchemaText(), -1) {
		labels[m[1]] = true
	}
	for name := range jsonFields(reflect.TypeOf(ir.Spec{}), map[reflect.Type]bool{}) {
		if !labels[name] {
			t.Errorf("IR JSON field %q is missing from cue/schema/ir.cue", name)
		}
	}
}

func jsonFields(typ reflect.Type, seen map[reflect.Type]bool) map[string]bool {
	out := map[string]bool{}
	for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct || seen[typ] {
		return out
	}
	seen[typ] = true
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out[name] = true
		}
		for n := range jsonFields(f.Type, seen) {
			out[n] = true
		}
	}
	return out
}

// TestCheckIRRejects checks that #IR is closed and typed.
func TestCheckIRRejects(t *testing.T) {
	for _, dump := range []string{
		`{"version": 1, "file": "x", "tests": [], "extra": 1}`,
		`{"version": 2, "file": "x", "tests": []}`,
		`{"version": 1, "file": "x", "tests": [{"name": 3}]}`,
	} {
		if err := CheckIR([]byte(dump)); err == nil {
			t.Errorf("CheckIR(%s) passed", dump)
		}
	}
	if err := CheckIR([]byte(`{"version": 1, "file": "x", "tests": []}`)); err != nil {
		t.Errorf("CheckIR of an empty spec: %v", err)
	}
}

// TestJSONSchema checks that the JSON Schema is JSON and describes the IR.
func TestJSONSchema(t *testing.T) {
	b, err := JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	defs, _ := v["$defs"].(map[string]any)
	for _, def := range []string{"IRTest", "IRController", "IRStep", "IRTrigger"} {
		if defs[def] == nil {
			t.Errorf("JSON Schema has no $defs.%s", def)
		}
	}
}

// TestFormat checks that CUE's formatter is idempotent on every CUE file
// here and that the embedded schema and stdlib are formatted.
func TestFormat(t *testing.T) {
	var files []string
	_ = filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && filepath.Ext(p) == ".cue" {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 5 {
		t.Fatalf("found only %d CUE files", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		once, ds := Format(f, src)
		if ds.HasErrors() {
			t.Errorf("%v", ds)
			continue
		}
		twice, _ := Format(f, once)
		if string(once) != string(twice) {
			t.Errorf("%s: formatting is not idempotent", f)
		}
		internal := strings.HasPrefix(f, "schema/") || strings.HasPrefix(f, "std/")
		if internal && string(once) != string(src) {
			t.Errorf("%s is not formatted (run sieve fmt -w on it)", f)
		}
	}
	_, ds := Format("bad.cue", []byte("a: {"))
	if !ds.HasErrors() || ds[0].Subject.Start.Line != 1 || ds[0].Subject.Start.Filename != "bad.cue" {
		t.Errorf("Format of a syntax error: %v", ds)
	}
}

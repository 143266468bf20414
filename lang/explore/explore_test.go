package explore

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/lang/ir"
)

// TestValues: the changes of one property, by its schema and seed value.
func TestValues(t *testing.T) {
	for _, tc := range []struct {
		name   string
		schema map[string]any
		seed   any
		want   string // the operations' String, joined by "; "
	}{
		{"enum", map[string]any{"type": "string", "enum": []any{"a", "b", "c"}}, "b", `x enum "a"; x enum "c"`},
		{"integer bounds", map[string]any{"type": "integer", "minimum": 1.0, "maximum": 5.0}, 3.0, "x bound 1; x beside 2; x beside 4; x bound 5"},
		{"exclusive bounds", map[string]any{"type": "integer", "minimum": 0.0, "exclusiveMinimum": true, "maximum": 4.0, "exclusiveMaximum": true}, 2.0, "x bound 1; x bound 3"},
		{"unbounded integer", map[string]any{"type": "integer"}, 0.0, "x beside -1; x beside 1"},
		{"int32 at its top", map[string]any{"type": "integer", "format": "int32"}, 2147483647.0, "x beside 2147483646"},
		{"multipleOf", map[string]any{"type": "number", "multipleOf": 0.25, "maximum": 1.0}, 0.5, "x beside 0.75; x bound 1; x beside 0.25"},
		{"boolean", map[string]any{"type": "boolean"}, true, "x flip false"},
		{"string", map[string]any{"type": "string"}, "web", `x string "web-fril"`},
		{"maxLength", map[string]any{"type": "string", "maxLength": 3.0}, "web", `x string "a"`},
		{"pattern", map[string]any{"type": "string", "pattern": "^[0-9]+$"}, "12", `x string "120"`},
		{"no string fits", map[string]any{"type": "string", "pattern": "^only$"}, "only", ""},
		{"format", map[string]any{"type": "string", "format": "date"}, "2001-02-03", `x string "2002-03-04"`},
		{"quantity", map[string]any{"type": "string"}, "1Gi", `x quantity "2Gi"; x quantity "512Mi"`},
		{"bare number is a string", map[string]any{"type": "string", "maxLength": 1.0}, "3", `x string "a"`},
		{"int-or-string quantity", map[string]any{"x-kubernetes-int-or-string": true}, "3", `x quantity "6"; x quantity "1500m"`},
		{"int-or-string number", map[string]any{"x-kubernetes-int-or-string": true}, 3.0, "x beside 2; x beside 4"},
		{"list within bounds", map[string]any{"type": "array", "maxItems": 1.0, "items": map[string]any{"type": "boolean"}}, []any{true}, "x[0] flip false; x[0] remove-item"},
		{"empty list", map[string]any{"type": "array", "items": map[string]any{"type": "integer", "minimum": 2.0}}, []any{}, "x[0] add-item 2"},
		{"keyed list", map[string]any{"type": "array", "x-kubernetes-list-map-keys": []any{"k"}, "minItems": 1.0,
			"items": map[string]any{"type": "object", "required": []any{"k"}, "properties": map[string]any{"k": map[string]any{"type": "string", "enum": []any{"a"}}}}},
			[]any{map[string]any{"k": "a"}}, `x[1] add-item {"k":"a-fril"}`},
		{"map", map[string]any{"type": "object", "maxProperties": 1.0, "additionalProperties": map[string]any{"type": "integer"}}, map[string]any{"a": 1.0}, "x.a remove-entry"},
		{"preserve unknown fields", map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}, map[string]any{"a": 1.0}, ""},
		{"anyOf", map[string]any{"anyOf": []any{map[string]any{"type": "string"}}}, "s", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &gen{rng: newRand(0)}
			g.property(ir.Path{ir.FieldElem("x")}, tc.schema, tc.seed, true, true)
			var got []string
			for _, op := range g.ops {
				got = append(got, op.String())
			}
			if s := strings.Join(got, "; "); s != tc.want {
				t.Errorf("got  %s\nwant %s", s, tc.want)
			}
		})
	}
}

// TestSetAndUnset: an absent optional property is set (an object with
// its required fields), a present one unset after the changes inside it.
func TestSetAndUnset(t *testing.T) {
	s := map[string]any{"type": "object", "properties": map[string]any{
		"on": map[string]any{"type": "object", "properties": map[string]any{"b": map[string]any{"type": "boolean"}}},
		"off": map[string]any{"type": "object", "required": []any{"n", "l"}, "properties": map[string]any{
			"n": map[string]any{"type": "integer", "minimum": 3.0},
			"l": map[string]any{"type": "array", "minItems": 2.0, "items": map[string]any{"type": "string", "format": "ipv4"}},
			"o": map[string]any{"type": "string"},
		}},
	}}
	g := &gen{rng: newRand(0)}
	g.property(ir.Path{ir.FieldElem("x")}, s, map[string]any{"on": map[string]any{"b": true}}, true, true)
	var got []string
	for _, op := range g.ops {
		got = append(got, op.String())
	}
	want := []string{`x.off set {"l":["10.0.0.1","10.0.0.1"],"n":3}`, "x.on.b flip false", "x.on.b unset", "x.on unset"}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// typesResource is the resource of testdata/types.txtar.
func typesResource(t *testing.T) *Resource {
	ar, err := txtar.ParseFile("testdata/types.txtar")
	if err != nil {
		t.Fatal(err)
	}
	in := golden.Files(ar)
	r, err := Load(in["seed.yaml"], in["crd.yaml"])
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestDeterministic: the same options give the same operations; another
// seed number picks others.
func TestDeterministic(t *testing.T) {
	r := typesResource(t)
	a := Generate(r, Options{Seed: 3, Max: 10})
	b := Generate(r, Options{Seed: 3, Max: 10})
	c := Generate(r, Options{Seed: 4, Max: 10})
	if !reflect.DeepEqual(a, b) {
		t.Errorf("same seed, different operations:\n%v\n%v", a, b)
	}
	if reflect.DeepEqual(a, c) {
		t.Errorf("seeds 3 and 4 gave the same operations: %v", a)
	}
}

// TestBounds: Max bounds the operations, the default is DefaultMax, and
// every operation applies, in order, to the state before it.
func TestBounds(t *testing.T) {
	r := typesResource(t)
	all := Generate(r, Options{Max: 1000})
	if len(all) <= 10 || len(all) > DefaultMax {
		t.Fatalf("types.txtar has %d operations; the test needs more than 10, at most %d", len(all), DefaultMax)
	}
	if n := len(Generate(r, Options{Max: -1})); n != len(all) {
		t.Errorf("max -1: %d operations, want the default bound's %d", n, len(all))
	}
	for _, max := range []int{1, 5, 10} {
		for seed := range uint64(20) {
			ops := Generate(r, Options{Seed: seed, Max: max})
			if len(ops) != max {
				t.Fatalf("max %d, seed %d: %d operations", max, seed, len(ops))
			}
			state := r.Object
			var err error
			for _, op := range ops {
				if state, err = Apply(state, op); err != nil {
					t.Fatalf("max %d, seed %d: %v", max, seed, err)
				}
			}
		}
	}
}

// TestLoadFindsTheCR: the seed is the manifest's first object of a kind
// the CRDs define, after a namespace, say.
func TestLoadFindsTheCR(t *testing.T) {
	crd, err := os.ReadFile("../../specs/datastore/crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	seed := "apiVersion: v1\nkind: Namespace\nmetadata: {name: db}\n---\n" +
		"apiVersion: datastore.sieve.dev/v1\nkind: Datastore\nmetadata: {name: ds, namespace: db}\nspec: {replicas: 1, storage: 1Gi}\n"
	r, err := Load([]byte(seed), crd)
	if err != nil {
		t.Fatal(err)
	}
	if key := r.Key(); key != "datastore/db/ds" {
		t.Errorf("key %s, want datastore/db/ds", key)
	}
}

// TestLoadErrors: a seed without its CRD, or a version the CRD lacks,
// is an error that says which.
func TestLoadErrors(t *testing.T) {
	crd, err := os.ReadFile("../../specs/datastore/crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ seed, want string }{
		{"apiVersion: other.dev/v1\nkind: Datastore\nmetadata: {name: a}\n", "crd: no CustomResourceDefinition of kind Datastore in group and version other.dev/v1"},
		{"apiVersion: datastore.sieve.dev/v2\nkind: Datastore\nmetadata: {name: a}\n", "crd: Datastore: the CRD of group datastore.sieve.dev has no version v2"},
		{"kind: [", "seed: invalid YAML"},
	} {
		_, err := Load([]byte(tc.seed), crd)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("seed %q: error %v, want %q", tc.seed, err, tc.want)
		}
	}
}

// TestJSON: an operation's JSON has its path as text, and no value when
// it removes the property (a null value is a value).
func TestJSON(t *testing.T) {
	p := ir.Path{ir.FieldElem("spec"), ir.FieldElem("a.b")}
	for _, tc := range []struct {
		op   Operation
		want string
	}{
		{Operation{Path: p, Change: Set, Value: nil}, `{"path":"spec.\"a.b\"","change":"set","value":null}`},
		{Operation{Path: p, Change: Unset}, `{"path":"spec.\"a.b\"","change":"unset"}`},
		{Operation{Path: p, Change: Quantity, Value: "2Gi"}, `{"path":"spec.\"a.b\"","change":"quantity","value":"2Gi"}`},
	} {
		b, err := json.Marshal(tc.op)
		if err != nil || string(b) != tc.want {
			t.Errorf("got %s, %v\nwant %s", b, err, tc.want)
		}
	}
}

package kinds

import (
	_ "embed"
	"encoding/json"
	"sync"
)

//go:generate go run ../../interp/cluster/kindschema/gen kinds.json docs.json

// Table is the layout of kinds.json. A field's type is "" for a scalar,
// or "[]T" for a list of T, or the name of an entry of Types. It is "{}"
// for a value whose fields are open: a map, or a type with its own JSON
// encoding such as a quantity or a time.
type Table struct {
	// Served lists the kinds an API server serves without a CRD, as
	// "apiVersion kind", sorted.
	Served []string `json:"served"`
	// Aliases maps kubectl's short names and plural resource names of
	// built-in kinds to the lowercase singular kind.
	Aliases map[string]string `json:"aliases"`
	// Kinds maps a built-in kind, as resource keys spell it, to the name
	// of its type in Types. Kinds whose groups serve different fields
	// under one name (event, horizontalpodautoscaler) are left out.
	Kinds map[string]string `json:"kinds"`
	// Types maps a type name to its fields and their types.
	Types map[string]map[string]string `json:"types"`
}

//go:embed kinds.json
var table []byte

// Builtin returns the table, read once. Callers must not modify it.
func Builtin() *Table { return load() }

var load = sync.OnceValue(func() *Table {
	var t Table
	if err := json.Unmarshal(table, &t); err != nil {
		panic("kinds: kinds.json: " + err.Error()) // generated and tested, never user input
	}
	return &t
})

//go:embed docs.json
var docsJSON []byte

// FieldDocs returns the descriptions of the fields of the table's types
// (type name → field → description, from the k8s.io/api types' docs),
// read once, on first use: only an editor asks for them. Callers must not
// modify it.
func FieldDocs() map[string]map[string]string { return loadDocs() }

var loadDocs = sync.OnceValue(func() map[string]map[string]string {
	var d map[string]map[string]string
	if err := json.Unmarshal(docsJSON, &d); err != nil {
		panic("kinds: docs.json: " + err.Error()) // generated and tested, never user input
	}
	return d
})

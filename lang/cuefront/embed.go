package cuefront

import (
	"embed"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"cuelang.org/go/cue/load"

	"github.com/sievetool/sieve/cue/schema"
)

// The CUE standard library, as files.
//
//go:embed std/*.cue
var embedded embed.FS

// Import paths of the embedded packages.
const (
	schemaImport = "sieve.dev/schema"
	// schemaModule is the module of the published schema (cue/schema).
	schemaModule = schemaImport + "@v0"
	stdImport    = "sieve.dev/std"
	schemaFile   = schemaImport + "/schema.cue"
	irSchemaFile = schemaImport + "/ir.cue"
)

// SchemaText returns the CUE schema of specs (package schema, #Spec),
// from cue/schema.
func SchemaText() string { return schema.Spec() }

// IRSchemaText returns the CUE schema of the compiled IR (#IR), in the same
// package as SchemaText.
func IRSchemaText() string { return schema.IR() }

// StdFS returns the CUE standard library: the files of the package
// imported as "sieve.dev/std".
func StdFS() fs.FS {
	sub, _ := fs.Sub(embedded, "std")
	return sub
}

// modRoot is the CUE module root for dir: the nearest parent holding a
// cue.mod directory, else dir itself (the overlay then supplies a module
// file).
func modRoot(dir string) string {
	if root := findModRoot(dir); root != "" {
		return root
	}
	return dir
}

// overlay returns the overlay that makes the schema and the standard
// library importable in the module at root. A module that depends on the
// published schema module (schemaModule, from a registry) gets that and not
// the embedded copy, which would make its import ambiguous.
func overlay(root string, ownSchema bool) map[string]load.Source {
	ov := map[string]load.Source{}
	modFile := filepath.Join(root, "cue.mod", "module.cue")
	if _, err := os.Stat(modFile); err != nil {
		ov[modFile] = load.FromString("module: \"sieve.local/spec\"\nlanguage: version: \"" + languageVersion + "\"\n")
	}
	pkg := filepath.Join(root, "cue.mod", "pkg")
	if !ownSchema {
		ov[filepath.Join(pkg, filepath.FromSlash(schemaFile))] = load.FromString(SchemaText())
		ov[filepath.Join(pkg, filepath.FromSlash(irSchemaFile))] = load.FromString(IRSchemaText())
	}
	entries, _ := fs.ReadDir(embedded, "std")
	for _, e := range entries {
		b, _ := embedded.ReadFile(path.Join("std", e.Name()))
		ov[filepath.Join(pkg, filepath.FromSlash(stdImport), e.Name())] = load.FromBytes(b)
	}
	return ov
}

func findModRoot(dir string) string {
	for d := dir; ; {
		if info, err := os.Stat(filepath.Join(d, "cue.mod")); err == nil && info.IsDir() {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

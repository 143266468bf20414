package interp

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/sievetool/sieve/"

// groups maps a package path (relative to the module) to its layer; a
// package is in the layer of its longest listed ancestor.
var groups = map[string]string{
	"lang":                   "lang",
	"lang/diag":              "langbase",
	"lang/input":             "langbase",
	"lang/kinds":             "langbase",
	"lang/lsp":               "lsp",
	"lang/internal":          "langbase",
	"stdlib":                 "stdlib",
	"cue/schema":             "schema",
	"internal":               "testonly",
	"interp":                 "doc",
	"interp/internal":        "internal",
	"interp/buildinfo":       "leaf",
	"interp/nospace":         "leaf",
	"interp/formats":         "formats",
	"interp/formats/results": "results",
	"interp/analysis":        "analysis",
	"interp/run":             "run",
	"interp/cluster":         "backend",
	"interp/report":          "report",
	"interp/campaign":        "campaign",
	"interp/pipeline":        "pipeline",
	"controlplane":           "controlplane",
	"cmd":                    "cmd",
	"sievetest":              "sievetest",
	"specs":                  "specs",
	"bench":                  "tool",
	"docs/ci":                "tool",
}

// allowed says which layers a layer may import besides itself. The
// pipeline draws on everything below it; a run's runtime on analysis,
// formats, the results directory it writes in and the backends it runs
// on; analysis on formats; formats on
// lang only, but for the results directory's format, which holds the
// oracle's findings and the plan generator's candidates and so sits above
// analysis, below the report renderers that read it. Nothing imports
// upward or sideways. langbase is the part of lang that knows nothing of
// specs (diagnostics, bounded reading, the built-in kinds table), which
// the backends may use. schema is the CUE schema the CUE front end reads.
// testonly are the helpers of tests, which no other code imports. lsp is
// the language server, which only the CLI imports.
var allowed = map[string][]string{
	"stdlib":       {},
	"schema":       {},
	"testonly":     {"langbase", "lang"},
	"langbase":     {},
	"lang":         {"langbase", "stdlib", "schema"},
	"lsp":          {"lang", "langbase", "stdlib"},
	"internal":     {},
	"leaf":         {},
	"formats":      {"internal", "lang", "langbase"},
	"analysis":     {"formats", "internal", "lang", "langbase"},
	"run":          {"results", "analysis", "formats", "backend", "leaf", "internal", "lang", "langbase"},
	"backend":      {"leaf", "internal", "langbase"},
	"results":      {"analysis", "formats", "internal", "lang", "langbase"},
	"report":       {"results", "analysis", "formats", "internal", "lang", "langbase"},
	"campaign":     {"results", "formats", "leaf", "internal", "lang", "langbase"},
	"pipeline":     {"run", "analysis", "formats", "results", "backend", "leaf", "internal", "lang", "langbase"},
	"sievetest":    {"pipeline", "run", "analysis", "formats", "results", "report", "lang", "langbase"},
	"cmd":          {"lsp", "pipeline", "campaign", "run", "analysis", "formats", "results", "report", "backend", "leaf", "lang", "langbase"},
	"tool":         {},
	"specs":        {},
	"doc":          {},
	"controlplane": {"backend"},
}

// exceptions are edges between packages that break the table, each to be
// removed; a listed edge that no longer exists fails the test too.
var exceptions = map[string]bool{}

func group(pkg string) string {
	best := ""
	for prefix := range groups {
		if (pkg == prefix || strings.HasPrefix(pkg, prefix+"/")) && (best == "" || len(prefix) > len(best)) {
			best = prefix
		}
	}
	return groups[best]
}

// TestLayers fails on an import, outside tests, between the module's
// packages that the table does not allow.
func TestLayers(t *testing.T) {
	statSources(t, "..")
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", module+"...").Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("go list: %v\n%s", err, exit.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	seen := map[string]bool{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		from := strings.TrimPrefix(p.ImportPath, module)
		g := group(from)
		if g == "" {
			t.Errorf("%s: in no layer (add it to groups)", from)
			continue
		}
		for _, imp := range p.Imports {
			to, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			edge := from + " -> " + to
			h := group(to)
			if h == g || slices.Contains(allowed[g], h) {
				continue
			}
			if exceptions[edge] {
				seen[edge] = true
				continue
			}
			t.Errorf("import %s: layer %s may not import layer %s", edge, g, h)
		}
	}
	for edge := range exceptions {
		if !seen[edge] {
			t.Errorf("exception %s: the edge is gone (remove it from exceptions)", edge)
		}
	}
}

// statSources looks at every directory and Go file of the module under
// root. go test's result cache knows the files a test reads, but not what
// go list read; so it runs this test again after any change to them.
func statSources(t *testing.T, root string) {
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

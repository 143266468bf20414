package lsp

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sievetool/sieve/internal/cputime"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// BenchmarkDiagnosticsAfterKeystroke5000 is the latency an author sees:
// from a one-character change of a 5,000-line spec (a duration's digit)
// to its diagnostics published (target: at most 100 ms per op).
func BenchmarkDiagnosticsAfterKeystroke5000(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "cluster.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, "big.sieve")
	src := benchSpec(5000)
	if err := os.WriteFile(path, src, 0o644); err != nil {
		b.Fatal(err)
	}
	c := startClient(b, Options{})
	c.open(b, path)
	if d := string(c.diagnostics(uri.File(path))); d != "[]" {
		b.Fatalf("the generated spec has diagnostics: %s", d)
	}
	edited := bytes.Replace(src, []byte("settle 2s"), []byte("settle 3s"), 1)
	b.ReportMetric(float64(bytes.Count(src, []byte("\n"))), "lines")
	v := int32(1)
	cpu0 := cputime.Used()
	for b.Loop() {
		v++
		text := src
		if v%2 == 0 {
			text = edited
		}
		c.change(b, protocol.MethodTextDocumentDidChange, path, v, text)
	}
	// On a shared machine wall time overstates the cost; CPU time per op
	// (server and client, both in this process) is the figure to compare.
	cputime.Report(b, cpu0)
}

// benchSpec repeats a controller, a workload, a policy, a mask and a test
// until the spec has at least n lines.
func benchSpec(n int) []byte {
	var b bytes.Buffer
	b.WriteString("import \"std/masks\"\n\n")
	for i := 0; bytes.Count(b.Bytes(), []byte("\n")) < n; i++ {
		fmt.Fprintf(&b, `controller c%[1]d {
  builtin   "statefulset"
  namespace "default"
}

workload w%[1]d(replicas = 3) {
  apply  "cluster.yaml"
  wait   configmap/default/c exists within 30s
  settle 2s
}

policy p%[1]d {
  patterns  [intermediate, stale, unobserved]
  include   [statefulset/*/*]
  max_plans 10
}

mask m%[1]d {
  statefulset/*/* path spec.template.metadata.annotations
}

test t%[1]d {
  controller c%[1]d
  workloads  [w%[1]d(replicas = 2)]
  policies   [p%[1]d]
  masks      [m%[1]d, masks.default]
}

`, i)
	}
	return b.Bytes()
}

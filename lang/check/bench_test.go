package check_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/internal/cputime"

	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/stdlib"
)

// BenchmarkCheckCompile5000 checks and dumps a generated spec of about
// 5,000 lines that uses every construct (target: under 200 ms per op).
func BenchmarkCheckCompile5000(b *testing.B) {
	dir := benchDir(b)
	src := genSpec(5000)
	name := filepath.Join(dir, "big.sieve")
	b.ReportMetric(float64(bytes.Count(src, []byte("\n"))), "lines")
	cpu0 := cputime.Used()
	for b.Loop() {
		spec, ds := check.File(name, src, check.Options{Std: stdlib.FS()})
		if len(ds) > 0 || spec == nil {
			b.Fatalf("generated spec does not check: %v", ds)
		}
		if _, err := ir.Dump(spec); err != nil {
			b.Fatal(err)
		}
	}
	// On a shared machine wall time overstates the cost; CPU time per op
	// is the figure to compare with the 200 ms target.
	cputime.Report(b, cpu0)
}

// genSpec writes groups of declarations (a controller, a workload, a
// policy, a mask, an invariant, a plan and two tests) until the spec has at
// least n lines.
func genSpec(n int) []byte {
	var b bytes.Buffer
	b.WriteString("import \"std/masks\"\nimport \"std/faults\"\n\n")
	for i := 0; bytes.Count(b.Bytes(), []byte("\n")) < n; i++ {
		fmt.Fprintf(&b, group, i)
	}
	return b.Bytes()
}

var group = strings.ReplaceAll(`controller c%[1]d {
  build     "./"
  args      ["--leader-elect=false", "--id=%[1]d"]
  env       { LOG: "debug", N: %[1]d }
  crds      ["crd.yaml"]
  namespace "default"
  ready     { log: "Starting workers", within: 30s }
}

workload w%[1]d(name = "ds%[1]d", replicas = 3) {
  apply  "cluster.yaml" set { metadata.name: name, spec.replicas: replicas }
  wait   datastore/default/${name} ready within 60s
  patch  datastore/default/${name} merge { spec: { replicas: replicas + 1 } }
  wait   datastore/default/${name} where spec.replicas == replicas + 1 within 1m
  wait   until "objects('pod', 'default').size() <= ${REPL}" within 2m
  delete datastore/default/${name}
  wait   pod/default/${name}-* gone within 60s
  settle 5s
}

policy p%[1]d {
  patterns  [intermediate, stale, unobserved]
  include   [statefulset/*/*, { target: pod/default/ds-*, verbs: [delete] }]
  exclude   [lease/*/*]
  max_plans 50
  prune     { duplicates: false }
  stale_for 10s
}

mask m%[1]d {
  key uid
  path metadata.annotations."kubectl.kubernetes.io/last-applied-configuration"
  pod/*/* path spec.nodeName
  lease/kube-system/* whole in history
}

invariant i%[1]d always `+"`"+`objects("persistentvolumeclaim", "default").filter(p, p.metadata.name.startsWith("data-ds%[1]d-")).size() <= 3`+"`"+`

plan x%[1]d {
  on update datastore/default/ds%[1]d where metadata.deletionTimestamp exists: stale on datastore/default/ds%[1]d
  restart
  (after write create pod/default/* #2 & after 10s) | after 2m: crash
  after 30s: stale off datastore/default/ds%[1]d
}

test t%[1]d {
  controller c%[1]d
  workloads  [w%[1]d(replicas = 5)]
  policies   [p%[1]d, faults.all]
  masks      [m%[1]d, masks.default]
  invariants [i%[1]d]
  plans      [x%[1]d]
}

test u%[1]d : t%[1]d {
  args += ["--fixed"]
  runs 3
}

`, "${REPL}", "3")

// benchDir is a directory with the files genSpec's specs name, those of
// grammar.md's examples.
func benchDir(b *testing.B) string {
	dir := b.TempDir()
	for _, f := range []string{"cluster.yaml", "crd.yaml", "go.mod"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(exampleFiles[f]), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkCheck5000 is BenchmarkCheckCompile5000 without the IR dump, to
// tell the checker's share from encoding/json's.
func BenchmarkCheck5000(b *testing.B) {
	dir := benchDir(b)
	src := genSpec(5000)
	name := filepath.Join(dir, "big.sieve")
	cpu0 := cputime.Used()
	for b.Loop() {
		if _, ds := check.File(name, src, check.Options{Std: stdlib.FS()}); len(ds) > 0 {
			b.Fatalf("generated spec does not check: %v", ds)
		}
	}
	cputime.Report(b, cpu0)
}

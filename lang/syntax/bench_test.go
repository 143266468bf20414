package syntax

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkParse10MB parses a generated 10 MB spec that uses every
// construct.
func BenchmarkParse10MB(b *testing.B) {
	src := []byte(generate(10 << 20))
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for b.Loop() {
		if _, ds := Parse("big.sieve", src); len(ds) > 0 {
			b.Fatal(ds)
		}
	}
}

// generate returns a valid spec of at least n bytes.
func generate(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, sample, i)
	}
	return b.String()
}

const sample = `// Block %[1]d.
controller c%[1]d {
  build     "./controller"
  args      ["--leader-elect=false", "--id=" + "x"]
  env       { LOG_LEVEL: "debug" }
  namespace "default"
  ready     { log: "Starting workers", within: 30s }
}

workload w%[1]d(name = "ds", replicas = 3) {
  apply  "cluster.yaml" set { metadata.name: name, spec.replicas: replicas * 2 }
  wait   datastorecluster/default/${name} ready within 60s
  patch  datastorecluster/default/${name} merge { spec: { replicas: 5 } }
  delete datastorecluster/default/${name}
  wait   pod/default/${name}-* gone within 1m30s
  settle 5s
}

mask m%[1]d {
  key uid
  pod/*/* path spec.nodeName in end
}

invariant i%[1]d always ` + "`objects(\"pod\", \"default\").size() <= 3`" + `

plan p%[1]d {
  on update cr/default/ds where metadata.deletionTimestamp exists #2: stale on cr/default/ds
  after write delete statefulset/default/ds | after 30s: crash
}

test t%[1]d : base {
  controller c%[1]d
  workloads  [w%[1]d(replicas = 3)]
  masks      [masks.default, m%[1]d]
  args       += ["--fixed"]
}
`

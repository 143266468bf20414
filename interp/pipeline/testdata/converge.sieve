// Specs for the end-to-end tests of convergence (converge_e2e_test.go).
// The resyncop controller (./resyncop) writes ConfigMap out-X for in-X in
// two steps and repairs a missing second step only at a resync.

import "std/masks"

controller resyncop {
  build     "./resyncop"
  args      ["-namespace=e2e"]
  namespace "e2e"
  ready     { log: "^READY$", within: 90s }
}

workload copy {
  apply `
apiVersion: v1
kind: ConfigMap
metadata: {name: in-a}
data: {v: "1"}
`
  wait configmap/e2e/out-a where data.v == "1" within 60s
  settle 500ms
}

// The resync repairs out-a's mark. The default masks leave out the
// creation times, which the two reference runs do not always teach: when
// they start within one second, the plan run's differ from both.
test repairs { controller resyncop workloads [copy] masks [masks.default] }

// The resync does not: a true finding.
test keeps : repairs { args += ["-repair=false"] }

// Specs for the pipeline's end-to-end tests (e2e_test.go). The relay
// controller (./relay) copies ConfigMap in-X to out-X in namespace e2e and
// logs every request it sends, every answer it gets and every event it
// receives. The tests run hand-written plans against these workloads, and
// check that bad input is reported at its line.

import "std/faults"
import "std/masks"

controller relay {
  build     "./relay"
  args      ["-namespace=e2e"]
  namespace "e2e"
  ready     { log: "^READY$", within: 90s }
}

controller missing {
  command   "no-such-controller-sieve"
  namespace "e2e"
}

controller quits {
  command   "sh"
  args      ["-c", "echo giving up; exit 3"]
  namespace "e2e"
  ready     { log: "^READY$", within: 30s }
}

controller mute {
  command   "sleep"
  args      ["600"]
  namespace "e2e"
  ready     { log: "^READY$", within: 2s }
}

// Copy in-a once.
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

// Change in-a after it was copied: the stale-view test restarts the
// controller into a view where in-a is still at v=1.
workload change {
  apply `
apiVersion: v1
kind: ConfigMap
metadata: {name: in-a}
data: {v: "1"}
`
  wait  configmap/e2e/out-a where data.v == "1" within 60s
  patch configmap/e2e/in-a { data: { v: "2" } }
  wait  configmap/e2e/out-a where data.v == "2" within 60s
  settle 500ms
}

// Change in-a twice, with a pause between: the hold-and-coalesce test
// hides the first change.
workload twice {
  apply `
apiVersion: v1
kind: ConfigMap
metadata: {name: in-a}
data: {v: "1"}
`
  wait   configmap/e2e/out-a where data.v == "1" within 60s
  patch  configmap/e2e/in-a { data: { v: "2" } }
  settle 1s
  patch  configmap/e2e/in-a { data: { v: "3" } }
  wait   configmap/e2e/out-a where data.v == "3" within 60s
  settle 500ms
}

// A wait that cannot end in time.
workload late {
  apply `
apiVersion: v1
kind: ConfigMap
metadata: {name: in-a}
data: {v: "1"}
`
  wait configmap/e2e/never exists within 1s
}

// A manifest the API server refuses: the name is not a DNS subdomain.
workload refused {
  apply `
apiVersion: v1
kind: ConfigMap
metadata: {name: Not_A_Name}
data: {v: "1"}
`
  settle 500ms
}

test generated {
  controller relay
  workloads  [twice]
  policies   [faults.all]
  masks      [masks.default]
}

// Broken by the fault-free run itself: copy makes out-a.
invariant no_copies always `objects("configmap", "e2e").filter(c, c.metadata.name.startsWith("out-")).size() == 0`

// Copy in-a, then stay a while: the fault tests (fault_e2e_test.go) kill
// a component of the control plane meanwhile.
workload linger {
  apply `
apiVersion: v1
kind: ConfigMap
metadata: {name: in-a}
data: {v: "1"}
`
  wait configmap/e2e/out-a where data.v == "1" within 60s
  settle 3s
}

test linger    { controller relay   workloads [linger] }
test crash     { controller relay   workloads [copy] }
test broken    { controller relay   workloads [copy] invariants [no_copies] }
test stale     { controller relay   workloads [change] }
test hide      { controller relay   workloads [twice] }
test missing   { controller missing workloads [copy] }
test quits     { controller quits   workloads [copy] }
test mute      { controller mute    workloads [copy] }
test late      { controller relay   workloads [late] }
test refused   { controller relay   workloads [refused] }

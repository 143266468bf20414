// Specs for the end-to-end tests of the kubeconfig backend
// (existing_e2e_test.go): the embedded control plane stands in for
// someone's cluster, with a namespace prod, a ConfigMap prod/important
// and CRDs the run did not create. The tests check that the run touches
// none of them.

controller idle {
  command   "sh"
  args      ["-c", "echo READY; exec sleep 600"]
  namespace "sieve-e2e-own"
  crds      ["existing/gadget.yaml", "existing/gizmo.yaml"]
  ready     { log: "^READY$", within: 30s }
}

// The widget CRD on the cluster has a printer column its manifest lacks.
controller clash {
  command   "sh"
  args      ["-c", "echo READY; exec sleep 600"]
  namespace "sieve-e2e-own"
  crds      ["existing/widget.yaml"]
  ready     { log: "^READY$", within: 30s }
}

// Another test of the spec, in its own namespace, with the gadget CRD of
// controller idle: a run of it shares the CRD with a run of test sweep.
controller other {
  command   "sh"
  args      ["-c", "echo READY; exec sleep 600"]
  namespace "sieve-e2e-other"
  crds      ["existing/gadget.yaml"]
  ready     { log: "^READY$", within: 30s }
}

workload gadget {
  apply `
apiVersion: existing.sieve.dev/v1
kind: Gadget
metadata: {name: g}
`
}

// A glob that, on a cluster sieve owns, matches prod/important too; a
// cluster-scoped object the run creates.
workload sweep {
  apply `
apiVersion: v1
kind: ConfigMap
metadata: {name: important}
data: {v: "1"}
`
  delete configmap/*/important
  wait   configmap/*/important gone within 30s
  apply `
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: sieve-e2e-priority}
value: 1000
`
}

// A namespace the run did not create, named outright.
workload foreign {
  delete configmap/prod/important
}

test sweep   { controller idle  workloads [sweep] }
test foreign { controller idle  workloads [foreign] }
test share   { controller other workloads [gadget] }
test clash   { controller clash workloads [sweep] }

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
test clash   { controller clash workloads [sweep] }

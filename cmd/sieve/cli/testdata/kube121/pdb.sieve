// The Kubernetes 1.21 end-to-end test (TestRunOnKubernetes121): a
// controller that watches a custom resource whose CRD is written as
// apiextensions.k8s.io/v1beta1 and makes a policy/v1beta1
// PodDisruptionBudget for each, run on the embedded control plane of
// Kubernetes 1.21, which its test chooses:
//
//   sieve run pdb.sieve   # exits 0

import "std/faults"
import "std/masks"

controller pdbctl {
  build     "./controller"
  crds      ["crd.yaml"]
  namespace "default"
  ready     { log: "pdbctl: started", within: 60s }
}

workload make {
  apply  "webapp.yaml"
  wait   poddisruptionbudget/default/web exists within 30s
  wait   webapp.example.com/default/web where status.pdb == "web" within 30s
  settle 2s
}

test old {
  controller pdbctl
  workloads  [make]
  policies   [faults.all]
  masks      [masks.default]
  kubernetes "1.21"
}

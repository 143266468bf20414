// The Kubernetes 1.21 end-to-end test (TestRunOnKubernetes121): a
// controller that writes policy/v1beta1 PodDisruptionBudgets, run on the
// embedded control plane of Kubernetes 1.21, which its test chooses:
//
//   sieve run pdb.sieve   # exits 0

import "std/faults"
import "std/masks"

controller pdbctl {
  build     "./controller"
  namespace "default"
  ready     { log: "pdbctl: started", within: 60s }
}

workload make {
  apply  "cm.yaml"
  wait   poddisruptionbudget/default/web exists within 30s
  settle 2s
}

test old {
  controller pdbctl
  workloads  [make]
  policies   [faults.all]
  masks      [masks.default]
  kubernetes "1.21"
}

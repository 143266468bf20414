// volresize: an intermediate-state bug (cf. rabbitmq cluster-operator #782).
// See README.md.
//
//   sieve run specs/volresize/volresize.sieve --test buggy   # exits 1: PVCs never expanded
//   sieve run specs/volresize/volresize.sieve --test fixed   # exits 0

import "std/faults"
import "std/masks"

controller volresize {
  build     "./controller"
  crds      ["crd.yaml"]
  namespace "default"
  ready     { log: "Starting workers", within: 60s }
}

// Create a three-member cluster with 1Gi volumes, then grow them to 2Gi.
// The controller deletes the StatefulSet (orphaning the pods), expands the
// PVCs and recreates the StatefulSet with the larger claim template.
workload resize {
  apply  "cluster.yaml"
  wait   brokercluster/default/bc ready within 90s
  patch  brokercluster/default/bc merge { spec: { storage: "2Gi" } }
  wait   statefulset/default/bc where spec.volumeClaimTemplates[0].spec.resources.requests.storage == "2Gi" within 90s
  wait   brokercluster/default/bc ready within 90s
  settle 2s
}

// Provisioned volumes are named after their claim's UID ("pvc-<uid>"), so
// their names differ from run to run; and whether the volume binder marks a
// claim with its provisioner depends on who wins a race with the simulated
// provisioner.
mask volumes {
  persistentvolume/* whole
  persistentvolumeclaim/*/* path metadata.annotations."volume.kubernetes.io/storage-provisioner"
  persistentvolumeclaim/*/* path metadata.annotations."volume.beta.kubernetes.io/storage-provisioner"
}

// Every member's PVC asks for the size the cluster asks for.
invariant claims_resized end `
  objects("persistentvolumeclaim", "default")
    .filter(p, p.metadata.name.startsWith("data-bc-"))
    .all(p, p.spec.resources.requests.storage == object("brokercluster", "default", "bc").spec.storage)
`

test buggy {
  controller volresize
  workloads  [resize]
  policies   [faults.intermediate]
  masks      [masks.default, volumes]
  invariants [claims_resized]
}

test fixed : buggy {
  args ["--fixed"]
}

// datastore: a stale-state bug (cf. cass-operator K8SSAND-559,
// zookeeper-operator #312). See README.md.
//
//   sieve run specs/datastore/datastore.sieve --test buggy   # exits 1: live PVCs deleted
//   sieve run specs/datastore/datastore.sieve --test fixed   # exits 0

import "std/faults"
import "std/masks"

controller datastore {
  build     "./controller"
  crds      ["crd.yaml"]
  namespace "default"
  ready     { log: "Starting workers", within: 60s }
}

// Create a Datastore, delete it (its finalizer deletes its PVCs), then
// create a new one with the same name. A controller that restarts with a
// stale view during the second life sees the first one, still deleting.
// The waits name the replica count they need, so the first life always
// ends at the same point: every pod and PVC made, in every run.
workload recreate(replicas = 3) {
  apply  "datastore.yaml" set { spec.replicas: replicas }
  wait   datastore/default/ds where status.readyReplicas == replicas within 90s
  delete datastore/default/ds
  wait   datastore/default/ds gone within 60s
  wait   statefulset/default/ds gone within 60s
  wait   pod/default/ds-* gone within 60s
  wait   persistentvolumeclaim/default/data-ds-* gone within 60s
  apply  "datastore.yaml" set { spec.replicas: replicas }
  wait   datastore/default/ds where status.readyReplicas == replicas within 90s
  settle 2s
}

// The cluster UID is stamped on the StatefulSet's claim template and so on
// every PVC; it differs from run to run.
mask cluster_uid {
  statefulset/*/* path spec.volumeClaimTemplates[*].metadata.labels."datastore.sieve.dev/cluster-uid"
  persistentvolumeclaim/*/* path metadata.labels."datastore.sieve.dev/cluster-uid"
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

// The live Datastore keeps its data: three PVCs, none being deleted.
invariant data_kept end `
  objects("persistentvolumeclaim", "default")
    .filter(p, p.metadata.name.startsWith("data-ds-") && !has(p.metadata.deletionTimestamp))
    .size() == 3
`

test buggy {
  controller datastore
  workloads  [recreate(replicas = 3)]
  policies   [faults.stale]
  masks      [masks.default, cluster_uid, volumes]
  invariants [data_kept]
}

test fixed : buggy {
  args ["--fixed"]
}

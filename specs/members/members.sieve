// members: an application's error taken for success, found by the appfault
// pattern alone. See README.md.
//
//   sieve run specs/members/members.sieve --test buggy   # exits 1: a removed member still in the store
//   sieve run specs/members/members.sieve --test fixed   # exits 0

import "std/faults"
import "std/masks"

// The controller calls the store's admin API at
// kv-admin.default.svc.cluster.local:8080; the stand-in ./admin (a Go HTTP
// server) answers there, in the controller's private network, with an
// empty store in every run. sieve relays and records each call.
controller members {
  build     "./controller"
  crds      ["crd.yaml"]
  namespace "default"
  ready     { log: "Starting workers", within: 60s }
  standin   { "kv-admin:8080": ["go", "run", "github.com/sievetool/sieve/specs/members/admin"] }
}

// Create a three-member Store, then scale it down to two: the controller
// asks the admin API to remove kv-2, shrinks the StatefulSet and deletes
// kv-2's PVC. The last wait holds until the controller has written the
// status it read after the StatefulSet shrank.
workload scaledown {
  apply  "store.yaml"
  wait   store/default/kv where "object.status.members.size() == 3" within 90s
  wait   store/default/kv where status.readyReplicas == 3 within 90s
  patch  store/default/kv merge { spec: { replicas: 2 } }
  wait   pod/default/kv-2 gone within 60s
  wait   persistentvolumeclaim/default/data-kv-2 gone within 60s
  wait   store/default/kv where status.readyReplicas == 2 within 60s
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

// The store counts as members exactly the replicas it runs: no member
// whose pod and data are gone.
invariant members_match end `
  object("store", "default", "kv").status.members.size() == object("store", "default", "kv").spec.replicas
`

// buggy runs every pattern: only appfault's failed remove call finds the
// bug.
test buggy {
  controller members
  workloads  [scaledown]
  policies   [faults.all]
  masks      [masks.default, volumes]
  invariants [members_match]
}

test fixed : buggy {
  args ["--fixed"]
}

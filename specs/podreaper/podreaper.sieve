// podreaper: an unobserved-state bug (cf. cassandra-operator #398).
// See README.md.
//
//   sieve run specs/podreaper/podreaper.sieve --test buggy   # exits 1: a PVC leaks
//   sieve run specs/podreaper/podreaper.sieve --test fixed   # exits 0

import "std/faults"
import "std/masks"

controller podreaper {
  build     "./controller"
  crds      ["crd.yaml"]
  namespace "default"
  ready     { log: "Starting workers", within: 60s }
}

// Start a three-member ring and shrink it to one. The StatefulSet
// controller deletes pods cass-2 then cass-1; each goes terminating, then
// gone, and the controller deletes its PVC. (The first wait is on the pods,
// not on the Ring's Ready condition: a plan that hides a StatefulSet status
// update from the controller would otherwise hold the workload up.)
workload shrink(members = 1) {
  apply  "ring.yaml"
  wait   pod/default/cass-* 3 ready within 90s
  patch  ring/default/cass merge { spec: { members: members } }
  wait   pod/default/cass-2 gone within 60s
  wait   pod/default/cass-1 gone within 60s
  wait   ring/default/cass ready within 60s
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

// Every PVC not being deleted belongs to a current member: none is left
// behind.
invariant no_leaked_claims end `
  objects("persistentvolumeclaim", "default")
    .filter(p, p.metadata.name.startsWith("data-cass-") && !has(p.metadata.deletionTimestamp))
    .size() == object("ring", "default", "cass").spec.members
`

test buggy {
  controller podreaper
  workloads  [shrink]
  policies   [faults.unobserved]
  masks      [masks.default, volumes]
  invariants [no_leaked_claims]
}

test fixed : buggy {
  args ["--fixed"]
}

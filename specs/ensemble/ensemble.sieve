// ensemble: a stale-state bug in a controller that manages its application
// through a Service (cf. zookeeper-operator #314). See README.md.
//
//   sieve run specs/ensemble/ensemble.sieve --test buggy   # exits 1: a live member's PVC deleted
//   sieve run specs/ensemble/ensemble.sieve --test fixed   # exits 0

import "std/faults"
import "std/masks"

// The controller asks the members API at ens-client.default.svc.cluster.local:8080;
// the stand-in ./members (a Go HTTP server) answers there, in the
// controller's private network, with fresh state in every run. It is named
// by its import path so that it builds from any directory of the module
// (a spec that imports this one runs it from its own directory).
controller ensemble {
  build     "./controller"
  crds      ["crd.yaml"]
  namespace "default"
  ready     { log: "Starting workers", within: 60s }
  standin   { "ens-client:8080": ["go", "run", "github.com/sievetool/sieve/specs/ensemble/members"] }
}

// Create a two-member Ensemble, scale it down to one (the controller removes
// ens-1 from the ensemble and deletes its PVC), then back up to two. A
// controller that restarts with a stale view after the scale-up sees
// replicas 1 again. The waits on status.members hold until the controller
// has the members API's answer, so the ensemble is reached in every run.
workload scaledown_scaleup {
  apply  "ensemble.yaml"
  wait   ensemble/default/ens where status.members == 2 within 90s
  wait   ensemble/default/ens where status.readyReplicas == 2 within 90s
  patch  ensemble/default/ens merge { spec: { replicas: 1 } }
  wait   ensemble/default/ens where status.members == 1 within 60s
  wait   persistentvolumeclaim/default/data-ens-1 gone within 60s
  patch  ensemble/default/ens merge { spec: { replicas: 2 } }
  wait   ensemble/default/ens where status.members == 2 within 60s
  wait   ensemble/default/ens where status.readyReplicas == 2 within 90s
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

// The live Ensemble keeps its data: two PVCs, none being deleted.
invariant data_kept end `
  objects("persistentvolumeclaim", "default")
    .filter(p, p.metadata.name.startsWith("data-ens-") && !has(p.metadata.deletionTimestamp))
    .size() == 2
`

test buggy {
  controller ensemble
  workloads  [scaledown_scaleup]
  policies   [faults.stale]
  masks      [masks.default, volumes]
  invariants [data_kept]
}

test fixed : buggy {
  args ["--fixed"]
}

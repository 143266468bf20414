// statefulset: the built-in StatefulSet controller of kube-controller-manager
// as the controller under test. Nobody here wrote it, and it has no known bug
// these workloads reach: sieve must report nothing. See README.md.
//
//   sieve run specs/statefulset/statefulset.sieve   # exits 0

// sieve runs the controller as its own process, through its proxy, and
// leaves it out of the embedded kube-controller-manager.
import "std/faults"
import "std/masks"

controller statefulset {
  builtin   "statefulset"
  namespace "default"
}

// Create a StatefulSet, delete it, create it again.
workload recreate {
  apply  "web.yaml"
  wait   pod/default/web-* 3 ready within 90s
  delete statefulset/default/web
  wait   statefulset/default/web gone within 60s
  wait   pod/default/web-* gone within 60s
  apply  "web.yaml"
  wait   pod/default/web-* 3 ready within 90s
  settle 2s
}

// Scale a StatefulSet up from 3 to 5 members, then down to 1.
workload scale_up_down {
  apply  "web.yaml"
  wait   pod/default/web-* 3 ready within 90s
  scale  statefulset/default/web to 5
  wait   pod/default/web-* 5 ready within 90s
  scale  statefulset/default/web to 1
  wait   pod/default/web-1 gone within 90s
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

// One test per workload, so that each plan runs only the workload it was
// made from. There is no fix to compare with: both must pass.
test recreate {
  controller statefulset
  workloads  [recreate]
  policies   [faults.all]
  masks      [masks.default, volumes]
}

test scale {
  controller statefulset
  workloads  [scale_up_down]
  policies   [faults.all]
  masks      [masks.default, volumes]
}

// std/workloads: the workload shapes that exposed most bugs in the Sieve
// study, parameterised by the manifest to apply and the object it creates.
//
//   import "std/workloads"
//   test t {
//     ...
//     workloads [workloads.recreate(manifest = "cluster.yaml", target = datastore/default/ds)]
//   }
//
// A manifest path given as an argument is relative to the file that passes
// it. Every workload waits with `settle` for the controller to go quiet
// between steps, so faults land while it reconciles one change at a time.

// recreate creates the object, deletes it, and creates it again: the shape
// that finds controllers which leak or never rebuild what a deleted object
// owned.
workload recreate(manifest, target, timeout = 60s) {
  apply  manifest
  wait   target exists within timeout
  settle
  delete target
  wait   target gone within timeout
  settle
  apply  manifest
  wait   target exists within timeout
  settle
}

// scale applies the object with `low` replicas, scales it up to `high`,
// then back down to `low`, settling after each change (spec.replicas,
// through a merge patch, so it works on custom resources without a scale
// subresource).
workload scale(manifest, target, low = 1, high = 3, timeout = 60s) {
  apply  manifest set { spec.replicas: low }
  wait   target exists within timeout
  settle
  patch  target merge { spec: { replicas: high } }
  wait   target where spec.replicas == high within timeout
  settle
  patch  target merge { spec: { replicas: low } }
  wait   target where spec.replicas == low within timeout
  settle
}

// update_while_reconciling applies the object and, without waiting for the
// controller, merge-patches it with `change`, so the update arrives while
// the first reconcile is still in flight.
workload update_while_reconciling(manifest, target, change, timeout = 60s) {
  apply  manifest
  wait   target exists within timeout
  patch  target merge change
  settle
}

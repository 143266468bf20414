// ensemble_e2e: the ensemble spec narrowed to the one plan that shows its
// bug, for the end-to-end test in e2e_test.go: after the scale back up
// (ens-1's PVC created a second time), the controller restarts with its
// view of the Ensemble frozen at the scale-down (spec.replicas 1). One
// reference run, not two, to keep the test's cost down: two fault-free
// runs of this workload differ in nothing the standard masks leave.
//
//   sieve run specs/testdata/ensemble_e2e.sieve --test buggy   # exits 1
//   sieve run specs/testdata/ensemble_e2e.sieve --test fixed   # exits 0

import "std/masks"
import ens "../ensemble/ensemble.sieve"

// stale_scaledown is the stale-state plan that sieve generates for the
// scale-down, written out.
plan stale_scaledown {
  on create persistentvolumeclaim/default/data-ens-1 in cluster #2: stale on ensemble/default/ens at on update ensemble/default/ens changing { "spec": { "replicas": 2 } } to { "spec": { "replicas": 1 } }
  restart
  quiet for 1s after reading ensemble/default/ens | after 5s: stale off ensemble/default/ens
}

test buggy {
  controller ens.ensemble
  workloads  [ens.scaledown_scaleup]
  plans      [stale_scaledown]
  masks      [masks.default, ens.volumes]
  invariants [ens.data_kept]
  runs       1
}

test fixed : buggy {
  args ["--fixed"]
}

// datastore_explore_e2e: the datastore controller under an explored
// workload, for the end-to-end test in e2e_test.go: three operations
// explored from the example's seed (spec.replicas 1 and 4, spec.storage
// 2Gi), run in the reference run. Its CRD is the example's with one
// validation rule more (storage is immutable), so the API server refuses
// the storage change: recorded as refused, the run goes on. The
// controller creates the StatefulSet from the spec once and never updates
// it, so spec.replicas 4 leaves no trace (a consistency finding), and the
// final state applied at once makes a StatefulSet of 4 where the sequence
// left one of 3 (a differential finding). No fault policy: the explored
// oracles alone. One reference run, to keep the test's cost down: the
// explored test's differential oracle runs the final state and the state
// after operation 1 (spec.replicas 1, set to 4 later), the final test's
// (states none) the final state alone, a run less. The faults test runs
// the fault patterns' plans on the same operations (every operation
// open to every fault), with the final state alone too.
//
//   sieve run specs/testdata/datastore_explore_e2e.sieve --test explored                 # exits 1
//   sieve run specs/testdata/datastore_explore_e2e.sieve --test final                    # exits 1, no explored-direct-1
//   sieve run specs/testdata/datastore_explore_e2e.sieve --test faults --max-plans 3     # exits 1, 3 plans passed

import "std/masks"
import "std/faults"
import ds "../datastore/datastore.sieve"

controller datastore {
  build     "../datastore/controller"
  crds      ["datastore_explore_crd.yaml"]
  namespace "default"
  ready     { log: "Starting workers", within: 60s }
}

workload explored {
  explore "../datastore/datastore.yaml" max 3
}

// The same operations; the differential oracle runs the final state alone.
workload final {
  explore "../datastore/datastore.yaml" max 3 states none
}

test explored {
  controller datastore
  workloads  [explored]
  masks      [masks.default, ds.cluster_uid, ds.volumes]
  runs       1
}

test final : explored {
  workloads [final]
}

// The same, with the plans of every pattern.
test faults : final {
  policies [faults.all]
}

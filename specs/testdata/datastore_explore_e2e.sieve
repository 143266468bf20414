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
// oracles alone. One reference run, to keep the test's cost down.
//
//   sieve run specs/testdata/datastore_explore_e2e.sieve   # exits 1

import "std/masks"
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

test explored {
  controller datastore
  workloads  [explored]
  masks      [masks.default, ds.cluster_uid, ds.volumes]
  runs       1
}

// settings_suffix_e2e: the settings example's fixed controller under an
// explored workload of its replicas alone (four operations) and the
// intermediate-state pattern, for TestReusePrefix in interp/pipeline:
// sieve run --reuse-prefix runs the plans of each operation after the
// first that has three or more from a checkpoint after the one before it,
// judged against suffix references, and its verdicts are those of the
// plans run from the start.
//
//   sieve run specs/testdata/settings_suffix_e2e.sieve --reuse-prefix   # exits 0

import "std/faults"
import "std/masks"

controller settings {
  build     "../settings/controller"
  crds      ["../settings/crd.yaml"]
  namespace "default"
  ready     { log: "Starting workers", within: 60s }
}

workload replicas {
  explore "../settings/webapp.yaml" only "spec.replicas" states none
}

test fixed {
  controller settings
  args       ["--fixed"]
  workloads  [replicas]
  policies   [faults.intermediate]
  masks      [masks.default]
  runs       2
}

// A spec for `sieve plan` tests: the datastore controller of the plan
// package's fixture trace (interp/analysis/plan/testdata/datastore.trace.jsonl).
import "std/faults"

controller ds {
  command   ["datastore-controller"]
  namespace "default"
}

workload recreate {
  apply  "cr.yaml"
  delete datastorecluster/default/ds
  apply  "cr.yaml"
  settle 5s
}

policy capped {
  patterns  [intermediate, unobserved]
  max_plans 3
}

plan crash_on_pvc_delete {
  after write delete persistentvolumeclaim/default/data-ds-*: crash
}

test buggy {
  controller ds
  workloads  [recreate]
  policies   [capped, faults.stale, faults.apierror]
  plans      [crash_on_pvc_delete]
}

test other {
  controller ds
  workloads  [recreate]
}

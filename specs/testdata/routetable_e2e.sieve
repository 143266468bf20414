// routetable_e2e: the routetable spec narrowed to the faults that show its
// bug, for the end-to-end test in e2e_test.go: each plan refuses one of the
// controller's updates of the routing table once with a 409 Conflict, as
// if another writer had been first. The buggy controller drops the Route
// whose update was refused; the fixed one retries it. One reference run,
// not two, to keep the test's cost down.
//
//   sieve run specs/testdata/routetable_e2e.sieve --test buggy   # exits 1
//   sieve run specs/testdata/routetable_e2e.sieve --test fixed   # exits 0

import "std/masks"
import rt "../routetable/routetable.sieve"

// table_conflicts refuses an update of the routing table with a conflict.
policy table_conflicts {
  patterns   [apierror]
  include    [{ target: configmap/default/routes, verbs: [update] }]
  api_errors [conflict]
}

test buggy {
  controller rt.routetable
  workloads  [rt.publish]
  policies   [table_conflicts]
  masks      [masks.default]
  invariants [rt.routes_published]
  runs       1
}

test fixed : buggy {
  args ["--fixed"]
}

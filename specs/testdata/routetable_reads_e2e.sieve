// routetable_reads_e2e: the routetable spec under the apierror pattern's
// reads, for the end-to-end test in e2e_test.go: each plan answers one of
// the controller's gets of the routing table (through controller-runtime's
// API reader, not its cache) once with a 500 or a 504 in the API server's
// place. The controller returns the error, its reconcile is retried, and
// the run matches the reference. One reference run, not two, to keep the
// test's cost down.
//
//   sieve run specs/testdata/routetable_reads_e2e.sieve --test fixed   # exits 0
//   sieve run specs/testdata/routetable_reads_e2e.sieve --test buggy   # exits 0: its bug is a conflict taken for done, not a failed read

import "std/masks"
import rt "../routetable/routetable.sieve"

// table_reads answers a read of the routing table with a server error.
policy table_reads {
  patterns   [apierror]
  include    [{ target: configmap/default/routes, verbs: [get, list] }]
  api_errors [internal_error, timeout]
  api_reads  [get, list]
}

test fixed {
  controller rt.routetable
  args       ["--fixed"]
  workloads  [rt.publish]
  policies   [table_reads]
  masks      [masks.default]
  invariants [rt.routes_published]
  runs       1
}

test buggy : fixed {
  args []
}

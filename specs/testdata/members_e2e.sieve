// members_e2e: the members spec narrowed to the faults that show its bug,
// for the end-to-end test in e2e_test.go: each plan answers the
// controller's call that removes kv-2 from the store wrongly once, with a
// 503 or with a connection reset before the response. The buggy
// controller takes the failed call for done; the fixed one calls again.
// One reference run, not two, to keep the test's cost down.
//
//   sieve run specs/testdata/members_e2e.sieve --test buggy   # exits 1
//   sieve run specs/testdata/members_e2e.sieve --test fixed   # exits 0

import "std/masks"
import mem "../members/members.sieve"

// remove_faults answers the admin API's remove calls wrongly.
policy remove_faults {
  patterns   [appfault]
  include    [{ target: service/default/kv-admin, verbs: [delete] }]
  app_faults [unavailable, reset]
}

test buggy {
  controller mem.members
  workloads  [mem.scaledown]
  policies   [remove_faults]
  masks      [masks.default, mem.volumes]
  invariants [mem.members_match]
  runs       1
}

test fixed : buggy {
  args ["--fixed"]
}

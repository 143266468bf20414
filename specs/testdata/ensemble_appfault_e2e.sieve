// ensemble_appfault_e2e: the ensemble spec's fixed test under the
// appfault pattern, narrowed to the controller's call that removes ens-1
// from the ensemble (DELETE /members/ens-1 to the ens-client stand-in),
// for the end-to-end test in e2e_test.go: one plan answers it 503 in the
// stand-in's place, one resets its connection, one holds it unanswered
// (hang: the controller's 5s client timeout ends it), one cuts the
// stand-in's answer short (truncated). The controller returns the error,
// its reconcile is retried, the call goes through the next time, and the
// run matches the reference. One reference run, not
// two, to keep the test's cost down.
//
//   sieve run specs/testdata/ensemble_appfault_e2e.sieve --test fixed   # exits 0

import "std/masks"
import ens "../ensemble/ensemble.sieve"

// remove_fails answers the removal of a member wrongly once.
policy remove_fails {
  patterns   [appfault]
  include    [{ target: service/default/ens-client, verbs: [delete] }]
  app_faults [unavailable, reset, hang, truncated]
}

test fixed {
  controller ens.ensemble
  args       ["--fixed"]
  workloads  [ens.scaledown_scaleup]
  policies   [remove_fails]
  masks      [masks.default, ens.volumes]
  invariants [ens.data_kept]
  runs       1
}

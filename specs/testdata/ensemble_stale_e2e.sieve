// ensemble_stale_e2e: the ensemble spec under stale answers from its
// members API: each GET /members whose answer changed in the reference
// (after the joins, the removal and the rejoin) gets the answer the one
// before it got, in the members API's place.
//
//   sieve run specs/testdata/ensemble_stale_e2e.sieve --test fixed

import "std/masks"
import ens "../ensemble/ensemble.sieve"

// stale_reads answers a read of the membership with the one before.
policy stale_reads {
  patterns   [appfault]
  include    [service/default/ens-client]
  app_faults [stale]
}

test buggy {
  controller ens.ensemble
  workloads  [ens.scaledown_scaleup]
  policies   [stale_reads]
  masks      [masks.default, ens.volumes]
  invariants [ens.data_kept]
  runs       1
}

test fixed : buggy {
  args ["--fixed"]
}

// ensemble_stale_e2e: the ensemble spec under stale answers from its
// members API: each GET /members whose answer changed in the reference
// (after the joins, the removal and the rejoin) gets the answer the one
// before it got, in the members API's place. And the spec's own plan
// stale_after_removal: the first GET /members once pod ens-1 is gone from
// the cluster gets, from the reference run, the latest earlier answer
// that differs from the one it replaces (the membership before the
// removal, ens-1 still in it).
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

// stale_after_removal answers the first read of the membership after
// ens-1's pod is gone with an older membership, ens-1 still in it.
plan stale_after_removal {
  on delete pod/default/ens-1 in cluster ; on call GET "/members" to "ens-client": appfault stale
}

test buggy {
  controller ens.ensemble
  workloads  [ens.scaledown_scaleup]
  policies   [stale_reads]
  plans      [stale_after_removal]
  masks      [masks.default, ens.volumes]
  invariants [ens.data_kept]
  runs       1
}

test fixed : buggy {
  args ["--fixed"]
}

// ring_e2e: the ring spec narrowed to the one plan that shows its bug,
// for the end-to-end test in e2e_test.go: a crash right after the
// controller records in the Ring's status that ring-2 is being
// decommissioned, before it asks ring-2's agent to leave. One reference
// run, not two, to keep the test's cost down.
//
//   sieve run specs/testdata/ring_e2e.sieve --test buggy   # exits 1
//   sieve run specs/testdata/ring_e2e.sieve --test fixed   # exits 0

import "std/masks"
import r "../ring/ring.sieve"

// crash_after_record is the intermediate-state plan that sieve generates
// for that status write, written out.
plan crash_after_record {
  after write patch ring.ring.sieve.dev/default/ring subresource status changing { "status": {} } to { "status": { "decommissioning": "ring-2" } }: crash
}

test buggy {
  controller r.ring
  workloads  [r.scaledown]
  plans      [crash_after_record]
  masks      [masks.default]
  invariants [r.no_dead_nodes]
  runs       1
}

test fixed : buggy {
  args += ["--fixed"]
}

// volresize_e2e: the volresize spec narrowed to the one fault that shows its
// bug, for sievetest's end-to-end tests (sievetest/sievetest_test.go, and
// cmd/sieve's TestDownstream): a crash right after the controller deletes
// the StatefulSet, before it recreates it.
//
//   sieve run specs/testdata/volresize_e2e.sieve --test buggy   # exits 1
//   sieve run specs/testdata/volresize_e2e.sieve --test fixed   # exits 0

import "std/masks"
import vr "../volresize/volresize.sieve"

// crash_after_delete crashes the controller after its StatefulSet delete.
policy crash_after_delete {
  patterns [intermediate]
  include  [{ target: statefulset/default/bc, verbs: [delete] }]
}

test buggy {
  controller vr.volresize
  workloads  [vr.resize]
  policies   [crash_after_delete]
  masks      [masks.default, vr.volumes]
  invariants [vr.claims_resized]
}

test fixed : buggy {
  args ["--fixed"]
}

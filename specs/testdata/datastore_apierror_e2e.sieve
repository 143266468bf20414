// datastore_apierror_e2e: the datastore spec's fixed test under the apierror
// pattern, narrowed to the writes that create its StatefulSet and add its
// finalizer, for the end-to-end test in e2e_test.go: each plan answers one
// of them once with an API error in the API server's place (a conflict
// for the update, which carries its resourceVersion; a server error; a
// timeout once the create was applied), the controller retries, and the
// run matches the reference; and the StatefulSet's creation, each time
// the controller is told of it, ends that watch with 410 Expired (gone):
// the controller lists again and goes on. One reference run, not two, to
// keep the test's cost down.
//
//   sieve run specs/testdata/datastore_apierror_e2e.sieve --test fixed   # exits 0

import "std/masks"
import ds "../datastore/datastore.sieve"

// create_errors fails the StatefulSet's create with a server error, and
// with a timeout once it was applied (the controller's retry finds it
// exists).
policy create_errors {
  patterns   [apierror]
  include    [{ target: statefulset/default/ds, verbs: [create] }]
  api_errors [internal_error, timeout_applied]
}

// update_conflicts refuses an update of the Datastore (its finalizer added
// or removed) with a conflict, as if another writer had been first.
policy update_conflicts {
  patterns   [apierror]
  include    [{ target: datastore/default/ds, verbs: [update] }]
  api_errors [conflict]
}

// watch_ends ends the controller's watch of StatefulSets with 410 Expired
// right after it delivers the StatefulSet's creation.
policy watch_ends {
  patterns   [apierror]
  include    [{ target: statefulset/default/ds, verbs: [create] }]
  api_errors [gone]
}

test fixed {
  controller ds.datastore
  args       ["--fixed"]
  workloads  [ds.recreate(replicas = 3)]
  policies   [create_errors, update_conflicts, watch_ends]
  masks      [masks.default, ds.cluster_uid, ds.volumes]
  invariants [ds.data_kept]
  runs       1
}

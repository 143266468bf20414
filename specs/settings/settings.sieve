// settings: a property read on creation and ignored on update, found by
// sieve explore's consistency oracle, not by a hand-written workload. See
// README.md.
//
//   sieve explore specs/settings/settings.sieve --seed specs/settings/webapp.yaml --print
//   sieve record  specs/settings/settings.sieve --test buggy --runs 1 -o rec
//   sieve explore specs/settings/settings.sieve --seed specs/settings/webapp.yaml --check rec/reference/run-1/trace.jsonl   # exits 1
//   (the same with --test fixed exits 0)
//   sieve run     specs/settings/settings.sieve --test scale   # exits 0: the workload never changes spec.logLevel

import "std/faults"
import "std/masks"
import "./explored.sieve"

controller settings {
  build     "./controller"
  crds      ["crd.yaml"]
  namespace "default"
  ready     { log: "Starting workers", within: 60s }
}

// Create a WebApp and scale it up: what an operator's own tests do.
workload scale {
  apply  "webapp.yaml"
  wait   webapp/default/web where status.readyReplicas == 2 within 90s
  patch  webapp/default/web merge { spec: { replicas: 3 } }
  wait   webapp/default/web where status.readyReplicas == 3 within 90s
  settle 2s
}

// The servers' configuration file carries the WebApp's log level.
invariant config_current end `
  object("configmap", "default", "web-config").data["server.conf"]
    .contains("log-level " + object("webapp", "default", "web").spec.logLevel)
`

// buggy runs the operations sieve explore generated from the CRD's schema
// (explored.sieve, printed by sieve explore --print): record one run of it,
// then judge its trace with sieve explore --check.
test buggy {
  controller settings
  workloads  [explored.explored]
  masks      [masks.default]
  runs       1
}

test fixed : buggy {
  args ["--fixed"]
}

// scale runs the hand-written workload under every fault pattern against
// the buggy controller: it never changes spec.logLevel, so no plan finds
// the bug.
test scale {
  controller settings
  workloads  [scale]
  policies   [faults.all, faults.apierror]
  masks      [masks.default]
  invariants [config_current]
}

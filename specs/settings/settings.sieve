// settings: a property read on creation and ignored on update, found by
// an explored workload's consistency oracle, not by a hand-written
// workload. See README.md.
//
//   sieve run specs/settings/settings.sieve --test buggy   # exits 1: spec.logLevel changes leave no trace
//   sieve run specs/settings/settings.sieve --test fixed   # exits 0
//   sieve run specs/settings/settings.sieve --test scale   # exits 0: the workload never changes spec.logLevel

import "std/faults"
import "std/masks"

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

// The operations explored from the CRD's schema and the seed: each other
// log level, the replica bounds and the values beside them, one merge
// patch and a settle each (sieve explore specs/settings/settings.sieve
// --seed specs/settings/webapp.yaml lists them).
workload explored {
  explore "webapp.yaml"
}

// buggy runs the explored workload with no fault: the explored run's
// oracles judge it, and the run applying its final state at once.
test buggy {
  controller settings
  workloads  [explored]
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
  policies   [faults.all]
  masks      [masks.default]
  invariants [config_current]
}

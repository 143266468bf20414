// Every declaration of the standard library, used from a .sieve spec; its
// twin stdlib.cue uses the CUE form (sieve.dev/std).
import "std/masks"
import "std/faults"
import "std/workloads"
import "std/invariants"

controller app {
  command ["bin/operator", "--zap-devel"]
  namespaces ["default", "other"]
}

test all {
  controller app
  workloads  [
    workloads.recreate(manifest = "app.yaml", target = configmap/default/app),
    workloads.scale(manifest = "web.yaml", target = deployment/default/web, high = 5, timeout = 90s),
    workloads.update_while_reconciling(manifest = "app.yaml", target = configmap/default/app,
      change = { data: { key: "v2" } }),
  ]
  policies   [faults.intermediate, faults.stale, faults.unobserved, faults.all]
  masks      [masks.default, masks.restarts]
  invariants [
    invariants.exists(kind = "configmap", name = "app"),
    invariants.claims_kept(set = "web", replicas = 3, claim = "logs"),
  ]
}

// routetable: a conflict on a write taken for done, found by the apierror
// pattern alone. See README.md.
//
//   sieve run specs/routetable/routetable.sieve --test buggy   # exits 1: a route never published
//   sieve run specs/routetable/routetable.sieve --test fixed   # exits 0

import "std/faults"
import "std/masks"

controller routetable {
  build     "./controller"
  crds      ["crd.yaml"]
  namespace "default"
  ready     { log: "Starting workers", within: 60s }
}

// Create three Routes, then move one to another port. The controller
// creates the routing table with the first Route's entry, adds the other
// two with an update each, and updates the moved Route's entry.
workload publish {
  apply  "routes.yaml"
  wait   configmap/default/routes where data.shop exists within 60s
  patch  route/default/shop merge { spec: { port: 8081 } }
  settle 2s
}

// Every Route has its entry in the routing table, as it is now.
invariant routes_published end `
  objects("route", "default").all(r,
    r.metadata.name in object("configmap", "default", "routes").data &&
    object("configmap", "default", "routes").data[r.metadata.name] ==
      r.spec.host + " " + r.spec.service + ":" + string(r.spec.port))
`

// buggy runs every pattern (faults.all has apierror): only apierror's
// conflicts find the bug.
test buggy {
  controller routetable
  workloads  [publish]
  policies   [faults.all]
  masks      [masks.default]
  invariants [routes_published]
}

test fixed : buggy {
  args ["--fixed"]
}

// ring: an intermediate-state bug in a controller that calls an agent in
// each of its pods by IP, and elects its leader with a ConfigMap and a
// Lease. See README.md.
//
//   sieve run specs/ring/ring.sieve --test buggy   # exits 1: a dead node left in the ring
//   sieve run specs/ring/ring.sieve --test fixed   # exits 0

import "std/faults"
import "std/masks"

// The controller calls each node's agent at http://POD_IP:4567; the
// stand-in ./agent (a Go HTTP server) answers at the IP of every pod
// labelled app=ring-node, in the controller's private network, and tells
// the pods apart by the address each call comes from. The lease is
// shorter than controller-runtime's 15s so that a restarted controller
// takes over the lock of the one sieve killed within a few seconds; both
// halves of the lock are renewed every 2s, as controller-runtime does.
controller ring {
  build     "./controller"
  args      ["--lease-duration=6s", "--renew-deadline=4s", "--retry-period=2s"]
  crds      ["crd.yaml"]
  namespace "default"
  ready     { log: "Starting workers", within: 90s }
  standin   { "pods app=ring-node:4567": ["go", "run", "github.com/sievetool/sieve/specs/ring/agent"] }
}

// Create a three-node ring, then scale it down to two: the controller
// records that ring-2 is being decommissioned, asks its agent to leave
// the ring, and once it has, shrinks the StatefulSet.
workload scaledown {
  apply  "ring.yaml"
  wait   ring/default/ring where status.nodes == "ring-0:UN ring-1:UN ring-2:UN" within 90s
  patch  ring/default/ring merge { spec: { replicas: 2 } }
  wait   statefulset/default/ring where spec.replicas == 2 within 60s
  wait   pod/default/ring-2 gone within 60s
  settle 2s
}

// Every node of the ring is up: none was lost without leaving it.
invariant no_dead_nodes end `
  !object("ring", "default", "ring").status.nodes.contains(":DN")
`

test buggy {
  controller ring
  workloads  [scaledown]
  policies   [faults.intermediate]
  masks      [masks.default]
  invariants [no_dead_nodes]
}

test fixed : buggy {
  args += ["--fixed"]
}

// The explore step: the same operations, patches and marks as the
// .sieve checker's (lang/check/testdata/explore.txtar).
controller c {
  command "true"
  crds    ["crd.yaml"]
}

workload w(n = 3) {
  explore "cr.yaml" max n only "spec.*" skip "spec.mode" seed 3
  wait    thing/default/t exists within 5s
}

workload all {
  explore "cr.yaml" states all
}

workload some(k = 2) {
  explore "cr.yaml" max 3 states k
}

workload final {
  explore "cr.yaml" max 1 states none
}

test t {
  controller c
  workloads  [w]
}

test every {
  controller c
  workloads  [all]
}

test some {
  controller c
  workloads  [some]
}

test final {
  controller c
  workloads  [final]
}

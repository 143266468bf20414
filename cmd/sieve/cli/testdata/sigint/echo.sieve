// A quick spec for the interrupt tests (interrupt_e2e_test.go): the echo
// controller of interp/run/controller/testdata copies ConfigMap in-X to out-X.
// Four user plans give the test time to interrupt the run between two.
import "std/masks"

controller echo {
  build     "../../../../../interp/run/controller/testdata/echo"
  namespace "default"
  ready     { log: "READY", within: 60s }
}

workload copy {
  apply  "in.yaml"
  wait   configmap/default/out-a exists within 30s
  wait   configmap/default/out-b exists within 30s
  settle 1s
}

plan crash_a {
  after write create configmap/default/out-a: crash
}

plan crash_b {
  after write create configmap/default/out-b: crash
}

plan restart_a {
  after write create configmap/default/out-a: restart
}

plan restart_b {
  after write create configmap/default/out-b: restart
}

test copy {
  controller echo
  workloads  [copy]
  plans      [crash_a, crash_b, restart_a, restart_b]
  masks      [masks.default]
}

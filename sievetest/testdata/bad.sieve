// bad.sieve: a spec that does not check, for TestSpecError.

controller broken {
  build     "./controller"
  namespace "default"
}

test buggy {
  controller brokn
  workloads  [nothing]
}

// Shared declarations, imported by constructs.sieve as "./common/lib.sieve".

controller shared {
  command    ["bin/op"]
  kubeconfig env
}

workload base(replicas = 2) {
  apply "base.yaml" set { spec.replicas: replicas }
}

mask shared_mask {
  key "uid"
}

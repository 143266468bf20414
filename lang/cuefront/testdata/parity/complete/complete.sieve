import "std/masks"
import "std/faults"

controller datastore {
  build     "./controller"
  args      ["--leader-elect=false"]
  env       { GOFLAGS: "-mod=mod" }
  crds      ["crd.yaml"]
  namespace "default"
  ready     { log: "Starting workers", within: 30s }
}

workload recreate(name = "ds", replicas = 3) {
  apply  "cluster.yaml" set { metadata.name: name, spec.replicas: replicas }
  wait   datastorecluster/default/${name} ready within 60s
  delete datastorecluster/default/${name}
  wait   pod/default/${name}-* gone within 60s
  apply  "cluster.yaml"
  settle 5s
}

mask volatile {
  statefulset/*/* path spec.template.metadata.annotations."restartedAt"
}

invariant pvcs always `
  objects("persistentvolumeclaim", "default")
    .filter(p, p.metadata.name.startsWith("data-ds-")).size() <= 3
`

invariant pods_gone eventually between recreate[3] and recreate[5] `objects("pod", "default").size() == 0`

invariant kept(name, ns = "default", n = 1) end `objects("persistentvolumeclaim", ns).filter(p, p.metadata.name == name).size() == n`

test buggy {
  controller datastore
  workloads  [recreate(replicas = 3)]
  policies   [faults.intermediate, faults.stale, faults.unobserved]
  masks      [masks.default, volatile]
  invariants [pvcs, pods_gone, kept("data-ds-0")]
  converge   10s
  quiet      250ms
  settle     3s
  settle_max 45s
}

test fixed : buggy {
  args += ["--fixed"]
}

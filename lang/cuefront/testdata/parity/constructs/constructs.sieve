// Every construct of the language, once; constructs.cue is its CUE twin.

import common "./common/lib.sieve"

controller ds {
  build      "./ctl"
  args       ["--leader-elect=false"]
  env        { LOG_LEVEL: "debug", WORKERS: 4, DRY: false }
  dir        "work"
  crds       ["crd.yaml"]
  namespaces ["default", "other"]
  kubeconfig { env: true, flag: "--kubeconfig", incluster: false }
  ready      { http: "http://127.0.0.1:8081/readyz", within: 45s }
  replaces   ["statefulset"]
  exec       [
    { pod: "zk-*", container: "zk", command: ["zkCli.sh", "get", "..."], stdout: "ok\n", exit: 1 },
    { pod: "admin-0", namespace: "other", command: ["admin"], run: ["./ctl/main.go", "-q"] },
  ]
  standin    {
    "db-client:5000":                  ["./ctl/main.go", "-db"]
    "pods app=agent, tier!=cache:9090": { command: ["./ctl/main.go"], env: { MODE: "agent" } }
  }
}

controller builtinsts {
  builtin    "statefulset"
  kubeconfig incluster
}

controller flagged {
  command    "/bin/true"
  kubeconfig "--kubeconfig"
  ready      { log: "Starting workers" }
}

workload scale_up_down(name = "web", replicas = 5, ratio = 1.5, labels = { tier: "front" }) {
  apply `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
` set { metadata.name: name, metadata.labels: labels, spec.template.spec.containers[0].image: "nginx:2" }
  wait   deployment/default/${name} ready within 60s
  scale  deploy/default/${name} to replicas
  wait   pod/default/${name}-* 3 ready within 2m
  patch  deployment/default/${name} { spec: { replicas: 1, paused: null } }
  patch  deployment/default/${name} json `[{"op": "replace", "path": "/spec/paused", "value": true}]`
  patch  deployment/default/${name} strategic { spec: { template: { spec: { containers: [ { name: "c", image: "nginx:2" } ] } } } }
  patch  deployment/default/${name} merge "{\"metadata\": {\"labels\": {\"x\": \"y\"}}}"
  wait   deployment/default/${name} where spec.replicas == 1 within 30s
  wait   deployment/default/${name} where metadata.deletionTimestamp exists
  wait   deployment/default/${name} where "object.status.readyReplicas == object.spec.replicas"
  wait   deployment/default/${name} exists
  wait   until `objects("pod", "default").size() == 1` within 2m
  delete deployment/default/${name}
  wait   deployment/default/${name} gone within 30s
  settle
  settle 2s
}

workload touch {
  apply "web.yaml"
  settle
}

policy everything {
  patterns  [intermediate, stale, unobserved]
  include   [statefulset/*/*, { target: pod/default/ds-*, verbs: [delete, update] }, namespace/prod]
  exclude   [lease/*/*]
  max_plans 50
  prune     { causality: true, noop: false, duplicates: false }
  stale_for 10s
  stale_quiet 2s
}

policy unpruned {
  patterns [stale]
  prune    false
}

mask noisy {
  key uid
  key "resourceVersion"
  path metadata.annotations."kubectl.kubernetes.io/last-applied-configuration"
  path status.conditions[*].lastTransitionTime
  value timestamp
  value ip
  pod/*/* path spec.nodeName
  lease/kube-system/* whole
  replicaset/*/* key "pod-template-hash" in end
  pod/*/* key restartCount in history
}

invariant one_leader always `objects("lease", "default").size() <= 1`
invariant all_bound end "objects(\"persistentvolumeclaim\", \"default\").all(p, p.status.phase == \"Bound\")"
invariant defaulted `object("configmap", "default", "app") != null`

plan crash_between_writes {
  after write delete statefulset/default/ds: crash
}

plan time_travel {
  on update datastorecluster/default/ds where metadata.deletionTimestamp exists: stale on datastorecluster/default/ds
  restart
  after 30s: stale off datastorecluster/default/ds
}

plan skip_deletion {
  on update pod/default/ds-0 where status.phase == "Running" #2: hold pod/default/ds-0
  on delete pod/default/ds-0: release pod/default/ds-0
}

plan combined {
  (on create pod/default/ds-* #2 & after write create pvc/default/*) | after 2m: crash
  on update statefulset/default/ds where "object.spec.replicas > 3" ; after write update statefulset/default/ds ; after 1s: restart
  after write patch statefulset/default/ds & on delete pod/default/* & after 5s: crash
  wait 5s
  crash
}

test basic {
  controller ds
  workloads  [scale_up_down(replicas = 3), scale_up_down("api", ratio = 2.5), touch]
  policies   [everything, unpruned]
  masks      [noisy]
  invariants [one_leader, all_bound, defaulted]
  plans      [crash_between_writes, time_travel, skip_deletion, combined]
  runs       3
  kubernetes "1.21"
}

test derived : basic {
  args      += ["--fixed"]
  env       += { LOG_LEVEL: "info" }
  workloads += [touch]
  namespaces ["default"]
}

test builtin {
  controller builtinsts
  workloads  [touch]
}

test flag {
  controller flagged
  workloads  [touch]
  args       ["-v"]
}

test imported {
  controller common.shared
  workloads  [common.base(replicas = 4)]
  masks      [common.shared_mask]
}

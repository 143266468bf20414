// The constructs that hold a race open, in both front ends.

controller c {
  command "true"
}

workload race(pause = 3s) {
  apply "pvc.yaml"
  sleep 2s
  wait  pvc/default/x exists within 20s else continue
  wait  until `objects("pod", "default").size() == 1` else continue
  sleep pause
}

policy long_holds {
  patterns [unobserved]
  hold_for 30s
  stale_for 8s
}

plan late {
  on update pvc/default/x: hold pvc/default/x for 25s
  on delete pvc/default/x: release pvc/default/x
  on delete pvc/default/x: stale on pvc/default/x at on update pvc/default/x where metadata.labels.app == "a" #2
  restart
  after failed write update pvc/default/x subresource status #2: crash
  on update pvc/default/x in cluster changing { "spec": { "size": 1 } } to { "spec": { "size": 2, "tags": ["a", null] } }: hold pvc/default/x
  on update pvc/default/x without { "metadata": { "labels": { "a": "b" } } } | on delete pvc/default/x: release pvc/default/x
  quiet for 1s after reading pvc/default/x | after 5s: stale off pvc/default/x
  after write update pvc/default/x: pause for 20s
  on delete pvc/default/x: resume
  on create pvc/default/x: pause
  resume
}

test t {
  controller c
  workloads  [race]
  policies   [long_holds]
  plans      [late]
}

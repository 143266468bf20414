controller c {
  command "true"
}

workload w {
  settle
}

plan answers {
  after sending write update statefulset/default/ds subresource status #2: error conflict
  on update pod/default/web-0: error gone
  on call DELETE "/members/kv-2" to "kv-admin": appfault unavailable
  on call exec ["db-ctl", "leave"] in pod/default/web-0 #2: appfault exec_error
  on call to "pods app=kv" in pod/default/kv-*: appfault reset
  after 10s ; on call exec: appfault exec_error
  on call: crash
  on call GET "/members" to "kv-admin" changed #2: appfault stale
  on read get statefulset/default/ds #2: error internal_error
  on read list pod/default/*: error timeout
}

policy reads {
  patterns   [apierror]
  api_errors [internal_error, timeout]
  api_reads  [get, list]
  include    [{ target: statefulset/*/*, verbs: [get, list] }]
}

test t {
  controller c
  workloads  [w]
  plans      [answers]
  policies   [reads]
}

// Specs for the end-to-end test of exec stand-ins (exec_e2e_test.go). The
// execer controller (./execer) runs the command of ConfigMap "ask" in pod
// zk-0 through pods/exec, as kubectl does, and writes what it got into
// ConfigMap "answer".

controller execer {
  build     "./execer"
  args      ["-namespace=e2e"]
  namespace "e2e"
  ready     { log: "^READY$", within: 90s }
  exec [
    { pod: "zk-*", container: "zk", command: ["zkCli.sh", "get", "..."], stdout: "server.1=zk-0:2888:3888\n", stderr: "WATCHER::\n" },
    { pod: "zk-?", command: ["zkCli.sh", "rmr", "*"], stderr: "Node not empty\n", exit: 3 },
    { pod: "zk-*", command: ["admin", "..."], run: ["sh", "-c", "tr a-z A-Z; echo \"$SIEVE_EXEC_POD: $*\" >&2; exit 4", "fake-admin"] },
  ]
}

// Ask for command in zk-0, with stdin, and wait for the answer.
workload ask(command = "zkCli.sh get /zookeeper/config", stdin = "") {
  apply `
apiVersion: v1
kind: Pod
metadata: {name: zk-0}
spec:
  containers: [{name: zk, image: zookeeper:3.9}]
`
  wait pod/e2e/zk-0 ready within 60s
  apply `
apiVersion: v1
kind: ConfigMap
metadata: {name: ask}
data: {pod: zk-0, container: zk}
` set { data.command: command, data.stdin: stdin }
  wait   configmap/e2e/answer exists within 60s
  settle 500ms
}

test reply {
  controller execer
  workloads  [ask]
}

test failing {
  controller execer
  workloads  [ask(command = "zkCli.sh rmr /zookeeper")]
}

test program {
  controller execer
  workloads  [ask(command = "admin rebalance --now", stdin = "hello")]
}

test none {
  controller execer
  workloads  [ask(command = "rebalance now")]
}

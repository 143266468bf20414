// Specs for the in-cluster end-to-end tests (podop_e2e_test.go). The
// podop operator (./podop) runs in its emulated pod, becomes leader as
// operator-lib does (its own Pod, a lock owned by it), and copies
// ConfigMap in-X to out-X in namespace e2e.

controller podop {
  build      "./podop"
  namespace  "e2e"
  kubeconfig incluster
  pod {
    labels: { name: "podop" }
    serviceAccount: "podop"
    env: { MY_UID: "metadata.uid" }
  }
  ready      { log: "^READY$", within: 90s }
}

workload copy {
  apply `
apiVersion: v1
kind: ConfigMap
metadata: {name: in-a}
data: {v: "1"}
`
  wait  configmap/e2e/out-a where data.v == "1" within 60s
  patch configmap/e2e/in-a { data: { v: "2" } }
  wait  configmap/e2e/out-a where data.v == "2" within 60s
  settle 500ms
}

test leader { controller podop workloads [copy] }

// podop binding a fixed port for its health endpoint, found ready there.
controller fixedport {
  build      "./podop"
  args       ["-listen=127.0.0.1:18080"]
  namespace  "e2e"
  kubeconfig incluster
  ready      { http: "http://127.0.0.1:18080/healthz", within: 90s }
}

workload copyonce {
  apply `
apiVersion: v1
kind: ConfigMap
metadata: {name: in-a}
data: {v: "1"}
`
  wait configmap/e2e/out-a where data.v == "1" within 60s
  settle 2s
}

test fixedport { controller fixedport workloads [copyonce] runs 2 }

// podop asking a stand-in for Service db-client by its short, .svc and
// full names.
controller withdb {
  build      "./podop"
  args       ["-standin=http://db-client:5000/,http://db-client.e2e.svc:5000/,http://db-client.e2e.svc.cluster.local:5000/"]
  namespace  "e2e"
  kubeconfig incluster
  ready      { log: "^READY$", within: 90s }
  standin    { "db-client:5000": ["./fakedb"] }
}

workload askdb {
  apply `
apiVersion: v1
kind: ConfigMap
metadata: {name: in-a}
data: {v: "1"}
`
  wait configmap/e2e/out-a where data.standin == "fakedb fakedb fakedb" within 60s
  settle 500ms
}

test standin { controller withdb workloads [askdb] }

// podop calling every other pod of its namespace by IP on port 9090:
// the pods labelled app=agent are answered by one stand-in, which tells
// which pod each call reached; the other pod refuses.
controller withagents {
  build      "./podop"
  args       ["-agents=9090"]
  namespace  "e2e"
  kubeconfig incluster
  ready      { log: "^READY$", within: 90s }
  standin    { "pods app=agent:9090": ["./fakeagent"] }
}

workload askagents {
  apply `
apiVersion: v1
kind: Pod
metadata: {name: agent-0, labels: {app: agent}}
spec: {containers: [{name: a, image: agent}]}
---
apiVersion: v1
kind: Pod
metadata: {name: agent-1, labels: {app: agent}}
spec: {containers: [{name: a, image: agent}]}
---
apiVersion: v1
kind: Pod
metadata: {name: web-0, labels: {app: web}}
spec: {containers: [{name: w, image: web}]}
`
  wait pod/e2e/agent-* 2 ready within 60s
  wait pod/e2e/web-0 ready within 60s
  apply `
apiVersion: v1
kind: ConfigMap
metadata: {name: in-a}
data: {v: "1"}
`
  wait configmap/e2e/out-a where data.agents == "agent-0=e2e/agent-0 agent-1=e2e/agent-1 web-0=refused" within 60s
  settle 500ms
}

test agents { controller withagents workloads [askagents] }

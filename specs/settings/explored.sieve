// 7 explored operations of webapp/default/web (sieve explore):
// 1. spec.logLevel enum "debug"
// 2. spec.logLevel enum "warn"
// 3. spec.logLevel enum "error"
// 4. spec.replicas bound 1
// 5. spec.replicas beside 4
// 6. spec.replicas bound 5
// 7. spec.replicas beside 3
workload explored {
  apply  "webapp.yaml"
  settle
  patch  webapp/default/web merge { spec: { logLevel: "debug" } }
  settle
  patch  webapp/default/web merge { spec: { logLevel: "warn" } }
  settle
  patch  webapp/default/web merge { spec: { logLevel: "error" } }
  settle
  patch  webapp/default/web merge { spec: { replicas: 1 } }
  settle
  patch  webapp/default/web merge { spec: { replicas: 4 } }
  settle
  patch  webapp/default/web merge { spec: { replicas: 5 } }
  settle
  patch  webapp/default/web merge { spec: { replicas: 3 } }
  settle
}

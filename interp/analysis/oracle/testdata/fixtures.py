"""Regenerates the trace fixtures of interp/analysis/oracle/testdata/*.txtar and of
interp/report/testdata/results: python3 interp/analysis/oracle/testdata/fixtures.py
Tests do not run it; they read what it wrote. After running it, refresh the
expected outputs with SIEVE_UPDATE=1 go test ./interp/analysis/oracle ./interp/report.
"""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = HERE
T0 = "2026-12-02T10:00:00Z"

def obj(kind, name, uid, rv, ns="default", **fields):
    o = {"metadata": {"name": name, "namespace": ns, "uid": uid, "resourceVersion": str(rv),
                      "creationTimestamp": "2026-12-02T10:00:%02dZ" % (rv % 60)}}
    o.update(fields)
    return o

class Trace:
    def __init__(self, run=1, plan="", pattern="", uidseed="a"):
        self.h = {"sieveTrace": 1, "test": "buggy", "spec": "specs/ds/ds.sieve", "run": run,
                  "started": T0}
        if plan:
            self.h["plan"] = plan
            self.h["pattern"] = pattern
        self.e = []
        self.rv = 100
        self.u = uidseed
    def add(self, **kw):
        kw = dict(kw)
        kw["seq"] = len(self.e) + 1
        ms = len(self.e) * 450 + (len(self.e) * 37) % 200
        kw["time"] = "2026-12-02T10:%02d:%02d.%03dZ" % (ms // 60000, (ms // 1000) % 60, ms % 1000)
        self.e.append(kw)
    def hist(self, event, kind, name, ns="default", **fields):
        if kind in ("statefulset", "persistentvolumeclaim") and event != "MODIFIED" or (kind == "statefulset"):
            verb = {"ADDED": "create", "MODIFIED": "update", "DELETED": "delete"}[event]
            code = {"create": 201, "update": 200, "delete": 200}[verb]
            self.add(type="request", key={"kind": kind, "namespace": ns, "name": name}, verb=verb, code=code)
        self.rv += 1
        key = {"kind": kind, "namespace": ns, "name": name}
        if not ns:
            del key["namespace"]
        o = obj(kind, name, "%s-%s" % (self.u, name), self.rv, ns=ns, **fields)
        self.add(type="history", key=key, event=event, resourceVersion=str(self.rv), object=o)
        if kind in ("datastore.example.com", "statefulset", "persistentvolumeclaim"):
            self.add(type="delivery", key=key, event=event, resourceVersion=str(self.rv), object=o)
    def step(self, i, phase, error=None):
        kw = dict(type="step", workload="recreate", index=i, phase=phase, src="specs/ds/ds.sieve:%d:3" % (10 + i))
        if error:
            kw["error"] = error
        self.add(**kw)
    def ctl(self, what, **kw):
        self.add(type="controller", what=what, **kw)
    def fault(self):
        self.add(type="fault", action=0, message="crash")
    def text(self):
        return "".join(json.dumps(x, sort_keys=False) + "\n" for x in [self.h] + self.e)

def base(t, replicas=3, pvcs=3, ready=3, extra=None, skip_pvc=None, lease="ctl-1", podcount=2, recreate_pvc=None,
         transient_replicas=None, generated_prefix="web-", fail_step=None, end_steps=True, late_fault=False,
         more=None):
    t.ctl("start", pid=100)
    t.step(0, "start")
    t.hist("ADDED", "datastore.example.com", "ds", spec={"replicas": replicas})
    t.hist("ADDED", "lease", "ds-controller", spec={"holderIdentity": lease})
    t.hist("ADDED", "statefulset", "ds", spec={"replicas": replicas, "serviceName": "ds"}, status={"readyReplicas": 0})
    for i in range(pvcs):
        t.hist("ADDED", "persistentvolumeclaim", "data-ds-%d" % i, spec={"resources": {"requests": {"storage": "1Gi"}}})
    for i in range(podcount):
        n = "%s%s" % (generated_prefix, ["x7k2p", "q9z4m", "b3n8v", "r5t1c"][i if t.u == "a" else 3 - i])
        t.hist("ADDED", "pod", n, status={"phase": "Running", "podIP": "10.244.0.%d" % (i + 3)},
               **{"spec": {"containers": [{"name": "web", "image": "web:1"}]}})
        t.e[-1]["object"]["metadata"]["generateName"] = generated_prefix
    t.step(0, "end")
    t.step(1, "start")
    if "plan" in t.h and not late_fault:
        t.fault()
    if recreate_pvc:
        t.hist("DELETED", "persistentvolumeclaim", recreate_pvc, spec={"resources": {"requests": {"storage": "1Gi"}}})
        t.hist("ADDED", "persistentvolumeclaim", recreate_pvc, spec={"resources": {"requests": {"storage": "1Gi"}}})
    if "plan" in t.h and late_fault:
        t.fault()
    if transient_replicas:
        t.hist("MODIFIED", "statefulset", "ds", spec={"replicas": transient_replicas, "serviceName": "ds"}, status={"readyReplicas": 0})
    t.hist("MODIFIED", "statefulset", "ds", spec={"replicas": replicas, "serviceName": "ds"}, status={"readyReplicas": ready})
    if skip_pvc is not None:
        t.hist("DELETED", "persistentvolumeclaim", "data-ds-%d" % skip_pvc, spec={"resources": {"requests": {"storage": "1Gi"}}})
    if extra:
        t.hist("ADDED", "configmap", extra, data={"k": "v"})
    if more:
        more(t)
    t.hist("MODIFIED", "lease", "ds-controller", spec={"holderIdentity": lease + "-renewed"})
    if end_steps:
        t.step(1, "end", error=fail_step)

STD = [{"name": "std", "rules": [
    {"target": {"kind": "*", "namespace": "*", "name": "*"}, "key": "uid"},
    {"target": {"kind": "*", "namespace": "*", "name": "*"}, "key": "resourceVersion"},
    {"target": {"kind": "*", "namespace": "*", "name": "*"}, "value": "timestamp"},
    {"target": {"kind": "*", "namespace": "*", "name": "*"}, "value": "ip"}]}]
OWN = [{"kind": "lease", "namespace": "default", "name": "ds-controller"}]

def refs(**kw):
    r1 = Trace(1, uidseed="a"); base(r1, lease="ctl-1", **kw)
    r2 = Trace(2, uidseed="b"); base(r2, lease="ctl-2", **kw)
    return [r1, r2]

def test_trace(fault=True, **kw):
    t = Trace(0, plan="intermediate-3", pattern="intermediate", uidseed="c")
    base(t, lease="ctl-3", **kw)
    return t

def write(name, comment, rs, t, options):
    parts = [comment.strip() + "\n"]
    for i, r in enumerate(rs):
        parts.append("-- ref%d.jsonl --\n" % (i + 1) + r.text())
    parts.append("-- test.jsonl --\n" + t.text())
    parts.append("-- options.json --\n" + json.dumps(options, indent=2) + "\n")
    open(os.path.join(OUT, name + ".txtar"), "w").write("".join(parts))

def opts(**kw):
    o = {"masks": STD, "ownKeys": OWN}
    o.update(kw)
    return o

def with_fault(t):
    # a fault entry after the first history event: the plan fired
    return t

write("equal", "Two reference runs and a test run that differ only in masked fields (uids,\nresourceVersions, timestamps, pod IPs), in the controller's own lease and in\ngenerated pod names: no finding.",
      refs(), with_fault(test_trace()), opts())
write("field", "The StatefulSet ends with readyReplicas 2 instead of 3: one field finding.",
      refs(), with_fault(test_trace(ready=2)), opts())
write("missing", "A PVC the reference keeps is gone at the end of the test run: one finding.",
      refs(), with_fault(test_trace(skip_pvc=1)), opts())
write("extra", "The test run leaves a ConfigMap the reference does not have: one finding.",
      refs(), with_fault(test_trace(extra="leftover")), opts())
write("count", "A PVC is deleted and recreated during the test run; the end state is the same\nas the reference, the creation/deletion counts are not: one finding.",
      refs(), with_fault(test_trace(recreate_pvc="data-ds-0")), opts())
write("count-before-fault", "A PVC is deleted and recreated in the test run before the plan's fault\nfires, and not after: the fault-free part of the run did more than the whole\nreference, which is nondeterminism the reference runs missed, not the\nplan's doing: no finding.",
      refs(), with_fault(test_trace(recreate_pvc="data-ds-0", late_fault=True)), opts())
write("generated", "Pods with generated names (generateName web-) are compared by count per\nprefix: three at the end instead of two gives one finding.",
      refs(), with_fault(test_trace(podcount=3)), opts())
write("masked", "Every difference is masked: the spec masks status.readyReplicas on\nStatefulSets, the whole leftover ConfigMap, and the\nhistory of data-ds-0 for the history oracle: no finding.",
      refs(), with_fault(test_trace(ready=2, extra="leftover", recreate_pvc="data-ds-0")),
      opts(masks=STD + [{"name": "spec", "rules": [
          {"target": {"kind": "statefulset", "namespace": "*", "name": "*"}, "path": "status.readyReplicas"},
          {"target": {"kind": "configmap", "namespace": "default", "name": "left*"}, "whole": True},
          {"target": {"kind": "persistentvolumeclaim", "namespace": "default", "name": "data-ds-0"}, "whole": True, "oracle": "history"}]}]))
# learned: the two references differ in readyReplicas, in the leftover configmap, and in the recreate of data-ds-0
r1 = Trace(1, uidseed="a"); base(r1, lease="ctl-1")
r2 = Trace(2, uidseed="b"); base(r2, lease="ctl-2", ready=2, extra="leftover", recreate_pvc="data-ds-0", podcount=3)
write("learned", "The two reference runs differ in status.readyReplicas, in a leftover\nConfigMap, in a PVC recreated in one of them and in the number of generated\npods; the test run shows the same differences: no finding, and the learned\nmasks name them.",
      [r1, r2], with_fault(test_trace(ready=2, extra="leftover", recreate_pvc="data-ds-0", podcount=3)), opts())
write("invariant", "The StatefulSet is scaled to 5 and back to 3 in a transient state of the\ntest run; the end state and counts equal the reference. The invariant\n\"at most 3 replicas\" catches it at that state: one finding.",
      refs(), with_fault(test_trace(transient_replicas=5)),
      opts(invariants=[{"name": "at most 3 replicas", "src": {"start": {"file": "specs/ds/ds.sieve", "line": 30, "column": 1}, "end": {"file": "specs/ds/ds.sieve", "line": 32, "column": 2}},
                        "expr": "objects(\"statefulset\", \"default\").all(s, s.spec.replicas <= 3)", "when": "always"},
                       {"name": "data kept", "expr": "objects(\"persistentvolumeclaim\", \"default\").size() == 3", "when": "end"}]))
t = test_trace(); t.ctl("panic", pid=100, message="panic: runtime error: invalid memory address or nil pointer dereference\ngoroutine 1 [running]:")
write("panic", "The controller panics during the test run: one finding.", refs(), with_fault(t), opts())
t = test_trace(); with_fault(t)
t.ctl("kill", pid=100); t.ctl("crash", pid=100, exitCode=137); t.ctl("restart", pid=101)
t.ctl("exit", pid=101, exitCode=2, message="error: cannot list datastores")
write("crash", "The plan kills the controller (kill, then an exit with code 137: not a\nfinding); later the controller exits with code 2 on its own: one finding.", refs(), t, opts())
t = test_trace(); with_fault(t)
t.ctl("kill", pid=100); t.ctl("crash", pid=100, exitCode=137); t.ctl("restart", pid=101)
t.ctl("crash", pid=101, exitCode=1, message="error: cannot list datastores")
t.ctl("kill", pid=101); t.ctl("restart", pid=102)
t.ctl("crash", pid=102, exitCode=1, message="error: cannot list datastores")
write("crashloop", "The plan kills the controller twice; after each restart it exits with code 1\non its own, which no reference run did: one crashloop finding, with the\ncount, in place of two controller-crash findings.", refs(), t, opts())
def unsettled(t, step=False):
    if step:
        t.add(type="step", workload="recreate", index=2, what="settle", phase="start", src="specs/ds/ds.sieve:12:3")
        t.add(type="step", workload="recreate", index=2, what="settle", phase="end", src="specs/ds/ds.sieve:12:3",
              message="not quiet for 5s within 1m0s, went on")
    else:
        t.add(type="settle", what="unsettled", message="not quiet for 5s within 1m0s")
    return t
write("unsettled", "The controller never goes quiet after the workload of the test run, and the\nrun's last settle reaches its bound (settle_max); every reference run\nsettled: one finding.", refs(), unsettled(with_fault(test_trace())), opts())
write("unsettled-step", "A settle step of the test run reaches its bound and goes on; the same step\nsettled in every reference run: one finding.", refs(), unsettled(with_fault(test_trace()), step=True), opts())
r = refs(); unsettled(r[1])
write("unsettled-ref", "The run's last settle reaches its bound in the test run and in a reference\nrun too: the controller is as busy without the fault, no finding.", r, unsettled(with_fault(test_trace())), opts())
write("step", "A workload step fails in the test run only: one finding.", refs(),
      with_fault(test_trace(fail_step="apply cluster.yaml: admission webhook denied the request")), opts())
write("timeout", "A wait step times out in the test run only: one finding.", refs(),
      with_fault(test_trace(fail_step="wait pod/default/ds-* ready: timed out after 60s")), opts())
r = refs(fail_step="wait pod/default/ds-* ready: timed out after 60s")
write("step-ref-failed", "The same wait step times out in a reference run too: the test run is not\nblamed, no finding.", r,
      with_fault(test_trace(fail_step="wait pod/default/ds-* ready: timed out after 60s")), opts())
write("incomplete", "The test run stops in the middle of step 2 (the run was cut short): one\nfinding.", refs(), with_fault(test_trace(end_steps=False)), opts())

# ---- keyed lists and empty values ----
def web(available="True", reorder=False, empty=False):
    """A Deployment and a Service whose lists Kubernetes keys: conditions by
    type, containers and env by name, Service ports by port and protocol.
    reorder reverses every one of those lists; empty adds an empty
    annotations map and an empty volumes list."""
    def flip(l):
        return list(reversed(l)) if reorder else l
    def more(t):
        conds = flip([{"type": "Available", "status": available, "reason": "MinimumReplicasAvailable",
                       "lastTransitionTime": T0},
                      {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable",
                       "lastTransitionTime": T0}])
        env = flip([{"name": "MODE", "value": "server"}, {"name": "PEERS", "value": "3"}])
        containers = flip([{"name": "web", "image": "web:1", "env": env},
                           {"name": "sidecar", "image": "log:1"}])
        pod = {"containers": containers}
        if empty:
            pod["volumes"] = []
        t.hist("ADDED", "deployment", "web", apiVersion="apps/v1",
               spec={"replicas": 2, "template": {"spec": pod}},
               status={"replicas": 2, "conditions": conds})
        t.e[-1]["object"]["kind"] = "Deployment"
        if empty:
            t.e[-1]["object"]["metadata"]["annotations"] = {}
        t.hist("ADDED", "service", "web", apiVersion="v1",
               spec={"ports": flip([{"name": "http", "port": 80, "protocol": "TCP", "targetPort": 8080},
                                    {"name": "dns-tcp", "port": 53, "protocol": "TCP", "targetPort": 53},
                                    {"name": "dns", "port": 53, "protocol": "UDP", "targetPort": 53}])})
        t.e[-1]["object"]["kind"] = "Service"
    return more

write("keyed-reorder", "The test run's Deployment conditions, containers and env, and its Service\nports (two on port 53, one per protocol), come in the reverse order: lists\nwith merge keys compare by key, so order alone is no finding.",
      refs(more=web()), with_fault(test_trace(more=web(reorder=True))), opts())
write("keyed-field", "The Deployment's Available condition is False in the test run, and its\nconditions come in another order: one finding, naming the condition by its\ntype.",
      refs(more=web()), with_fault(test_trace(more=web(available="False", reorder=True))), opts())
write("empty-absent", "The test run's Deployment has an empty annotations map and an empty volumes\nlist where the reference has neither (the API server drops either under\nomitempty): no finding.",
      refs(more=web()), with_fault(test_trace(more=web(empty=True))), opts())

# ---- names and values the cluster allocates ----
def allocated(ips, revision):
    """A Service with cluster IPs and a node port, the IPAddress objects that
    reserve the IPs, and the StatefulSet's ControllerRevision named by the
    hash of its template, all different from run to run."""
    def more(t):
        t.hist("ADDED", "service", "ds", apiVersion="v1",
               spec={"type": "NodePort", "clusterIP": ips[0], "clusterIPs": [ips[0]],
                     "ports": [{"port": 80, "protocol": "TCP", "nodePort": 30000 + int(ips[0].split(".")[-1])}]})
        t.e[-1]["object"]["kind"] = "Service"
        for ip in ips:
            t.hist("ADDED", "ipaddress", ip, ns="", apiVersion="networking.k8s.io/v1",
                   spec={"parentRef": {"group": "", "resource": "services", "namespace": "default", "name": "ds"}})
        t.hist("ADDED", "controllerrevision", "ds-" + revision, apiVersion="apps/v1", revision=1,
               data={"spec": {"template": {"metadata": {"annotations": {"example.com/restartedAt": T0}}}}})
        t.e[-1]["object"]["metadata"]["labels"] = {"controller.kubernetes.io/hash": revision}
    return more

r1 = Trace(1, uidseed="a"); base(r1, lease="ctl-1", more=allocated(["10.0.141.202", "10.0.7.9"], "6d9b7f5c4"))
r2 = Trace(2, uidseed="b"); base(r2, lease="ctl-2", more=allocated(["10.0.88.17", "10.0.7.10"], "58c7d4b9f"))
write("allocated", "Each run's Service gets other cluster IPs and another node port, reserved\nby IPAddress objects named by the address, and the StatefulSet's\nControllerRevision is named by the hash of a template that holds a\nrestart time. With std/masks: no finding, and nothing learned.",
      [r1, r2], with_fault(test_trace(more=allocated(["10.0.3.250", "10.0.200.4"], "7f8d6c5b2"))),
      dict(opts(), std=["default"]))
r1 = Trace(1, uidseed="a"); base(r1, lease="ctl-1", extra="ds-token-x7k2p")
r2 = Trace(2, uidseed="b"); base(r2, lease="ctl-2", extra="ds-token-b9q4m")
write("learned-names", "Each run leaves a ConfigMap whose name ends in a random suffix (not a\ngenerated name): the reference runs teach the mask as the glob\nds-token-*, which holds for the test run's third name: no finding.",
      [r1, r2], with_fault(test_trace(extra="ds-token-r5t2c")), opts())

# ---- an object being deleted ----
def pvc_protected(deleting=False):
    """data-ds-2 gets the PVC protection finalizer; deleting starts its
    deletion, which the finalizer holds up."""
    def more(t):
        t.hist("MODIFIED", "persistentvolumeclaim", "data-ds-2", spec={"resources": {"requests": {"storage": "1Gi"}}})
        meta = t.e[-1]["object"]["metadata"]
        meta["finalizers"] = ["kubernetes.io/pvc-protection"]
        if deleting:
            meta["deletionTimestamp"] = "2026-12-02T10:00:09Z"
            meta["deletionGracePeriodSeconds"] = 0
    return more

write("deleting", "A PVC the test run has started deleting is still there at the end, held\nby its finalizer: one finding, that it is being deleted (not that\nmetadata.deletionGracePeriodSeconds is 0).",
      refs(more=pvc_protected()), with_fault(test_trace(more=pvc_protected(deleting=True))), opts())

# ---- convergence before judgement ----
def pdb(t):
    """The controller creates a PodDisruptionBudget (in the reference runs
    while the workload runs; in a test run, perhaps only at a resync)."""
    t.add(type="request", key={"kind": "poddisruptionbudget", "namespace": "default", "name": "ds"}, verb="create", code=201)
    t.hist("ADDED", "poddisruptionbudget", "ds", apiVersion="policy/v1", spec={"maxUnavailable": 1})

def converging(repaired):
    """A test run that settles with the PodDisruptionBudget missing and the
    StatefulSet at 2 ready replicas, then waits for convergence: the
    controller repairs both at its next resync, or does not."""
    t = test_trace(ready=2)
    t.add(type="converge", what="start", message="2 objects differ from the reference; waiting up to 35s for the controller to repair them")
    if repaired:
        pdb(t)
        t.hist("MODIFIED", "statefulset", "ds", spec={"replicas": 3, "serviceName": "ds"}, status={"readyReplicas": 3})
        t.add(type="converge", what="end", message="converged after 28.4s")
    else:
        t.hist("MODIFIED", "lease", "ds-controller", spec={"holderIdentity": "ctl-3-renewed-again"})
        t.add(type="converge", what="end", message="still differing after 35s: poddisruptionbudget/default/ds, statefulset/default/ds")
    return t

write("converge-repaired", "The test run settles with a PodDisruptionBudget missing and the\nStatefulSet at 2 ready replicas; the controller repairs both at its next\nresync, while the run waits for convergence: no finding, two transient\ndifferences.",
      refs(more=pdb), converging(repaired=True), dict(opts(), converge=True))
write("converge-persists", "The test run settles with a PodDisruptionBudget missing and the\nStatefulSet at 2 ready replicas, and the controller repairs neither before\nthe converge bound passes: the differences count (two findings), none is\ntransient.",
      refs(more=pdb), converging(repaired=False), dict(opts(), converge=True))
write("converge-unrepairable", "The test run leaves a ConfigMap the reference does not have, and the\ncontroller never writes ConfigMaps: no repair can come from it, so the run\nwould not wait (nothing followed): one finding.",
      refs(), with_fault(test_trace(extra="leftover")), dict(opts(), converge=True))

# ---- invariants over the history ----
SRC = {"start": {"file": "specs/ds/ds.sieve", "line": 40, "column": 1}, "end": {"file": "specs/ds/ds.sieve", "line": 40, "column": 80}}
def inv(name, when, expr, between=None):
    i = {"name": name, "src": SRC, "expr": expr, "when": when}
    if between:
        i["between"] = {"from": {"workload": "recreate", "step": between[0]}, "to": {"workload": "recreate", "step": between[1]}}
    return i
SCALED = 'objects("statefulset", "default").exists(s, s.spec.replicas > 3)'
HISTORY = [
    inv("never scaled past 3", "never", SCALED),
    inv("never scaled past 3 before step 2", "never", SCALED, between=(1, 2)),
    inv("eventually ready", "eventually", 'objects("statefulset", "default").exists(s, s.status.readyReplicas == 3)'),
    inv("three PVCs after step 1", "always", 'objects("persistentvolumeclaim", "default").size() == 3', between=(1, 2)),
    inv("eventually three PVCs after step 1", "eventually", 'objects("persistentvolumeclaim", "default").size() == 3', between=(1, 2)),
]
write("invariant-history", "Invariants over the history. The test run scales the StatefulSet to 5 and\nback during step 2 and ends with 2 ready replicas: \"never scaled past 3\"\nbreaks (the same over the stretch from the end of step 1 to the start of\nstep 2 holds: the scale comes later), \"eventually ready\" breaks (no state\nhas 3 ready), and the PVC invariants hold between the steps (the state\ncurrent when the stretch opens counts, while an unlimited always would\nbreak on the first states). With the readyReplicas field: three findings.",
      refs(), with_fault(test_trace(transient_replicas=5, ready=2)), opts(invariants=HISTORY))

# ---- report fixture: a results directory ----
import shutil
ROOT = os.path.join(HERE, '..', '..', '..', 'report', 'testdata', 'results')
shutil.rmtree(ROOT, ignore_errors=True)
def put(rel, text):
    p = os.path.join(ROOT, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, 'w').write(text)
rs = refs()
for i, r in enumerate(rs):
    put('reference/run-%d/trace.jsonl' % (i + 1), r.text())
    put('reference/run-%d/controller.log' % (i + 1), 'I1202 10:00:00 starting manager\n')
def ref(kind, name, ns="default"):
    return {"kind": kind, "namespace": ns, "name": name}
CRASH = [{"kind": "crash", "trigger": {"op": "write", "on": "update", "target": ref("statefulset", "ds")}}]
def plan_json(name, pattern, actions=CRASH):
    return json.dumps({"sievePlan": 1, "name": name, "test": "buggy", "pattern": pattern, "actions": actions}, indent=2) + "\n"
def plan(name, pattern, actions=CRASH, **kw):
    # The header says how many actions the plan has only when some did not
    # fire; the fault entry is action 0's.
    t = Trace(0, plan=name, pattern=pattern, uidseed="c")
    if len(actions) > 1:
        t.h["actions"] = len(actions)
    base(t, lease="ctl-3", **kw)
    put('plans/%s/trace.jsonl' % name, t.text())
    put('plans/%s/controller.log' % name, 'I1202 10:00:00 starting manager\n')
    put('plans/%s/plan.json' % name, plan_json(name, pattern, actions))
plan("intermediate-3", "intermediate", ready=2, skip_pvc=1)
plan("intermediate-4", "intermediate")
plan("stale-1", "stale", skip_pvc=1, recreate_pvc="data-ds-0")
# not injected: the pod's update is held, and the release waits for its
# deletion, which never comes; the oracle's finding is not counted
web = ref("pod", "web-x7k2p")
plan("unobserved-2", "unobserved", ready=2, actions=[
    {"kind": "hold", "scope": web, "trigger": {"op": "event", "on": "update", "target": web}},
    {"kind": "release", "scope": web, "trigger": {"op": "event", "on": "delete", "target": web, "seen": "cluster"}}])
plan("stale-3", "stale", skip_pvc=1, recreate_pvc="data-ds-0")  # flaky: its rerun finds nothing
# passed: the StatefulSet it settled with is repaired at the controller's
# next resync, while the run waits for convergence (a transient difference)
def repaired_at_resync(t):
    t.add(type="converge", what="start", message="1 object differs from the reference (statefulset/default/ds); waiting up to 35s for the controller to repair them")
    t.hist("MODIFIED", "statefulset", "ds", spec={"replicas": 3, "serviceName": "ds"}, status={"readyReplicas": 3})
    t.add(type="converge", what="end", message="converged after 29.6s")
t = Trace(0, plan="intermediate-5", pattern="intermediate", uidseed="c")
base(t, lease="ctl-3", ready=2)
repaired_at_resync(t)
put('plans/intermediate-5/trace.jsonl', t.text())
put('plans/intermediate-5/controller.log', 'I1202 10:00:00 starting manager\n')
put('plans/intermediate-5/plan.json', plan_json("intermediate-5", "intermediate"))
# failed: after the plan's restarts the controller exits on its own twice
# (a crash loop), and the run's last settle reaches its bound
t = Trace(0, plan="intermediate-6", pattern="intermediate", uidseed="c")
base(t, lease="ctl-3")
t.ctl("kill", pid=100); t.ctl("crash", pid=100, exitCode=137); t.ctl("restart", pid=101)
t.ctl("crash", pid=101, exitCode=1, message="error: cannot list datastores")
t.ctl("kill", pid=101); t.ctl("restart", pid=102)
t.ctl("crash", pid=102, exitCode=1, message="error: cannot list datastores")
t.add(type="settle", what="unsettled", message="not quiet for 5s within 1m0s")
put('plans/intermediate-6/trace.jsonl', t.text())
put('plans/intermediate-6/controller.log', 'I1202 10:00:00 starting manager\nerror: cannot list datastores\n')
put('plans/intermediate-6/plan.json', plan_json("intermediate-6", "intermediate"))
rerun = Trace(0, plan="stale-3", pattern="stale", uidseed="c")
base(rerun, lease="ctl-3")
put('plans/stale-3/rerun-1/trace.jsonl', rerun.text())
put('plans/stale-2/plan.json', plan_json("stale-2", "stale"))
put('plans/stale-2/result.json', json.dumps({"version": 1, "test": "buggy", "plan": "stale-2", "pattern": "stale",
    "dir": "plans/stale-2", "status": "error", "error": "start controller: exec: \"bin/operator\": file not found",
    "findings": [], "started": "2026-12-02T10:05:00Z", "seconds": 0.4}, indent=2) + "\n")
put('summary.json', json.dumps({"version": 1, "test": "buggy", "spec": "specs/ds/ds.sieve", "dir": "",
    "started": "2026-12-02T10:00:00Z", "finished": "2026-12-02T10:09:00Z", "references": 2, "planned": 6}, indent=2) + "\n")
put('oracle.json', json.dumps(opts(), indent=2) + "\n")

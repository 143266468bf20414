"""Writes the inputs of the explored-run goldens (explored.json, trace.jsonl)
and their comments, without out/: refresh it with
SIEVE_UPDATE=1 go test ./interp/analysis/oracle -run TestExploredGolden. Tests do
not run it; they read what it wrote.

  python3 fixtures.py   # from this directory
"""
import json, os
OUT=os.path.dirname(os.path.abspath(__file__))
CR={"kind":"datastore.example.com","namespace":"default","name":"ds"}
STS={"kind":"statefulset","namespace":"default","name":"ds"}
PVC={"kind":"persistentvolumeclaim","namespace":"default","name":"data-ds-0"}
REF=[{"apiVersion":"example.com/v1","kind":"DataStore","name":"ds","uid":"u-ds","controller":True}]

class T:
    def __init__(s):
        s.lines=[json.dumps({"sieveTrace":1,"test":"explored","spec":"specs/ds/ds.sieve","run":1,"started":"2026-12-02T10:00:00Z"})]
        s.seq=0; s.rv=100
    def add(s, **e):
        s.seq+=1
        e["seq"]=s.seq; e["time"]="2026-12-02T10:00:%02d.%03dZ"%(s.seq//10, (s.seq%10)*100)
        s.lines.append(json.dumps(e))
    def hist(s, key, event, obj):
        s.rv+=1
        obj=json.loads(json.dumps(obj)); obj.setdefault("metadata",{})["resourceVersion"]=str(s.rv)
        s.add(type="history", key=key, event=event, resourceVersion=str(s.rv), object=obj)
    def step(s, i, what, phase, **kw):
        s.add(type="step", workload="explored", index=i, what=what, phase=phase, src="specs/ds/explored.sieve:%d:3"%(i+4), **kw)
    def req(s, key, verb, code):
        s.add(type="request", key=key, verb=verb, code=code)
    def text(s): return "\n".join(s.lines)+"\n"

def cr(spec, status=None):
    o={"apiVersion":"example.com/v1","kind":"DataStore","metadata":{"name":"ds","namespace":"default","uid":"u-ds","generation":1},"spec":spec}
    if status: o["status"]=status
    return o
def sts(replicas, ports=None, args=None, gen=1):
    c={"name":"db","image":"db:1"}
    if ports: c["ports"]=[{"containerPort":p} for p in ports]
    if args: c["args"]=args
    return {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"ds","namespace":"default","uid":"u-sts","generation":gen,"ownerReferences":REF},
            "spec":{"replicas":replicas,"template":{"spec":{"containers":[c]}}}}
def pvc(storage):
    return {"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"data-ds-0","namespace":"default","uid":"u-pvc"},"spec":{"resources":{"requests":{"storage":storage}}}}

def seed(t, spec, stsobj, extra=()):
    t.add(type="controller", what="start", pid=100)
    t.step(0,"apply","start"); t.hist(CR,"ADDED",cr(spec)); t.step(0,"apply","end")
    t.step(1,"settle","start")
    t.req(STS,"create",201); t.hist(STS,"ADDED",stsobj)
    for k,o in extra: t.req(k,"create",201); t.hist(k,"ADDED",o)
    t.step(1,"settle","end")

def write(name, comment, t, ex):
    with open(os.path.join(OUT,name+".txtar"),"w") as f:
        f.write(comment.strip()+"\n-- explored.json --\n"+json.dumps(ex, indent=2)+"\n-- trace.jsonl --\n"+t.text())

def op(path, change, value=None):
    d={"path":path,"change":change}
    if value is not None: d["value"]=value
    return d

BASE={"resource":CR,"std":["default"]}

# consistency: fires
t=T(); spec={"replicas":3,"storage":"1Gi"}
seed(t, spec, sts(3), [(PVC,pvc("1Gi"))])
t.step(2,"patch","start"); t.hist(CR,"MODIFIED",cr({"replicas":3,"storage":"2Gi"})); t.step(2,"patch","end")
t.step(3,"settle","start"); t.step(3,"settle","end")
write("consistency","""
The seed's spec.storage goes from 1Gi to 2Gi and the controller changes
nothing: its PVC still asks for 1Gi, and the status says nothing. One
finding, naming the property, the value and the step.
""", t, dict(BASE, operations=[op("spec.storage","quantity","2Gi")]))

# consistency: carried in renderings, refused, status problem
t=T(); spec={"replicas":3,"storage":"1Gi","logLevel":"info"}
seed(t, spec, sts(3, args=["--log-level=info"]), [(PVC,pvc("1Gi"))])
# op1 replicas 4 -> sts replicas 4
t.step(2,"patch","start"); spec=dict(spec,replicas=4); t.hist(CR,"MODIFIED",cr(spec)); t.step(2,"patch","end")
t.step(3,"settle","start"); t.req(STS,"update",200); t.hist(STS,"MODIFIED",sts(4, args=["--log-level=info"], gen=2)); t.step(3,"settle","end")
# op2 storage 2Gi -> pvc 2147483648
t.step(4,"patch","start"); spec=dict(spec,storage="2Gi"); t.hist(CR,"MODIFIED",cr(spec)); t.step(4,"patch","end")
t.step(5,"settle","start"); t.req(PVC,"patch",200); t.hist(PVC,"MODIFIED",pvc("2147483648")); t.step(5,"settle","end")
# op3 logLevel debug -> args
t.step(6,"patch","start"); spec=dict(spec,logLevel="debug"); t.hist(CR,"MODIFIED",cr(spec)); t.step(6,"patch","end")
t.step(7,"settle","start"); t.req(STS,"update",200); t.hist(STS,"MODIFIED",sts(4, args=["--log-level=debug"], gen=3)); t.step(7,"settle","end")
# op4 refused by the API server
t.step(8,"patch","start"); t.step(8,"patch","end", error='datastore/default/ds: spec.replicas: Invalid value: 0: must be at least 1')
t.step(9,"settle","start"); t.step(9,"settle","end")
# op5 replicas 100: the controller refuses it in a condition
t.step(10,"patch","start"); spec=dict(spec,replicas=100); t.hist(CR,"MODIFIED",cr(spec)); t.step(10,"patch","end")
t.step(11,"settle","start"); t.req(CR,"update",200)
t.hist(CR,"MODIFIED",cr(spec,{"conditions":[{"type":"Ready","status":"False","reason":"TooManyReplicas","message":"at most 9 replicas"}]})); t.step(11,"settle","end")
write("consistency-traced","""
Each operation leaves a trace, so no finding: spec.replicas 4 in the
StatefulSet's replicas, spec.storage 2Gi as the PVC's 2147483648 (an
equal quantity), spec.logLevel debug in an argument --log-level=debug;
the API server refused spec.replicas 0 (not judged); spec.replicas 100
is refused by the controller in a status condition.
""", t, dict(BASE, operations=[op("spec.replicas","beside",4), op("spec.storage","quantity","2Gi"),
    op("spec.logLevel","enum","debug"), op("spec.replicas","bound",0), op("spec.replicas","beside",100)]))

# rollback: fires
def rb(restore):
    t=T(); spec={"replicas":3,"ports":[{"port":8080}]}
    seed(t, spec, sts(3, ports=[8080]))
    t.step(2,"patch","start"); t.hist(CR,"MODIFIED",cr({"replicas":3,"ports":[{"port":8080},{"port":8081}]})); t.step(2,"patch","end")
    t.step(3,"settle","start"); t.req(STS,"update",200); t.hist(STS,"MODIFIED",sts(3, ports=[8080,8081], gen=2)); t.step(3,"settle","end")
    t.step(4,"patch","start"); t.hist(CR,"MODIFIED",cr(spec)); t.step(4,"patch","end")
    t.step(5,"settle","start")
    if restore: t.req(STS,"update",200); t.hist(STS,"MODIFIED",sts(3, ports=[8080], gen=3))
    t.step(5,"settle","end")
    return t
ops=[op("spec.ports[1]","add-item",{"port":8081}), op("spec.ports[1]","remove-item")]
write("rollback", """
A port added to spec.ports shows up in the StatefulSet; removing it
brings the resource back to the seed, but the StatefulSet keeps the
port: a rollback finding on its container's port, and a consistency
finding, as the removal changed nothing. Two findings.
""", rb(False), dict(BASE, operations=ops))
write("rollback-restored", """
As rollback.txtar, but the controller removes the port again: the
StatefulSet is as before the first operation but for its generation,
which the std masks leave out. No finding.
""", rb(True), dict(BASE, operations=ops))

# health
def health(bad):
    t=T(); spec={"replicas":3}
    seed(t, spec, sts(3))
    t.step(2,"patch","start"); t.hist(CR,"MODIFIED",cr({"replicas":4})); t.step(2,"patch","end")
    t.step(3,"settle","start")
    for _ in range(4 if bad else 3): t.req(PVC,"get",500)
    t.req(STS,"update",200); t.hist(STS,"MODIFIED",sts(4, gen=2))
    if bad:
        t.add(type="controller", what="exit", pid=100, exitCode=1, message="error: cannot reach the database")
        t.step(3,"settle","end", message="not quiet for 2s within 1m0s, went on")
    else:
        t.add(type="controller", what="kill", pid=100); t.add(type="controller", what="exit", pid=100, exitCode=137)
        t.add(type="controller", what="start", pid=101)
        t.step(3,"settle","end")
    return t
write("health", """
After spec.replicas 4 the controller GETs a PVC failing with 500 four
times (the bound is 3), exits with code 1, and the settle reaches its
bound: three findings.
""", health(True), dict(BASE, operations=[op("spec.replicas","beside",4)], loopBound=3))
write("health-quiet", """
The same run but the GET fails three times (the bound), the controller
is killed by the run (kill, then exit 137) and restarted, and the settle
is quiet: no finding.
""", health(False), dict(BASE, operations=[op("spec.replicas","beside",4)], loopBound=3))

# consistency: a status change the masks leave out is no report
t=T(); spec={"replicas":3,"storage":"1Gi"}
cond=lambda g: {"conditions":[{"type":"Ready","status":"True","reason":"AllReplicasReady","observedGeneration":g}]}
seed(t, spec, sts(3), [(PVC,pvc("1Gi"))])
t.req(CR,"patch",200); t.hist(CR,"MODIFIED",cr(spec,cond(1)))
t.step(2,"patch","start"); spec=dict(spec,replicas=4); t.hist(CR,"MODIFIED",cr(spec,cond(1))); t.step(2,"patch","end")
t.step(3,"settle","start"); t.req(CR,"patch",200); t.hist(CR,"MODIFIED",cr(spec,cond(2))); t.step(3,"settle","end")
write("consistency-status-masked","""
The controller ignores spec.replicas 4 but stamps its Ready condition
with the new generation: std/masks' default leaves observedGeneration
out, so the status reports no problem. One finding.
""", t, dict(BASE, operations=[op("spec.replicas","beside",4)]))

# consistency: the history of a patch recorded after the next step began
t=T(); spec={"replicas":3,"storage":"1Gi"}
seed(t, spec, sts(3), [(PVC,pvc("1Gi"))])
r1=t.rv+1
t.step(2,"patch","start"); t.step(2,"patch","end", seen={"datastore.example.com":str(r1)})
t.step(3,"settle","start"); t.step(3,"settle","end")
t.step(4,"patch","start")
spec=dict(spec,replicas=4); t.hist(CR,"MODIFIED",cr(spec))
r2=t.rv+1
t.step(4,"patch","end", seen={"datastore.example.com":str(r2)})
spec=dict(spec,storage="2Gi"); t.hist(CR,"MODIFIED",cr(spec))
t.step(5,"settle","start"); t.req(PVC,"patch",200); t.hist(PVC,"MODIFIED",pvc("2Gi")); t.step(5,"settle","end")
write("consistency-late-history","""
sieve's history watch records the Datastore's spec.replicas 4 after the
next patch step began; the patch step's end says it saw that version, so
the oracle reads the change as the first operation's (trace.Aligned).
The controller ignores spec.replicas and resizes the PVC for
spec.storage: one finding, on spec.replicas.
""", t, dict(BASE, operations=[op("spec.replicas","beside",4), op("spec.storage","quantity","2Gi")]))

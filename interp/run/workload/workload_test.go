package workload

import (
	"context"
	"strings"
	"testing"

	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/ir"
)

func TestSetAndGetPath(t *testing.T) {
	obj := map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"image": "a"}}}}
	if err := setPath(obj, "spec.replicas", int64(3)); err != nil {
		t.Fatal(err)
	}
	if err := setPath(obj, "spec.containers.0.image", "b"); err != nil {
		t.Fatal(err)
	}
	if err := setPath(obj, "metadata.labels.app", "x"); err != nil {
		t.Fatal(err)
	}
	if err := setPath(obj, `metadata.labels."app.kubernetes.io/name"`, "y"); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]any{"spec.replicas": int64(3), "spec.containers.0.image": "b", "metadata.labels.app": "x", `metadata.labels."app.kubernetes.io/name"`: "y"} {
		if got, ok := getPath(obj, path); !ok || got != want {
			t.Errorf("getPath(%s) = %v, %v; want %v", path, got, ok, want)
		}
	}
	if err := setPath(obj, "spec.containers.5.image", "c"); err == nil {
		t.Error("setPath past the end of a list: no error")
	}
	if err := setPath(obj, "spec.replicas.x", 1); err == nil {
		t.Error("setPath through a number: no error")
	}
	if err := setPath(obj, "spec.containers[0].image", "d"); err != nil {
		t.Error(err)
	} else if got, _ := getPath(obj, "spec.containers[0].image"); got != "d" {
		t.Errorf("spec.containers[0].image = %v after setting d", got)
	}
	if err := setPath(obj, "spec.containers.*.image", "e"); err == nil || !strings.Contains(err.Error(), "cannot set through *") {
		t.Errorf("setPath through *: error %v", err)
	}
	if _, ok := getPath(obj, "spec.missing"); ok {
		t.Error("getPath of a missing field: found")
	}
}

func TestDecodeManifest(t *testing.T) {
	objs, err := decodeManifest([]byte("---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: b}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 2 || objs[0].GetName() != "a" || objs[1].GetKind() != "Secret" {
		t.Fatalf("got %d objects: %v", len(objs), objs)
	}
	for _, bad := range []string{"", "kind: ConfigMap\n", "apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n", "a: [\n"} {
		if _, err := decodeManifest([]byte(bad)); err == nil {
			t.Errorf("decodeManifest(%q): no error", bad)
		}
	}
}

func TestIsReady(t *testing.T) {
	cases := []struct {
		name string
		obj  map[string]any
		want bool
	}{
		{"pod ready", map[string]any{"kind": "Pod", "status": map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": "True"}}}}, true},
		{"pod not ready", map[string]any{"kind": "Pod", "status": map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": "False"}}}}, false},
		{"pod just created", map[string]any{"kind": "Pod", "apiVersion": "v1", "status": map[string]any{"phase": "Pending", "qosClass": "BestEffort"}}, false},
		{"crd just created", map[string]any{"kind": "CustomResourceDefinition", "apiVersion": "apiextensions.k8s.io/v1"}, false},
		{"crd established", map[string]any{"kind": "CustomResourceDefinition", "apiVersion": "apiextensions.k8s.io/v1", "status": map[string]any{"conditions": []any{map[string]any{"type": "Established", "status": "True"}}}}, true},
		{"pvc bound", map[string]any{"kind": "PersistentVolumeClaim", "status": map[string]any{"phase": "Bound"}}, true},
		{"pvc pending", map[string]any{"kind": "PersistentVolumeClaim", "status": map[string]any{"phase": "Pending"}}, false},
		{"sts ready", map[string]any{"kind": "StatefulSet", "metadata": map[string]any{"generation": int64(2)}, "spec": map[string]any{"replicas": int64(3)}, "status": map[string]any{"readyReplicas": int64(3), "observedGeneration": int64(2)}}, true},
		{"sts stale generation", map[string]any{"kind": "StatefulSet", "metadata": map[string]any{"generation": int64(2)}, "spec": map[string]any{"replicas": int64(3)}, "status": map[string]any{"readyReplicas": int64(3), "observedGeneration": int64(1)}}, false},
		{"daemonset ready", map[string]any{"kind": "DaemonSet", "metadata": map[string]any{"generation": int64(1)}, "status": map[string]any{"desiredNumberScheduled": int64(2), "numberReady": int64(2), "observedGeneration": int64(1)}}, true},
		{"daemonset not observed", map[string]any{"kind": "DaemonSet", "metadata": map[string]any{"generation": int64(1)}}, false},
		{"daemonset pods not ready", map[string]any{"kind": "DaemonSet", "metadata": map[string]any{"generation": int64(1)}, "status": map[string]any{"desiredNumberScheduled": int64(2), "numberReady": int64(1), "observedGeneration": int64(1)}}, false},
		{"job complete", map[string]any{"kind": "Job", "status": map[string]any{"conditions": []any{map[string]any{"type": "Complete", "status": "True"}}}}, true},
		{"job running", map[string]any{"kind": "Job", "status": map[string]any{"active": int64(1)}}, false},
		{"job failed", map[string]any{"kind": "Job", "status": map[string]any{"conditions": []any{map[string]any{"type": "Failed", "status": "True"}}}}, false},
		{"configmap", map[string]any{"kind": "ConfigMap", "apiVersion": "v1"}, true},
		{"custom resource without status", map[string]any{"kind": "Datastore", "apiVersion": "example.com/v1"}, false},
		{"custom resource with replicas", map[string]any{"kind": "Datastore", "apiVersion": "example.com/v1", "spec": map[string]any{"replicas": int64(2)}, "status": map[string]any{"readyReplicas": int64(2)}}, true},
		{"custom resource with a Ready condition", map[string]any{"kind": "Datastore", "apiVersion": "example.com/v1", "status": map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": "True"}}}}, true},
	}
	for _, c := range cases {
		if got := isReady(c.obj); got != c.want {
			t.Errorf("%s: isReady = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestConditions(t *testing.T) {
	x := &Executor{}
	pod := func(name string, ready bool) map[string]any {
		s := "False"
		if ready {
			s = "True"
		}
		return map[string]any{"kind": "Pod", "metadata": map[string]any{"name": name, "namespace": "default"},
			"spec":   map[string]any{"replicas": int64(1)},
			"status": map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": s}}}}
	}
	two := []map[string]any{pod("a", true), pod("b", false)}
	cases := []struct {
		cond *ir.WaitCond
		objs []map[string]any
		want bool
	}{
		{&ir.WaitCond{Kind: ir.WaitExists}, nil, false},
		{&ir.WaitCond{Kind: ir.WaitExists}, two, true},
		{&ir.WaitCond{Kind: ir.WaitGone}, two, false},
		{&ir.WaitCond{Kind: ir.WaitGone}, nil, true},
		{&ir.WaitCond{Kind: ir.WaitReady}, two, false},
		{&ir.WaitCond{Kind: ir.WaitReady, Count: 1}, two, true},
		{&ir.WaitCond{Kind: ir.WaitReady, Count: 2}, two, false},
		{&ir.WaitCond{Kind: ir.WaitField, Path: "spec.replicas", Value: int64(1)}, two, true},
		{&ir.WaitCond{Kind: ir.WaitField, Path: "spec.replicas", Value: int64(2)}, two, false},
		{&ir.WaitCond{Kind: ir.WaitField, Path: "spec.replicas", Value: int64(1)}, nil, false},
	}
	for _, c := range cases {
		f, err := x.condition(c.cond)
		if err != nil {
			t.Fatal(err)
		}
		got, progress, err := f(context.Background(), c.objs)
		if err != nil || got != c.want {
			t.Errorf("%s on %d objects = %v (%s), %v; want %v", describe(c.cond), len(c.objs), got, progress, err, c.want)
		}
	}
}

// TestCELWaitMissingField holds that a CEL wait condition that meets a
// field the object does not have (yet) is false, so the wait goes on,
// while any other evaluation error fails the wait.
func TestCELWaitMissingField(t *testing.T) {
	env, err := celenv.New()
	if err != nil {
		t.Fatal(err)
	}
	x := &Executor{CEL: env}
	deploy := map[string]any{"kind": "Deployment", "metadata": map[string]any{"name": "web", "namespace": "default"},
		"spec": map[string]any{"replicas": int64(2)}, "status": map[string]any{"replicas": int64(2)}}
	cases := []struct {
		expr     string
		want     bool
		progress string // a part of it, when the condition is false
		err      string // a part of the error, when one is expected
	}{
		{expr: "object.status.updatedReplicas == object.spec.replicas", progress: "missing field of deployment/default/web: no such key: updatedReplicas"},
		{expr: "object.status.conditions[0].type == \"Available\"", progress: "no such key: conditions"},
		{expr: "has(object.status.updatedReplicas) && object.status.updatedReplicas == 2", progress: "expression false for deployment/default/web"},
		{expr: "object.status.replicas == object.spec.replicas", want: true},
		{expr: "object.status.replicas / 0 == 1", err: "division by zero"},
	}
	for _, c := range cases {
		f, err := x.condition(&ir.WaitCond{Kind: ir.WaitCEL, Expr: c.expr})
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		got, progress, err := f(context.Background(), []map[string]any{deploy})
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one with %q", c.expr, err, c.err)
			}
		case err != nil || got != c.want || !strings.Contains(progress, c.progress):
			t.Errorf("%s = %v (%s), %v; want %v (%s)", c.expr, got, progress, err, c.want, c.progress)
		}
	}
}

func TestStepErrorNamesSpecLine(t *testing.T) {
	var e error = &StepError{Kind: ir.StepWait, Err: context.DeadlineExceeded}
	if !strings.Contains(e.Error(), "wait: context deadline exceeded") {
		t.Errorf("StepError = %q", e)
	}
}

// TestSetFitsDocuments holds that a set applies to the documents of a
// manifest that have its first field: spec.nodes to the cluster, not to
// the ServiceAccount beside it; metadata paths to both; a field no
// document has to every one.
func TestSetFitsDocuments(t *testing.T) {
	objs, err := decodeManifest([]byte(`apiVersion: v1
kind: ServiceAccount
metadata:
  name: zk
---
apiVersion: zookeeper.pravega.io/v1beta1
kind: ZookeeperCluster
metadata:
  name: zk
spec:
  replicas: 1
`))
	if err != nil {
		t.Fatal(err)
	}
	sets := []ir.FieldSet{{Path: "spec.nodes", Value: int64(2)}, {Path: "metadata.labels.app", Value: "zk"}}
	if err := setFields(objs, sets); err != nil {
		t.Fatal(err)
	}
	if _, ok := objs[0].Object["spec"]; ok {
		t.Errorf("the ServiceAccount got a spec: %v", objs[0].Object)
	}
	if got, _ := getPath(objs[1].Object, "spec.nodes"); got != int64(2) {
		t.Errorf("cluster spec.nodes %v, want 2", got)
	}
	for _, o := range objs {
		if got, _ := getPath(o.Object, "metadata.labels.app"); got != "zk" {
			t.Errorf("%s metadata.labels.app %v, want zk", o.GetKind(), got)
		}
	}
	// A set whose first field no document has makes it in every one.
	if err := setFields(objs, []ir.FieldSet{{Path: "data.x", Value: "1"}}); err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		if got, _ := getPath(o.Object, "data.x"); got != "1" {
			t.Errorf("%s data.x %v, want 1", o.GetKind(), got)
		}
	}
}

// TestSetOnly holds that a set with Only applies to the one document it
// names: of three Routes in one manifest, only shop gets the explored
// final spec (the explore stage's run of a final state at once).
func TestSetOnly(t *testing.T) {
	objs, err := decodeManifest([]byte(`apiVersion: routes.sieve.dev/v1
kind: Route
metadata: {name: cart, namespace: default}
spec: {backend: cart}
---
apiVersion: routes.sieve.dev/v1
kind: Route
metadata: {name: shop}
spec: {backend: shop}
---
apiVersion: routes.sieve.dev/v1
kind: Route
metadata: {name: auth, namespace: other}
spec: {backend: auth}
`))
	if err != nil {
		t.Fatal(err)
	}
	only := ir.Ref{Kind: "route.routes.sieve.dev", Namespace: "default", Name: "shop"}
	if err := setFields(objs, []ir.FieldSet{{Path: "spec", Value: map[string]any{"backend": "shop-v2"}, Only: &only}}); err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		want := o.GetName()
		if want == "shop" {
			want = "shop-v2"
		}
		if got, _ := getPath(o.Object, "spec.backend"); got != want {
			t.Errorf("route %s spec.backend %v, want %s", o.GetName(), got, want)
		}
	}
}

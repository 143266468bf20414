// Package smoke runs the example controllers fault-free on the embedded
// control plane, without sieve's pipeline. TEMPORARY scaffolding.
package smoke

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/sievetool/sieve/interp/cluster/embedded"
)

const root = "../../.."

type env struct {
	t   *testing.T
	c   client.Client
	kc  string
	ctx context.Context
	cl  *embedded.Cluster
}

func start(t *testing.T, disable ...string) *env {
	bin := os.Getenv("SIEVE_SMOKE_BIN")
	if bin == "" {
		t.Skip("SIEVE_SMOKE_BIN (a binary with `internal component`) not set")
	}
	cl := embedded.New(embedded.Options{Binary: bin, Disable: disable})
	ctx := context.Background()
	if err := cl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Stop() })
	c, err := client.New(cl.RESTConfig(), client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &env{t: t, c: c, kc: cl.Kubeconfig(), ctx: ctx, cl: cl}
}

func (e *env) controller(dir string, args ...string) *bytes.Buffer {
	bin := filepath.Join(e.t.TempDir(), "ctrl")
	build := exec.Command("go", "build", "-o", bin, "./specs/"+dir+"/controller")
	build.Dir = root
	out, err := build.CombinedOutput()
	if err != nil {
		e.t.Fatalf("build: %v\n%s", err, out)
	}
	return e.process(append([]string{bin}, args...))
}

func (e *env) process(argv []string) *bytes.Buffer {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "KUBECONFIG="+e.kc)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if e.t.Failed() || testing.Verbose() {
			e.t.Logf("controller log:\n%s", logs.String())
		}
	})
	return &logs
}

func (e *env) apply(file string) {
	b, err := os.ReadFile(filepath.Join(root, "specs", file))
	if err != nil {
		e.t.Fatal(err)
	}
	for _, doc := range strings.Split(string(b), "\n---\n") {
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal([]byte(doc), &u.Object); err != nil {
			e.t.Fatal(err)
		}
		if len(u.Object) == 0 {
			continue
		}
		e.eventually(30*time.Second, "create "+u.GetName(), func() error { return e.c.Create(e.ctx, u.DeepCopy()) })
	}
}

func (e *env) eventually(d time.Duration, what string, f func() error) {
	e.t.Helper()
	t0 := time.Now()
	deadline := time.Now().Add(d)
	var err error
	for time.Now().Before(deadline) {
		if err = f(); err == nil {
			e.t.Logf("%s: %.1fs", what, time.Since(t0).Seconds())
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	e.t.Fatalf("%s: %v", what, err)
}

func (e *env) get(apiVersion, kind, ns, name string) (*unstructured.Unstructured, error) {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(apiVersion)
	u.SetKind(kind)
	err := e.c.Get(e.ctx, types.NamespacedName{Namespace: ns, Name: name}, u)
	return u, err
}

func (e *env) list(apiVersion, kind, prefix string) []unstructured.Unstructured {
	u := &unstructured.UnstructuredList{}
	u.SetAPIVersion(apiVersion)
	u.SetKind(kind + "List")
	if err := e.c.List(e.ctx, u, client.InNamespace("default")); err != nil {
		e.t.Fatal(err)
	}
	var out []unstructured.Unstructured
	for _, i := range u.Items {
		if strings.HasPrefix(i.GetName(), prefix) {
			out = append(out, i)
		}
	}
	return out
}

func (e *env) ready(apiVersion, kind, name string) func() error {
	return func() error {
		u, err := e.get(apiVersion, kind, "default", name)
		if err != nil {
			return err
		}
		conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
		for _, c := range conds {
			m := c.(map[string]any)
			if m["type"] == "Ready" && m["status"] == "True" {
				return nil
			}
		}
		return fmt.Errorf("not ready: %v", u.Object["status"])
	}
}

func (e *env) gone(apiVersion, kind, prefix string) func() error {
	return func() error {
		if l := e.list(apiVersion, kind, prefix); len(l) > 0 {
			return fmt.Errorf("%d %s left, first %s", len(l), kind, l[0].GetName())
		}
		return nil
	}
}

func (e *env) del(apiVersion, kind, name string) {
	u, err := e.get(apiVersion, kind, "default", name)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.c.Delete(e.ctx, u); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) patch(apiVersion, kind, name, p string) {
	u, err := e.get(apiVersion, kind, "default", name)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.c.Patch(e.ctx, u, client.RawPatch(types.MergePatchType, []byte(p))); err != nil {
		e.t.Fatal(err)
	}
}

const dsAPI = "datastore.sieve.dev/v1"

func TestDatastore(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		t.Run(fmt.Sprint("fixed=", fixed), func(t *testing.T) {
			e := start(t)
			e.apply("datastore/crd.yaml")
			e.eventually(30*time.Second, "crd", func() error {
				u := &unstructured.UnstructuredList{}
				u.SetAPIVersion(dsAPI)
				u.SetKind("DatastoreList")
				return e.c.List(e.ctx, u)
			})
			args := []string{}
			if fixed {
				args = append(args, "--fixed")
			}
			e.controller("datastore", args...)
			e.apply("datastore/datastore.yaml")
			e.eventually(90*time.Second, "ready", e.ready(dsAPI, "Datastore", "ds"))
			if n := len(e.list("v1", "PersistentVolumeClaim", "data-ds-")); n != 3 {
				t.Fatalf("pvcs = %d, want 3", n)
			}
			e.del(dsAPI, "Datastore", "ds")
			e.eventually(60*time.Second, "ds gone", e.gone(dsAPI, "Datastore", "ds"))
			e.eventually(60*time.Second, "sts gone", e.gone("apps/v1", "StatefulSet", "ds"))
			e.eventually(60*time.Second, "pods gone", e.gone("v1", "Pod", "ds-"))
			e.eventually(60*time.Second, "pvcs gone", e.gone("v1", "PersistentVolumeClaim", "data-ds-"))
			e.apply("datastore/datastore.yaml")
			e.eventually(90*time.Second, "ready again", e.ready(dsAPI, "Datastore", "ds"))
			time.Sleep(3 * time.Second)
			if n := len(e.list("v1", "PersistentVolumeClaim", "data-ds-")); n != 3 {
				t.Fatalf("pvcs = %d, want 3", n)
			}
		})
	}
}

const bcAPI = "volresize.sieve.dev/v1"

func TestVolresize(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		t.Run(fmt.Sprint("fixed=", fixed), func(t *testing.T) {
			e := start(t)
			e.apply("volresize/crd.yaml")
			e.eventually(30*time.Second, "crd", func() error {
				u := &unstructured.UnstructuredList{}
				u.SetAPIVersion(bcAPI)
				u.SetKind("BrokerClusterList")
				return e.c.List(e.ctx, u)
			})
			args := []string{}
			if fixed {
				args = append(args, "--fixed")
			}
			e.controller("volresize", args...)
			e.apply("volresize/cluster.yaml")
			e.eventually(90*time.Second, "ready", e.ready(bcAPI, "BrokerCluster", "bc"))
			e.patch(bcAPI, "BrokerCluster", "bc", `{"spec":{"storage":"2Gi"}}`)
			e.eventually(90*time.Second, "resized", func() error {
				for _, p := range e.list("v1", "PersistentVolumeClaim", "data-bc-") {
					s, _, _ := unstructured.NestedString(p.Object, "spec", "resources", "requests", "storage")
					if s != "2Gi" {
						return fmt.Errorf("%s at %s", p.GetName(), s)
					}
				}
				sts, err := e.get("apps/v1", "StatefulSet", "default", "bc")
				if err != nil {
					return err
				}
				tpl, _, _ := unstructured.NestedSlice(sts.Object, "spec", "volumeClaimTemplates")
				s, _, _ := unstructured.NestedString(tpl[0].(map[string]any), "spec", "resources", "requests", "storage")
				if s != "2Gi" {
					return fmt.Errorf("sts template at %s", s)
				}
				return nil
			})
			e.eventually(90*time.Second, "ready again", e.ready(bcAPI, "BrokerCluster", "bc"))
			if n := len(e.list("v1", "Pod", "bc-")); n != 3 {
				t.Fatalf("pods = %d, want 3", n)
			}
		})
	}
}

const ringAPI = "podreaper.sieve.dev/v1"

func TestPodreaper(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		t.Run(fmt.Sprint("fixed=", fixed), func(t *testing.T) {
			e := start(t)
			e.apply("podreaper/crd.yaml")
			e.eventually(30*time.Second, "crd", func() error {
				u := &unstructured.UnstructuredList{}
				u.SetAPIVersion(ringAPI)
				u.SetKind("RingList")
				return e.c.List(e.ctx, u)
			})
			args := []string{}
			if fixed {
				args = append(args, "--fixed")
			}
			e.controller("podreaper", args...)
			e.apply("podreaper/ring.yaml")
			e.eventually(90*time.Second, "ready", e.ready(ringAPI, "Ring", "cass"))
			e.patch(ringAPI, "Ring", "cass", `{"spec":{"members":1}}`)
			e.eventually(60*time.Second, "cass-2 gone", e.gone("v1", "Pod", "cass-2"))
			e.eventually(60*time.Second, "cass-1 gone", e.gone("v1", "Pod", "cass-1"))
			e.eventually(60*time.Second, "pvcs freed", func() error {
				if n := len(e.list("v1", "PersistentVolumeClaim", "data-cass-")); n != 1 {
					return fmt.Errorf("pvcs = %d, want 1", n)
				}
				return nil
			})
		})
	}
}

func (e *env) podsReady(prefix string, n int) func() error {
	return func() error {
		ready := 0
		pods := e.list("v1", "Pod", prefix)
		for _, p := range pods {
			conds, _, _ := unstructured.NestedSlice(p.Object, "status", "conditions")
			for _, c := range conds {
				m := c.(map[string]any)
				if m["type"] == "Ready" && m["status"] == "True" {
					ready++
				}
			}
		}
		if ready != n || len(pods) != n {
			return fmt.Errorf("%d pods, %d ready, want %d", len(pods), ready, n)
		}
		return nil
	}
}

func (e *env) scale(name string, n int) {
	e.patch("apps/v1", "StatefulSet", name, fmt.Sprintf(`{"spec":{"replicas":%d}}`, n))
}

func TestStatefulSet(t *testing.T) {
	e := start(t, "statefulset")
	e.process(e.cl.BuiltinCommand("statefulset", e.kc))
	e.apply("statefulset/web.yaml")
	e.eventually(90*time.Second, "3 ready", e.podsReady("web-", 3))
	e.del("apps/v1", "StatefulSet", "web")
	e.eventually(60*time.Second, "sts gone", e.gone("apps/v1", "StatefulSet", "web"))
	e.eventually(60*time.Second, "pods gone", e.gone("v1", "Pod", "web-"))
	e.apply("statefulset/web.yaml")
	e.eventually(90*time.Second, "3 ready again", e.podsReady("web-", 3))
	e.scale("web", 5)
	e.eventually(90*time.Second, "5 ready", e.podsReady("web-", 5))
	e.scale("web", 1)
	e.eventually(90*time.Second, "1 left", e.podsReady("web-", 1))
	if n := len(e.list("v1", "PersistentVolumeClaim", "data-web-")); n != 5 {
		t.Errorf("pvcs = %d, want 5 (retained)", n)
	}
}

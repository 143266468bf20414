package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	sievecluster "github.com/sievetool/sieve/interp/cluster"
	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/interp/run/session/sessiontest"
)

// existingSpec holds the kubeconfig backend's tests.
const existingSpec = "testdata/existing.sieve"

var crdsGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// theirCluster is an embedded control plane of the test's own dressed as
// someone's cluster: namespace prod with ConfigMap important, CRD gizmos
// exactly as its manifest says and CRD widgets with a printer column its
// manifest lacks, none of them sieve's.
type theirCluster struct {
	kubeconfig string
	admin      kubernetes.Interface
	dyn        dynamic.Interface
}

// The tests that use one run side by side, after the package's tests on
// the shared control plane: most of each is waiting for deletions.
func newTheirCluster(t *testing.T) *theirCluster {
	t.Helper()
	if testing.Short() {
		t.Skip("starts an embedded control plane; skipped in -short mode")
	}
	t.Parallel()
	c := embeddedtest.Start(t, embedded.Options{})
	tc := &theirCluster{kubeconfig: c.Kubeconfig(), admin: kubernetes.NewForConfigOrDie(c.RESTConfig()), dyn: dynamic.NewForConfigOrDie(c.RESTConfig())}
	ctx := context.Background()
	if _, err := tc.admin.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "prod"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "important", Namespace: "prod"}, Data: map[string]string{"v": "theirs"}}
	if _, err := tc.admin.CoreV1().ConfigMaps("prod").Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	tc.createCRD(t, "gizmo.yaml", nil)
	tc.createCRD(t, "widget.yaml", []any{map[string]any{"name": "Owner", "type": "string", "jsonPath": ".spec.owner"}})
	return tc
}

// createCRD creates the CRD of testdata/existing/file, with the given
// printer columns, as the cluster's owner would.
func (tc *theirCluster) createCRD(t *testing.T, file string, columns []any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "existing", file))
	if err != nil {
		t.Fatal(err)
	}
	o := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(b, &o.Object); err != nil {
		t.Fatal(err)
	}
	if columns != nil {
		versions, _, _ := unstructured.NestedSlice(o.Object, "spec", "versions")
		versions[0].(map[string]any)["additionalPrinterColumns"] = columns
		_ = unstructured.SetNestedSlice(o.Object, versions, "spec", "versions")
	}
	if _, err := tc.dyn.Resource(crdsGVR).Create(context.Background(), o, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// crdExists reports whether CRD name is on the cluster.
func (tc *theirCluster) crdExists(t *testing.T, name string) bool {
	t.Helper()
	_, err := tc.dyn.Resource(crdsGVR).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	return err == nil
}

// mustKeep fails the test unless prod/important is as its owner left it.
func (tc *theirCluster) mustKeep(t *testing.T) {
	t.Helper()
	cm, err := tc.admin.CoreV1().ConfigMaps("prod").Get(context.Background(), "important", metav1.GetOptions{})
	if err != nil || cm.Data["v"] != "theirs" {
		t.Errorf("prod/important, which sieve did not create: %v, %v", err, cm.Data)
	}
}

// runExisting runs test name of existingSpec with the kubeconfig backend
// on tc, then stops the backend as sieve does at the end.
func runExisting(t *testing.T, tc *theirCluster, name string) (*session.Outcome, error) {
	t.Helper()
	e := startExisting(t, tc)
	out, err := executeOn(t, e, name)
	if err := e.Stop(); err != nil {
		t.Errorf("stop: %v", err)
	}
	return out, err
}

// startExisting starts a kubeconfig backend on tc, as one sieve run does.
func startExisting(t *testing.T, tc *theirCluster) *sievecluster.Existing {
	t.Helper()
	e := sievecluster.NewExisting(sievecluster.ExistingOptions{Path: tc.kubeconfig})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := e.Start(ctx); err != nil {
		t.Fatal(err)
	}
	return e
}

// executeOn runs test name of existingSpec on the started backend e.
func executeOn(t *testing.T, e *sievecluster.Existing, name string) (*session.Outcome, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	w := &session.Worker{Backend: e, HostNetwork: true}
	return w.Execute(ctx, session.Run{
		Test: sessiontest.SettleQuickly(sessiontest.LoadTest(t, existingSpec, name)), BaseDir: filepath.Dir(existingSpec), Dir: t.TempDir(),
		Header: trace.Header{Test: name, Spec: existingSpec},
	})
}

// TestExistingSweepsOnlyItsNamespaces runs a workload whose glob
// configmap/*/important would match prod/important on a cluster sieve
// owns: on someone's cluster it deletes the run's own ConfigMap only, and
// the run's history leaves prod out; the CRD and the priority class the
// run created are gone after it, the CRD it found is still there.
func TestExistingSweepsOnlyItsNamespaces(t *testing.T) {
	tc := newTheirCluster(t)
	out, err := runExisting(t, tc, "sweep")
	if err != nil {
		t.Fatal(err)
	}
	if out.WorkloadErr != nil {
		t.Fatalf("workload: %v", out.WorkloadErr)
	}
	tc.mustKeep(t)
	tr, err := trace.Read(out.Trace)
	if err != nil {
		t.Fatal(err)
	}
	own := 0
	for _, e := range tr.Entries {
		if e.Type != trace.History {
			continue
		}
		if e.Key.Namespace == "prod" || (e.Key.Kind == "namespace" && e.Key.Name == "prod") {
			t.Fatalf("the run's history holds %v, which is not the run's", e.Key)
		}
		if e.Key.Namespace == "sieve-e2e-own" {
			own++
		}
		if e.Key.Kind == "configmap" && e.Key.Name == "important" && !strings.Contains(string(e.Object), `"sieve.dev/run":"sieve-`) {
			t.Errorf("the ConfigMap the workload applied does not carry the run's label: %s", e.Object)
		}
	}
	if own == 0 {
		t.Error("the run's history holds nothing of its own namespace")
	}
	if _, err := tc.admin.SchedulingV1().PriorityClasses().Get(context.Background(), "sieve-e2e-priority", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("the priority class the run created, after its end: %v", err)
	}
	if tc.crdExists(t, "gadgets.existing.sieve.dev") {
		t.Error("the CRD the run created survived its end")
	}
	if !tc.crdExists(t, "gizmos.existing.sieve.dev") {
		t.Error("the CRD the run found on the cluster, the same as its manifest, was deleted")
	}
}

// TestExistingRefusesForeignNamespace names prod outright: the step fails
// and says why, and prod/important stays.
func TestExistingRefusesForeignNamespace(t *testing.T) {
	tc := newTheirCluster(t)
	out, err := runExisting(t, tc, "foreign")
	if err != nil {
		t.Fatal(err)
	}
	want := `namespace "prod" was not created by this run`
	if out.WorkloadErr == nil || !strings.Contains(out.WorkloadErr.Error(), want) {
		t.Errorf("workload error %v, want one that says %s", out.WorkloadErr, want)
	}
	tc.mustKeep(t)
}

// TestExistingKeepsDifferentCRD installs a manifest of CRD widgets that
// lacks the printer column of the cluster's: the run stops and says why,
// and the column stays.
func TestExistingKeepsDifferentCRD(t *testing.T) {
	tc := newTheirCluster(t)
	_, err := runExisting(t, tc, "clash")
	want := "crd widgets.existing.sieve.dev exists on the cluster and differs from existing/widget.yaml; sieve does not overwrite what it did not create"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("run error %v, want one that says %s", err, want)
	}
	crd, err := tc.dyn.Resource(crdsGVR).Get(context.Background(), "widgets.existing.sieve.dev", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	if cols, _, _ := unstructured.NestedSlice(versions[0].(map[string]any), "additionalPrinterColumns"); len(cols) != 1 {
		t.Errorf("printer columns of the cluster's CRD: %v, want its Owner column", cols)
	}
	tc.mustKeep(t)
}

// TestExistingSharedCRDStays runs two tests of existingSpec on one cluster
// at once, as two CI jobs would: both install CRD gadgets, which the
// first creates. The first run ends (a reset, as between plans, then its
// stop) while the second still runs: the CRD and the second run's gadget
// stay; the CRD goes when the second run ends.
func TestExistingSharedCRDStays(t *testing.T) {
	tc := newTheirCluster(t)
	first, second := startExisting(t, tc), startExisting(t, tc)
	t.Cleanup(func() { _ = first.Stop(); _ = second.Stop() })
	for _, r := range []struct {
		e    *sievecluster.Existing
		test string
	}{{first, "sweep"}, {second, "share"}} {
		out, err := executeOn(t, r.e, r.test)
		if err != nil {
			t.Fatalf("%s: %v", r.test, err)
		}
		if out.WorkloadErr != nil {
			t.Fatalf("%s: workload: %v", r.test, out.WorkloadErr)
		}
	}
	ctx := context.Background()
	if err := first.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := first.Stop(); err != nil {
		t.Fatal(err)
	}
	if !tc.crdExists(t, "gadgets.existing.sieve.dev") {
		t.Fatal("the first run removed the CRD at its end while the second still used it")
	}
	gadgets := schema.GroupVersionResource{Group: "existing.sieve.dev", Version: "v1", Resource: "gadgets"}
	if _, err := tc.dyn.Resource(gadgets).Namespace("sieve-e2e-other").Get(ctx, "g", metav1.GetOptions{}); err != nil {
		t.Errorf("the second run's gadget after the first run's end: %v", err)
	}
	if err := second.Stop(); err != nil {
		t.Fatal(err)
	}
	if tc.crdExists(t, "gadgets.existing.sieve.dev") {
		t.Error("the CRD survived the end of the last run that used it")
	}
	if !tc.crdExists(t, "gizmos.existing.sieve.dev") {
		t.Error("the CRD the runs found on the cluster was deleted")
	}
}

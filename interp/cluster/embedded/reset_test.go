package embedded_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
)

// TestReset checks that Reset removes what a plan created, including
// objects held by finalizers and a whole namespace, and keeps the system
// objects. It returns to a Checkpoint: objects of the checkpoint that were
// changed or deleted since come back as they were. It leaves a cluster on
// which the same workload runs again.
func TestReset(t *testing.T) {
	t.Parallel() // its own control plane, beside the package's other clusters
	c := embeddedtest.Start(t, embedded.Options{})
	client := kubernetes.NewForConfigOrDie(c.RESTConfig())
	ctx := context.Background()

	kept := createConfigMap(t, client, "default", "kept", nil)
	gone := createConfigMap(t, client, "default", "gone", nil)
	if err := c.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	for round := range 2 {
		changeCheckpointed(t, client, kept.Name, gone.Name)
		ns := createNamespace(t, client, "plan")
		createConfigMap(t, client, ns, "held", []string{"sieve.dev/test-finalizer"})
		createConfigMap(t, client, "default", "extra", nil)
		create(t, func() error {
			_, err := client.AppsV1().StatefulSets(ns).Create(ctx, statefulSet("web", 2), metav1.CreateOptions{})
			return err
		})
		waitFor(t, "2 Ready pods", func() (bool, error) {
			return countPods(ctx, client, ns, "app=web", podReady) == 2, nil
		})
		if err := c.Reset(ctx); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		_, err := client.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
		assertGone(t, "namespace "+ns, err)
		_, err = client.CoreV1().ConfigMaps("default").Get(ctx, "extra", metav1.GetOptions{})
		assertGone(t, "config map default/extra", err)
		if pvs, err := client.CoreV1().PersistentVolumes().List(ctx, metav1.ListOptions{}); err != nil || len(pvs.Items) != 0 {
			t.Errorf("round %d: persistent volumes left after reset: %v %v", round, len(pvs.Items), err)
		}
		assertAsBefore(t, client, kept)
		assertAsBefore(t, client, gone)
	}
	if _, err := client.CoreV1().ServiceAccounts("kube-system").Get(ctx, "default", metav1.GetOptions{}); err != nil {
		t.Errorf("system object: %v", err)
	}
}

// TestFirstCheckpoint checks that the checkpoint Start takes holds what
// the control plane writes after its API server serves: the kubernetes
// Service and its address, the API server's peer lease. A while after
// Start, a Reset would change nothing but events. So it neither deletes
// the Service nor sweeps against a lease the API server renews.
func TestFirstCheckpoint(t *testing.T) {
	t.Parallel() // its own control plane, beside the package's other clusters
	c := embeddedtest.Start(t, embedded.Options{})
	ctx := context.Background()
	time.Sleep(2 * time.Second)
	keys, err := embedded.PendingReset(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) > 0 {
		t.Errorf("2 s after Start, a reset would change %q: the first checkpoint missed them", keys)
	}
	if err := c.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	client := kubernetes.NewForConfigOrDie(c.RESTConfig())
	if _, err := client.CoreV1().Services("default").Get(ctx, "kubernetes", metav1.GetOptions{}); err != nil {
		t.Errorf("after reset: the kubernetes Service: %v", err)
	}
}

// TestSystemObjects checks the objects Start writes instead of waiting for
// the control plane to. It checks the default service account and root CA
// config map of each system namespace against those the controller manager
// writes in a new namespace. It checks the kubernetes Service against the
// one the API server writes once it is deleted. Were they not the same, the
// control plane would rewrite Start's after the first checkpoint
// (TestFirstCheckpoint checks that nothing is rewritten).
func TestSystemObjects(t *testing.T) {
	t.Parallel() // its own control plane, beside the package's other clusters
	c := embeddedtest.Start(t, embedded.Options{})
	client := kubernetes.NewForConfigOrDie(c.RESTConfig())
	ctx := context.Background()
	ns := createNamespace(t, client, "fresh")
	var want *corev1.ConfigMap
	waitFor(t, "the controller manager's service account and root CA config map in a new namespace", func() (bool, error) {
		_, err := client.CoreV1().ServiceAccounts(ns).Get(ctx, "default", metav1.GetOptions{})
		if err == nil {
			want, err = client.CoreV1().ConfigMaps(ns).Get(ctx, "kube-root-ca.crt", metav1.GetOptions{})
		}
		return err == nil, nil
	})
	if want.Data["ca.crt"] != string(c.RESTConfig().CAData) {
		t.Errorf("the controller manager's root CA config map holds %q, want the cluster's CA", want.Data["ca.crt"])
	}
	for _, sys := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		if _, err := client.CoreV1().ServiceAccounts(sys).Get(ctx, "default", metav1.GetOptions{}); err != nil {
			t.Errorf("%s: the default service account: %v", sys, err)
		}
		got, err := client.CoreV1().ConfigMaps(sys).Get(ctx, "kube-root-ca.crt", metav1.GetOptions{})
		if err != nil {
			t.Errorf("%s: the root CA config map: %v", sys, err)
			continue
		}
		if !reflect.DeepEqual(got.Data, want.Data) || !reflect.DeepEqual(got.Annotations, want.Annotations) {
			t.Errorf("%s: the root CA config map has data %q and annotations %q, want those the controller manager writes: %q and %q",
				sys, got.Data, got.Annotations, want.Data, want.Annotations)
		}
	}

	services := client.CoreV1().Services("default")
	svc, err := services.Get(ctx, "kubernetes", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := services.Delete(ctx, "kubernetes", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	var again *corev1.Service
	waitFor(t, "the API server to write the kubernetes Service again (every 10 s)", func() (bool, error) {
		again, err = services.Get(ctx, "kubernetes", metav1.GetOptions{})
		return err == nil, nil
	})
	if !reflect.DeepEqual(svc.Labels, again.Labels) || !reflect.DeepEqual(svc.Spec, again.Spec) {
		t.Errorf("Start wrote the kubernetes Service with labels %v and spec %+v; the API server writes %v and %+v",
			svc.Labels, svc.Spec, again.Labels, again.Spec)
	}
}

func createConfigMap(t *testing.T, client kubernetes.Interface, ns, name string, finalizers []string) *corev1.ConfigMap {
	t.Helper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Finalizers: finalizers}}
	cm, err := client.CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cm
}

func assertGone(t *testing.T, what string, err error) {
	t.Helper()
	if !apierrors.IsNotFound(err) {
		t.Errorf("after reset: %s: want not found, got %v", what, err)
	}
}

// changeCheckpointed modifies one config map of the checkpoint and deletes
// another.
func changeCheckpointed(t *testing.T, client kubernetes.Interface, changed, deleted string) {
	t.Helper()
	ctx := context.Background()
	cm, err := client.CoreV1().ConfigMaps("default").Get(ctx, changed, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cm.Data = map[string]string{"changed": "after the checkpoint"}
	cm.Labels = map[string]string{"changed": "yes"}
	if _, err := client.CoreV1().ConfigMaps("default").Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := client.CoreV1().ConfigMaps("default").Delete(ctx, deleted, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// assertAsBefore checks that a config map of the checkpoint is back, with
// its UID, data and labels of then.
func assertAsBefore(t *testing.T, client kubernetes.Interface, want *corev1.ConfigMap) {
	t.Helper()
	got, err := client.CoreV1().ConfigMaps(want.Namespace).Get(context.Background(), want.Name, metav1.GetOptions{})
	if err != nil {
		t.Errorf("after reset: config map %s of the checkpoint: %v", want.Name, err)
		return
	}
	if got.UID != want.UID || len(got.Data) != 0 || len(got.Labels) != 0 {
		t.Errorf("after reset: config map %s: uid %s data %v labels %v, want uid %s and no data or labels",
			want.Name, got.UID, got.Data, got.Labels, want.UID)
	}
}

// TestResetControllerManagerBehind checks that a reset leaves nothing the
// controller manager can act on when its caches lag behind. The
// StatefulSet controller, seeing a set's pods deleted while its cache
// still held the set, made its revision, claim and pod again after the
// reset had returned, in the next run. So a reset must not return before
// the controller manager shows, by what its garbage collector does, that
// it has seen the owners go. Here it is stopped (SIGSTOP) while the reset
// runs, the lag of a busy machine made certain: the reset waits for it,
// and after it resumes and catches up, nothing of the set comes back.
func TestResetControllerManagerBehind(t *testing.T) {
	t.Parallel() // its own control plane, beside the package's other clusters
	c := embeddedtest.Start(t, embedded.Options{})
	client := kubernetes.NewForConfigOrDie(c.RESTConfig())
	ctx := context.Background()
	if err := c.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	kcm := 0
	for _, p := range c.Processes() {
		if p.Name == "kube-controller-manager" {
			kcm = p.PID
		}
	}
	if kcm == 0 {
		t.Fatalf("no kube-controller-manager among %v", c.Processes())
	}
	for round := range 2 {
		create(t, func() error {
			_, err := client.AppsV1().StatefulSets("default").Create(ctx, statefulSet("web", 2), metav1.CreateOptions{})
			return err
		})
		waitFor(t, "2 Ready pods", func() (bool, error) {
			return countPods(ctx, client, "default", "app=web", podReady) == 2, nil
		})
		if err := syscall.Kill(kcm, syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- c.Reset(ctx) }()
		select {
		case err := <-done:
			syscall.Kill(kcm, syscall.SIGCONT)
			t.Fatalf("round %d: the reset returned (%v) while the controller manager was stopped, its caches still holding the set", round, err)
		case <-time.After(2 * time.Second):
		}
		if err := syscall.Kill(kcm, syscall.SIGCONT); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		// What the controller manager made from a stale cache would show
		// within moments of its catching up.
		time.Sleep(2 * time.Second)
		keys, err := embedded.PendingReset(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		if left := slices.DeleteFunc(keys, func(k string) bool { return strings.HasPrefix(k, "/registry/leases/") }); len(left) > 0 {
			t.Fatalf("round %d: after the reset, the controller manager made %q", round, left)
		}
	}
}

// TestResetTo checks that ResetTo returns to a checkpoint taken in the
// middle of a workload: a StatefulSet of two Ready pods with their claims
// and volumes, and a controller's leader-election lease. After the set was
// scaled up, one of its pods made again (another UID), another set made
// and a config map changed, the reset brings back the set, its pods and
// claims with the checkpoint's UIDs, deletes what was made since and the
// lease (its holder is gone), and leaves nothing the controller manager
// acts on. The pod made again goes and comes back (DELETED, then ADDED):
// watchers never see one object turn into another. Reset still returns to
// the start afterwards, and a checkpoint is refused by a cluster that did
// not take it.
//
// The checkpoint is taken as soon as the pods are Ready, often before the
// controller manager has written the set's status that counts them: the
// sweeps after the first leave that write to it (with both processors
// busy, sweeps that wrote the old status back raced it 1 reset in 3).
func TestResetTo(t *testing.T) {
	t.Parallel() // its own control plane, beside the package's other clusters
	c := embeddedtest.Start(t, embedded.Options{})
	client := kubernetes.NewForConfigOrDie(c.RESTConfig())
	ctx := context.Background()
	if err := c.ResetTo(ctx, &embedded.Checkpoint{}); err == nil || !strings.Contains(err.Error(), "not taken on this cluster") {
		t.Errorf("reset to another cluster's checkpoint: %v, want refused", err)
	}
	kept := createConfigMap(t, client, "default", "kept", nil)
	gone := createConfigMap(t, client, "default", "gone", nil)
	create(t, func() error {
		_, err := client.AppsV1().StatefulSets("default").Create(ctx, statefulSet("web", 2), metav1.CreateOptions{})
		return err
	})
	waitFor(t, "2 Ready pods", func() (bool, error) {
		return countPods(ctx, client, "default", "app=web", podReady) == 2, nil
	})
	createLease(t, client, "controller-lock")
	cp, err := c.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := uids(t, client)
	for round := range 2 {
		changeMidWorkload(t, client, kept.Name, gone.Name)
		events := watchPods(t, client)
		if err := c.ResetTo(ctx, cp); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		assertNoTurn(t, events())
		if got := uids(t, client); !reflect.DeepEqual(got, want) {
			t.Errorf("round %d: after the reset, objects and UIDs %v, want the checkpoint's %v", round, got, want)
		}
		_, err := client.CoordinationV1().Leases("default").Get(ctx, "controller-lock", metav1.GetOptions{})
		assertGone(t, "the controller's lease", err)
		assertAsBefore(t, client, kept)
		assertAsBefore(t, client, gone)
		time.Sleep(2 * time.Second) // what the controller manager made from a stale cache shows by then
		keys, err := embedded.PendingResetTo(ctx, c, cp)
		if err != nil {
			t.Fatal(err)
		}
		if left := slices.DeleteFunc(keys, func(k string) bool { return strings.HasPrefix(k, "/registry/leases/") }); len(left) > 0 {
			t.Errorf("round %d: after the reset, the control plane changed %q", round, left)
		}
	}
	if err := c.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if got := uids(t, client); len(got) != 0 {
		t.Errorf("after Reset: %v left, want the start's state", got)
	}
}

// changeMidWorkload does what a workload's next operations might: scale
// the set up, delete a pod (made again under its name), make another set
// and change a config map and delete another.
func changeMidWorkload(t *testing.T, client kubernetes.Interface, changed, deleted string) {
	t.Helper()
	ctx := context.Background()
	sets := client.AppsV1().StatefulSets("default")
	create(t, func() error {
		_, err := sets.Patch(ctx, "web", types.MergePatchType, []byte(`{"spec":{"replicas":3}}`), metav1.PatchOptions{})
		return err
	})
	create(t, func() error {
		_, err := sets.Create(ctx, statefulSet("extra", 1), metav1.CreateOptions{})
		return err
	})
	waitFor(t, "4 Ready pods", func() (bool, error) {
		return countPods(ctx, client, "default", "app in (web,extra)", podReady) == 4, nil
	})
	pods := client.CoreV1().Pods("default")
	old, err := pods.Get(ctx, "web-0", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := pods.Delete(ctx, "web-0", metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "web-0 made again", func() (bool, error) {
		p, err := pods.Get(ctx, "web-0", metav1.GetOptions{})
		return err == nil && p.UID != old.UID && podReady(*p), nil
	})
	changeCheckpointed(t, client, changed, deleted)
}

func createLease(t *testing.T, client kubernetes.Interface, name string) {
	t.Helper()
	l := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr.To("controller-1"), LeaseDurationSeconds: ptr.To[int32](15)}}
	create(t, func() error {
		_, err := client.CoordinationV1().Leases("default").Create(context.Background(), l, metav1.CreateOptions{})
		return err
	})
}

// uids returns the UIDs of the StatefulSets, pods, claims and volumes,
// by kind and name.
func uids(t *testing.T, client kubernetes.Interface) map[string]types.UID {
	t.Helper()
	ctx := context.Background()
	out := map[string]types.UID{}
	sets, err := client.AppsV1().StatefulSets("default").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range sets.Items {
		out["statefulset/"+o.Name] = o.UID
	}
	pods, err := client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range pods.Items {
		out["pod/"+o.Name] = o.UID
	}
	claims, err := client.CoreV1().PersistentVolumeClaims("default").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range claims.Items {
		out["claim/"+o.Name] = o.UID
	}
	pvs, err := client.CoreV1().PersistentVolumes().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range pvs.Items {
		out["volume/"+o.Name] = o.UID
	}
	return out
}

// watchPods watches the pods of default from now on; the function it
// returns stops the watch and returns its events so far.
func watchPods(t *testing.T, client kubernetes.Interface) func() []watch.Event {
	t.Helper()
	w, err := client.CoreV1().Pods("default").Watch(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu     sync.Mutex
		events []watch.Event
		done   = make(chan struct{})
	)
	go func() {
		defer close(done)
		for e := range w.ResultChan() {
			mu.Lock()
			events = append(events, e)
			mu.Unlock()
		}
	}()
	return func() []watch.Event {
		time.Sleep(500 * time.Millisecond) // the reset's last events on their way
		w.Stop()
		<-done
		return events
	}
}

// assertNoTurn checks that no MODIFIED event in events gives a pod
// another UID than the one the events before it gave it.
func assertNoTurn(t *testing.T, events []watch.Event) {
	t.Helper()
	last := map[string]types.UID{}
	for _, e := range events {
		p, ok := e.Object.(*corev1.Pod)
		if !ok {
			continue
		}
		if uid, seen := last[p.Name]; e.Type == watch.Modified && seen && uid != p.UID {
			t.Errorf("pod %s turned from %s into %s in one MODIFIED event, with no DELETED between", p.Name, uid, p.UID)
		}
		last[p.Name] = p.UID
		if e.Type == watch.Deleted {
			delete(last, p.Name)
		}
	}
}

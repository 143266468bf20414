package embedded

import (
	"slices"
	"testing"

	"go.etcd.io/etcd/api/v3/mvccpb"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/scheme"
)

// TestTopOwners holds which objects a reset deletes first: the built-in
// objects made since the checkpoint that own another and are owned by no
// built-in object made since. A StatefulSet owned by a custom resource is
// one (the garbage collector may not watch the custom resource's kind
// yet); a ReplicaSet under a Deployment is not, its Deployment is. Once
// they are deleted, the reset waits for everything in their trees, the
// objects made again meanwhile included, to be deleted or being deleted.
func TestTopOwners(t *testing.T) {
	ref := func(uid types.UID) []metav1.OwnerReference {
		return []metav1.OwnerReference{{UID: uid, Name: string(uid)}}
	}
	meta := func(name string, uid types.UID, owner types.UID) metav1.ObjectMeta {
		m := metav1.ObjectMeta{Name: name, Namespace: "default", UID: uid}
		if owner != "" {
			m.OwnerReferences = ref(owner)
		}
		return m
	}
	objs := map[string]objectMeta{}
	add := func(key string, value []byte) {
		m, ok := decodeMeta(value)
		if !ok {
			t.Fatalf("%s: metadata not read", key)
		}
		objs[key] = m
	}
	add("/registry/ring.example.com/rings/default/ring", []byte(`{"apiVersion":"example.com/v1","kind":"Ring","metadata":{"name":"ring","uid":"ring"}}`))
	add("/registry/statefulsets/default/ring", encode(t, &appsv1.StatefulSet{ObjectMeta: meta("ring", "sts", "ring")}))
	add("/registry/pods/default/ring-0", encode(t, &corev1.Pod{ObjectMeta: meta("ring-0", "pod", "sts")}))
	add("/registry/deployments/default/web", encode(t, &appsv1.Deployment{ObjectMeta: meta("web", "deploy", "")}))
	add("/registry/replicasets/default/web-1", encode(t, &appsv1.ReplicaSet{ObjectMeta: meta("web-1", "rs", "deploy")}))
	add("/registry/configmaps/default/plain", encode(t, &corev1.ConfigMap{ObjectMeta: meta("plain", "cm", "")}))
	add("/registry/serviceaccounts/default/default", encode(t, &corev1.ServiceAccount{ObjectMeta: meta("default", "sa", "")}))
	add("/registry/secrets/default/old-owned", encode(t, &corev1.Secret{ObjectMeta: meta("old-owned", "secret", "sa")}))
	snap := &snapshot{entries: map[string]entry{
		"/registry/serviceaccounts/default/default": {},
		"/registry/secrets/default/old-owned":       {},
	}}
	want := []string{"/registry/deployments/default/web", "/registry/statefulsets/default/ring"}
	if got := snap.topOwners(objs); !slices.Equal(got, want) {
		t.Errorf("top owners %q, want %q", got, want)
	}

	tree := owned([]types.UID{"sts", "deploy"}, objs)
	for uid, want := range map[types.UID]bool{"sts": true, "pod": true, "deploy": true, "rs": true, "ring": false, "cm": false} {
		if tree[uid] != want {
			t.Errorf("%s in the deleted owners' trees: %v, want %v", uid, tree[uid], want)
		}
	}
	left := map[string]objectMeta{"pod": {uid: "pod", owners: []types.UID{"sts"}, terminating: true}, "cm": objs["/registry/configmaps/default/plain"]}
	if !collected(tree, left) {
		t.Error("a terminating pod and an unowned config map left: not collected, want collected")
	}
	left["again"] = objectMeta{uid: "again", owners: []types.UID{"sts"}} // made again from a stale cache
	if collected(owned([]types.UID{"sts", "deploy"}, objs, left), left) {
		t.Error("a pod made again for the deleted set left: collected, want not")
	}
}

// encode stores obj as the API server stores a built-in kind: protobuf.
func encode(t *testing.T, obj runtime.Object) []byte {
	t.Helper()
	gvks, _, err := scheme.Scheme.ObjectKinds(obj)
	if err != nil {
		t.Fatal(err)
	}
	obj.GetObjectKind().SetGroupVersionKind(gvks[0])
	b, err := runtime.Encode(protobuf.NewSerializer(scheme.Scheme, scheme.Scheme), obj)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestResetOpsStatusOnly holds what a sweep after the first leaves to the
// control plane: a built-in object of the snapshot whose status alone the
// controller manager wrote since (a StatefulSet's ready replicas, with
// its managed fields), which the first sweep writes back like any change.
// A change to its spec, or to a config map, is written back in every
// sweep; so is a custom resource's status (the controller under test's
// to write, and it is stopped).
func TestResetOpsStatusOnly(t *testing.T) {
	set := func(replicas, ready int32, manager string) []byte {
		s := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "sts", Generation: 1,
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: manager}}},
			Spec:   appsv1.StatefulSetSpec{Replicas: &replicas},
			Status: appsv1.StatefulSetStatus{Replicas: 2, ReadyReplicas: ready}}
		return encode(t, s)
	}
	const (
		sts = "/registry/statefulsets/default/web"
		cm  = "/registry/configmaps/default/plain"
		cr  = "/registry/example.com/rings/default/ring"
	)
	snap := &snapshot{entries: map[string]entry{
		sts: {set(2, 1, "test"), 5, 5},
		cm:  {encode(t, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "plain", UID: "cm"}}), 5, 5},
		cr:  {[]byte(`{"kind":"Ring","metadata":{"name":"ring","uid":"ring"},"status":{"ready":1}}`), 5, 5},
	}}
	for _, tc := range []struct {
		what      string
		value     []byte
		key       string
		first     bool
		writeBack bool
	}{
		{"status written by the controller manager, first sweep", set(2, 2, "kube-controller-manager"), sts, true, true},
		{"status written by the controller manager, later sweep", set(2, 2, "kube-controller-manager"), sts, false, false},
		{"spec changed, later sweep", set(3, 1, "test"), sts, false, true},
		{"config map without status, later sweep", encode(t, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "plain", UID: "cm"}, Data: map[string]string{"a": "b"}}), cm, false, true},
		{"custom resource's status, later sweep", []byte(`{"kind":"Ring","metadata":{"name":"ring","uid":"ring"},"status":{"ready":2}}`), cr, false, true},
	} {
		var kvs []*mvccpb.KeyValue
		for key, e := range snap.entries {
			kv := &mvccpb.KeyValue{Key: []byte(key), ModRevision: e.revision, CreateRevision: e.created, Value: e.value}
			if key == tc.key {
				kv.ModRevision, kv.Value = 9, tc.value
			}
			kvs = append(kvs, kv)
		}
		ops, again := snap.resetOps(kvs, !tc.first)
		if got := len(ops) == 1 && len(again) == 0 && string(ops[0].KeyBytes()) == tc.key; got != tc.writeBack || len(ops) > 1 {
			t.Errorf("%s: operations %q, want a write-back of %s: %v", tc.what, opKeys(ops, 5), tc.key, tc.writeBack)
		}
	}
}

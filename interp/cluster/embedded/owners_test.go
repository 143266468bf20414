package embedded

import (
	"slices"
	"testing"

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

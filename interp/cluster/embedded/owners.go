package embedded

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/scheme"
)

// Owners first. The controller manager acts on its informers' caches,
// one per kind, each a moment behind the API server, and never in step
// with each other. Deleting a StatefulSet and its pods at once, a reset
// let the StatefulSet controller see the pods go while its cache still
// held the set: it made the set's revision, claim and pod again, and when
// the machine was busy that came after the last sweep, in the next run
// (a pod created and deleted before the workload's first step, a claim
// left over). So a reset deletes the owners made since the checkpoint
// first, and sweeps the rest only once the garbage collector has deleted,
// or marked for deletion, everything they owned: it reads the owners'
// deletion from the same informers the controllers read, so by then no
// controller's cache holds them. That is evidence, not a pause: a busy
// machine makes the wait longer, not the reset wrong.
//
// Only built-in owners count (a StatefulSet, not the custom resource that
// owns it): the garbage collector watches a custom resource's kind only
// from its first discovery after the CRD was installed, up to 30 s later,
// and until then does not see it go. The built-in objects below it are
// enough: the controllers that would make things again are built-in ones.

// collectBound bounds the wait for the garbage collector. Past it (a
// collector that cannot resolve an owner), the reset sweeps as it would
// without waiting.
const collectBound = 10 * time.Second

// protobufPrefix starts the values the API server stores as protobuf
// (built-in kinds); custom resources are stored as JSON.
const protobufPrefix = "k8s\x00"

// objectMeta is what a reset reads of an object in etcd.
type objectMeta struct {
	uid         types.UID
	owners      []types.UID
	terminating bool
	builtin     bool  // stored as protobuf: a built-in kind
	created     int64 // the revision that created its key
}

// decodeMeta reads the metadata of a stored object; false when the value
// is not one the reset can read (it then owns nothing that it knows of).
func decodeMeta(value []byte) (objectMeta, bool) {
	var m metav1.Object
	builtin := bytes.HasPrefix(value, []byte(protobufPrefix))
	if builtin {
		obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(value, nil, nil)
		if err != nil {
			return objectMeta{}, false
		}
		if m, err = meta.Accessor(obj); err != nil {
			return objectMeta{}, false
		}
	} else {
		var o struct {
			Metadata metav1.ObjectMeta `json:"metadata"`
		}
		if json.Unmarshal(value, &o) != nil {
			return objectMeta{}, false
		}
		m = &o.Metadata
	}
	out := objectMeta{uid: m.GetUID(), terminating: m.GetDeletionTimestamp() != nil, builtin: builtin}
	for _, ref := range m.GetOwnerReferences() {
		out.owners = append(out.owners, ref.UID)
	}
	return out, out.uid != ""
}

// statusOnly reports whether cur, a stored object, differs from was, its
// value at a snapshot, in its status alone (and the managed fields that
// record who wrote it): both of a built-in kind that has a status.
func statusOnly(was, cur []byte) bool {
	a, ok := withoutStatus(was)
	if !ok {
		return false
	}
	b, ok := withoutStatus(cur)
	return ok && equality.Semantic.DeepEqual(a, b)
}

// withoutStatus decodes a stored built-in object without its status and
// managed fields; false when value is not one, or has no status.
func withoutStatus(value []byte) (map[string]any, bool) {
	if !bytes.HasPrefix(value, []byte(protobufPrefix)) {
		return nil, false
	}
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(value, nil, nil)
	if err != nil {
		return nil, false
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if _, has := u["status"]; err != nil || !has {
		return nil, false
	}
	delete(u, "status")
	unstructured.RemoveNestedField(u, "metadata", "managedFields")
	return u, true
}

// registryMeta reads the metadata of every object in etcd, by key.
func (c *Cluster) registryMeta(ctx context.Context) (map[string]objectMeta, error) {
	resp, err := c.etcd.Get(ctx, registryPrefix, clientv3.WithPrefix())
	if err != nil {
		return nil, fmt.Errorf("reset: reading etcd: %w", err)
	}
	out := make(map[string]objectMeta, len(resp.Kvs))
	for _, kv := range resp.Kvs {
		if m, ok := decodeMeta(kv.Value); ok {
			m.created = kv.CreateRevision
			out[string(kv.Key)] = m
		}
	}
	return out, nil
}

// topOwners returns the keys, sorted, of the built-in objects made since
// the snapshot that own another such object and are owned by none.
func (s *snapshot) topOwners(objs map[string]objectMeta) []string {
	owning, made := map[types.UID]bool{}, map[types.UID]bool{}
	for key, m := range objs {
		if s.builtinNew(key, m) {
			made[m.uid] = true
			for _, uid := range m.owners {
				owning[uid] = true
			}
		}
	}
	var out []string
	for key, m := range objs {
		if s.builtinNew(key, m) && owning[m.uid] && !slices.ContainsFunc(m.owners, func(u types.UID) bool { return made[u] }) {
			out = append(out, key)
		}
	}
	slices.Sort(out)
	return out
}

// builtinNew reports whether the object at key is of a built-in kind and
// was made since the snapshot (its key, or made again under it).
func (s *snapshot) builtinNew(key string, m objectMeta) bool {
	e, old := s.entries[key]
	return (!old || e.created != m.created) && m.builtin && !hasAnyPrefix(key, protectedPrefixes())
}

// owned returns the UIDs of the trees under roots: the roots, and what
// any object seen (in any of reads) says it is owned by one of them.
func owned(roots []types.UID, reads ...map[string]objectMeta) map[types.UID]bool {
	tree := map[types.UID]bool{}
	for _, uid := range roots {
		tree[uid] = true
	}
	for grew := true; grew; {
		grew = false
		for _, objs := range reads {
			for _, m := range objs {
				if !tree[m.uid] && slices.ContainsFunc(m.owners, func(u types.UID) bool { return tree[u] }) {
					tree[m.uid], grew = true, true
				}
			}
		}
	}
	return tree
}

// collected reports whether every object left in objs that belongs to
// tree is being deleted.
func collected(tree map[types.UID]bool, objs map[string]objectMeta) bool {
	for _, m := range objs {
		if tree[m.uid] && !m.terminating {
			return false
		}
	}
	return true
}

// ownersFirst deletes the top owners made since snapshot s (see
// topOwners) and waits until the garbage collector has deleted, or marked
// for deletion, every object in their trees, those made again meanwhile
// included. It does nothing when the controller manager runs no garbage
// collector.
func (c *Cluster) ownersFirst(ctx context.Context, s *snapshot) error {
	if !slices.Contains(c.layout.controllers, ControllerName("garbage-collector")) {
		return nil
	}
	before, err := c.registryMeta(ctx)
	if err != nil {
		return err
	}
	keys := s.topOwners(before)
	if len(keys) == 0 {
		return nil
	}
	ops := make([]clientv3.Op, len(keys))
	roots := make([]types.UID, len(keys))
	for i, key := range keys {
		ops[i], roots[i] = clientv3.OpDelete(key), before[key].uid
	}
	if err := c.commit(ctx, s, ops); err != nil {
		return err
	}
	wait, cancel := context.WithTimeout(ctx, collectBound)
	defer cancel()
	err = c.poll(wait, []check{{"the garbage collector to delete what the deleted owners owned", func(ctx context.Context) bool {
		now, err := c.registryMeta(ctx)
		return err == nil && collected(owned(roots, before, now), now)
	}}})
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	return nil
}

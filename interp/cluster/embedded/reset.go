package embedded

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// registryPrefix is where the API server keeps objects in etcd.
const registryPrefix = "/registry/"

// txnOps bounds the operations of one etcd transaction during a reset.
const txnOps = 2000

// protectedPrefixes hold keys that the control plane creates and renews on
// its own (API server identity, endpoint and peer leases, node leases);
// Reset neither deletes nor restores them. (A peer lease written after the
// first checkpoint and deleted by a reset is back within moments: a reset
// that deleted it swept until it gave up.)
func protectedPrefixes() []string {
	return []string{
		"/registry/masterleases/",
		"/registry/peerserverleases/",
		"/registry/leases/kube-system/",
		"/registry/leases/kube-node-lease/",
	}
}

// eventsPrefix holds events: Reset deletes those written since the
// checkpoint but does not restore older ones, which expire on their own.
const eventsPrefix = registryPrefix + "events/"

// snapshot is the state Reset returns to: every key of the registry at the
// checkpoint, with its value and the revision that last modified it.
type snapshot struct {
	entries    map[string]entry
	namespaces int
}

type entry struct {
	value    []byte
	revision int64
}

// restorable reports whether Reset puts key back to its value at the
// checkpoint when it has changed or gone.
func restorable(key string) bool {
	return !strings.HasPrefix(key, eventsPrefix) && !hasAnyPrefix(key, protectedPrefixes())
}

// connectEtcd opens sieve's own etcd client and takes the first checkpoint.
func (c *Cluster) connectEtcd(ctx context.Context) error {
	cfg := clientv3.Config{
		Endpoints:   []string{c.layout.etcdURL()},
		DialTimeout: 5 * time.Second,
		Logger:      zap.NewNop(),
	}
	if c.layout.etcdSocket == "" {
		cfg.TLS = c.etcdTLS
	}
	cli, err := clientv3.New(cfg)
	if err != nil {
		return fmt.Errorf("connecting to etcd: %w", err)
	}
	c.etcd = cli
	return c.checkpoint(ctx)
}

// Checkpoint makes the current state the one Reset returns to, for
// instance after a controller's CRDs are installed.
func (c *Cluster) Checkpoint(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.etcd == nil {
		return fmt.Errorf("checkpoint: cluster not started")
	}
	return c.checkpoint(ctx)
}

func (c *Cluster) checkpoint(ctx context.Context) error {
	resp, err := c.etcd.Get(ctx, registryPrefix, clientv3.WithPrefix())
	if err != nil {
		return fmt.Errorf("checkpoint: reading etcd: %w", err)
	}
	snap := &snapshot{entries: make(map[string]entry, len(resp.Kvs))}
	for _, kv := range resp.Kvs {
		snap.entries[string(kv.Key)] = entry{value: kv.Value, revision: kv.ModRevision}
		if strings.HasPrefix(string(kv.Key), registryPrefix+"namespaces/") {
			snap.namespaces++
		}
	}
	c.baseline = snap
	return nil
}

// Reset returns the cluster to the last checkpoint (Start takes the
// first), directly in etcd. The owners made since go first, and the rest
// once the garbage collector has taken their trees (see ownersFirst).
// Every object created since is deleted;
// finalizers and graceful deletion do not apply. Every object that existed
// at the checkpoint and was changed or deleted since is written back with
// its value then (a new resourceVersion, the same UID), the service
// allocators included. Leases the control plane renews and older events
// are left as they are.
//
// Writing in etcd is consistent with the API server. Its watch cache
// follows etcd's watch, so each deletion or write-back reaches the cache
// and every watching client (controller manager, scheduler, node
// simulator). It comes as a DELETED, MODIFIED or ADDED event, in revision
// order per resource. A list with no resourceVersion is served at least at
// etcd's current revision. Reset returns once the API server lists the
// namespaces of the checkpoint.
func (c *Cluster) Reset(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.etcd == nil || c.baseline == nil {
		return fmt.Errorf("reset: cluster not started")
	}
	return c.sweep(ctx)
}

// Sweep timing: a controller acting on a cache that has not yet seen the
// deletions writes within moments. (The StatefulSet controller recreates
// a pod and its claim for a StatefulSet just deleted.) So Reset sweeps
// again after sweepGap until a sweep finds nothing, at most sweepPasses
// times.
const (
	sweepGap    = 150 * time.Millisecond
	sweepPasses = 20
)

// sweep deletes what appeared since the checkpoint and writes back what
// changed, pass after pass, until a pass finds nothing left to do. Between
// passes it waits sweepGap, during which the API server catches up: the
// pass after the last one that changed anything finds nothing, so the API
// server lists the checkpoint's namespaces when sweep returns.
func (c *Cluster) sweep(ctx context.Context) error {
	client, err := c.probeClient()
	if err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	if err := c.ownersFirst(ctx); err != nil {
		return err
	}
	for pass := 0; pass < sweepPasses; pass++ {
		ops, err := c.pendingOps(ctx)
		if err != nil {
			return err
		}
		if err := c.commitNamespacesFirst(ctx, client, ops); err != nil {
			return err
		}
		if len(ops) == 0 || pass > 0 && !hasState(ops) {
			return nil
		}
		if err := c.gap(ctx, client); err != nil {
			return err
		}
	}
	return fmt.Errorf("reset: objects kept reappearing after %d sweeps (a controller keeps recreating them)", sweepPasses)
}

// pendingOps lists the registry's keys and returns the operations that
// bring it back to the checkpoint.
func (c *Cluster) pendingOps(ctx context.Context) ([]clientv3.Op, error) {
	resp, err := c.etcd.Get(ctx, registryPrefix, clientv3.WithPrefix(), clientv3.WithKeysOnly())
	if err != nil {
		return nil, fmt.Errorf("reset: listing etcd keys: %w", err)
	}
	return c.baseline.resetOps(resp.Kvs), nil
}

// hasState reports whether ops touch anything but events, which the
// controller manager goes on writing for a moment about what it did.
func hasState(ops []clientv3.Op) bool {
	for _, op := range ops {
		if !strings.HasPrefix(string(op.KeyBytes()), eventsPrefix) {
			return true
		}
	}
	return false
}

// resetOps returns the operations that bring the registry, whose keys
// (without values) are kvs, back to the snapshot: delete what is new,
// write back what changed, recreate what went.
func (s *snapshot) resetOps(kvs []*mvccpb.KeyValue) []clientv3.Op {
	var ops []clientv3.Op
	present := make(map[string]bool, len(kvs))
	for _, kv := range kvs {
		key := string(kv.Key)
		present[key] = true
		e, ok := s.entries[key]
		switch {
		case !ok && !hasAnyPrefix(key, protectedPrefixes()):
			ops = append(ops, clientv3.OpDelete(key))
		case ok && kv.ModRevision != e.revision && restorable(key):
			ops = append(ops, clientv3.OpPut(key, string(e.value)))
		}
	}
	var gone []string
	for key := range s.entries {
		if !present[key] && restorable(key) {
			gone = append(gone, key)
		}
	}
	slices.Sort(gone)
	for _, key := range gone {
		ops = append(ops, clientv3.OpPut(key, string(s.entries[key].value)))
	}
	return ops
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// commit applies ops in transactions of at most txnOps operations. The
// keys it writes back get new revisions, which it notes so that the next
// sweep does not write them again.
func (c *Cluster) commit(ctx context.Context, ops []clientv3.Op) error {
	for len(ops) > 0 {
		n := min(len(ops), txnOps)
		resp, err := c.etcd.Txn(ctx).Then(ops[:n]...).Commit()
		if err != nil {
			return fmt.Errorf("reset: writing to etcd: %w", err)
		}
		for _, op := range ops[:n] {
			if op.IsPut() {
				key := string(op.KeyBytes())
				e := c.baseline.entries[key]
				e.revision = resp.Header.Revision
				c.baseline.entries[key] = e
			}
		}
		ops = ops[n:]
	}
	return nil
}

// commitNamespacesFirst commits ops, but deletes the namespaces among
// them first and waits until the API server lists none of them before it
// deletes their objects. A controller that sees an object deleted while
// its cache still holds the object's namespace may create it again (the
// controller manager's service-account controller recreates "default").
// The API server refuses a create in a namespace it no longer has. With
// everything deleted at once, resets often needed a second pass after
// another gap.
func (c *Cluster) commitNamespacesFirst(ctx context.Context, client kubernetes.Interface, ops []clientv3.Op) error {
	names, first, rest := namespaceDeletes(ops)
	if len(first) > 0 {
		if err := c.commit(ctx, first); err != nil {
			return err
		}
		err := c.poll(ctx, []check{{"the deleted namespaces to go", func(ctx context.Context) bool {
			list, err := client.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
			return err == nil && !slices.ContainsFunc(list.Items, func(ns corev1.Namespace) bool { return names[ns.Name] })
		}}})
		if err != nil {
			return fmt.Errorf("reset: %w", err)
		}
	}
	return c.commit(ctx, rest)
}

// namespaceDeletes splits ops into the deletions of namespaces, with
// their names, and the rest.
func namespaceDeletes(ops []clientv3.Op) (names map[string]bool, deletes, rest []clientv3.Op) {
	names = map[string]bool{}
	for _, op := range ops {
		name, ok := strings.CutPrefix(string(op.KeyBytes()), registryPrefix+"namespaces/")
		if ok && op.IsDelete() {
			names[name] = true
			deletes = append(deletes, op)
		} else {
			rest = append(rest, op)
		}
	}
	return names, deletes, rest
}

// gap waits sweepGap and until the API server lists as many namespaces
// as at the checkpoint.
func (c *Cluster) gap(ctx context.Context, client kubernetes.Interface) error {
	end := time.After(sweepGap)
	err := c.poll(ctx, []check{{"namespaces of the checkpoint", func(ctx context.Context) bool {
		list, err := client.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
		return err == nil && len(list.Items) == c.baseline.namespaces
	}}})
	if err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-end:
		return nil
	}
}

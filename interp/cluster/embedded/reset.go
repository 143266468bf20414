package embedded

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/cluster"
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

// snapshot is the state a reset returns to: every key of the registry at
// the checkpoint, with its value, the revision that last modified it and
// the revision that created it (a key deleted and made again since has
// another).
type snapshot struct {
	entries    map[string]entry
	namespaces int
}

type entry struct {
	value    []byte
	revision int64
	created  int64
}

// Checkpoint is a state of one cluster, taken by Snapshot, that ResetTo
// returns the cluster to, as often as asked.
type Checkpoint struct {
	// dir is the cluster's directory when the checkpoint was taken: a
	// checkpoint holds the UIDs, certificates and revisions of one start
	// of one cluster.
	dir  string
	snap *snapshot
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
	snap, err := c.take(ctx, func(string) bool { return false })
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	c.baseline = snap
	return nil
}

// Snapshot takes a checkpoint of the cluster as it is now, which ResetTo
// returns to; the state Reset returns to stays as it is. Take it with the
// controller under test stopped. The leases other than the control
// plane's own (heldLock) are left out of it, so that ResetTo deletes them:
// a controller's leader-election lock names a holder that is gone once the
// controller has been stopped, and a controller started afresh would wait
// for it to expire (15 s and more) where at its first start it took the
// lock at once. Everything else is kept as it is, pods' status included:
// the node simulator derives a pod's status from its spec and name alone,
// so a pod written back Running is one it would have made Running too, and
// the endpoints written back are those of the pods and services written
// back with them.
func (c *Cluster) Snapshot(ctx context.Context) (cluster.Checkpoint, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.etcd == nil {
		return nil, fmt.Errorf("snapshot: cluster not started")
	}
	snap, err := c.take(ctx, heldLock)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	return &Checkpoint{dir: c.layout.dir, snap: snap}, nil
}

// Cluster names the start of the cluster that took cp: its directory.
func (cp *Checkpoint) Cluster() string { return cp.dir }

// heldLock reports whether key is a lease that some process other than
// the control plane holds (protectedPrefixes are the control plane's).
func heldLock(key string) bool {
	return strings.HasPrefix(key, registryPrefix+"leases/") && !hasAnyPrefix(key, protectedPrefixes())
}

// take reads the registry into a snapshot, leaving out the keys skip
// names.
func (c *Cluster) take(ctx context.Context, skip func(key string) bool) (*snapshot, error) {
	resp, err := c.etcd.Get(ctx, registryPrefix, clientv3.WithPrefix())
	if err != nil {
		return nil, fmt.Errorf("reading etcd: %w", err)
	}
	snap := &snapshot{entries: make(map[string]entry, len(resp.Kvs))}
	for _, kv := range resp.Kvs {
		key := string(kv.Key)
		if skip(key) {
			continue
		}
		snap.entries[key] = entry{value: kv.Value, revision: kv.ModRevision, created: kv.CreateRevision}
		if strings.HasPrefix(key, registryPrefix+"namespaces/") {
			snap.namespaces++
		}
	}
	return snap, nil
}

// Reset returns the cluster to the last checkpoint (Start takes the
// first), directly in etcd. The owners made since go first, and the rest
// once the garbage collector has taken their trees (see ownersFirst).
// Every object created since is deleted;
// finalizers and graceful deletion do not apply. Every object that existed
// at the checkpoint and was changed or deleted since is written back with
// its value then (a new resourceVersion, the same UID), the service
// allocators included; one deleted and made again under its name is
// deleted first, then written back. Leases the control plane renews and
// older events are left as they are.
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
	return c.sweep(ctx, c.baseline)
}

// ResetTo returns the cluster to checkpoint cp, taken by Snapshot, as
// Reset does to its checkpoint, with the same care: the built-in owners
// made since go first, and sweeps go on until the cluster is quiet. An
// object of cp deleted and made again since (another UID) is deleted and
// then written back, so that watchers see it go and come back, as they
// would have, never one object turn into another. cp may be reset to any
// number of times; it belongs to the cluster that took it, and only to
// that start of it.
func (c *Cluster) ResetTo(ctx context.Context, cp cluster.Checkpoint) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.etcd == nil || c.baseline == nil {
		return fmt.Errorf("reset: cluster not started")
	}
	own, ok := cp.(*Checkpoint)
	if !ok || own == nil || own.dir != c.layout.dir || own.snap == nil {
		return fmt.Errorf("reset: the checkpoint was not taken on this cluster since it started (UIDs and certificates differ between clusters: take it with this cluster's Snapshot)")
	}
	return c.sweep(ctx, own.snap)
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

// sweep deletes what appeared since snapshot s and writes back what
// changed, pass after pass, until a pass finds nothing left to do. Between
// passes it waits sweepGap, during which the API server catches up: the
// pass after the last one that changed anything finds nothing, so the API
// server lists the snapshot's namespaces when sweep returns.
func (c *Cluster) sweep(ctx context.Context, s *snapshot) error {
	client, err := c.probeClient()
	if err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	if err := c.ownersFirst(ctx, s); err != nil {
		return err
	}
	var last []clientv3.Op
	for pass := 0; pass < sweepPasses; pass++ {
		ops, again, err := c.pendingOps(ctx, s, pass > 0)
		if err != nil {
			return err
		}
		if err := c.commitNamespacesFirst(ctx, client, s, ops); err != nil {
			return err
		}
		if err := c.commit(ctx, s, again); err != nil {
			return err
		}
		if len(ops) == 0 || pass > 0 && !hasState(ops) {
			return nil
		}
		last = ops
		if err := c.gap(ctx, client, s); err != nil {
			return err
		}
	}
	return fmt.Errorf("reset: objects kept reappearing after %d sweeps (a controller keeps recreating them): %s", sweepPasses, opKeys(last, 5))
}

// opKeys names the keys of the first n of ops, and says how many more.
func opKeys(ops []clientv3.Op, n int) string {
	var keys []string
	for _, op := range ops[:min(n, len(ops))] {
		keys = append(keys, string(op.KeyBytes()))
	}
	if len(ops) > n {
		keys = append(keys, fmt.Sprintf("and %d more", len(ops)-n))
	}
	return strings.Join(keys, ", ")
}

// pendingOps lists the registry and returns the operations that bring it
// back to snapshot s (resetOps); reacted says the reset has written the
// snapshot back once already (a sweep after the first).
func (c *Cluster) pendingOps(ctx context.Context, s *snapshot, reacted bool) (ops, again []clientv3.Op, err error) {
	opts := []clientv3.OpOption{clientv3.WithPrefix()}
	if !reacted {
		opts = append(opts, clientv3.WithKeysOnly())
	}
	resp, err := c.etcd.Get(ctx, registryPrefix, opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("reset: listing etcd keys: %w", err)
	}
	ops, again = s.resetOps(resp.Kvs, reacted)
	return ops, again, nil
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
// write back what changed, recreate what went. A key of the snapshot made
// again since (deleted and created: another object under the same name)
// is deleted in ops and recreated in again, to be committed after ops.
// Written back at once, it would turn one object into another in a single
// change; recreated by a later sweep, it would meet the object that its
// controller (a StatefulSet's, for its pod) makes again within moments.
//
// With reacted (kvs then carry values), a built-in object of the snapshot
// whose status alone changed is left as it is (statusOnly): after the
// first sweep, that is the control plane's reaction to what the reset
// wrote back, not a leftover of the run. A snapshot taken a moment before
// the controller manager wrote a set's status (its pods counted Ready, its
// status not yet) holds a status that the controller manager writes again
// after each write-back: sweeps that wrote it back every time raced it
// until they gave up (1 reset in 3 with both processors busy).
func (s *snapshot) resetOps(kvs []*mvccpb.KeyValue, reacted bool) (ops, again []clientv3.Op) {
	present := make(map[string]bool, len(kvs))
	for _, kv := range kvs {
		key := string(kv.Key)
		present[key] = true
		e, ok := s.entries[key]
		switch {
		case !ok && !hasAnyPrefix(key, protectedPrefixes()):
			ops = append(ops, clientv3.OpDelete(key))
		case ok && kv.CreateRevision != e.created && restorable(key):
			ops = append(ops, clientv3.OpDelete(key))
			again = append(again, recreate(key, e))
		case ok && kv.ModRevision != e.revision && restorable(key) && !(reacted && statusOnly(e.value, kv.Value)):
			ops = append(ops, writeBack(key, e))
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
		ops = append(ops, writeBack(key, s.entries[key]))
	}
	return ops, again
}

// writeBack is the put of e's value at key; it asks for the value it
// replaces, so that commit knows whether it created the key.
func writeBack(key string, e entry) clientv3.Op {
	return clientv3.OpPut(key, string(e.value), clientv3.WithPrevKV())
}

// recreate is the put of e's value at key if the key is absent: if a
// controller made the object again in the moment since its deletion, the
// next sweep deletes that one and tries again.
func recreate(key string, e entry) clientv3.Op {
	absent := clientv3.Compare(clientv3.CreateRevision(key), "=", 0)
	return clientv3.OpTxn([]clientv3.Cmp{absent}, []clientv3.Op{clientv3.OpPut(key, string(e.value))}, nil)
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
// keys it writes back get new revisions, and those it recreates a new
// creation revision: it notes them in s so that the next sweep does not
// write them again.
func (c *Cluster) commit(ctx context.Context, s *snapshot, ops []clientv3.Op) error {
	for len(ops) > 0 {
		n := min(len(ops), txnOps)
		resp, err := c.etcd.Txn(ctx).Then(ops[:n]...).Commit()
		if err != nil {
			return fmt.Errorf("reset: writing to etcd: %w", err)
		}
		for i, op := range ops[:n] {
			s.wrote(op, resp.Responses[i], resp.Header.Revision)
		}
		ops = ops[n:]
	}
	return nil
}

// wrote notes in s what op, answered by r in a transaction at revision
// rev, wrote: a write-back (the key's new revision, and its creation
// revision if the key was absent) or a recreation that took place.
func (s *snapshot) wrote(op clientv3.Op, r *etcdserverpb.ResponseOp, rev int64) {
	switch {
	case op.IsPut():
		key := string(op.KeyBytes())
		e := s.entries[key]
		e.revision = rev
		if r.GetResponsePut().GetPrevKv() == nil {
			e.created = rev
		}
		s.entries[key] = e
	case op.IsTxn() && r.GetResponseTxn().GetSucceeded():
		_, then, _ := op.Txn()
		key := string(then[0].KeyBytes())
		e := s.entries[key]
		e.revision, e.created = rev, rev
		s.entries[key] = e
	}
}

// commitNamespacesFirst commits ops, but deletes the namespaces among
// them first and waits until the API server lists none of them before it
// deletes their objects. A controller that sees an object deleted while
// its cache still holds the object's namespace may create it again (the
// controller manager's service-account controller recreates "default").
// The API server refuses a create in a namespace it no longer has. With
// everything deleted at once, resets often needed a second pass after
// another gap.
func (c *Cluster) commitNamespacesFirst(ctx context.Context, client kubernetes.Interface, s *snapshot, ops []clientv3.Op) error {
	names, first, rest := namespaceDeletes(ops)
	if len(first) > 0 {
		if err := c.commit(ctx, s, first); err != nil {
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
	return c.commit(ctx, s, rest)
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
// as snapshot s holds.
func (c *Cluster) gap(ctx context.Context, client kubernetes.Interface, s *snapshot) error {
	end := time.After(sweepGap)
	err := c.poll(ctx, []check{{"namespaces of the checkpoint", func(ctx context.Context) bool {
		list, err := client.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
		return err == nil && len(list.Items) == s.namespaces
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

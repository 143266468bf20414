package embedded

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// registryPrefix is where the API server keeps objects in etcd.
const registryPrefix = "/registry/"

// txnOps bounds the operations of one etcd transaction during a reset.
const txnOps = 2000

// protectedPrefixes hold keys that the control plane creates and renews on
// its own (API server identity and endpoint leases, node leases); Reset
// never deletes them even when they appeared after the checkpoint.
func protectedPrefixes() []string {
	return []string{
		"/registry/masterleases/",
		"/registry/leases/kube-system/",
		"/registry/leases/kube-node-lease/",
	}
}

// restoredPrefixes hold allocator state (service IP and node port bitmaps)
// that Reset writes back to its value at the checkpoint, so that deleted
// services do not leak addresses.
func restoredPrefixes() []string {
	return []string{"/registry/ranges/"}
}

// snapshot is the state Reset returns to: which keys existed, and the
// values of the restored keys.
type snapshot struct {
	keys       map[string]bool
	values     map[string][]byte
	revisions  map[string]int64
	namespaces int
}

// connectEtcd opens sieve's own etcd client and takes the first checkpoint.
func (c *Cluster) connectEtcd(ctx context.Context) error {
	cli, err := clientv3.New(clientv3.Config{
		Endpoints:   []string{c.layout.etcdURL()},
		TLS:         c.etcdTLS,
		DialTimeout: 5 * time.Second,
		Logger:      zap.NewNop(),
	})
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
	resp, err := c.etcd.Get(ctx, registryPrefix, clientv3.WithPrefix(), clientv3.WithKeysOnly())
	if err != nil {
		return fmt.Errorf("checkpoint: listing etcd keys: %w", err)
	}
	snap := &snapshot{keys: map[string]bool{}, values: map[string][]byte{}, revisions: map[string]int64{}}
	for _, kv := range resp.Kvs {
		snap.keys[string(kv.Key)] = true
		if strings.HasPrefix(string(kv.Key), registryPrefix+"namespaces/") {
			snap.namespaces++
		}
	}
	for _, prefix := range restoredPrefixes() {
		resp, err := c.etcd.Get(ctx, prefix, clientv3.WithPrefix())
		if err != nil {
			return fmt.Errorf("checkpoint: reading %s: %w", prefix, err)
		}
		for _, kv := range resp.Kvs {
			snap.values[string(kv.Key)] = kv.Value
			snap.revisions[string(kv.Key)] = kv.ModRevision
		}
	}
	c.baseline = snap
	return nil
}

// Reset returns the cluster to the last checkpoint (Start takes the
// first): every object created since is deleted directly in etcd —
// finalizers and graceful deletion do not apply — and the service
// allocators are restored. Objects that existed at the checkpoint keep any
// change made to them since.
//
// Deleting in etcd is consistent with the API server: its watch cache
// follows etcd's watch, so each deletion reaches the cache and every
// watching client (controller manager, scheduler, node simulator) as a
// DELETED event, in revision order per resource; and a list with no
// resourceVersion is served at least at etcd's current revision. Reset
// returns once the API server lists the namespaces of the checkpoint.
func (c *Cluster) Reset(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.etcd == nil || c.baseline == nil {
		return fmt.Errorf("reset: cluster not started")
	}
	if err := c.sweep(ctx); err != nil {
		return err
	}
	return c.waitNamespaces(ctx)
}

// Sweep timing: a controller acting on a cache that has not yet seen the
// deletions (the StatefulSet controller recreating a pod and its claim
// for a StatefulSet just deleted) writes within moments, so Reset sweeps
// again after sweepGap until a sweep finds nothing, at most sweepPasses
// times.
const (
	sweepGap    = 150 * time.Millisecond
	sweepPasses = 20
)

// sweep deletes what appeared since the checkpoint, pass after pass,
// until a pass finds nothing left to delete.
func (c *Cluster) sweep(ctx context.Context) error {
	for pass := 0; pass < sweepPasses; pass++ {
		resp, err := c.etcd.Get(ctx, registryPrefix, clientv3.WithPrefix(), clientv3.WithKeysOnly())
		if err != nil {
			return fmt.Errorf("reset: listing etcd keys: %w", err)
		}
		ops := c.baseline.resetOps(resp.Kvs)
		if err := c.commit(ctx, ops); err != nil {
			return err
		}
		if pass > 0 && !hasState(ops) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(sweepGap):
		}
	}
	return fmt.Errorf("reset: objects kept reappearing after %d sweeps (a controller keeps recreating them)", sweepPasses)
}

// hasState reports whether ops touch anything but events, which the
// controller manager goes on writing for a moment about what it did.
func hasState(ops []clientv3.Op) bool {
	for _, op := range ops {
		if !strings.HasPrefix(string(op.KeyBytes()), registryPrefix+"events/") {
			return true
		}
	}
	return false
}

// resetOps returns the operations that bring keys back to the snapshot.
func (s *snapshot) resetOps(kvs []*mvccpb.KeyValue) []clientv3.Op {
	var ops []clientv3.Op
	for _, kv := range kvs {
		key := string(kv.Key)
		switch {
		case s.keys[key]:
			if v, ok := s.values[key]; ok && kv.ModRevision != s.revisions[key] {
				ops = append(ops, clientv3.OpPut(key, string(v)))
			}
		case !hasAnyPrefix(key, protectedPrefixes()):
			ops = append(ops, clientv3.OpDelete(key))
		}
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
// restored keys it writes get new revisions, which it notes so that the
// next sweep does not write them again.
func (c *Cluster) commit(ctx context.Context, ops []clientv3.Op) error {
	for len(ops) > 0 {
		n := min(len(ops), txnOps)
		resp, err := c.etcd.Txn(ctx).Then(ops[:n]...).Commit()
		if err != nil {
			return fmt.Errorf("reset: deleting in etcd: %w", err)
		}
		for _, op := range ops[:n] {
			if op.IsPut() {
				c.baseline.revisions[string(op.KeyBytes())] = resp.Header.Revision
			}
		}
		ops = ops[n:]
	}
	return nil
}

// waitNamespaces waits until the API server lists as many namespaces as
// at the checkpoint.
func (c *Cluster) waitNamespaces(ctx context.Context) error {
	client, err := c.probeClient()
	if err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	return c.poll(ctx, []check{{"namespaces of the checkpoint", func(ctx context.Context) bool {
		list, err := client.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
		return err == nil && len(list.Items) == c.baseline.namespaces
	}}})
}

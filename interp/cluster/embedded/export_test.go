package embedded

import (
	"context"
	"fmt"
	"strings"

	"github.com/sievetool/sieve/interp/cluster"
	"github.com/sievetool/sieve/interp/cluster/embedded/controlplane"
)

// SeedPath is where the clusters of the control-plane binary bin keep
// their etcd seed, "" if nowhere.
func SeedPath(bin string) string { return controlplane.SeedPath(bin, seedName()) }

// EtcdEndpoints returns the client and peer URLs of c's etcd and the
// directory of its certificates, for tests of who may reach etcd.
func EtcdEndpoints(c *Cluster) (client, peer, pki string) {
	return c.layout.etcdURL(), fmt.Sprintf("https://127.0.0.1:%d", c.layout.etcdPeerPort), c.layout.path("pki")
}

// PendingReset returns the keys other than events that a Reset of c
// would delete or write back now, in a sweep after its first.
func PendingReset(ctx context.Context, c *Cluster) ([]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pending(ctx, c.baseline)
}

// PendingResetTo returns the keys other than events that a ResetTo(cp)
// of c would delete or write back now, in a sweep after its first.
func PendingResetTo(ctx context.Context, c *Cluster, cp cluster.Checkpoint) ([]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pending(ctx, cp.(*Checkpoint).snap)
}

func (c *Cluster) pending(ctx context.Context, s *snapshot) ([]string, error) {
	ops, _, err := c.pendingOps(ctx, s, true)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, op := range ops {
		if key := string(op.KeyBytes()); !strings.HasPrefix(key, eventsPrefix) {
			keys = append(keys, key)
		}
	}
	return keys, nil
}

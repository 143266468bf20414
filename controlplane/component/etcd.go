package component

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"time"

	"go.etcd.io/etcd/client/pkg/v3/transport"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v3client"

	"github.com/sievetool/sieve/interp/cluster/embedded/seed"
)

// etcdFlags are the arguments of the etcd component.
type etcdFlags struct {
	name, dataDir, clientURL, peerURL string
	certFile, keyFile, caFile         string
	maxTxnOps                         uint
	seed                              string
}

func parseEtcdFlags(args []string, stderr io.Writer) (etcdFlags, error) {
	var f etcdFlags
	fs := flag.NewFlagSet(Etcd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.name, "name", "sieve", "member name")
	fs.StringVar(&f.dataDir, "data-dir", "", "data directory (required)")
	fs.StringVar(&f.clientURL, "listen-client-url", "", "client URL, https://127.0.0.1:PORT (required)")
	fs.StringVar(&f.peerURL, "listen-peer-url", "", "peer URL, https://127.0.0.1:PORT (required)")
	fs.StringVar(&f.certFile, "cert-file", "", "certificate of the client and peer ports, and of clients (required)")
	fs.StringVar(&f.keyFile, "key-file", "", "key of --cert-file (required)")
	fs.StringVar(&f.caFile, "trusted-ca-file", "", "CA that client and peer certificates must be signed by (required)")
	fs.UintVar(&f.maxTxnOps, "max-txn-ops", 1<<20, "most operations in one transaction (a reset deletes in one)")
	fs.StringVar(&f.seed, "seed", "", "file of keys to write once etcd is ready (see package seed)")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if f.dataDir == "" || f.clientURL == "" || f.peerURL == "" || f.certFile == "" || f.keyFile == "" || f.caFile == "" {
		return f, fmt.Errorf("--data-dir, --listen-client-url, --listen-peer-url, --cert-file, --key-file and --trusted-ca-file are required")
	}
	return f, nil
}

// etcdConfig is a single-member etcd tuned for tests: no fsync, slow
// ticks, quiet logs. Its client and peer ports speak TLS only and
// require a client certificate signed by --trusted-ca-file: a loopback
// port is open to every local user, and etcd holds the cluster's secrets.
func etcdConfig(f etcdFlags) (*embed.Config, error) {
	client, err := url.Parse(f.clientURL)
	if err != nil {
		return nil, fmt.Errorf("--listen-client-url: %w", err)
	}
	peer, err := url.Parse(f.peerURL)
	if err != nil {
		return nil, fmt.Errorf("--listen-peer-url: %w", err)
	}
	cfg := embed.NewConfig()
	cfg.Name = f.name
	cfg.Dir = f.dataDir
	cfg.ListenClientUrls = []url.URL{*client}
	cfg.AdvertiseClientUrls = []url.URL{*client}
	cfg.ListenPeerUrls = []url.URL{*peer}
	cfg.AdvertisePeerUrls = []url.URL{*peer}
	cfg.InitialCluster = f.name + "=" + peer.String()
	tls := transport.TLSInfo{CertFile: f.certFile, KeyFile: f.keyFile, TrustedCAFile: f.caFile, ClientCertAuth: true}
	cfg.ClientTLSInfo, cfg.PeerTLSInfo = tls, tls
	cfg.UnsafeNoFsync = true
	// A single member elects itself in its first ticks, then ticks for
	// nothing: each tick wakes it, the main cost of an idle etcd at 10 ms.
	// etcd wants an election timeout of at least five ticks.
	cfg.TickMs = 100
	cfg.ElectionMs = 500
	cfg.MaxTxnOps = f.maxTxnOps
	cfg.LogLevel = "error"
	cfg.LogOutputs = []string{"stderr"}
	cfg.WarningApplyDuration = time.Second
	return cfg, nil
}

func runEtcd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseEtcdFlags(args, stderr)
	if err != nil {
		return err
	}
	cfg, err := etcdConfig(f)
	if err != nil {
		return err
	}
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return fmt.Errorf("starting etcd: %w", err)
	}
	defer e.Close()
	select {
	case <-e.Server.ReadyNotify():
		fmt.Fprintf(stderr, "etcd ready at %s\n", f.clientURL)
		if f.seed != "" {
			loadSeed(ctx, e, f.seed, stderr)
		}
	case err := <-e.Err():
		return fmt.Errorf("etcd: %w", err)
	case <-ctx.Done():
		return nil
	}
	select {
	case err := <-e.Err():
		return fmt.Errorf("etcd: %w", err)
	case <-ctx.Done():
		return nil
	}
}

// loadSeed writes the keys of the seed file at path in one transaction.
// The API server's bootstrap creates whatever a seed lacks, so a seed
// that cannot be read or written is only warned about. The API server
// connects while this runs, but reaches the seeded keys only in its
// bootstrap, a second later; were it sooner, it would find some keys in
// place and create the others, and the seed would write the same objects
// over them.
func loadSeed(ctx context.Context, e *embed.Etcd, path string, stderr io.Writer) {
	kvs, err := seed.Read(path)
	if err != nil {
		fmt.Fprintf(stderr, "warning: etcd: seed not used: %v\n", err)
		return
	}
	cli := v3client.New(e.Server)
	defer cli.Close()
	ops := make([]clientv3.Op, len(kvs))
	for i, kv := range kvs {
		ops[i] = clientv3.OpPut(kv.Key, string(kv.Value))
	}
	if _, err := cli.Txn(ctx).Then(ops...).Commit(); err != nil {
		fmt.Fprintf(stderr, "warning: etcd: seed not used: %v\n", err)
		return
	}
	fmt.Fprintf(stderr, "etcd seeded with %d keys from %s\n", len(kvs), path)
}

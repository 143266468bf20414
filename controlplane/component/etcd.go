package component

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"time"

	"go.etcd.io/etcd/client/pkg/v3/transport"
	"go.etcd.io/etcd/server/v3/embed"
)

// etcdFlags are the arguments of the etcd component.
type etcdFlags struct {
	name, dataDir, clientURL, peerURL string
	certFile, keyFile, caFile         string
	maxTxnOps                         uint
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
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if f.dataDir == "" || f.clientURL == "" || f.peerURL == "" || f.certFile == "" || f.keyFile == "" || f.caFile == "" {
		return f, fmt.Errorf("--data-dir, --listen-client-url, --listen-peer-url, --cert-file, --key-file and --trusted-ca-file are required")
	}
	return f, nil
}

// etcdConfig is a single-member etcd tuned for tests: no fsync, fast
// election, quiet logs. Its client and peer ports speak TLS only and
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
	cfg.TickMs = 10
	cfg.ElectionMs = 100
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

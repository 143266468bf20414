package session

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/run/clusterdns"
	"github.com/sievetool/sieve/interp/run/netns"
	"github.com/sievetool/sieve/interp/run/standin"
)

// network is the controller's private network for one run: the proxy
// and a DNS responder listen inside it. A nil *network is the host's.
type network struct {
	ns *netns.NS
	// proxy is the proxy's address inside (HOST:PORT).
	proxy string
	// resolv is the run's resolv.conf, which asks the responder.
	resolv string
	// dns answers the controller's queries.
	dns *clusterdns.Server
}

// privateNetwork makes the run's private network, or returns nil where
// namespaces are unavailable (the worker's HostNetwork, or New says so).
func (s *session) privateNetwork(admin kubernetes.Interface) (*network, error) {
	if s.w.HostNetwork {
		return nil, nil
	}
	ns, err := netns.New()
	if errors.Is(err, netns.ErrUnsupported) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s.onClose(func() { ns.Close() })
	c := s.r.Test.Controller
	n := &network{ns: ns, dns: &clusterdns.Server{Client: admin, Fixed: standin.Names(c.Standins, c.Namespaces[0])}}
	l, err := ns.Listen("127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("private network: proxy: %w", err)
	}
	s.px.Serve(l)
	n.proxy = l.Addr().String()
	if err := s.serveDNS(n); err != nil {
		return nil, err
	}
	return n, nil
}

// serveDNS starts the responder at 127.0.0.1:53 inside n and writes the
// resolv.conf that names it.
func (s *session) serveDNS(n *network) error {
	pc, err := n.ns.ListenPacket("127.0.0.1:53")
	if err != nil {
		return fmt.Errorf("private network: dns: %w", err)
	}
	s.onClose(func() { pc.Close() })
	go func() { _ = n.dns.Serve(pc) }()
	n.resolv = filepath.Join(s.r.Dir, "resolv.conf")
	conf := clusterdns.ResolvConf(s.r.Test.Controller.Namespaces[0])
	if err := os.WriteFile(n.resolv, []byte(conf), 0o644); err != nil {
		return fmt.Errorf("private network: %w", err)
	}
	return nil
}

// startStandins starts the test's stand-ins in the private network; they
// stop with the run. admin watches the pods for the pod stand-ins.
func (s *session) startStandins(ctx context.Context, admin kubernetes.Interface) error {
	c := s.r.Test.Controller
	if len(c.Standins) == 0 {
		return nil
	}
	opts := standin.Options{Standins: c.Standins, Dir: s.r.Dir, BaseDir: s.r.BaseDir, Client: admin, Sink: s.sink}
	if s.answersCalls() {
		opts.Fault = s.httpFault
	}
	if s.replacesAnswers() {
		opts.Answered = s.httpAnswered
	}
	if s.net != nil {
		opts.Net = s.net.ns
	}
	set, err := standin.Start(ctx, opts)
	if err != nil {
		return err
	}
	s.onClose(set.Stop)
	return nil
}

// proxyAddr is the proxy's host and port as the controller reaches it.
func (s *session) proxyAddr() (host, port string) {
	addr := s.px.Host()
	if s.net != nil {
		addr = s.net.proxy
	}
	host, port, _ = net.SplitHostPort(addr)
	return host, port
}

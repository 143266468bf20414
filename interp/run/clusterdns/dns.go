package clusterdns

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"golang.org/x/net/dns/dnsmessage"
)

// Domain is the cluster's DNS domain.
const Domain = "cluster.local"

// Server answers DNS queries over UDP.
type Server struct {
	// Client reads Services, EndpointSlices and Pods.
	Client kubernetes.Interface
	// Fixed maps names (SERVICE.NS or HOST.SERVICE.NS, lowercase) to an
	// address answered without asking the cluster.
	Fixed map[string]netip.Addr
	// Timeout bounds the cluster reads of one query (default 2s).
	Timeout time.Duration
}

// ResolvConf is a resolv.conf for a pod in namespace ns that asks a
// server at 127.0.0.1, with a pod's search path.
func ResolvConf(ns string) string {
	return fmt.Sprintf("nameserver 127.0.0.1\nsearch %s.svc.%s svc.%s %s\noptions ndots:5\n", ns, Domain, Domain, Domain)
}

// Serve answers the queries arriving on c until c is closed.
func (s *Server) Serve(c net.PacketConn) error {
	buf := make([]byte, 1500)
	for {
		n, from, err := c.ReadFrom(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		q := append([]byte(nil), buf[:n]...)
		go func() {
			if resp, err := s.answer(q); err == nil {
				_, _ = c.WriteTo(resp, from)
			}
		}()
	}
}

// answer builds the response to one query message.
func (s *Server) answer(msg []byte) ([]byte, error) {
	var p dnsmessage.Parser
	h, err := p.Start(msg)
	if err != nil {
		return nil, err
	}
	q, err := p.Question()
	if err != nil {
		return nil, err
	}
	ips, found := s.resolve(q.Name.String())
	rh := dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired}
	if !found {
		rh.RCode = dnsmessage.RCodeNameError
	}
	b := dnsmessage.NewBuilder(nil, rh)
	b.EnableCompression()
	if err := b.StartQuestions(); err != nil {
		return nil, err
	}
	if err := b.Question(q); err != nil {
		return nil, err
	}
	if err := b.StartAnswers(); err != nil {
		return nil, err
	}
	for _, ip := range ips {
		if err := addAnswer(&b, q, ip); err != nil {
			return nil, err
		}
	}
	return b.Finish()
}

func addAnswer(b *dnsmessage.Builder, q dnsmessage.Question, ip netip.Addr) error {
	rh := dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 5}
	switch {
	case q.Type == dnsmessage.TypeA && ip.Is4():
		return b.AResource(rh, dnsmessage.AResource{A: ip.As4()})
	case q.Type == dnsmessage.TypeAAAA && ip.Is6():
		return b.AAAAResource(rh, dnsmessage.AAAAResource{AAAA: ip.As16()})
	}
	return nil
}

// resolve returns the addresses of a fully qualified name, and whether the
// name exists.
func (s *Server) resolve(fqdn string) ([]netip.Addr, bool) {
	name := strings.ToLower(strings.TrimSuffix(fqdn, "."))
	rel, ok := strings.CutSuffix(name, ".svc."+Domain)
	if !ok {
		return nil, false
	}
	if ip, ok := s.Fixed[rel]; ok {
		return []netip.Addr{ip}, true
	}
	timeout := s.Timeout
	if timeout == 0 {
		timeout = 2 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	switch parts := strings.Split(rel, "."); len(parts) {
	case 2:
		return s.service(ctx, parts[1], parts[0])
	case 3:
		return s.pod(ctx, parts[2], parts[1], parts[0])
	}
	return nil, false
}

// service resolves a Service: its cluster IPs, or the ready endpoints of
// a headless one.
func (s *Server) service(ctx context.Context, ns, name string) ([]netip.Addr, bool) {
	svc, err := s.Client.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, false
	}
	if svc.Spec.ClusterIP != "" && svc.Spec.ClusterIP != corev1.ClusterIPNone {
		return parseAll(svc.Spec.ClusterIPs), true
	}
	slices, err := s.Client.DiscoveryV1().EndpointSlices(ns).List(ctx, metav1.ListOptions{LabelSelector: discoveryv1.LabelServiceName + "=" + name})
	if err != nil {
		return nil, true
	}
	var out []netip.Addr
	for _, sl := range slices.Items {
		for _, ep := range sl.Endpoints {
			if ep.Conditions.Ready == nil || *ep.Conditions.Ready {
				out = append(out, parseAll(ep.Addresses)...)
			}
		}
	}
	return out, true
}

// pod resolves HOST.SERVICE.NS: the pod named HOST whose subdomain is
// SERVICE, as a StatefulSet's pods are.
func (s *Server) pod(ctx context.Context, ns, svc, host string) ([]netip.Addr, bool) {
	pod, err := s.Client.CoreV1().Pods(ns).Get(ctx, host, metav1.GetOptions{})
	if apierrors.IsNotFound(err) || err != nil || pod.Spec.Subdomain != svc {
		return nil, false
	}
	var ips []string
	for _, ip := range pod.Status.PodIPs {
		ips = append(ips, ip.IP)
	}
	return parseAll(ips), true
}

func parseAll(ss []string) []netip.Addr {
	var out []netip.Addr
	for _, s := range ss {
		if ip, err := netip.ParseAddr(s); err == nil {
			out = append(out, ip)
		}
	}
	return out
}

package embedded

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"net"
	"time"

	"github.com/sievetool/sieve/interp/internal/pki"
)

// certValidity is how long the generated certificates are valid.
const certValidity = 7 * 24 * time.Hour

// newCA returns the control plane's self-signed certificate authority.
func newCA() (*pki.KeyPair, error) { return pki.NewCA("sieve-ca", certValidity) }

// newServingCert returns a certificate for the API server signed by ca,
// valid for the loopback addresses and the in-cluster service names.
func newServingCert(ca *pki.KeyPair, serviceIP net.IP) (*pki.KeyPair, error) {
	tmpl := &x509.Certificate{
		Subject:     pkix.Name{CommonName: "kube-apiserver"},
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames: []string{"localhost", "kubernetes", "kubernetes.default",
			"kubernetes.default.svc", "kubernetes.default.svc.cluster.local"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback, serviceIP},
	}
	return pki.Issue(tmpl, ca, certValidity)
}

// newEtcdCert returns etcd's certificate signed by ca. etcd serves its
// client and peer ports with it and requires it of every client. So only
// the components of this control plane (the API server and sieve's own
// reset client, which are given it) can reach etcd. Any local user can
// connect to a loopback port; none but the owner can read the key.
func newEtcdCert(ca *pki.KeyPair) (*pki.KeyPair, error) {
	tmpl := &x509.Certificate{
		Subject:     pkix.Name{CommonName: "etcd"},
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	return pki.Issue(tmpl, ca, certValidity)
}

// newLoopbackCert returns a serving certificate for 127.0.0.1 signed by ca.
func newLoopbackCert(ca *pki.KeyPair, name string) (*pki.KeyPair, error) {
	tmpl := &x509.Certificate{
		Subject:     pkix.Name{CommonName: name},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	return pki.Issue(tmpl, ca, certValidity)
}

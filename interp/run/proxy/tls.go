package proxy

import (
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"net"
	"time"

	"github.com/sievetool/sieve/interp/internal/pki"
)

// certValidity is how long the proxy's certificates are valid.
const certValidity = 24 * time.Hour

// certs is the proxy's own certificate authority and serving certificate.
type certs struct {
	caPEM  []byte
	server tls.Certificate
}

// newCerts generates a CA and a serving certificate for 127.0.0.1 and
// localhost, valid for a day.
func newCerts() (*certs, error) {
	ca, err := pki.NewCA("sieve-proxy-ca", certValidity)
	if err != nil {
		return nil, fmt.Errorf("proxy: ca: %w", err)
	}
	srv, err := pki.Issue(&x509.Certificate{
		Subject:     pkix.Name{CommonName: "sieve-proxy"},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:    []string{"localhost", "kubernetes.default.svc", "kubernetes.default"},
	}, ca, certValidity)
	if err != nil {
		return nil, fmt.Errorf("proxy: serving cert: %w", err)
	}
	return &certs{caPEM: ca.Cert, server: srv.TLS()}, nil
}

// randomToken returns 32 random bytes in hex.
func randomToken() (string, error) {
	t, err := pki.Token(32)
	if err != nil {
		return "", fmt.Errorf("proxy: %w", err)
	}
	return t, nil
}

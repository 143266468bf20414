package pki

import (
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"net"
	"testing"
	"time"
)

// TestIssue checks that a certificate the CA signs verifies against it for
// its names and usage, and loads as a TLS key pair from its PEM.
func TestIssue(t *testing.T) {
	ca, err := NewCA("test-ca", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !ca.X509.IsCA || ca.X509.Subject.CommonName != "test-ca" {
		t.Fatalf("CA: IsCA %v, CN %q", ca.X509.IsCA, ca.X509.Subject.CommonName)
	}
	srv, err := Issue(&x509.Certificate{
		Subject:     pkix.Name{CommonName: "srv"},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
	}, ca, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca.X509)
	for _, name := range []string{"localhost", "127.0.0.1"} {
		if _, err := srv.X509.Verify(x509.VerifyOptions{DNSName: name, Roots: roots}); err != nil {
			t.Errorf("verify for %s: %v", name, err)
		}
	}
	if _, err := srv.X509.Verify(x509.VerifyOptions{DNSName: "other", Roots: roots}); err == nil {
		t.Error("verified for a name it does not hold")
	}
	if left := time.Until(srv.X509.NotAfter); left > time.Hour || left < 59*time.Minute {
		t.Errorf("valid for %s more, want an hour", left)
	}
	if _, err := tls.X509KeyPair(srv.Cert, srv.Key); err != nil {
		t.Errorf("PEM pair does not load: %v", err)
	}
	if c := srv.TLS(); len(c.Certificate) != 1 || c.PrivateKey == nil {
		t.Errorf("TLS(): %d certificates, key %v", len(c.Certificate), c.PrivateKey)
	}
}

// TestToken checks a token's length and that two differ.
func TestToken(t *testing.T) {
	a, err := Token(24)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Token(24)
	if len(a) != 48 || a == b {
		t.Errorf("tokens %q, %q: want 48 hex digits, different", a, b)
	}
}

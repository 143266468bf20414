package embedded

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"time"
)

// certValidity is how long the generated certificates are valid.
const certValidity = 7 * 24 * time.Hour

// keyPair is a certificate (or public key) and its private key, PEM encoded.
type keyPair struct {
	cert, key []byte
	x509      *x509.Certificate
	priv      *ecdsa.PrivateKey
}

// newCA returns a self-signed certificate authority.
func newCA() (*keyPair, error) {
	tmpl := &x509.Certificate{
		Subject:               pkix.Name{CommonName: "sieve-ca"},
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	return issue(tmpl, nil)
}

// newServingCert returns a certificate for the API server signed by ca,
// valid for the loopback addresses and the in-cluster service names.
func newServingCert(ca *keyPair, serviceIP net.IP) (*keyPair, error) {
	tmpl := &x509.Certificate{
		Subject:     pkix.Name{CommonName: "kube-apiserver"},
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames: []string{"localhost", "kubernetes", "kubernetes.default",
			"kubernetes.default.svc", "kubernetes.default.svc.cluster.local"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback, serviceIP},
	}
	return issue(tmpl, ca)
}

// newEtcdCert returns etcd's certificate signed by ca: etcd serves its
// client and peer ports with it and requires it of every client, so only
// the components of this control plane (the API server and sieve's own
// reset client, which are given it) can reach etcd. Any local user can
// connect to a loopback port; none but the owner can read the key.
func newEtcdCert(ca *keyPair) (*keyPair, error) {
	tmpl := &x509.Certificate{
		Subject:     pkix.Name{CommonName: "etcd"},
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	return issue(tmpl, ca)
}

// issue signs tmpl with parent, or self-signs it when parent is nil.
func issue(tmpl *x509.Certificate, parent *keyPair) (*keyPair, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generating key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return nil, fmt.Errorf("generating serial: %w", err)
	}
	tmpl.SerialNumber = serial
	tmpl.NotBefore = time.Now().Add(-time.Hour)
	tmpl.NotAfter = time.Now().Add(certValidity)
	signer, signerKey := tmpl, priv
	if parent != nil {
		signer, signerKey = parent.x509, parent.priv
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, signer, &priv.PublicKey, signerKey)
	if err != nil {
		return nil, fmt.Errorf("signing %s: %w", tmpl.Subject.CommonName, err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", tmpl.Subject.CommonName, err)
	}
	keyPEM, err := encodeKey(priv)
	if err != nil {
		return nil, err
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	return &keyPair{cert: certPEM, key: keyPEM, x509: cert, priv: priv}, nil
}

// newSigningKey returns a service-account signing key: cert holds the PEM
// public key.
func newSigningKey() (*keyPair, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generating service-account key: %w", err)
	}
	pub, err := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("encoding service-account key: %w", err)
	}
	keyPEM, err := encodeKey(priv)
	if err != nil {
		return nil, err
	}
	return &keyPair{cert: pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}), key: keyPEM, priv: priv}, nil
}

func encodeKey(priv *ecdsa.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalECPrivateKey(priv)
	if err != nil {
		return nil, fmt.Errorf("encoding key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), nil
}

// newToken returns a random bearer token.
func newToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generating token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

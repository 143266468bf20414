package pki

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"time"
)

// KeyPair is a certificate (or, for a signing key, a public key) and its
// private key, PEM encoded, with their parsed forms.
type KeyPair struct {
	// Cert is the PEM certificate, or the PEM public key of a signing key.
	Cert []byte
	// Key is the PEM private key.
	Key []byte
	// X509 is the parsed certificate (nil for a signing key).
	X509 *x509.Certificate
	Priv *ecdsa.PrivateKey
}

// NewCA returns a self-signed certificate authority with common name cn,
// valid for validity.
func NewCA(cn string, validity time.Duration) (*KeyPair, error) {
	tmpl := &x509.Certificate{
		Subject:               pkix.Name{CommonName: cn},
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	return Issue(tmpl, nil, validity)
}

// Issue gives tmpl a fresh key, a random serial number and a validity from
// an hour ago (for clocks a little behind) to validity from now, and signs
// it with ca, or self-signs it when ca is nil.
func Issue(tmpl *x509.Certificate, ca *KeyPair, validity time.Duration) (*KeyPair, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generating key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return nil, fmt.Errorf("generating serial: %w", err)
	}
	now := time.Now()
	tmpl.SerialNumber = serial
	tmpl.NotBefore = now.Add(-time.Hour)
	tmpl.NotAfter = now.Add(validity)
	signer, signerKey := tmpl, priv
	if ca != nil {
		signer, signerKey = ca.X509, ca.Priv
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
	return &KeyPair{Cert: certPEM, Key: keyPEM, X509: cert, Priv: priv}, nil
}

// NewSigningKey returns a signing key (such as a service-account token
// key): Cert holds its PEM public key.
func NewSigningKey() (*KeyPair, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generating signing key: %w", err)
	}
	pub, err := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("encoding signing key: %w", err)
	}
	keyPEM, err := encodeKey(priv)
	if err != nil {
		return nil, err
	}
	return &KeyPair{Cert: pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}), Key: keyPEM, Priv: priv}, nil
}

// TLS returns the certificate and its key for a tls.Config.
func (k *KeyPair) TLS() tls.Certificate {
	return tls.Certificate{Certificate: [][]byte{k.X509.Raw}, PrivateKey: k.Priv, Leaf: k.X509}
}

// encodeKey PEM-encodes a private key.
func encodeKey(priv *ecdsa.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalECPrivateKey(priv)
	if err != nil {
		return nil, fmt.Errorf("encoding key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), nil
}

// Token returns n random bytes in hex: a bearer token.
func Token(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generating token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

package embedded_test

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
)

// TestEtcdNeedsClientCert holds etcd reachable only with the control
// plane's client certificate: plaintext HTTP and TLS without a certificate
// are refused, while the certificate the API server is given reads etcd.
func TestEtcdNeedsClientCert(t *testing.T) {
	c := embeddedtest.Start(t, embedded.Options{})
	url, pki := embedded.EtcdEndpoint(c)
	if !strings.HasPrefix(url, "https://") {
		t.Fatalf("etcd listens on %s, want https", url)
	}
	caPEM, err := os.ReadFile(filepath.Join(pki, "ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(caPEM)
	get := func(u string, tc *tls.Config) (int, error) {
		client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: tc}}
		resp, err := client.Get(u + "/version")
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, nil
	}
	if code, err := get("http://"+strings.TrimPrefix(url, "https://"), nil); err == nil && code == http.StatusOK {
		t.Errorf("plaintext HTTP reaches etcd (status %d)", code)
	}
	if code, err := get(url, &tls.Config{RootCAs: roots}); err == nil {
		t.Errorf("TLS without a client certificate reaches etcd (status %d)", code)
	}
	cert, err := tls.LoadX509KeyPair(filepath.Join(pki, "etcd.crt"), filepath.Join(pki, "etcd.key"))
	if err != nil {
		t.Fatal(err)
	}
	if code, err := get(url, &tls.Config{RootCAs: roots, Certificates: []tls.Certificate{cert}}); err != nil || code != http.StatusOK {
		t.Errorf("with the client certificate: status %d, %v; want 200", code, err)
	}
	for _, name := range []string{"etcd.key", "ca.crt"} {
		if st, err := os.Stat(filepath.Join(pki, name)); err != nil || st.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s: readable by others or missing: %v %v", name, st.Mode(), err)
		}
	}
}

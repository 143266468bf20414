package embedded_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/cluster/embedded"
	"github.com/sievetool/sieve/interp/cluster/embedded/embeddedtest"
)

// TestEtcdOnlyForOwner holds etcd reachable by the owner of the cluster
// alone. Its clients (the API server, sieve's reset) reach it through a
// unix socket in the cluster's directory, which only the owner may enter.
// Its peer port, open to every local user, refuses plaintext HTTP and TLS
// without the control plane's client certificate.
func TestEtcdOnlyForOwner(t *testing.T) {
	t.Parallel() // its own control plane, beside the package's other clusters
	c := embeddedtest.Start(t, embedded.Options{})
	client, peer, pki := embedded.EtcdEndpoints(c)
	socket, ok := strings.CutPrefix(client, "unix://")
	if !ok {
		t.Fatalf("etcd serves its clients on %s, want a unix socket", client)
	}
	if st, err := os.Stat(filepath.Dir(socket)); err != nil || st.Mode().Perm()&0o077 != 0 {
		t.Errorf("the socket's directory is open to others or missing: %v %v", st.Mode(), err)
	}
	overSocket := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", socket)
	}}
	if code, err := get(overSocket, "http://etcd/version"); err != nil || code != http.StatusOK {
		t.Errorf("over the socket: status %d, %v; want 200", code, err)
	}

	caPEM, err := os.ReadFile(filepath.Join(pki, "ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(caPEM)
	withTLS := func(tc *tls.Config) *http.Transport { return &http.Transport{TLSClientConfig: tc} }
	if code, err := get(&http.Transport{}, "http://"+strings.TrimPrefix(peer, "https://")+"/version"); err == nil && code == http.StatusOK {
		t.Errorf("plaintext HTTP reaches etcd's peer port (status %d)", code)
	}
	if code, err := get(withTLS(&tls.Config{RootCAs: roots}), peer+"/version"); err == nil {
		t.Errorf("TLS without a client certificate reaches etcd's peer port (status %d)", code)
	}
	cert, err := tls.LoadX509KeyPair(filepath.Join(pki, "etcd.crt"), filepath.Join(pki, "etcd.key"))
	if err != nil {
		t.Fatal(err)
	}
	if code, err := get(withTLS(&tls.Config{RootCAs: roots, Certificates: []tls.Certificate{cert}}), peer+"/version"); err != nil || code != http.StatusOK {
		t.Errorf("peer port with the client certificate: status %d, %v; want 200", code, err)
	}
	for _, name := range []string{"etcd.key", "ca.crt"} {
		if st, err := os.Stat(filepath.Join(pki, name)); err != nil || st.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s: readable by others or missing: %v %v", name, st.Mode(), err)
		}
	}
}

// get asks u through transport and returns the status code.
func get(transport *http.Transport, u string) (int, error) {
	client := &http.Client{Timeout: 5 * time.Second, Transport: transport}
	resp, err := client.Get(u)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}

package proxy

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/sievetool/sieve/interp/internal/pki"
)

// TestUpstreamErr: a request the controller gave up on is not the
// upstream's failure; a refused connection is, and the proxy keeps the
// first one.
func TestUpstreamErr(t *testing.T) {
	release := make(chan struct{})
	f := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "slow") {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(pod("a", "1")))
	})
	p := startProxy(t, f, Hooks{}, &memSink{})
	c := client(t, p)
	if code, _ := do(t, c, p, "GET", "/api/v1/namespaces/default/pods/a", ""); code != 200 || p.UpstreamErr() != nil {
		t.Fatalf("healthy upstream: code %d, UpstreamErr %v", code, p.UpstreamErr())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", p.URL()+"/api/v1/namespaces/default/pods/slow", nil)
	if _, err := c.Do(req); err == nil {
		t.Fatal("the slow request did not time out")
	}
	time.Sleep(100 * time.Millisecond) // the proxy sees the client leave
	if err := p.UpstreamErr(); err != nil {
		t.Errorf("a request the client gave up on counts as an upstream failure: %v", err)
	}
	close(release)
	f.srv.Close()
	if code, _ := do(t, c, p, "GET", "/api/v1/namespaces/default/pods/a", ""); code != http.StatusBadGateway {
		t.Errorf("upstream gone: code %d, want 502", code)
	}
	if err := p.UpstreamErr(); err == nil || !strings.Contains(err.Error(), "proxy: upstream") {
		t.Errorf("upstream gone: UpstreamErr %v, want the failure", err)
	}
}

// TestSyncTransport: requests share kept connections, one at a time. A
// connection is dropped when the server closes it, the request is given
// up or it idled too long. A GET on a connection the server closed while
// idle is sent again.
func TestSyncTransport(t *testing.T) {
	var mu sync.Mutex
	states := map[http.ConnState]int{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow":
			<-r.Context().Done()
			return
		case "/close":
			w.Header().Set("Connection", "close")
		}
		b, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "%s %s %s", r.Method, r.URL.Path, b)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		mu.Lock()
		states[s]++
		mu.Unlock()
	}
	srv.StartTLS()
	defer srv.Close()
	opened := func() int {
		mu.Lock()
		defer mu.Unlock()
		return states[http.StateNew]
	}
	tr := newSyncTransport(&tls.Config{InsecureSkipVerify: true}, nil)
	c := &http.Client{Transport: tr}
	call := func(method, path, body string) string {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.ProtoMajor != 1 {
			t.Errorf("%s %s over %s, want HTTP/1.1", method, path, resp.Proto)
		}
		return string(b)
	}

	for i := range 5 {
		if got, want := call("POST", "/p", fmt.Sprint(i)), fmt.Sprintf("POST /p %d", i); got != want {
			t.Errorf("answer %q, want %q", got, want)
		}
	}
	if got := call("GET", "/g", ""); got != "GET /g " {
		t.Errorf("answer %q", got)
	}
	if n := opened(); n != 1 {
		t.Errorf("sequential requests opened %d connections, want 1", n)
	}

	call("GET", "/close", "")
	call("GET", "/g", "")
	if n := opened(); n != 2 {
		t.Errorf("after a Connection: close answer: %d connections opened, want 2", n)
	}

	srv.CloseClientConnections()
	if got := call("GET", "/g", ""); got != "GET /g " {
		t.Errorf("GET after the server closed the idle connection: %q", got)
	}
	if n := opened(); n != 3 {
		t.Errorf("after the server closed the idle connection: %d connections opened, want 3", n)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/slow", nil)
	if _, err := c.Do(req); err == nil {
		t.Fatal("a request given up on got an answer")
	}
	call("GET", "/g", "")
	if n := opened(); n != 4 {
		t.Errorf("after a request given up on: %d connections opened, want 4", n)
	}

	tr.mu.Lock()
	tr.idle[0].since = time.Now().Add(-idleLimit - time.Second)
	tr.mu.Unlock()
	call("GET", "/g", "")
	if n := opened(); n != 5 {
		t.Errorf("after the idle limit: %d connections opened, want 5", n)
	}

	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				body := fmt.Sprintf("%d-%d", g, i)
				if got := call("PUT", "/c", body); got != "PUT /c "+body {
					t.Errorf("concurrent answer %q, want the one to %s", got, body)
				}
			}
		})
	}
	wg.Wait()
	if n := opened(); n > 5+8 {
		t.Errorf("8 concurrent callers: %d connections opened, want at most 13", n)
	}

	tr.CloseIdleConnections()
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		closed, opened := states[http.StateClosed], states[http.StateNew]
		mu.Unlock()
		if closed == opened {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after CloseIdleConnections: %d of %d connections closed", closed, opened)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestBufferedClient: requests go over the proxy's own connections, unless
// the upstream is reached through an HTTP proxy, which only net/http's
// transport knows how to use.
func TestBufferedClient(t *testing.T) {
	f := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(pod("a", "1")))
	})
	for _, via := range []bool{false, true} {
		cfg := f.config()
		if via {
			cfg.Proxy = func(*http.Request) (*url.URL, error) { return nil, nil }
		}
		p, err := Start(Options{Upstream: cfg, Mapper: testKinds})
		if err != nil {
			t.Fatal(err)
		}
		if own := p.conns != nil; own == via {
			t.Errorf("HTTP proxy configured %v: the proxy's own connections used %v", via, own)
		}
		if code, _ := do(t, client(t, p), p, "GET", "/api/v1/namespaces/default/pods/a", ""); code != 200 {
			t.Errorf("HTTP proxy configured %v: code %d", via, code)
		}
		_ = p.Close()
	}
}

// TestBufferedClientCertificate: the proxy's own connections present the
// upstream configuration's client certificate, as a kind cluster's admin
// kubeconfig has it authenticate.
func TestBufferedClientCertificate(t *testing.T) {
	ca, err := pki.NewCA("test-ca", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := pki.Issue(&x509.Certificate{
		Subject: pkix.Name{CommonName: "admin"}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}, ca, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 || r.TLS.PeerCertificates[0].Subject.CommonName != "admin" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(pod("a", "1")))
	}))
	pool := x509.NewCertPool()
	pool.AddCert(ca.X509)
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool}
	srv.StartTLS()
	defer srv.Close()
	cfg := &rest.Config{Host: srv.URL, TLSClientConfig: rest.TLSClientConfig{Insecure: true, CertData: admin.Cert, KeyData: admin.Key}}
	p, err := Start(Options{Upstream: cfg, Mapper: testKinds})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.conns == nil {
		t.Fatal("the proxy's own connections are not used")
	}
	if code, body := do(t, client(t, p), p, "GET", "/api/v1/namespaces/default/pods/a", ""); code != 200 {
		t.Errorf("GET through the proxy: %d %s", code, body)
	}
}

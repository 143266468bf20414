package proxy

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
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

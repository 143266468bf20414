package session

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"

	"github.com/sievetool/sieve/interp/cluster"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/proxy"
	"github.com/sievetool/sieve/lang/ir"
)

// TestSettleBoundsFromTest runs the settle after the workload against a
// proxy whose controller made one request just before: the run waits for
// the test's settle window, or ends at the test's bound on a settle when
// the window is longer, well short of the defaults (ir.DefaultSettle,
// ir.DefaultSettleMax). The quiet bound is off, so no evidence ends the
// settle sooner. A settle that ends at its bound is a settle entry in the
// trace (for the oracle's unsettled check); one that ends with its window
// is none.
func TestSettleBoundsFromTest(t *testing.T) {
	px, client := proxyOver(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	})
	dur := func(d time.Duration) *ir.Duration { v := ir.Duration(d); return &v }
	for _, tc := range []struct {
		name      string
		test      *ir.Test
		want      time.Duration
		unsettled string // the settle entry's message, "" for none
	}{
		{"settle window", &ir.Test{Quiet: dur(0), Settle: dur(300 * time.Millisecond)}, 300 * time.Millisecond, ""},
		{"bound on a settle", &ir.Test{Quiet: dur(0), Settle: dur(time.Hour), SettleMax: dur(400 * time.Millisecond)}, 400 * time.Millisecond,
			"not quiet for 1h0m0s within 400ms"},
	} {
		start := time.Now() // before the request: the window runs from its answer
		resp, err := client.Get(px.URL() + "/api/v1/namespaces/default/configmaps/x")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		path := filepath.Join(t.TempDir(), results.TraceFile)
		tw, err := trace.Create(path, trace.Header{Test: "t"})
		if err != nil {
			t.Fatal(err)
		}
		s := &session{px: px, tw: tw, clock: newClock(results.PhaseSettle, time.Now), r: Run{Test: tc.test}}
		if err := s.workloads(context.Background()); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took < tc.want || took >= ir.DefaultSettle {
			t.Errorf("%s: the run settled in %s, want %s (the test's), well short of the defaults", tc.name, took, tc.want)
		}
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
		if got := unsettledEntry(t, path); got != tc.unsettled {
			t.Errorf("%s: the trace's settle entry says %q, want %q", tc.name, got, tc.unsettled)
		}
	}
}

// unsettledEntry returns the message of the trace.Settle entry of the
// trace at path ("" when it has none).
func unsettledEntry(t *testing.T, path string) string {
	t.Helper()
	tr, err := trace.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range tr.Entries {
		if e.Type == trace.Settle && e.What == "unsettled" {
			return e.Message
		}
	}
	return ""
}

// busyBackend is a backend whose own simulation has work scheduled while
// busy holds (pender); the run never calls its other methods.
type busyBackend struct {
	cluster.Backend
	busy *atomic.Bool
}

func (b busyBackend) Pending() bool { return b.busy.Load() }

// TestSettleWaitsForPendingBackend: a controller and a cluster quiet for
// the quiet bound have not settled while the backend has work scheduled
// that its objects do not show (a pod in its termination grace), and have
// once it is done.
func TestSettleWaitsForPendingBackend(t *testing.T) {
	px := quietProxy(t)
	var busy atomic.Bool
	busy.Store(true)
	s := &session{px: px, w: &Worker{Backend: busyBackend{busy: &busy}}}
	b := proxy.Bounds{Quiet: 100 * time.Millisecond, Window: time.Hour}
	later := time.Now().Add(time.Minute) // quiet for a minute, by then
	if s.settled(later, b) {
		t.Error("settled while the backend had work scheduled")
	}
	busy.Store(false)
	if !s.settled(later, b) {
		t.Error("not settled, quiet for a minute with nothing scheduled")
	}
}

// TestSettleAfterWorkloadWrite: a controller quiet since long before a
// workload step's write has not settled on it, by the evidence or by the
// window, until it has been quiet as long after the write (the step has
// its answer before the controller's watch has the change); a step that
// only reads does not count.
func TestSettleAfterWorkloadWrite(t *testing.T) {
	px := quietProxy(t)
	time.Sleep(200 * time.Millisecond) // the controller has been quiet since
	for _, b := range []proxy.Bounds{{Quiet: 100 * time.Millisecond, Window: time.Hour}, {Window: 100 * time.Millisecond}} {
		s := &session{px: px}
		s.noteWrite(trace.Entry{Type: trace.Step, Phase: "end", What: string(ir.StepWait)})
		if now := time.Now(); !s.settled(now, b) {
			t.Fatalf("bounds %+v: not settled after a wait step, quiet for 200ms", b)
		}
		s.noteWrite(trace.Entry{Type: trace.Step, Phase: "start", What: string(ir.StepPatch)})
		s.noteWrite(trace.Entry{Type: trace.Step, Phase: "end", What: string(ir.StepPatch)})
		after := time.Now()
		if s.settled(after.Add(50*time.Millisecond), b) {
			t.Errorf("bounds %+v: settled 50ms after the workload's patch", b)
		}
		if !s.settled(after.Add(150*time.Millisecond), b) {
			t.Errorf("bounds %+v: not settled 150ms after the workload's patch, nothing else under way", b)
		}
	}
}

// quietProxy is a proxy whose controller made one request and has its
// answer.
func quietProxy(t *testing.T) *proxy.Proxy {
	t.Helper()
	px, client := proxyOver(t, func(http.ResponseWriter, *http.Request) {})
	resp, err := client.Get(px.URL() + "/api/v1/namespaces/default/configmaps/x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for end := time.Now().Add(5 * time.Second); px.Activity().InFlight > 0 && time.Now().Before(end); {
		time.Sleep(time.Millisecond) // the proxy counts the answer just after the controller has it
	}
	return px
}

// proxyOver starts a proxy in front of an API server that answers with
// upstream, and returns it with a client of the proxy's, both closed when
// the test ends.
func proxyOver(t *testing.T, upstream http.HandlerFunc) (*proxy.Proxy, *http.Client) {
	t.Helper()
	srv := httptest.NewServer(upstream)
	t.Cleanup(srv.Close)
	px, err := proxy.Start(proxy.Options{Upstream: &rest.Config{Host: srv.URL}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { px.Close() })
	client, err := rest.HTTPClientFor(&rest.Config{Host: px.URL(), BearerToken: px.Token(), TLSClientConfig: rest.TLSClientConfig{CAData: px.CA()}})
	if err != nil {
		t.Fatal(err)
	}
	return px, client
}

// TestSettleWaitsForWrittenVersion: a controller quiet for a minute after
// a workload step's patch has not settled while its watch of the patched
// object has not been passed the version the patch made (under load, the
// event reaches the proxy later than any bound), and has once the event is
// delivered; a version of a kind it does not watch holds nothing.
func TestSettleWaitsForWrittenVersion(t *testing.T) {
	events := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		select {
		case ev := <-events:
			_, _ = w.Write([]byte(ev + "\n"))
			w.(http.Flusher).Flush()
		case <-r.Context().Done():
		}
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	px, err := proxy.Start(proxy.Options{Upstream: &rest.Config{Host: srv.URL}, Mapper: podMapper{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { px.Close() })
	client, err := rest.HTTPClientFor(&rest.Config{Host: px.URL(), BearerToken: px.Token(), TLSClientConfig: rest.TLSClientConfig{CAData: px.CA()}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.Get(px.URL() + "/api/v1/namespaces/default/pods?watch=true&resourceVersion=5")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	for end := time.Now().Add(5 * time.Second); len(px.Streams()) == 0 && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
	s := &session{px: px}
	b := proxy.Bounds{Quiet: 100 * time.Millisecond, Window: time.Hour}
	later := time.Now().Add(time.Minute)
	s.noteVersion(trace.Key{Kind: "configmap", Namespace: "default", Name: "a"}, "7", nil)
	if !s.settled(later, b) {
		t.Fatal("not settled a minute after a write of a kind the controller does not watch")
	}
	s.noteVersion(trace.Key{Kind: "pod", Namespace: "default", Name: "a"}, "7", nil)
	if s.settled(later, b) {
		t.Error("settled before the patch's event reached the controller's watch")
	}
	events <- `{"type":"MODIFIED","object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"default","resourceVersion":"7"}}}`
	var ev struct{ Type string }
	if err := json.NewDecoder(resp.Body).Decode(&ev); err != nil || ev.Type != "MODIFIED" {
		t.Fatalf("the controller's watch: %v %v", ev, err)
	}
	for end := time.Now().Add(5 * time.Second); !s.settled(later, b); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("not settled after the patch's event was delivered")
		}
	}
}

// podMapper maps pods to their kind, the proxy's only resource in a test.
type podMapper struct{}

func (podMapper) KindFor(r schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	if r.Resource != "pods" {
		return schema.GroupVersionKind{}, fmt.Errorf("no kind for %v", r)
	}
	return r.GroupVersion().WithKind("Pod"), nil
}

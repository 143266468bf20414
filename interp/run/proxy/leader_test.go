package proxy

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// leaseAPI is an API server that serves Leases in one namespace, with
// resourceVersions and conflicts, and counts the writes.
type leaseAPI struct {
	mu     sync.Mutex
	leases map[string]map[string]any
	rv     int
	writes int
}

func (a *leaseAPI) serve(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	name := strings.TrimPrefix(r.URL.Path, "/apis/coordination.k8s.io/v1/namespaces/default/leases")
	name = strings.TrimPrefix(name, "/")
	var body map[string]any
	if r.Method == http.MethodPost || r.Method == http.MethodPut {
		b, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(b, &body); err != nil {
			w.WriteHeader(http.StatusUnsupportedMediaType)
			return
		}
		meta := body["metadata"].(map[string]any)
		name = meta["name"].(string)
		if old, ok := a.leases[name]; ok && (r.Method == http.MethodPost || meta["resourceVersion"] != old["metadata"].(map[string]any)["resourceVersion"]) {
			w.WriteHeader(http.StatusConflict)
			_, _ = w.Write(statusBody(http.StatusConflict, "Conflict", "the object has been modified"))
			return
		}
		a.rv++
		a.writes++
		meta["resourceVersion"] = strconv.Itoa(a.rv)
		a.leases[name] = body
	}
	lease, ok := a.leases[name]
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write(statusBody(http.StatusNotFound, "NotFound", "leases \""+name+"\" not found"))
		return
	}
	if r.Method == http.MethodPost {
		w.WriteHeader(http.StatusCreated)
	}
	_ = json.NewEncoder(w).Encode(lease)
}

func (a *leaseAPI) writeCount() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.writes
}

// elect runs client-go's leader election for identity through p until ctx
// ends; leading is closed once it leads.
func elect(ctx context.Context, t *testing.T, p *Proxy, identity string) (leading chan struct{}) {
	t.Helper()
	cfg := p.RESTConfig()
	cfg.ContentType = "application/json"
	cs, err := kubernetes.NewForConfig(rest.CopyConfig(cfg))
	if err != nil {
		t.Fatal(err)
	}
	leading = make(chan struct{})
	le, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock: &resourcelock.LeaseLock{Client: cs.CoordinationV1(), LockConfig: resourcelock.ResourceLockConfig{Identity: identity},
			LeaseMeta: metav1.ObjectMeta{Name: "op-lock", Namespace: "default"}},
		LeaseDuration: 2 * time.Second, RenewDeadline: 1500 * time.Millisecond, RetryPeriod: 200 * time.Millisecond,
		Callbacks: leaderelection.LeaderCallbacks{OnStartedLeading: func(context.Context) { close(leading) }, OnStoppedLeading: func() {}},
	})
	if err != nil {
		t.Fatal(err)
	}
	go le.Run(ctx)
	return leading
}

// TestLeaderElectionThroughProxy runs client-go's leader election (a Lease
// lock) through two proxies, one per controller, as sieve runs a
// controller and the one that replaces it after a kill. The leader's
// renewals are no activity. The second controller, reading the lock the
// first holds, waits (LockWait: it has not settled, however quiet). Once
// the first is gone (killed, the lock not released), the second takes the
// lock over when the lease expires, which ends its wait and is activity.
func TestLeaderElectionThroughProxy(t *testing.T) {
	api := &leaseAPI{leases: map[string]map[string]any{}}
	f := newFakeAPI(t, api.serve)
	mapper := tableMapper{"leases": "Lease"}
	start := func() *Proxy {
		p, err := Start(Options{Upstream: f.config(), Mapper: mapper})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = p.Close() })
		return p
	}
	pa, pb := start(), start()
	actx, killA := context.WithCancel(context.Background())
	defer killA()
	select {
	case <-elect(actx, t, pa, "op-a"):
	case <-time.After(10 * time.Second):
		t.Fatal("op-a did not lead within 10s")
	}
	time.Sleep(300 * time.Millisecond)
	before, writes := pa.Activity().Last, api.writeCount()
	time.Sleep(time.Second)
	if n := api.writeCount() - writes; n < 2 {
		t.Fatalf("op-a renewed its lease %d times in 1s, with a retry period of 200ms", n)
	}
	if a := pa.Activity(); !a.Last.Equal(before) || !a.LockWait.Before(time.Now()) {
		t.Errorf("the leader's renewals: Last moved %s, LockWait %s from now; want no activity, no wait", a.Last.Sub(before), time.Until(a.LockWait))
	}

	bctx, stopB := context.WithCancel(context.Background())
	defer stopB()
	bLeads := elect(bctx, t, pb, "op-b")
	waitFor(t, "op-b to read the lock", func() bool { return pb.Activity().LockWait.After(time.Now()) })
	b := Bounds{Quiet: 50 * time.Millisecond, Window: 100 * time.Millisecond}
	time.Sleep(500 * time.Millisecond)
	if a := pb.Activity(); Settled(a, time.Time{}, time.Now(), b) {
		t.Errorf("op-b settled while it waited for op-a's lease: %+v", a)
	}
	killA()
	select {
	case <-bLeads:
	case <-time.After(10 * time.Second):
		t.Fatal("op-b did not take the lock over within 10s of op-a's end")
	}
	waitFor(t, "op-b's takeover counted", func() bool { return pb.Activity().InFlight == 0 })
	if a := pb.Activity(); a.LockWait.After(time.Now()) || a.Last.IsZero() {
		t.Errorf("after op-b took the lock: LockWait %s from now, Last %s; want no wait, the takeover as activity", time.Until(a.LockWait), a.Last)
	}
}

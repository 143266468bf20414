package proxy_test

import (
	"context"
	"sync/atomic"
	"time"

	"k8s.io/client-go/rest"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/proxy"
)

// The recorder gives the proxy a trace writer as its sink and waits for
// the controller to be quiet between workload steps.
func Example_record() {
	var admin *rest.Config // the backend's RESTConfig()
	tw, _ := trace.Create("run/trace.jsonl", trace.Header{Test: "t"})
	p, _ := proxy.Start(proxy.Options{Upstream: admin, Sink: tw})
	defer p.Close()
	_ = p.WriteKubeconfig("run/kubeconfig") // for the controller runner
	// ... start the controller, run a workload step ...
	_ = p.WaitQuiet(context.Background(), 2*time.Second)
}

// Crash after write: the After hook kills the controller once the API
// server committed the write, and withholds the answer.
func Example_crashAfterWrite() {
	var p *proxy.Proxy
	var kill func() error // the controller runner's Kill
	p.SetHooks(proxy.Hooks{After: func(_ context.Context, r *proxy.Request, resp *proxy.Response) error {
		if r.IsWrite() && r.Key.Name == "zk" && resp.Code/100 == 2 {
			_ = kill()
			return proxy.ErrAbort
		}
		return nil
	}})
}

// Unobserved state: hide a pod's MODIFIED event that carries a deletion
// timestamp; deliver only the next event of the pod (hold-and-coalesce),
// and make reads of the pod wait meanwhile.
func Example_unobserved() {
	var p *proxy.Proxy
	target := trace.Key{Kind: "pod", Namespace: "default", Name: "zk-0"}
	var hidden atomic.Bool // Filter runs on every watch's goroutine
	p.SetHooks(proxy.Hooks{
		Filter: func(s *proxy.Stream, ev *proxy.Event) proxy.Verdict {
			switch {
			case ev.Key != target:
				return proxy.Deliver
			case ev.Type == "MODIFIED" && hidden.CompareAndSwap(false, true): // a plan matches the state
				return proxy.Hold
			case hidden.Load():
				return proxy.Supersede
			}
			return proxy.Deliver
		},
		Before: func(ctx context.Context, r *proxy.Request) error {
			if r.Verb == "get" && r.Key == target {
				return p.WaitReleased(ctx, target)
			}
			return nil
		},
	})
}

// Stale state: freeze the controller's view of one object at an older
// revision, restart the controller so it rebuilds its cache from it, and
// resume later.
func Example_stale() {
	var p *proxy.Proxy
	var restart func() error // the controller runner's Restart
	scope := proxy.Scope{Kind: "datastore.example.com", Namespace: "default", Name: "ds"}
	_ = p.StaleView(scope, "1234") // a resourceVersion from the reference trace
	_ = restart()
	time.Sleep(10 * time.Second) // the plan's delay
	p.Resume(scope)
}

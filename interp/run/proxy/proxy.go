package proxy

import (
	"crypto/subtle"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/sievetool/sieve/interp/analysis/leader"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// Options configures a proxy. Upstream is required; the zero value of every
// other field is the default.
type Options struct {
	// Upstream is an admin client configuration for the real API server.
	Upstream *rest.Config
	// Mapper maps resources to kinds; by default the upstream's discovery,
	// refreshed when a resource is unknown (CRDs created during the run).
	Mapper Mapper
	// Hooks are the recorder's and injector's hooks; they can be replaced
	// later with SetHooks.
	Hooks Hooks
	// Sink receives a Request entry per answered resource request and a
	// Delivery entry per watch event delivered to the controller. A
	// *trace.Writer is a Sink.
	Sink Sink
	// Addr is the listening address; by default 127.0.0.1 on a random port.
	Addr string
	// Exec, when set, is asked about every exec into a pod (pods/exec)
	// and returns how to answer it. The proxy serves the exec with a
	// returned function, over SPDY or WebSocket as the controller asks.
	// It answers a returned error (a *StatusError) instead of the
	// upgrade. With neither, it forwards the exec to the upstream. By
	// default every exec, attach and port-forward is forwarded.
	Exec func(e *Exec) (ExecFunc, error)
	// HTTP2 makes the proxy offer HTTP/2 to the controller, as the API
	// server does. By default it offers only HTTP/1.1: every client
	// falls back to it, and a request through the proxy takes less time
	// (BenchmarkOverhead measures by how much).
	HTTP2 bool
}

// Sink receives trace entries. Add is called from many goroutines; the
// order of calls is the order of the events.
type Sink interface {
	Add(e trace.Entry) (int64, error)
}

// ErrAbort, returned (possibly wrapped) by a Before or After hook, makes the
// proxy drop the connection without writing any response, as if the API
// server had vanished. A *StatusError is answered with its status; any
// other hook error with a 500 status that names it.
var ErrAbort = errors.New("proxy: request aborted by hook")

// StatusError, returned by a Before or After hook, is answered to the
// controller as a Kubernetes Status with this code and reason, as if the
// API server had refused the request.
type StatusError struct {
	Code    int    // HTTP status, e.g. 409
	Reason  string // metav1.StatusReason, e.g. "Conflict"
	Message string
	// Details, when set, are the Status's details (the object concerned,
	// how long to wait before a retry), as the API server gives them.
	Details *metav1.StatusDetails
	// RetryAfter, when positive, is sent as the Retry-After header, in
	// seconds: client-go waits that long and sends the request again.
	RetryAfter int
}

func (e *StatusError) Error() string { return e.Message }

// Proxy is a running interception proxy.
type Proxy struct {
	opts     Options
	hooks    atomic.Pointer[Hooks]
	certs    *certs
	token    string
	upstream *url.URL
	client   *http.Client // watches and upgrades
	buffered *http.Client // every other request: over conns, if set
	conns    *syncTransport
	kinds    *kinds
	srv      *http.Server
	ln       net.Listener
	nextID   atomic.Int64
	act      activity
	locks    leader.Locks // the controller's leader-election locks, from its requests
	beats    leader.Beats // heartbeats among the watch events
	streams  streams
	stale    staleViews
	sinkErr  atomic.Pointer[error]
	upErr    atomic.Pointer[error]
	done     chan struct{}
	wg       sync.WaitGroup
}

// Start starts a proxy in front of opts.Upstream. Stop it with Close.
func Start(opts Options) (*Proxy, error) {
	if opts.Upstream == nil {
		return nil, errors.New("proxy: no upstream configuration")
	}
	p := &Proxy{opts: opts, done: make(chan struct{})}
	p.hooks.Store(&opts.Hooks)
	p.streams.init(&p.act)
	if err := p.connectUpstream(); err != nil {
		return nil, err
	}
	if err := p.listen(); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Proxy) connectUpstream() error {
	u, _, err := rest.DefaultServerUrlFor(p.opts.Upstream)
	if err != nil {
		return fmt.Errorf("proxy: upstream address: %w", err)
	}
	// HTTP/1.1 to the API server: a request then passes between fewer
	// goroutines than over HTTP/2, which makes the proxy's round trip
	// measurably shorter (BenchmarkOverhead); the controller never sees
	// this side.
	up := rest.CopyConfig(p.opts.Upstream)
	up.TLSClientConfig.NextProtos = []string{"http/1.1"}
	rt, err := rest.TransportFor(up)
	if err != nil {
		return fmt.Errorf("proxy: upstream transport: %w", err)
	}
	p.upstream, p.client = u, &http.Client{Transport: rt}
	if p.buffered, err = p.bufferedClient(up); err != nil {
		return err
	}
	m, reset := p.opts.Mapper, func() {}
	if m == nil {
		if m, reset, err = discoveryMapper(p.opts.Upstream); err != nil {
			return err
		}
	}
	p.kinds = newKinds(m, reset)
	return nil
}

// bufferedClient returns the client for requests whose answer is read at
// once. It sends them over syncTransport, unless the upstream is reached
// through an HTTP proxy or a transport of its own: then over p.client.
func (p *Proxy) bufferedClient(up *rest.Config) (*http.Client, error) {
	env, err := http.ProxyFromEnvironment(&http.Request{URL: p.upstream})
	if p.upstream.Scheme != "https" || up.Transport != nil || up.Proxy != nil || env != nil || err != nil {
		return p.client, nil
	}
	tc, err := rest.TLSConfigFor(up)
	if err != nil {
		return nil, fmt.Errorf("proxy: upstream TLS: %w", err)
	}
	p.conns = newSyncTransport(tc, up.Dial)
	rt, err := rest.HTTPWrappersForConfig(up, p.conns)
	if err != nil {
		return nil, fmt.Errorf("proxy: upstream transport: %w", err)
	}
	return &http.Client{Transport: rt}, nil
}

func (p *Proxy) listen() error {
	c, err := newCerts()
	if err != nil {
		return err
	}
	if p.token, err = randomToken(); err != nil {
		return err
	}
	p.certs = c
	addr := p.opts.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("proxy: listen: %w", err)
	}
	p.ln = ln
	p.srv = &http.Server{
		Handler:           p,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{c.server}, NextProtos: []string{"h2", "http/1.1"}},
		ReadHeaderTimeout: 30 * time.Second,
		ErrorLog:          quietLog(),
	}
	if !p.opts.HTTP2 {
		p.srv.TLSConfig.NextProtos = []string{"http/1.1"}
		p.srv.TLSNextProto = map[string]func(*http.Server, *tls.Conn, http.Handler){}
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		_ = p.srv.ServeTLS(ln, "", "")
	}()
	return nil
}

// Close stops the proxy: the listener, open watches and held events.
func (p *Proxy) Close() error {
	select {
	case <-p.done:
		return nil
	default:
	}
	close(p.done)
	err := p.srv.Close()
	p.wg.Wait()
	if p.conns != nil {
		p.conns.CloseIdleConnections()
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("proxy: close: %w", err)
	}
	return nil
}

// SetHooks replaces the hooks for requests that arrive from now on (and
// for the events of open watches).
func (p *Proxy) SetHooks(h Hooks) { p.hooks.Store(&h) }

func (p *Proxy) hook() *Hooks { return p.hooks.Load() }

// Host is the proxy's address as "127.0.0.1:PORT".
func (p *Proxy) Host() string { return p.ln.Addr().String() }

// URL is the proxy's base URL.
func (p *Proxy) URL() string { return "https://" + p.Host() }

// Token is the bearer token the controller must present.
func (p *Proxy) Token() string { return p.token }

// CA is the PEM certificate of the authority that signed the proxy's
// serving certificate.
func (p *Proxy) CA() []byte { return append([]byte(nil), p.certs.caPEM...) }

// RESTConfig is a client configuration that talks to the API server
// through the proxy, as the controller does.
func (p *Proxy) RESTConfig() *rest.Config {
	return &rest.Config{
		Host:            p.URL(),
		BearerToken:     p.token,
		TLSClientConfig: rest.TLSClientConfig{CAData: p.CA()},
	}
}

// Err returns the first error the sink returned, if any.
func (p *Proxy) Err() error {
	if e := p.sinkErr.Load(); e != nil {
		return *e
	}
	return nil
}

func (p *Proxy) record(e trace.Entry) {
	if p.opts.Sink == nil {
		return
	}
	if _, err := p.opts.Sink.Add(e); err != nil {
		p.sinkErr.CompareAndSwap(nil, &err)
	}
}

func (p *Proxy) authorized(r *http.Request) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(p.token)) == 1
}

// HeldLocks returns the leader-election locks the controller held when it
// last wrote them, each with its holder identity (leader.Locks.Held).
func (p *Proxy) HeldLocks() map[trace.Key]string { return p.locks.Held() }

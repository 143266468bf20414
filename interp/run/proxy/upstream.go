package proxy

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// syncTransport sends a request over HTTP/1.1 and reads its answer on the
// caller's goroutine, over TLS connections it keeps open between requests.
// net/http's Transport hands every request to a goroutine that writes it
// and its answer back from one that reads: goroutine switches on each of
// the proxy's round trips that lengthen them on a small machine
// (BenchmarkOverhead measures by how much). It serves requests
// whose answer is read at once, not watches: a connection carries one
// request at a time.
type syncTransport struct {
	tls  *tls.Config // for every connection, with HTTP/1.1 as the only protocol
	dial func(ctx context.Context, network, addr string) (net.Conn, error)

	mu     sync.Mutex
	idle   []*syncConn // the most recently used last
	closed bool
}

const (
	// maxIdle bounds the connections kept open between requests: as many
	// as the controller has had requests in flight at once, up to this.
	maxIdle = 32
	// idleLimit is how long an unused connection is kept. The API server
	// closes one after 90 s, load balancers before it often after 60 s; a
	// request sent on a connection the server is closing could fail.
	idleLimit = 30 * time.Second
)

func newSyncTransport(tc *tls.Config, dial func(ctx context.Context, network, addr string) (net.Conn, error)) *syncTransport {
	if tc == nil {
		tc = &tls.Config{}
	}
	tc = tc.Clone()
	tc.NextProtos = []string{"http/1.1"}
	if dial == nil {
		dial = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	}
	return &syncTransport{tls: tc, dial: dial}
}

type syncConn struct {
	conn  net.Conn
	br    *bufio.Reader
	bw    *bufio.Writer
	since time.Time // idle since
}

// RoundTrip sends req and returns its answer. Its connection serves again
// once the answer's body is closed.
func (t *syncTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme != "https" {
		return nil, errors.New("proxy: upstream is not https")
	}
	for {
		c, reused, err := t.get(req)
		if err != nil {
			return nil, err
		}
		stop := context.AfterFunc(req.Context(), func() { _ = c.conn.SetDeadline(time.Unix(1, 0)) })
		resp, err := c.exchange(req)
		if err == nil {
			resp.Body = &syncBody{ReadCloser: resp.Body, t: t, c: c, stop: stop, keep: !resp.Close}
			return resp, nil
		}
		stop()
		_ = c.conn.Close()
		// A kept connection that the server had closed fails at once: a
		// request that may be sent twice (a GET) is sent again on a new
		// connection, as net/http does.
		if !reused || !replayable(req) || !closedByServer(err) || req.Context().Err() != nil {
			return nil, err
		}
		if req.GetBody != nil {
			if req.Body, err = req.GetBody(); err != nil {
				return nil, err
			}
		}
	}
}

func replayable(req *http.Request) bool {
	switch req.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
	}
	return false
}

func closedByServer(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// get returns the most recently used idle connection, or dials a new one.
func (t *syncTransport) get(req *http.Request) (c *syncConn, reused bool, err error) {
	var stale []*syncConn
	t.mu.Lock()
	for len(t.idle) > 0 && time.Since(t.idle[0].since) > idleLimit {
		stale, t.idle = append(stale, t.idle[0]), t.idle[1:]
	}
	if n := len(t.idle); n > 0 {
		c, t.idle = t.idle[n-1], t.idle[:n-1]
	}
	t.mu.Unlock()
	for _, s := range stale {
		_ = s.conn.Close()
	}
	if c != nil {
		return c, true, nil
	}
	c, err = t.connect(req.Context(), req.URL.Host, req.URL.Hostname())
	return c, false, err
}

// connect dials addr and shakes hands over TLS.
func (t *syncTransport) connect(ctx context.Context, addr, host string) (*syncConn, error) {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		addr = net.JoinHostPort(addr, "443")
	}
	raw, err := t.dial(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	cfg := t.tls
	if cfg.ServerName == "" {
		cfg = cfg.Clone()
		cfg.ServerName = host
	}
	tc := tls.Client(raw, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		_ = raw.Close()
		return nil, err
	}
	return &syncConn{conn: tc, br: bufio.NewReader(tc), bw: bufio.NewWriter(tc)}, nil
}

// put keeps a connection whose answer was read to the end.
func (t *syncTransport) put(c *syncConn) {
	c.since = time.Now()
	t.mu.Lock()
	keep := !t.closed && len(t.idle) < maxIdle
	if keep {
		t.idle = append(t.idle, c)
	}
	t.mu.Unlock()
	if !keep {
		_ = c.conn.Close()
	}
}

// CloseIdleConnections closes the kept connections, and from now on every
// connection once its request is done.
func (t *syncTransport) CloseIdleConnections() {
	t.mu.Lock()
	idle := t.idle
	t.idle, t.closed = nil, true
	t.mu.Unlock()
	for _, c := range idle {
		_ = c.conn.Close()
	}
}

// exchange writes req and reads the head of its answer.
func (c *syncConn) exchange(req *http.Request) (*http.Response, error) {
	if err := req.Write(c.bw); err != nil {
		return nil, err
	}
	if err := c.bw.Flush(); err != nil {
		return nil, err
	}
	return http.ReadResponse(c.br, req)
}

// syncBody is an answer's body: its connection serves again once the body
// is closed (which reads what is left of it).
type syncBody struct {
	io.ReadCloser
	t    *syncTransport
	c    *syncConn
	stop func() bool // unhooks the request's cancellation; false once it broke the connection
	keep bool        // the server keeps the connection open
	once sync.Once
}

func (b *syncBody) Close() error {
	b.once.Do(func() {
		drained := b.ReadCloser.Close() == nil
		if b.stop() && drained && b.keep {
			b.t.put(b.c)
			return
		}
		_ = b.c.conn.Close()
	})
	return nil
}

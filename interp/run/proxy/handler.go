package proxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/sievetool/sieve/interp/analysis/leader"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// Hooks are the points where the recorder and the injector act on the
// controller's traffic. Every field is optional. Hooks run on the request's
// goroutine (Filter on the watch's), so a blocking hook delays only that
// request or stream.
type Hooks struct {
	// Before is called when a request has arrived, before it is forwarded.
	// It may block (a read that must wait). An error fails the request:
	// ErrAbort drops the connection, any other error is answered with 500.
	Before func(ctx context.Context, r *Request) error
	// After is called once the upstream has answered (for a watch: once
	// its headers arrived), BEFORE the answer is written back to the
	// controller. It may block; the injector kills the controller here to
	// crash it after a write. An error is handled as for Before. The
	// request's trace entry is written after After returns (so after
	// anything the hook recorded), without Done when the answer was
	// withheld.
	After func(ctx context.Context, r *Request, resp *Response) error
	// Filter is called for every watch event on its way to the controller
	// (except events a stale view holds) and decides its fate. It may
	// modify ev to replace the event.
	Filter func(s *Stream, ev *Event) Verdict
}

// ServeHTTP handles one request of the controller.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, hr *http.Request) {
	if !p.authorized(hr) {
		writeStatus(w, http.StatusUnauthorized, "Unauthorized", "sieve proxy: missing or wrong bearer token")
		return
	}
	if isUpgrade(hr) {
		p.serveUpgrade(w, hr)
		return
	}
	r, err := p.parse(hr)
	if err != nil {
		writeStatus(w, http.StatusBadRequest, "BadRequest", err.Error())
		return
	}
	if r.Verb == "watch" {
		p.serveWatch(w, hr, r)
		return
	}
	c := call{sig: trace.Call(r.Verb, r.Key, r.Subresource), obj: r.Key.String(), verb: r.Verb}
	p.act.beginRequest(c, !leader.Lockable(r.Key.Kind))
	sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
	beat := false
	defer func() { p.act.endRequest(c, sw.code, retryAfter(sw.Header().Get("Retry-After")), beat) }()
	beat = p.serveOnce(sw, hr, r)
}

// statusWriter remembers the status code of the answer it writes.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	w.code = code
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap returns the underlying writer (for http.ResponseController).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Hijack takes over the connection, when the underlying writer can.
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("sieve proxy: the connection cannot be taken over")
	}
	return h.Hijack()
}

// Flush sends what has been written so far, when the writer can.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// parse reads the body and parses the request. The body is decoded to
// JSON (Request.Body) now if the kind depends on it, else when a hook is
// to see the request or it is recorded, after its answer has left: the
// controller does not wait for it (decode).
func (p *Proxy) parse(hr *http.Request) (*Request, error) {
	raw, err := io.ReadAll(hr.Body)
	if err != nil {
		return nil, fmt.Errorf("sieve proxy: reading request body: %w", err)
	}
	r := &Request{
		ID: p.nextID.Add(1), Method: hr.Method, Path: hr.URL.Path, Query: hr.URL.Query(),
		ContentType: hr.Header.Get("Content-Type"), Header: hr.Header, RawBody: raw, Start: time.Now(),
	}
	rt, ok := parsePath(hr.URL.Path)
	if !ok {
		r.Verb = strings.ToLower(hr.Method)
		return r, nil
	}
	r.Verb = apiVerb(hr.Method, rt, r.Query)
	r.Group, r.Version, r.Resource, r.Subresource = rt.group, rt.version, rt.resource, rt.sub
	r.Key = trace.Key{Namespace: rt.namespace, Name: rt.name}
	if r.Key.Name == "" {
		r.Key.Name = nameFromFieldSelector(r.Query.Get("fieldSelector"))
	}
	r.route, r.pending = rt, true
	gvr := schema.GroupVersionResource{Group: rt.group, Version: rt.version, Resource: rt.resource}
	if gvk, ok := p.kinds.kindFor(gvr); ok {
		r.Key.Kind = trace.KindName(gvk.Group, gvk.Kind)
	}
	if r.Key.Kind == "" {
		p.decode(r) // a stale view's scope may cover it
	}
	return r, nil
}

// decode sets, once, the request's JSON body and what of its key only the
// body says. When discovery does not know the resource yet (a CRD just
// created), the kind of the object in the body is learnt; failing that,
// the (plural) resource name stands in. A create names its object in the
// body.
func (p *Proxy) decode(r *Request) {
	if !r.pending {
		return
	}
	r.pending = false
	r.Body = bodyJSON(r.ContentType, r.RawBody)
	rt := r.route
	if r.Key.Kind == "" {
		gvr := schema.GroupVersionResource{Group: rt.group, Version: rt.version, Resource: rt.resource}
		r.Key.Kind = trace.KindName(rt.group, rt.resource)
		if kind := objectKind(r.Body, gvr.GroupVersion().String()); kind != "" && rt.sub == "" {
			p.kinds.learn(gvr, kind)
			r.Key.Kind = trace.KindName(rt.group, kind)
		}
	}
	if r.Key.Name == "" && r.Verb == "create" {
		r.Key.Name = nameFromBody(r.Body)
	}
}

// objectKind returns the kind of a JSON object of the given apiVersion, or
// "" (also for lists and statuses).
func objectKind(body []byte, apiVersion string) string {
	var tm struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if json.Unmarshal(body, &tm) != nil || tm.APIVersion != apiVersion || tm.Kind == "Status" || strings.HasSuffix(tm.Kind, "List") {
		return ""
	}
	return tm.Kind
}

// serveOnce forwards a request that is not a watch, buffering the answer so
// the After hook runs before the controller sees it. It reports whether the
// request was a heartbeat (recordRequest).
func (p *Proxy) serveOnce(w http.ResponseWriter, hr *http.Request, r *Request) bool {
	ctx := hr.Context()
	if !p.runHook(w, p.before(ctx, r)) {
		return false
	}
	resp, hdr := p.fetch(ctx, r)
	if err := p.after(ctx, r, resp); err != nil {
		p.recordRequest(r, resp, nil) // done upstream, never answered
		p.runHook(w, err)
		return false
	}
	if resp.Err != nil {
		writeStatus(w, http.StatusBadGateway, "InternalError", "sieve proxy: upstream: "+resp.Err.Error())
	} else {
		body := resp.written()
		copyHeader(w.Header(), hdr)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(resp.Code)
		_, _ = w.Write(body)
		if f, ok := w.(http.Flusher); ok {
			f.Flush() // the answer leaves now, not after the recording
		}
	}
	done := time.Now()
	return p.recordRequest(r, resp, &done)
}

func (p *Proxy) before(ctx context.Context, r *Request) error {
	if h := p.hook().Before; h != nil {
		p.decode(r)
		return h(ctx, r)
	}
	return nil
}

func (p *Proxy) after(ctx context.Context, r *Request, resp *Response) error {
	if h := p.hook().After; h != nil {
		p.decode(r)
		resp.decode()
		return h(ctx, r, resp)
	}
	return nil
}

// runHook answers the request when a hook failed and reports whether to go
// on.
func (p *Proxy) runHook(w http.ResponseWriter, err error) bool {
	switch {
	case err == nil:
		return true
	case errors.Is(err, ErrAbort):
		panic(http.ErrAbortHandler)
	}
	var se *StatusError
	if errors.As(err, &se) {
		se.write(w)
		return false
	}
	writeStatus(w, http.StatusInternalServerError, "InternalError", "sieve proxy: "+err.Error())
	return false
}

// fetch sends the request upstream (or answers it from a stale view) and
// reads the whole answer.
func (p *Proxy) fetch(ctx context.Context, r *Request) (*Response, http.Header) {
	if sv, ok := p.stale.forRead(r); ok {
		return p.fetchStale(ctx, r, sv)
	}
	// The answer comes in the media type the controller asked for
	// (protobuf), which the API server encodes and the controller decodes
	// faster than JSON. The proxy decodes it for a hook, and for the
	// record after it has left (a list's answer is not recorded).
	r.anyMedia = true
	return p.roundTrip(ctx, r.Method, r.Path, r.Query, r.RawBody, r)
}

// roundTrip performs one upstream request and reads the whole answer.
func (p *Proxy) roundTrip(ctx context.Context, method, path string, q url.Values, body []byte, r *Request) (*Response, http.Header) {
	hresp, err := p.send(ctx, p.buffered, method, path, q, body, r)
	if err != nil {
		return &Response{Err: err}, nil
	}
	defer hresp.Body.Close()
	b, err := io.ReadAll(hresp.Body)
	if err != nil {
		if ctx.Err() == nil {
			p.upstreamFailed(err)
		}
		return &Response{Code: hresp.StatusCode, Err: err}, nil
	}
	resp := &Response{Code: hresp.StatusCode, Body: b}
	if r.anyMedia && r.Verb != "list" {
		if mt := mediaType(hresp.Header.Get("Content-Type")); binaryMedia(mt) {
			resp.Body, resp.wire, resp.media = nil, b, mt
		}
	}
	return resp, hresp.Header
}

// send opens an upstream request through client with the controller's
// headers, minus its credentials, asking for JSON unless r.anyMedia:
// p.client for a watch, whose answer streams, p.buffered for an answer
// read at once.
func (p *Proxy) send(ctx context.Context, client *http.Client, method, path string, q url.Values, body []byte, r *Request) (*http.Response, error) {
	u := *p.upstream
	u.Path = joinPath(p.upstream.Path, path)
	u.RawQuery = q.Encode()
	var rd io.Reader
	if len(body) > 0 {
		rd = bytes.NewReader(body)
	}
	ur, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return nil, err
	}
	for _, h := range []string{"Content-Type", "User-Agent", "Impersonate-User", "Impersonate-Group", "Impersonate-Uid", "Audit-Id"} {
		if v := r.Header.Get(h); v != "" {
			ur.Header.Set(h, v)
		}
	}
	accept := r.Header.Get("Accept")
	if !r.anyMedia || accept == "" {
		accept = jsonAccept(accept)
	}
	ur.Header.Set("Accept", accept)
	resp, err := client.Do(ur)
	if err != nil && ctx.Err() == nil {
		p.upstreamFailed(err)
	}
	return resp, err
}

// upstreamFailed keeps the first failure to reach the upstream.
func (p *Proxy) upstreamFailed(err error) {
	err = fmt.Errorf("proxy: upstream %s: %w", p.upstream.Host, err)
	p.upErr.CompareAndSwap(nil, &err)
}

// UpstreamErr returns the first failure to reach the upstream (a refused
// or broken connection), or nil. Requests the controller gave up on (it
// closed the connection, or was killed) do not count: the upstream did not
// fail them.
func (p *Proxy) UpstreamErr() error {
	if e := p.upErr.Load(); e != nil {
		return *e
	}
	return nil
}

func joinPath(base, p string) string {
	if base == "" || base == "/" {
		return p
	}
	return base + p
}

// isHopHeader reports the headers not copied from the upstream's answer.
func isHopHeader(k string) bool {
	switch k {
	case "Connection", "Content-Length", "Content-Encoding", "Transfer-Encoding", "Keep-Alive", "Upgrade", "Trailer":
		return true
	}
	return false
}

func copyHeader(dst, src http.Header) {
	for k, vs := range src {
		if !isHopHeader(k) {
			dst[k] = vs
		}
	}
}

// recordRequest writes the request's trace entry, and shows it to the
// controller's leader-election locks (leader.Locks), reporting whether it
// was a heartbeat. Requests outside the resource API (discovery,
// /version) are not recorded.
func (p *Proxy) recordRequest(r *Request, resp *Response, done *time.Time) bool {
	if !r.IsResource() {
		return false
	}
	p.decode(r)
	resp.decode()
	key := r.Key
	e := trace.Entry{
		Time: r.Start, Type: trace.Request, Key: &key, Verb: r.Verb, Subresource: r.Subresource,
		Body: r.Body, Code: resp.Code, Done: done, Output: resp.Output,
	}
	if resp.Err != nil {
		e.Error = resp.Err.Error()
	}
	if r.Verb != "list" && r.Verb != "watch" && json.Valid(resp.Body) {
		e.Response = resp.Body
	}
	beat := p.locks.Request(&e)
	p.record(e)
	return beat
}

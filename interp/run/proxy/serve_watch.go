package proxy

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
)

// serveWatch forwards a watch and passes each of its events through the
// stale view and the Filter hook.
func (p *Proxy) serveWatch(w http.ResponseWriter, hr *http.Request, r *Request) {
	ctx, cancel := context.WithCancel(hr.Context()) // cancel: Relist ends the watch
	defer cancel()
	p.act.touch()
	if !p.runHook(w, p.before(ctx, r)) {
		return
	}
	q, initial, resp := r.Query, []*Event(nil), &Response{}
	if sv, ok := p.stale.forWatch(r); ok {
		q, initial, resp = p.staleWatch(ctx, r, sv)
	}
	var hresp *http.Response
	if resp.Err == nil {
		hresp, resp.Err = p.send(ctx, p.client, r.Method, r.Path, q, nil, r)
	}
	if hresp != nil {
		resp.Code = hresp.StatusCode
		defer hresp.Body.Close()
	}
	err := p.after(ctx, r, resp)
	p.recordRequest(r, resp, nil)
	if !p.runHook(w, err) {
		return
	}
	if resp.Err != nil {
		writeStatus(w, http.StatusBadGateway, "InternalError", "sieve proxy: upstream: "+resp.Err.Error())
		return
	}
	p.stream(w, r, hresp, initial, cancel)
}

// stream copies the upstream's events to the controller; end stops
// reading them.
func (p *Proxy) stream(w http.ResponseWriter, r *Request, hresp *http.Response, initial []*Event, end func()) {
	copyHeader(w.Header(), hresp.Header)
	w.WriteHeader(hresp.StatusCode)
	if hresp.StatusCode != http.StatusOK {
		_, _ = io.Copy(w, hresp.Body)
		return
	}
	f, _ := w.(http.Flusher)
	if f == nil {
		return
	}
	f.Flush()
	s := &Stream{Request: r, p: p, w: w, f: f, end: end}
	s.pass(r.Query.Get("resourceVersion"))
	p.streams.open(s)
	defer p.streams.close(s)
	s.mu.Lock()
	for _, ev := range initial {
		s.deliverLocked(ev) // the stale view's own snapshot
	}
	s.mu.Unlock()
	dec := json.NewDecoder(hresp.Body)
	for {
		var we wireEvent
		if err := dec.Decode(&we); err != nil {
			if err != io.EOF && hresp.Request.Context().Err() == nil {
				p.upstreamFailed(err) // cut off, not ended by the server
			}
			return
		}
		ev := newEvent(r.Key.Kind, we.Type, we.Object)
		ev.beat = p.heartbeat(ev)
		p.act.arrive(1, ev.beat)
		s.offer(ev)
		s.pass(ev.ResourceVersion)
		p.act.arrive(-1, ev.beat)
	}
}

// heartbeat reports whether watch event ev only shows a leader-election
// lock renewed (leader.Beats).
func (p *Proxy) heartbeat(ev *Event) bool {
	switch ev.Type {
	case "ADDED", "MODIFIED":
		return p.beats.Beat(ev.Key, ev.Object)
	case "DELETED":
		p.beats.Beat(ev.Key, nil)
	}
	return false
}

// cloneQuery copies query values so a rewrite leaves the request intact.
func cloneQuery(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// writeStatus answers with a metav1.Status.
func writeStatus(w http.ResponseWriter, code int, reason, msg string) {
	w.Header().Set("Content-Type", mediaJSON)
	w.WriteHeader(code)
	_, _ = w.Write(statusBody(code, reason, msg))
}

// statusBody is a failure Status in JSON.
func statusBody(code int, reason, msg string) []byte {
	b, _ := json.Marshal(map[string]any{
		"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{},
		"status": "Failure", "message": msg, "reason": reason, "code": code,
	})
	return b
}

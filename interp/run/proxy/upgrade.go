package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httputil"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The verb recorded for exec, attach and port-forward: the admission
// operation of these subresources. It is neither a read nor a write, so
// the controller's view of the pod is not changed by it.
const verbConnect = "connect"

// isUpgrade reports whether a request asks to upgrade its connection
// (exec, attach, port-forward over SPDY or WebSocket). Only these leave
// the ordinary request path.
func isUpgrade(hr *http.Request) bool { return hr.Header.Get("Upgrade") != "" }

// serveUpgrade handles an upgrade request: an exec into a pod that
// exists, which the Exec option answers, is served by the proxy itself;
// any other upgrade is forwarded
// to the upstream and the two connections are joined. Either way the
// request is recorded with verb connect.
func (p *Proxy) serveUpgrade(w http.ResponseWriter, hr *http.Request) {
	rt, _ := parsePath(hr.URL.Path)
	r := &Request{
		ID: p.nextID.Add(1), Verb: verbConnect, Method: hr.Method, Path: hr.URL.Path, Query: hr.URL.Query(),
		Header: hr.Header, Group: rt.group, Version: rt.version, Resource: rt.resource, Subresource: rt.sub, Start: time.Now(),
	}
	r.Key = trace.Key{Kind: trace.KindName(rt.group, rt.resource), Namespace: rt.namespace, Name: rt.name}
	if gvk, ok := p.kinds.kindFor(schema.GroupVersionResource{Group: rt.group, Version: rt.version, Resource: rt.resource}); ok {
		r.Key.Kind = trace.KindName(gvk.Group, gvk.Kind)
	}
	if rt.resource == "pods" && rt.sub == "exec" && p.opts.Exec != nil {
		e := parseExec(rt, r.Query)
		err := p.execTarget(hr.Context(), r, e)
		r.Body, _ = json.Marshal(e)
		var fn ExecFunc
		if err == nil {
			fn, err = p.opts.Exec(e)
		}
		switch {
		case err != nil:
			p.refuseUpgrade(w, r, err)
			return
		case fn != nil:
			p.answerExec(w, hr, r, e, fn)
			return
		}
	}
	p.forwardUpgrade(w, hr, r)
}

// refuseUpgrade answers an upgrade with the hook's status, as the API
// server answers an exec the kubelet refused.
func (p *Proxy) refuseUpgrade(w http.ResponseWriter, r *Request, err error) {
	p.act.touch()
	var se *StatusError
	if !errors.As(err, &se) {
		se = &StatusError{Code: http.StatusInternalServerError, Reason: "InternalError", Message: "sieve proxy: " + err.Error()}
	}
	writeStatus(w, se.Code, se.Reason, se.Message)
	done := time.Now()
	p.recordRequest(r, &Response{Code: se.Code, Body: statusBody(se.Code, se.Reason, se.Message)}, &done)
}

// answerExec serves an exec with fn, and records what the command wrote.
// The exec counts as a request in flight until the command ends.
func (p *Proxy) answerExec(w http.ResponseWriter, hr *http.Request, r *Request, e *Exec, fn ExecFunc) {
	p.act.add(1, 0, 0)
	defer p.act.add(-1, 0, 0)
	stdout, stderr := &trace.Head{Max: trace.AnswerLimit}, &trace.Head{Max: trace.AnswerLimit}
	code, status := serveExec(w, hr, e, func(ctx context.Context, e *Exec, s ExecIO) (int, error) {
		s.Stdout, s.Stderr = io.MultiWriter(s.Stdout, stdout), io.MultiWriter(s.Stderr, stderr)
		return fn(ctx, e, s)
	})
	done := time.Now()
	out := &trace.ExecOutput{Stdout: stdout.Text(), StdoutBytes: stdout.N, Stderr: stderr.Text(), StderrBytes: stderr.N}
	p.recordRequest(r, &Response{Code: code, Body: status, Output: out}, &done)
}

// quietLog is the log of the proxy's HTTP server and upgrade forwarder:
// none. What they would print (a client's failed TLS handshake, a broken
// upgrade) is no result of the user's, and net/http's default writes it to
// the terminal; the trace records the failures that concern a request.
func quietLog() *log.Logger { return log.New(io.Discard, "", 0) }

// forwardUpgrade passes an upgrade to the upstream with the proxy's
// credentials and joins the two connections. The entry records the
// upstream's answer: 101, or its refusal.
func (p *Proxy) forwardUpgrade(w http.ResponseWriter, hr *http.Request, r *Request) {
	p.act.touch()
	resp := &Response{}
	rp := &httputil.ReverseProxy{
		Transport: p.client.Transport,
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(p.upstream)
			pr.Out.URL.Path = joinPath(p.upstream.Path, hr.URL.Path)
			pr.Out.Header.Del("Authorization") // the upstream transport adds its own
		},
		ModifyResponse: func(hresp *http.Response) error {
			resp.Code = hresp.StatusCode
			if hresp.StatusCode != http.StatusSwitchingProtocols {
				resp.Body = readSmall(hresp)
			}
			return nil
		},
		ErrorLog: quietLog(), // the entry records failures
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			resp.Err = err
			writeStatus(w, http.StatusBadGateway, "InternalError", "sieve proxy: upstream: "+err.Error())
		},
	}
	rp.ServeHTTP(w, hr)
	p.act.touch()
	done := time.Now()
	p.recordRequest(r, resp, &done)
}

// readSmall reads a refusal's body (a Status) and puts it back for the
// controller.
func readSmall(hresp *http.Response) json.RawMessage {
	b, err := io.ReadAll(io.LimitReader(hresp.Body, 1<<16))
	_ = hresp.Body.Close()
	hresp.Body = io.NopCloser(bytes.NewReader(b))
	if err != nil || !json.Valid(b) {
		return nil
	}
	return b
}

package relay

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// hangBound is how long a Hang holds a connection the controller does
// not close.
func (r *Recorder) hangBound() time.Duration {
	if r.HangBound > 0 {
		return r.HangBound
	}
	return ir.HangBound
}

// hang holds the connection without an answer until the controller
// closes it (what it sends meanwhile is read and dropped) or the bound
// passes (then it is reset), records how long and who ended it, and
// closes both ends.
func (c *Conn) hang(src io.Reader, ctl, up net.Conn) {
	start := time.Now()
	gone := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, src); close(gone) }()
	bound := time.NewTimer(c.rec.hangBound())
	defer bound.Stop()
	select {
	case <-gone:
		held := time.Since(start).Round(time.Millisecond)
		c.fail(trace.ConnClosed, fmt.Sprintf("sieve held it without an answer for %s, until the controller closed it (an application fault: hang)", held))
	case <-bound.C:
		c.fail(trace.ConnReset, fmt.Sprintf("sieve held it without an answer for %s, the bound, and reset it: the controller did not give up (an application fault: hang)", c.rec.hangBound()))
		reset(ctl)
	}
	ctl.Close()
	up.Close()
}

// truncate sends req to the stand-in through w and gives the controller
// the stand-in's response with its headers and half its body (all of an
// answer without a body is its headers, cut in half), records what the
// controller got, and closes both ends.
func (c *Conn) truncate(req *http.Request, w io.Writer, ctl, up net.Conn, resps *tap) {
	got := c.diverted()
	if err := send(req, w); err != nil {
		c.broken("stand-in", err, ctl, up)
		return
	}
	raw, kept, total, err := halve(got, req)
	switch {
	case err != nil:
		c.fail(trace.ConnError, fmt.Sprintf("the stand-in's response, to truncate it: %v (an application fault: truncated)", err))
	case total == 0:
		c.fail(trace.ConnClosed, fmt.Sprintf("sieve forwarded the first %d bytes of the stand-in's response, which has no body, cut in its headers, and closed it (an application fault: truncated)", len(raw)))
	default:
		c.fail(trace.ConnClosed, fmt.Sprintf("sieve forwarded the stand-in's response with %d of its %d body bytes and closed it (an application fault: truncated)", kept, total))
	}
	_, _ = resps.Write(raw)
	_, _ = ctl.Write(raw)
	ctl.Close()
	up.Close()
}

// halve reads req's response from r and returns it serialized with a
// Content-Length of its whole body but only half the body: the bytes
// kept and the body's length. A response without a body is cut in the
// middle of its headers.
func halve(r *bufio.Reader, req *http.Request) (raw []byte, kept, total int, err error) {
	resp, err := http.ReadResponse(r, req)
	if err != nil {
		return nil, 0, 0, err
	}
	body, full, err := whole(resp)
	if err != nil {
		return nil, 0, 0, err
	}
	if len(body) == 0 {
		return full[:len(full)/2], 0, 0, nil
	}
	head := len(full) - len(body)
	return full[:head+len(body)/2], len(body) / 2, len(body), nil
}

// whole reads resp's body to its end and returns it, and resp
// serialized with it whole and a Content-Length (a response to a HEAD
// keeps its own, of the body it did not send).
func whole(resp *http.Response) (body, raw []byte, err error) {
	body, err = io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, err
	}
	resp.Body.Close()
	resp.TransferEncoding = nil
	if resp.Request == nil || resp.Request.Method != http.MethodHead {
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	var b bytes.Buffer
	if err := resp.Write(&b); err != nil {
		return nil, nil, err
	}
	return body, b.Bytes(), nil
}

// respond reads the stand-in's response to req whole from got and tells
// the recorder's Answered hook. The controller gets the reply the hook
// returns in the stand-in's place, and the connection ends (false); or
// it gets the response, with a Content-Length, and the next request may
// come (true).
func (c *Conn) respond(req *http.Request, got *bufio.Reader, ctl, up net.Conn, resps *tap) bool {
	resp, err := response(got, req.Method)
	var body, raw []byte
	if err == nil {
		body, raw, err = whole(resp)
	}
	if err != nil {
		c.fail(trace.ConnError, fmt.Sprintf("the stand-in's response, read whole before the controller gets it: %v", err))
		ctl.Close()
		up.Close()
		return false
	}
	real := Reply{Status: resp.StatusCode, Header: values(resp.Header), Body: string(body)}
	if r, ok := c.rec.Answered(c.info, req.Method, req.RequestURI, real); ok {
		c.stale(r, &real, req, ctl, up, resps)
		return false
	}
	_, _ = resps.Write(raw)
	if _, err := ctl.Write(raw); err != nil {
		c.broken("controller", err, up, ctl)
		return false
	}
	return true
}

// diverted has the stand-in's bytes go to a pipe from half's next read
// on, instead of to the controller, and returns the pipe's reader (made
// on first use): forward reads the responses there.
func (c *Conn) diverted() *bufio.Reader {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cut == nil {
		c.out, c.cut = io.Pipe()
		c.got = bufio.NewReader(c.out)
	}
	return c.got
}

// undivert, once forward is done, drops what the stand-in still sends
// to the pipe, if the bytes were diverted, and tells resps no more come
// (half does it otherwise).
func (c *Conn) undivert(resps *tap) {
	c.mu.Lock()
	out := c.out
	c.mu.Unlock()
	if out != nil {
		out.Close()
		resps.Close()
	}
}

// cutting returns where the stand-in's bytes go once diverted (nil: to
// the controller, as they come).
func (c *Conn) cutting(to string) *io.PipeWriter {
	if to != "controller" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cut
}

// stale gives the controller reply in place of req's response, records
// the reply as the exchange's response, and closes both ends. real is
// the stand-in's response it replaces (respond), nil when the request
// was not forwarded.
func (c *Conn) stale(reply, real *Reply, req *http.Request, ctl, up net.Conn, resps *tap) {
	raw, err := reply.wire(req)
	dropped := ""
	if real != nil {
		dropped = fmt.Sprintf(", dropped the stand-in's answer (%d with %d body bytes)", real.Status, len(real.Body))
	}
	if err != nil {
		c.fail(trace.ConnError, fmt.Sprintf("the earlier answer to give: %v (an application fault: stale)", err))
	} else {
		c.fail(trace.ConnClosed, fmt.Sprintf("sieve answered %d with %d body bytes in the stand-in's place, its answer to an earlier occurrence of the request%s, and closed it (an application fault: stale)", reply.Status, len(reply.Body), dropped))
	}
	_, _ = resps.Write(raw)
	_, _ = ctl.Write(raw)
	ctl.Close()
	up.Close()
}

// wire is the reply as an HTTP/1.1 response to req, with a Content-Length
// and Connection: close.
func (r *Reply) wire(req *http.Request) ([]byte, error) {
	h := http.Header{}
	for k, v := range r.Header {
		h.Set(k, v)
	}
	resp := &http.Response{StatusCode: r.Status, ProtoMajor: 1, ProtoMinor: 1, Header: h, Request: req, Close: true,
		ContentLength: int64(len(r.Body)), Body: io.NopCloser(strings.NewReader(r.Body))}
	var b bytes.Buffer
	if err := resp.Write(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

package relay

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// Fault is a wrong answer the relay gives to one HTTP request of the
// controller in the stand-in's place.
type Fault string

const (
	// Unavailable answers 503 with a short body, and closes the
	// connection (the request is not forwarded).
	Unavailable Fault = "unavailable"
	// Reset resets the connection before any response (the request is
	// not forwarded).
	Reset Fault = "reset"
	// Hang sends nothing and forwards nothing: the connection is held
	// until the controller closes it, or reset after the Recorder's
	// HangBound.
	Hang Fault = "hang"
	// Truncated forwards the request and gives the controller the
	// stand-in's response with its headers and half its body (its
	// Content-Length promises all of it), then closes the connection.
	Truncated Fault = "truncated"
	// Stale answers with the Answer's Reply, the stand-in's answer to an
	// earlier occurrence of the same request, in the stand-in's place
	// (the request is not forwarded), and closes the connection.
	Stale Fault = "stale"
)

// Answer is how the relay answers one request in the stand-in's place: a
// fault, and for Stale the reply it gives.
type Answer struct {
	Fault Fault
	Reply *Reply
}

// Reply is a whole HTTP response a Stale answer gives: its status, the
// values of its headers (trace.AnswerHeaders) and its body.
type Reply struct {
	Status int
	Header map[string]string
	Body   string
}

// unavailableBody is the body of an Unavailable answer.
const unavailableBody = "service unavailable (sieve: application fault)\n"

// bufConn is a connection read through a buffered reader.
type bufConn struct {
	net.Conn
	r *bufio.Reader
}

func (b bufConn) Read(p []byte) (int, error) { return b.r.Read(p) }

// forward copies the controller's HTTP requests from ctl to up one at a
// time, asking the recorder's Fault hook about each before it is sent,
// and returns the bytes sent. With an Answered hook, it reads each
// response whole and gives it to the controller itself (respond). What
// is not HTTP/1.x, and what follows a request that may switch protocols,
// is copied as it comes (half). A request is sent as parsed (net/http's
// serialization), not byte for byte; a malformed one ends the
// connection.
func (c *Conn) forward(up, ctl net.Conn, reqs, resps *tap) int64 {
	src := bufConn{ctl, bufio.NewReaderSize(ctl, sniffLimit)}
	if !peekRequestLine(src.r) {
		return c.half(up, src, reqs, "controller", "stand-in")
	}
	defer reqs.Close()
	defer c.undivert(resps)
	var got *bufio.Reader
	if c.rec.Answered != nil {
		got = c.diverted()
	}
	w := &counter{w: io.MultiWriter(up, reqs)}
	for {
		req, err := http.ReadRequest(src.r)
		switch {
		case errors.Is(err, io.EOF):
			closeWrite(up)
			return w.n
		case err != nil:
			c.broken("controller", err, up, ctl)
			return w.n
		}
		if a, ok := c.fault(req); ok {
			c.give(a, req, src, w, ctl, up, reqs, resps)
			return w.n
		}
		if err := send(req, w); err != nil {
			c.broken("stand-in", err, ctl, up)
			return w.n
		}
		if got != nil && !c.respond(req, got, ctl, up, resps) {
			return w.n
		}
		if req.Method == http.MethodConnect || req.Header.Get("Upgrade") != "" {
			return w.n + c.tunnel(up, src, got, ctl, reqs, resps)
		}
	}
}

// fault asks the recorder's Fault hook, if any, about req.
func (c *Conn) fault(req *http.Request) (Answer, bool) {
	if c.rec.Fault == nil {
		return Answer{}, false
	}
	return c.rec.Fault(c.info, req.Method, req.RequestURI)
}

// give answers req with a, in the stand-in's place.
func (c *Conn) give(a Answer, req *http.Request, src io.Reader, w io.Writer, ctl, up net.Conn, reqs, resps *tap) {
	switch f := a.Fault; {
	case f == Stale && a.Reply != nil:
		_ = send(req, reqs)
		c.stale(a.Reply, nil, req, ctl, up, resps)
	case f == Truncated:
		c.truncate(req, w, ctl, up, resps)
	case f == Hang:
		_ = send(req, reqs)
		c.hang(src, ctl, up)
	default:
		c.answer(f, req, ctl, up, reqs, resps)
	}
}

// tunnel copies what follows a request that may switch protocols as it
// comes, both ways: the controller's from src with half, the stand-in's
// from got (nil: half does), and returns the bytes sent.
func (c *Conn) tunnel(up net.Conn, src net.Conn, got *bufio.Reader, ctl net.Conn, reqs, resps *tap) int64 {
	if got == nil {
		return c.half(up, src, reqs, "controller", "stand-in")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(io.MultiWriter(ctl, resps), got)
		closeWrite(ctl)
	}()
	n := c.half(up, src, reqs, "controller", "stand-in")
	<-done
	return n
}

// answer gives the controller fault f in place of req's response,
// records the request and the answer as the exchange, and ends the
// connection.
func (c *Conn) answer(f Fault, req *http.Request, ctl, up net.Conn, reqs, resps *tap) {
	_ = send(req, reqs)
	if f == Reset {
		c.fail(trace.ConnReset, "sieve reset it before a response (an application fault)")
		reset(ctl)
	} else {
		c.fail(trace.ConnClosed, "sieve answered 503 in the stand-in's place and closed it (an application fault)")
		resp := fmt.Sprintf("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
			len(unavailableBody), unavailableBody)
		_, _ = resps.Write([]byte(resp))
		_, _ = io.WriteString(ctl, resp)
	}
	ctl.Close()
	up.Close()
}

// send writes req as the controller sent it, but for the order and case
// of its header names, without the User-Agent net/http adds to a request
// that has none.
func send(req *http.Request, w io.Writer) error {
	if _, ok := req.Header["User-Agent"]; !ok {
		req.Header["User-Agent"] = nil // present and empty: Write adds none
	}
	return req.Write(w)
}

// peekRequestLine reports whether the first line r holds, without
// consuming it, is an HTTP/1.x request line.
func peekRequestLine(r *bufio.Reader) bool {
	for n := 1; n <= sniffLimit; n++ {
		b, err := r.Peek(n)
		if err != nil {
			return false
		}
		if n == 1 && (b[0] < 'A' || b[0] > 'Z') {
			return false
		}
		if b[n-1] == '\n' {
			return requestLine(string(b))
		}
	}
	return false
}

// counter counts the bytes written through it.
type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

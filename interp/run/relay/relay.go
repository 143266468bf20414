package relay

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// Recorder numbers a run's relayed connections and writes their entries.
// The zero value relays and records nothing.
type Recorder struct {
	// Sink receives the entries, from many goroutines; nil drops them.
	Sink func(trace.Entry)
	// Fault, if not nil, is asked about each HTTP request a controller
	// sends, with its connection, method and target, before it is
	// forwarded: when it returns an answer, the relay answers the
	// request so in the stand-in's place (an application fault of a
	// plan). With it, requests are forwarded one at a time as parsed (see
	// forward).
	Fault func(c trace.Conn, method, target string) (Answer, bool)
	// Answered, if not nil, has each HTTP request a controller sends
	// forwarded to the stand-in first and its response read whole before
	// the controller gets it: the hook is told the response (as a Reply,
	// all its body), and when it returns a reply, the controller gets
	// that reply in the stand-in's place and the connection is closed (a
	// stale answer of a plan that counts the changes of an answer).
	// Responses are then given with a Content-Length, their interim (1xx)
	// responses dropped. Fault, if set too, is asked first.
	Answered func(c trace.Conn, method, target string, got Reply) (*Reply, bool)
	// HangBound is how long a Hang answer holds a connection the
	// controller does not close. Defaults to ir.HangBound.
	HangBound time.Duration

	n atomic.Int64
}

// Conn is one relayed connection, from its arrival on.
type Conn struct {
	rec  *Recorder
	info trace.Conn

	mu  sync.Mutex
	end string         // how it ended (trace.Conn*), the first abnormal end
	why string         // which end, and the error
	cut *io.PipeWriter // where the stand-in's bytes go once diverted (diverted)
	out *io.PipeReader // the pipe's other end
	got *bufio.Reader  // what forward reads them from
}

// Open records that the controller's connection arrived for the stand-in
// that info names (its ID is assigned) and returns it, to be relayed or
// failed.
func (r *Recorder) Open(info trace.Conn) *Conn {
	info.ID = r.n.Add(1)
	c := &Conn{rec: r, info: info}
	r.write(trace.Entry{Time: time.Now(), Type: trace.Connection, What: "open", Conn: &info})
	return c
}

// ID is the connection's number in the run, from 1.
func (c *Conn) ID() int64 { return c.info.ID }

// Fail records that the stand-in could not be reached, and closes the
// controller's end ctl.
func (c *Conn) Fail(ctl net.Conn, err error) {
	ctl.Close()
	c.fail(trace.ConnError, fmt.Sprintf("reaching the stand-in: %v", err))
	c.close(0, 0)
}

// Relay copies between the controller's end ctl and the stand-in's end
// up until both are done, records the HTTP exchanges it sees and the
// close, and closes both ends.
func (c *Conn) Relay(ctl, up net.Conn) {
	reqs, resps := newTap(), newTap()
	parsed := make(chan struct{})
	go func() { c.parse(reqs, resps); close(parsed) }()
	var sent int64
	done := make(chan struct{})
	go func() {
		if c.rec.Fault != nil || c.rec.Answered != nil {
			sent = c.forward(up, ctl, reqs, resps)
		} else {
			sent = c.half(up, ctl, reqs, "controller", "stand-in")
		}
		close(done)
	}()
	received := c.half(ctl, up, resps, "stand-in", "controller")
	<-done
	ctl.Close()
	up.Close()
	<-parsed
	c.close(sent, received)
}

// half copies src to dst and tap until src ends, and returns the bytes
// copied. In order (EOF), it closes dst's writing half; on a reset of
// either end it resets the other; on any other failure it closes both.
func (c *Conn) half(dst, src net.Conn, tap *tap, from, to string) int64 {
	buf := make([]byte, 32<<10)
	var n int64
	for {
		k, rerr := src.Read(buf)
		if cut := c.cutting(to); cut != nil {
			return n + c.divert(cut, src, buf[:k], rerr) // its reader closes tap
		}
		if k > 0 {
			_, _ = tap.Write(buf[:k])
			w, werr := dst.Write(buf[:k])
			n += int64(w)
			if werr != nil {
				c.broken(to, werr, src, dst)
				return n
			}
		}
		switch {
		case rerr == nil:
			continue
		case errors.Is(rerr, io.EOF):
			closeWrite(dst)
		default:
			c.broken(from, rerr, dst, src)
		}
		tap.Close()
		return n
	}
}

// divert writes p, what the stand-in sent with it, and what it sends from
// src until it ends to cut, and returns the bytes written: forward reads
// them there (diverted), and gives the controller what it keeps of them.
func (c *Conn) divert(cut *io.PipeWriter, src io.Reader, p []byte, rerr error) int64 {
	var err error
	var n int64
	if len(p) > 0 {
		k, werr := cut.Write(p)
		n, err = int64(k), werr
	}
	if err == nil && rerr == nil {
		k, _ := io.Copy(cut, src)
		n += k
	}
	cut.CloseWithError(io.ErrUnexpectedEOF)
	return n
}

// broken records that end side failed with err, passes a reset on to the
// other end (a reset end is closed at once), and closes both.
func (c *Conn) broken(side string, err error, other, failed net.Conn) {
	switch {
	case errors.Is(err, net.ErrClosed):
		c.fail(trace.ConnClosed, "sieve closed it")
	case errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE):
		c.fail(trace.ConnReset, "the "+side+" reset it")
		reset(other)
	default:
		c.fail(trace.ConnError, fmt.Sprintf("the %s: %v", side, err))
	}
	other.Close()
	failed.Close()
}

// fail keeps the first abnormal end.
func (c *Conn) fail(end, why string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.end == "" {
		c.end, c.why = end, why
	}
}

// close records the close entry.
func (c *Conn) close(sent, received int64) {
	c.mu.Lock()
	info := c.info
	info.Sent, info.Received, info.End = sent, received, c.end
	msg := c.why
	c.mu.Unlock()
	if info.End == "" {
		info.End = trace.ConnEOF
	}
	c.rec.write(trace.Entry{Time: time.Now(), Type: trace.Connection, What: "close", Conn: &info, Message: msg})
}

func (r *Recorder) write(e trace.Entry) {
	if r.Sink != nil {
		r.Sink(e)
	}
}

// closeWrite closes c's writing half, or c when it has none.
func closeWrite(c net.Conn) {
	if w, ok := c.(interface{ CloseWrite() error }); ok {
		_ = w.CloseWrite()
		return
	}
	c.Close()
}

// reset makes c's close a reset (RST) where it is TCP.
func reset(c net.Conn) {
	if t, ok := c.(*net.TCPConn); ok {
		_ = t.SetLinger(0)
	}
}

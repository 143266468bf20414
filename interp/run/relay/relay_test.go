package relay

import (
	"bytes"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// recorded is a relay in front of a stand-in server, and what it wrote.
type recorded struct {
	addr    string // where the controller connects
	mu      sync.Mutex
	entries []trace.Entry
	closed  chan struct{} // a close entry was written
}

// relayTo listens on loopback and relays every connection to a server
// that serve runs for each connection it accepts.
func relayTo(t *testing.T, serve func(net.Conn)) *recorded {
	t.Helper()
	return relayWith(t, nil, serve)
}

// relayWith is relayTo with the recorder's Fault hook.
func relayWith(t *testing.T, fault func(trace.Conn, string, string) (Answer, bool), serve func(net.Conn)) *recorded {
	t.Helper()
	return relayBound(t, 0, fault, serve)
}

// relayBound is relayWith with a Recorder whose HangBound is bound.
func relayBound(t *testing.T, bound time.Duration, fault func(trace.Conn, string, string) (Answer, bool), serve func(net.Conn)) *recorded {
	t.Helper()
	return relayRec(t, &Recorder{Fault: fault, HangBound: bound}, serve)
}

// relayRec is relayTo with rec's hooks (its Sink is the recorded's).
func relayRec(t *testing.T, rec *Recorder, serve func(net.Conn)) *recorded {
	t.Helper()
	srv := listen(t)
	go func() {
		for {
			c, err := srv.Accept()
			if err != nil {
				return
			}
			go serve(c)
		}
	}()
	front := listen(t)
	r := &recorded{addr: front.Addr().String(), closed: make(chan struct{}, 16)}
	rec.Sink = func(e trace.Entry) {
		r.mu.Lock()
		r.entries = append(r.entries, e)
		r.mu.Unlock()
		if e.What == "close" {
			r.closed <- struct{}{}
		}
	}
	go func() {
		for {
			c, err := front.Accept()
			if err != nil {
				return
			}
			rc := rec.Open(trace.Conn{Standin: "db", Addr: c.LocalAddr().String()})
			up, err := net.Dial("tcp", srv.Addr().String())
			if err != nil {
				rc.Fail(c, err)
				continue
			}
			go rc.Relay(c, up)
		}
	}()
	return r
}

func listen(t *testing.T) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// wait waits for the close entry of a connection and returns every entry.
func (r *recorded) wait(t *testing.T) []trace.Entry {
	t.Helper()
	select {
	case <-r.closed:
	case <-time.After(10 * time.Second):
		t.Fatal("no close entry within 10s")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]trace.Entry(nil), r.entries...)
}

// exchanges are the HTTP entries, and the close entry last.
func split(t *testing.T, es []trace.Entry) (xs []trace.Entry, closed trace.Entry) {
	t.Helper()
	if len(es) < 2 || es[0].What != "open" || es[len(es)-1].What != "close" {
		t.Fatalf("entries do not go open ... close: %+v", es)
	}
	return es[1 : len(es)-1], es[len(es)-1]
}

// TestRelayBytes relays a megabyte of random bytes to an echo server and
// back unchanged, records no HTTP, and records the bytes each way and an
// orderly end.
func TestRelayBytes(t *testing.T) {
	r := relayTo(t, func(c net.Conn) { _, _ = io.Copy(c, c); c.Close() })
	data := make([]byte, 1<<20)
	_, _ = rand.Read(data)
	data[0] = 'G' // as an HTTP request would start
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = c.Write(data); _ = c.(*net.TCPConn).CloseWrite() }()
	got, err := io.ReadAll(c)
	c.Close()
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("echo through the relay: %d bytes (%v), want the %d sent back unchanged", len(got), err, len(data))
	}
	xs, closed := split(t, r.wait(t))
	if len(xs) != 0 {
		t.Errorf("HTTP recorded for bytes that are not: %+v", xs)
	}
	if k := closed.Conn; k.Sent != 1<<20 || k.Received != 1<<20 || k.End != trace.ConnEOF || k.ID != 1 || k.Standin != "db" {
		t.Errorf("close entry %+v, want 1 MiB each way, eof, connection 1 of db", k)
	}
}

// stock answers each request it reads with the next of answers, as they
// are, then closes.
func stock(answers ...string) func(net.Conn) {
	return func(c net.Conn) {
		defer c.Close()
		buf := make([]byte, 64<<10)
		var got string
		for _, a := range answers {
			for !strings.Contains(got, "\r\n\r\n") {
				n, err := c.Read(buf)
				if err != nil {
					return
				}
				got += string(buf[:n])
			}
			_, got, _ = strings.Cut(got, "\r\n\r\n")
			if _, err := io.WriteString(c, a); err != nil {
				return
			}
		}
	}
}

// TestRelayHTTPPipelined sends three requests at once on one connection,
// a body with the first: the controller gets the server's bytes
// unchanged, and each exchange is recorded in order, with its status,
// header names, body excerpts and lengths; the same when a Fault hook
// that never fires has the requests forwarded as parsed (no header added).
func TestRelayHTTPPipelined(t *testing.T) {
	never := func(trace.Conn, string, string) (Answer, bool) { return Answer{}, false }
	t.Run("relayed", func(t *testing.T) { testPipelined(t, nil) })
	t.Run("parsed", func(t *testing.T) { testPipelined(t, never) })
}

func testPipelined(t *testing.T, fault func(trace.Conn, string, string) (Answer, bool)) {
	long := strings.Repeat("é", trace.AnswerLimit) // 128 KiB: the excerpt cuts it
	answers := []string{
		"HTTP/1.1 201 Created\r\nContent-Length: 3\r\nContent-Type: text/plain\r\nX-Member: 2\r\n\r\nok\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + strconv.FormatInt(int64(len(long)), 16) + "\r\n" + long + "\r\n0\r\n\r\n",
		"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n",
	}
	r := relayWith(t, fault, stock(answers...))
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	reqs := "POST /members HTTP/1.1\r\nHost: db:5000\r\nContent-Length: 2\r\nAuthorization: Bearer secret\r\n\r\n{}" +
		"GET /members/2?full=1 HTTP/1.1\r\nHost: db:5000\r\n\r\n" + "DELETE /members/2 HTTP/1.1\r\nHost: db:5000\r\n\r\n"
	if _, err := io.WriteString(c, reqs); err != nil {
		t.Fatal(err)
	}
	want := strings.Join(answers, "")
	got := make([]byte, len(want))
	if _, err := io.ReadFull(c, got); err != nil || string(got) != want {
		t.Fatalf("through the relay: %q (%v), want %q", got, err, want)
	}
	c.Close()
	xs, _ := split(t, r.wait(t))
	if len(xs) != 3 {
		t.Fatalf("%d exchanges recorded, want 3: %+v", len(xs), xs)
	}
	var names []string
	for i, e := range xs {
		if e.Type != trace.HTTP || e.HTTP.N != i+1 || e.Conn.ID != 1 || e.Error != "" {
			t.Errorf("exchange %d: %+v %+v", i+1, e, e.HTTP)
		}
		names = append(names, e.HTTP.String())
	}
	if got := strings.Join(names, ", "); got != "POST /members -> 201, GET /members/2?full=1 -> 200, DELETE /members/2 -> 503" {
		t.Errorf("exchanges %s", got)
	}
	first, second := xs[0].HTTP, xs[1].HTTP
	if first.RequestBody != "{}" || first.RequestBytes != 2 || first.ResponseBody != "ok\n" || first.Host != "db:5000" ||
		strings.Join(first.RequestHeaders, ",") != "Authorization,Content-Length" || strings.Join(first.ResponseHeaders, ",") != "Content-Length,Content-Type,X-Member" ||
		len(first.ResponseValues) != 1 || first.ResponseValues["Content-Type"] != "text/plain" {
		t.Errorf("first exchange %+v, want the value of Content-Type and of no other header", first)
	}
	if second.ResponseBytes != int64(len(long)) || second.ResponseBody != long[:trace.AnswerLimit] {
		t.Errorf("second exchange's body: %d bytes, excerpt of %d, want %d and the first %d", second.ResponseBytes, len(second.ResponseBody), len(long), trace.AnswerLimit)
	}
	if strings.Contains(xs[0].HTTP.RequestBody+strings.Join(first.RequestHeaders, ""), "secret") {
		t.Error("a header's value is in the trace")
	}
}

// TestRelayHTTPKeepAlive makes three requests one after the other on one
// kept-alive connection: three exchanges of one connection, numbered.
func TestRelayHTTPKeepAlive(t *testing.T) {
	r := relayTo(t, stock("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nb",
		"HTTP/1.1 204 No Content\r\n\r\n"))
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nb", "HTTP/1.1 204 No Content\r\n\r\n"}
	for i, w := range want {
		if _, err := io.WriteString(c, "GET /"+string(rune('a'+i))+" HTTP/1.1\r\nHost: db\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(w))
		if _, err := io.ReadFull(c, got); err != nil || string(got) != w {
			t.Fatalf("answer %d: %q (%v), want %q", i+1, got, err, w)
		}
	}
	c.Close()
	xs, closed := split(t, r.wait(t))
	var got []string
	for _, e := range xs {
		got = append(got, e.HTTP.String())
	}
	if strings.Join(got, ", ") != "GET /a -> 200, GET /b -> 200, GET /c -> 204" || xs[2].HTTP.N != 3 {
		t.Errorf("exchanges %v", got)
	}
	if closed.Conn.End != trace.ConnEOF {
		t.Errorf("close entry %+v, want eof", closed.Conn)
	}
}

// TestRelayReset has the stand-in reset the connection after reading a
// request: the controller's read fails with a reset, the exchange is
// recorded without a response, and the close says the stand-in reset it.
func TestRelayReset(t *testing.T) {
	r := relayTo(t, func(c net.Conn) {
		_, _ = c.Read(make([]byte, 4096))
		_ = c.(*net.TCPConn).SetLinger(0)
		c.Close()
	})
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "GET /health HTTP/1.1\r\nHost: db\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Read(make([]byte, 10)); !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("the controller read %v, want a reset", err)
	}
	xs, closed := split(t, r.wait(t))
	if len(xs) != 1 || xs[0].HTTP.Status != 0 || xs[0].Error != "the connection ended before a response" {
		t.Errorf("exchanges %+v, want GET /health without a response", xs)
	}
	if closed.Conn.End != trace.ConnReset || closed.Message != "the stand-in reset it" {
		t.Errorf("close entry %+v %q, want a reset by the stand-in", closed.Conn, closed.Message)
	}
}

// TestRelayUnreachable records a stand-in that cannot be reached as a
// connection that ended in an error, and closes the controller's end.
func TestRelayUnreachable(t *testing.T) {
	var es []trace.Entry
	rec := &Recorder{Sink: func(e trace.Entry) { es = append(es, e) }}
	a, b := net.Pipe()
	rec.Open(trace.Conn{Standin: "db", Addr: "127.2.0.1:5000"}).Fail(a, errors.New("connection refused"))
	if _, err := b.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("the controller read %v, want EOF", err)
	}
	if len(es) != 2 || es[1].Conn.End != trace.ConnError || es[1].Message != "reaching the stand-in: connection refused" {
		t.Errorf("entries %+v", es)
	}
}

// TestRelayClosedBySieve closes the controller's end while the relay
// runs, as sieve does when a pod stops being served: the close entry
// says sieve closed it, and the stand-in's end is closed too.
func TestRelayClosedBySieve(t *testing.T) {
	srv, front := listen(t), listen(t)
	upEnd := make(chan error, 1)
	go func() {
		c, err := srv.Accept()
		if err == nil {
			_, err = c.Read(make([]byte, 1))
		}
		upEnd <- err
	}()
	// The controller's end stays open (and referenced: a collected
	// connection is closed by its finalizer, an eof the relay would see).
	client := make(chan net.Conn, 1)
	go func() {
		c, _ := net.Dial("tcp", front.Addr().String())
		client <- c
	}()
	ctl, err := front.Accept()
	if err != nil {
		t.Fatal(err)
	}
	if c := <-client; c != nil {
		defer c.Close()
	}
	up, err := net.Dial("tcp", srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	var last trace.Entry
	rc := (&Recorder{Sink: func(e trace.Entry) { last = e }}).Open(trace.Conn{Standin: "db"})
	done := make(chan struct{})
	go func() { rc.Relay(ctl, up); close(done) }()
	time.Sleep(50 * time.Millisecond)
	ctl.Close()
	<-done
	if last.Conn.End != trace.ConnClosed || last.Message != "sieve closed it" {
		t.Errorf("close entry %+v %q, want closed by sieve", last.Conn, last.Message)
	}
	if err := <-upEnd; err != io.EOF {
		t.Errorf("the stand-in read %v, want EOF", err)
	}
}

// TestRelayHTTPCutBody sends a request whose body ends early, which the
// server answers anyway: the exchange is recorded with its status and
// says that the request's body was cut.
func TestRelayHTTPCutBody(t *testing.T) {
	answer := "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
	r := relayTo(t, stock(answer))
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "PUT /members/1 HTTP/1.1\r\nHost: db\r\nContent-Length: 10\r\n\r\nabcde"); err != nil {
		t.Fatal(err)
	}
	_ = c.(*net.TCPConn).CloseWrite()
	if got, err := io.ReadAll(c); string(got) != answer {
		t.Fatalf("through the relay: %q (%v), want %q", got, err, answer)
	}
	xs, _ := split(t, r.wait(t))
	if len(xs) != 1 || xs[0].HTTP.Status != 400 || xs[0].HTTP.RequestBody != "abcde" || xs[0].Error != "the request's body: unexpected EOF" {
		t.Errorf("exchanges %+v, want PUT -> 400 with its body cut", xs)
	}
}

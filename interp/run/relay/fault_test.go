package relay

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// once is a Fault hook that answers f to the nth request of method and
// target, counted over every connection, and to no other.
func once(f Fault, n int, method, target string) func(trace.Conn, string, string) (Answer, bool) {
	return onceWith(Answer{Fault: f}, n, method, target)
}

// onceWith is once with a whole answer (a Stale one's reply).
func onceWith(a Answer, n int, method, target string) func(trace.Conn, string, string) (Answer, bool) {
	var mu sync.Mutex
	seen := 0
	return func(_ trace.Conn, m, tgt string) (Answer, bool) {
		mu.Lock()
		defer mu.Unlock()
		if m != method || tgt != target {
			return Answer{}, false
		}
		seen++
		return a, seen == n
	}
}

const okAnswer = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok\n"

// answered holds that a GET /members on a new connection to r gets the
// stand-in's 200 with body want: the fault was given once (nth names the
// request in the message).
func answered(t *testing.T, r *recorded, nth, want string) {
	t.Helper()
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if resp, body, err := get(t, c, bufio.NewReader(c), "/members"); err != nil || resp.StatusCode != 200 || body != want {
		t.Errorf("%s GET /members: %v %q %v, want the stand-in's 200 with %q", nth, resp, body, err, want)
	}
}

// get sends GET target on c and reads the response.
func get(t *testing.T, c net.Conn, br *bufio.Reader, target string) (*http.Response, string, error) {
	t.Helper()
	if _, err := io.WriteString(c, "GET "+target+" HTTP/1.1\r\nHost: db:5000\r\n\r\n"); err != nil {
		return nil, "", err
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return nil, "", err
	}
	body, err := io.ReadAll(resp.Body)
	return resp, string(body), err
}

// TestFaultUnavailable: the second GET /members is answered 503 with a
// short body by the relay, not forwarded, and the connection closed; the
// first, another request and the next connection's are the stand-in's.
func TestFaultUnavailable(t *testing.T) {
	r := relayWith(t, once(Unavailable, 2, "GET", "/members"), stock(okAnswer, okAnswer, okAnswer))
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	for _, target := range []string{"/members", "/health"} {
		if resp, body, err := get(t, c, br, target); err != nil || resp.StatusCode != 200 || body != "ok\n" {
			t.Fatalf("GET %s: %v %q %v, want the stand-in's 200", target, resp, body, err)
		}
	}
	resp, body, err := get(t, c, br, "/members")
	if err != nil || resp.StatusCode != 503 || body != unavailableBody || !resp.Close {
		t.Fatalf("second GET /members: %v %q %v, want 503 with a body and Connection: close", resp, body, err)
	}
	xs, closed := split(t, r.wait(t))
	var got []string
	for _, e := range xs {
		got = append(got, e.HTTP.String())
	}
	if strings.Join(got, ", ") != "GET /members -> 200, GET /health -> 200, GET /members -> 503" {
		t.Errorf("exchanges %q, want the 503 recorded as the third", got)
	}
	if closed.Conn.End != trace.ConnClosed || !strings.Contains(closed.Message, "application fault") {
		t.Errorf("close entry %+v %q, want closed by sieve for an application fault", closed.Conn, closed.Message)
	}
	answered(t, r, "third", "ok\n")
}

// TestFaultReset: the first GET /members gets a reset and no response;
// the next connection's is the stand-in's.
func TestFaultReset(t *testing.T) {
	r := relayWith(t, once(Reset, 1, "GET", "/members"), stock(okAnswer))
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if resp, _, err := get(t, c, bufio.NewReader(c), "/members"); err == nil {
		t.Fatalf("first GET /members: %v, want no response", resp.Status)
	}
	xs, closed := split(t, r.wait(t))
	if len(xs) != 1 || xs[0].HTTP.Status != 0 || xs[0].Error == "" {
		t.Errorf("exchanges %+v, want the request recorded without a response", xs)
	}
	if closed.Conn.End != trace.ConnReset || !strings.Contains(closed.Message, "application fault") {
		t.Errorf("close entry %+v %q, want reset by sieve for an application fault", closed.Conn, closed.Message)
	}
	answered(t, r, "second", "ok\n")
}

// TestFaultHookUpgrade: with a Fault hook, what follows a request that
// switches protocols is relayed as it comes, and the hook is not asked
// about it.
func TestFaultHookUpgrade(t *testing.T) {
	asked := 0
	hook := func(trace.Conn, string, string) (Answer, bool) { asked++; return Answer{}, false }
	r := relayWith(t, hook, echoUpgrade)
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	raw := "GET /x HTTP/1.1\r\nHost: db\r\n\r\n" // not HTTP from here on, but shaped like it
	if _, err := io.WriteString(c, "GET /echo HTTP/1.1\r\nHost: db\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n"+raw); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: %v %v, want 101", resp, err)
	}
	got := make([]byte, len(raw))
	if _, err := io.ReadFull(br, got); err != nil || string(got) != raw {
		t.Fatalf("after the upgrade: %q %v, want %q echoed unchanged", got, err, raw)
	}
	c.Close()
	r.wait(t)
	if asked != 1 {
		t.Errorf("hook asked %d times, want once (the upgrade request only)", asked)
	}
}

// TestFaultHangControllerCloses: the first GET /members is not forwarded
// and gets nothing until the controller closes the connection; the close
// entry says so and how long it was held; the next connection's
// request is the stand-in's.
func TestFaultHangControllerCloses(t *testing.T) {
	r := relayWith(t, once(Hang, 1, "GET", "/members"), stock(okAnswer))
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if resp, _, err := get(t, c, bufio.NewReader(c), "/members"); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("first GET /members: %v %v, want no answer before the controller's deadline", resp, err)
	}
	c.Close()
	xs, closed := split(t, r.wait(t))
	if len(xs) != 1 || xs[0].HTTP.Status != 0 {
		t.Errorf("exchanges %+v, want the request recorded without a response", xs)
	}
	if closed.Conn.End != trace.ConnClosed || closed.Conn.Sent != 0 || !strings.Contains(closed.Message, "until the controller closed it (an application fault: hang)") {
		t.Errorf("close entry %+v %q, want held until the controller closed it, nothing forwarded", closed.Conn, closed.Message)
	}
	answered(t, r, "second", "ok\n")
}

// TestFaultHangBound: a controller that never gives up is held for the
// bound, then reset; the close entry names the bound.
func TestFaultHangBound(t *testing.T) {
	r := relayBound(t, 200*time.Millisecond, once(Hang, 1, "GET", "/members"), stock(okAnswer))
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	if resp, _, err := get(t, c, bufio.NewReader(c), "/members"); err == nil {
		t.Fatalf("GET /members: %v, want no response", resp.Status)
	}
	if d := time.Since(start); d < 200*time.Millisecond {
		t.Errorf("the connection ended after %s, before the bound", d)
	}
	_, closed := split(t, r.wait(t))
	if closed.Conn.End != trace.ConnReset || !strings.Contains(closed.Message, "for 200ms, the bound, and reset it") {
		t.Errorf("close entry %+v %q, want reset at the bound", closed.Conn, closed.Message)
	}
}

// TestFaultTruncated: the second GET /members is forwarded, and the
// controller gets the stand-in's status and headers, a Content-Length of
// the whole body and half of it, then the close; the first and the next
// connection's are whole.
func TestFaultTruncated(t *testing.T) {
	const long = "HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nmembers: 3\n"
	r := relayWith(t, once(Truncated, 2, "GET", "/members"), stock(long, long, long))
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	if resp, body, err := get(t, c, br, "/members"); err != nil || resp.StatusCode != 200 || body != "members: 3\n" {
		t.Fatalf("first GET /members: %v %q %v, want the stand-in's whole answer", resp, body, err)
	}
	resp, body, err := get(t, c, br, "/members")
	if resp == nil || resp.StatusCode != 200 || resp.ContentLength != 11 || body != "membe" || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("second GET /members: %v %q %v, want 200, Content-Length 11, 5 bytes and an unexpected EOF", resp, body, err)
	}
	xs, closed := split(t, r.wait(t))
	if len(xs) != 2 || xs[1].HTTP.Status != 200 || !strings.Contains(xs[1].Error, "unexpected EOF") {
		t.Errorf("exchanges %+v, want the second recorded as 200 with its body cut", xs)
	}
	if closed.Conn.End != trace.ConnClosed || !strings.Contains(closed.Message, "with 5 of its 11 body bytes") {
		t.Errorf("close entry %+v %q, want closed by sieve after half the body", closed.Conn, closed.Message)
	}
	answered(t, r, "third", "members: 3\n")
}

// TestFaultTruncatedNoBody: a response without a body (204) is cut in
// its headers, and the close entry says so.
func TestFaultTruncatedNoBody(t *testing.T) {
	r := relayWith(t, once(Truncated, 1, "DELETE", "/members/a"), stock("HTTP/1.1 204 No Content\r\nDate: Sun, 06 Dec 2026 23:50:35 GMT\r\n\r\n"))
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "DELETE /members/a HTTP/1.1\r\nHost: db:5000\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
		t.Fatalf("DELETE /members/a: %v, want no whole response", resp.Status)
	}
	_, closed := split(t, r.wait(t))
	if closed.Conn.End != trace.ConnClosed || !strings.Contains(closed.Message, "which has no body, cut in its headers") {
		t.Errorf("close entry %+v %q, want the headers cut", closed.Conn, closed.Message)
	}
}

// TestFaultStale: the second GET /members is not forwarded: the
// controller gets the earlier reply the plan carries (its status, its
// headers and its whole body) and the connection's close; the exchange
// records that reply; the next connection's request is the stand-in's.
func TestFaultStale(t *testing.T) {
	const now = "HTTP/1.1 200 OK\r\nContent-Length: 21\r\n\r\n{\"members\":[\"a\",\"b\"]}"
	reply := &Reply{Status: 200, Header: map[string]string{"Content-Type": "application/json", "Etag": `"1"`}, Body: `{"members":["a"]}`}
	r := relayWith(t, onceWith(Answer{Fault: Stale, Reply: reply}, 2, "GET", "/members"), stock(now, now))
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	if _, body, err := get(t, c, br, "/members"); err != nil || body != `{"members":["a","b"]}` {
		t.Fatalf("first GET /members: %q %v, want the stand-in's answer", body, err)
	}
	resp, body, err := get(t, c, br, "/members")
	if err != nil || resp.StatusCode != 200 || body != reply.Body || resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("Etag") != `"1"` || !resp.Close {
		t.Fatalf("second GET /members: %v %q %v, want the earlier reply with its headers and Connection: close", resp, body, err)
	}
	xs, closed := split(t, r.wait(t))
	if len(xs) != 2 || xs[1].HTTP.Status != 200 || xs[1].HTTP.ResponseBody != reply.Body || xs[1].HTTP.ResponseValues["Etag"] != `"1"` {
		t.Errorf("exchanges %+v, want the second recorded with the earlier reply", xs)
	}
	if closed.Conn.End != trace.ConnClosed || !strings.Contains(closed.Message, "an earlier occurrence of the request") {
		t.Errorf("close entry %+v %q, want closed by sieve after the stale answer", closed.Conn, closed.Message)
	}
	answered(t, r, "third", `{"members":["a","b"]}`)
}

// TestAnsweredReplaces: with an Answered hook, each request is forwarded
// and its response read whole before the controller gets it. The hook is
// told each response (a chunked one with all its body), and the
// controller gets it with a Content-Length; the third, whose answer the
// hook replaces, gets the hook's reply and the connection's close. The
// stand-in saw all three requests, the exchange records the reply, and
// the close entry says which answer was dropped.
func TestAnsweredReplaces(t *testing.T) {
	const chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nmembe\r\n6\r\nrs: 3\n\r\n0\r\n\r\n"
	const four = "HTTP/1.1 200 OK\r\nContent-Length: 11\r\nEtag: \"4\"\r\n\r\nmembers: 4\n"
	reply := &Reply{Status: 200, Header: map[string]string{"Etag": `"3"`}, Body: "members: 3\n"}
	var mu sync.Mutex
	var told []Reply
	hook := func(_ trace.Conn, method, target string, got Reply) (*Reply, bool) {
		mu.Lock()
		defer mu.Unlock()
		told = append(told, got)
		return reply, len(told) == 3
	}
	asked := make(chan string, 4)
	r := relayRec(t, &Recorder{Answered: hook}, func(c net.Conn) {
		defer c.Close()
		br := bufio.NewReader(c)
		for _, a := range []string{chunked, chunked, four} {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			asked <- req.RequestURI
			_, _ = io.WriteString(c, a)
		}
	})
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	for i := 1; i <= 2; i++ {
		if resp, body, err := get(t, c, br, "/members"); err != nil || body != "members: 3\n" || resp.ContentLength != 11 {
			t.Fatalf("GET /members %d: %v %q %v, want the stand-in's answer with a Content-Length", i, resp, body, err)
		}
	}
	resp, body, err := get(t, c, br, "/members")
	if err != nil || body != reply.Body || resp.Header.Get("Etag") != `"3"` || !resp.Close {
		t.Fatalf("third GET /members: %v %q %v, want the hook's reply and Connection: close", resp, body, err)
	}
	xs, closed := split(t, r.wait(t))
	if len(asked) != 3 {
		t.Errorf("the stand-in was asked %d requests, want 3 (each forwarded first)", len(asked))
	}
	if len(told) != 3 || told[0].Body != "members: 3\n" || told[2].Body != "members: 4\n" || told[2].Header["Etag"] != `"4"` {
		t.Errorf("hook told %+v, want the stand-in's three answers, whole", told)
	}
	if len(xs) != 3 || xs[2].HTTP.ResponseBody != reply.Body || xs[0].HTTP.ResponseBody != "members: 3\n" {
		t.Errorf("exchanges %+v, want three, the third with the hook's reply", xs)
	}
	if closed.Conn.End != trace.ConnClosed || !strings.Contains(closed.Message, "dropped the stand-in's answer (200 with 11 body bytes)") {
		t.Errorf("close entry %+v %q, want closed by sieve, naming the answer dropped", closed.Conn, closed.Message)
	}
}

// TestAnsweredUpgrade: with an Answered hook, what follows a request
// that switches protocols is relayed as it comes, both ways.
func TestAnsweredUpgrade(t *testing.T) {
	hook := func(trace.Conn, string, string, Reply) (*Reply, bool) { return nil, false }
	r := relayRec(t, &Recorder{Answered: hook}, echoUpgrade)
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "GET /echo HTTP/1.1\r\nHost: db\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\nraw bytes"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: %v %v, want 101", resp, err)
	}
	got := make([]byte, len("raw bytes"))
	if _, err := io.ReadFull(br, got); err != nil || string(got) != "raw bytes" {
		t.Fatalf("after the upgrade: %q %v, want the bytes echoed", got, err)
	}
	c.Close()
	r.wait(t)
}

// TestAnsweredHead: with an Answered hook, the response to a HEAD keeps
// its Content-Length (of the body it does not send), and the next
// request on the connection gets its own response.
func TestAnsweredHead(t *testing.T) {
	hook := func(trace.Conn, string, string, Reply) (*Reply, bool) { return nil, false }
	r := relayRec(t, &Recorder{Answered: hook}, stock("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", okAnswer))
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "HEAD /members HTTP/1.1\r\nHost: db\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	if resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodHead}); err != nil || resp.ContentLength != 100 {
		t.Fatalf("HEAD /members: %v %v, want the stand-in's Content-Length 100", resp, err)
	}
	if _, body, err := get(t, c, br, "/members"); err != nil || body != "ok\n" {
		t.Fatalf("GET /members after the HEAD: %q %v, want the stand-in's answer", body, err)
	}
}

// echoUpgrade is a stand-in that switches protocols on the first request
// and then echoes what it gets.
func echoUpgrade(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	if _, err := http.ReadRequest(br); err != nil {
		return
	}
	_, _ = io.WriteString(c, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n")
	_, _ = io.Copy(c, br)
}

package relay

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// once is a Fault hook that answers f to the nth request of method and
// target, counted over every connection, and to no other.
func once(f Fault, n int, method, target string) func(trace.Conn, string, string) (Fault, bool) {
	var mu sync.Mutex
	seen := 0
	return func(_ trace.Conn, m, tgt string) (Fault, bool) {
		mu.Lock()
		defer mu.Unlock()
		if m != method || tgt != target {
			return "", false
		}
		seen++
		return f, seen == n
	}
}

const okAnswer = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok\n"

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
	c2, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if resp, body, err := get(t, c2, bufio.NewReader(c2), "/members"); err != nil || resp.StatusCode != 200 || body != "ok\n" {
		t.Errorf("third GET /members: %v %q %v, want the stand-in's 200", resp, body, err)
	}
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
	c2, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if resp, body, err := get(t, c2, bufio.NewReader(c2), "/members"); err != nil || resp.StatusCode != 200 || body != "ok\n" {
		t.Errorf("second GET /members: %v %q %v, want the stand-in's 200", resp, body, err)
	}
}

// TestFaultHookUpgrade: with a Fault hook, what follows a request that
// switches protocols is relayed as it comes, and the hook is not asked
// about it.
func TestFaultHookUpgrade(t *testing.T) {
	asked := 0
	hook := func(trace.Conn, string, string) (Fault, bool) { asked++; return "", false }
	r := relayWith(t, hook, func(c net.Conn) {
		defer c.Close()
		br := bufio.NewReader(c)
		if _, err := http.ReadRequest(br); err != nil {
			return
		}
		_, _ = io.WriteString(c, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n")
		_, _ = io.Copy(c, br)
	})
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

package relay

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// sniffLimit bounds the first line looked at to tell HTTP/1.x.
const sniffLimit = 8 << 10

// request is a parsed request waiting for its response.
type request struct {
	at   time.Time
	x    trace.Exchange
	done chan struct{} // closed once its body was read
	err  error         // why its body is cut, once done
}

// parse records the HTTP exchanges of the two copies, if the controller
// speaks HTTP/1.x, until both end; then it stops both taps.
func (c *Conn) parse(reqs, resps *tap) {
	defer reqs.Stop()
	defer resps.Stop()
	head, ok := sniff(reqs)
	if !ok {
		return
	}
	queue := make(chan *request, 64)
	go c.requests(bufio.NewReader(io.MultiReader(bytes.NewReader(head), reqs)), reqs, queue)
	err := c.responses(bufio.NewReader(resps), queue)
	for q := range queue { // requests after the last response read
		<-q.done
		c.exchange(q, err)
	}
}

// sniff reads the first line the controller sends and reports whether it
// is an HTTP/1.x request line; it returns what it read.
func sniff(r io.Reader) ([]byte, bool) {
	var head []byte
	b := make([]byte, 1)
	for len(head) < sniffLimit {
		if _, err := io.ReadFull(r, b); err != nil {
			return head, false
		}
		head = append(head, b[0])
		if len(head) == 1 && (b[0] < 'A' || b[0] > 'Z') {
			return head, false
		}
		if b[0] == '\n' {
			return head, requestLine(string(head))
		}
	}
	return head, false
}

// requestLine reports whether line is METHOD TARGET HTTP/1.x.
func requestLine(line string) bool {
	f := strings.Fields(line)
	return len(f) == 3 && (f[2] == "HTTP/1.1" || f[2] == "HTTP/1.0") &&
		strings.Trim(f[0], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
}

// requests parses the controller's requests from r and queues each once
// its head is read, until r ends or is not HTTP; a request that may turn
// the connection into something else (CONNECT, Upgrade) is the last.
func (c *Conn) requests(r *bufio.Reader, t *tap, queue chan<- *request) {
	defer close(queue)
	defer t.Stop()
	for n := 1; ; n++ {
		hr, err := http.ReadRequest(r)
		if err != nil {
			return
		}
		q := &request{at: time.Now(), done: make(chan struct{}), x: trace.Exchange{N: n, Method: hr.Method,
			Target: hr.RequestURI, Host: hr.Host, RequestHeaders: names(hr.Header)}}
		queue <- q
		q.x.RequestBody, q.x.RequestBytes, q.err = excerpt(hr.Body, trace.BodyExcerpt)
		close(q.done)
		if q.err != nil || hr.Method == http.MethodConnect || hr.Header.Get("Upgrade") != "" {
			return
		}
	}
}

// responses reads the response to each queued request from r and records
// the exchange. It stops at the first response it cannot read (the
// exchange is recorded with the error, which it returns), and after a
// switch of protocol.
func (c *Conn) responses(r *bufio.Reader, queue <-chan *request) error {
	for q := range queue {
		resp, err := response(r, q.x.Method)
		if err == nil {
			q.x.Status, q.x.ResponseHeaders, q.x.ResponseValues = resp.StatusCode, names(resp.Header), values(resp.Header)
			q.x.ResponseBody, q.x.ResponseBytes, err = excerpt(resp.Body, trace.AnswerLimit)
		}
		<-q.done
		c.exchange(q, err)
		if err != nil {
			return err
		}
		if resp.StatusCode == http.StatusSwitchingProtocols || q.x.Method == http.MethodConnect && resp.StatusCode/100 == 2 {
			return errTunnel
		}
	}
	return nil
}

// errTunnel is why a request after a switch of protocol got no response.
var errTunnel = errors.New("the connection switched protocols")

// response reads the final response to a request of method, past any
// interim (1xx) one but 101.
func response(r *bufio.Reader, method string) (*http.Response, error) {
	for {
		resp, err := http.ReadResponse(r, &http.Request{Method: method})
		if err != nil || resp.StatusCode >= 200 || resp.StatusCode == http.StatusSwitchingProtocols {
			return resp, err
		}
	}
}

// exchange writes q's entry; err, if not nil, is why its response is
// not whole.
func (c *Conn) exchange(q *request, err error) {
	info := c.info
	done := time.Now()
	e := trace.Entry{Time: q.at, Type: trace.HTTP, Conn: &info, HTTP: &q.x, Done: &done}
	switch {
	case err == nil && q.err != nil:
		e.Error = fmt.Sprintf("the request's body: %v", q.err)
	case err == nil:
	case q.x.Status == 0 && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)):
		e.Error = "the connection ended before a response"
	case q.x.Status == 0:
		e.Error = fmt.Sprintf("no response: %v", err)
	default:
		e.Error = fmt.Sprintf("the response's body: %v", err)
	}
	c.rec.write(e)
}

// excerpt reads a body to its end and returns its first max bytes,
// invalid UTF-8 as U+FFFD, and its length.
func excerpt(body io.ReadCloser, max int) (string, int64, error) {
	defer body.Close()
	h := &trace.Head{Max: max}
	_, err := io.Copy(h, body)
	return h.Text(), h.N, err
}

// values are the values of h's trace.AnswerHeaders, nil when it has none.
func values(h http.Header) map[string]string {
	var out map[string]string
	for _, k := range trace.AnswerHeaders {
		if v := h.Values(k); len(v) > 0 {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = strings.Join(v, ", ")
		}
	}
	return out
}

// names are h's names, sorted.
func names(h http.Header) []string {
	out := make([]string, 0, len(h))
	for k := range h {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// tableMapper maps resources by a fixed table.
type tableMapper map[string]string

func (m tableMapper) KindFor(r schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	k, ok := m[r.Resource]
	if !ok {
		return schema.GroupVersionKind{}, fmt.Errorf("no kind for %v", r)
	}
	return r.GroupVersion().WithKind(k), nil
}

var testKinds = tableMapper{
	"pods": "Pod", "namespaces": "Namespace", "statefulsets": "StatefulSet",
	"datastores": "DataStore", "jobs": "Job", "configmaps": "ConfigMap",
}

// memSink collects entries.
type memSink struct {
	mu sync.Mutex
	es []trace.Entry
}

func (s *memSink) Add(e trace.Entry) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.es = append(s.es, e)
	return int64(len(s.es)), nil
}

func (s *memSink) entries() []trace.Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]trace.Entry(nil), s.es...)
}

// await returns the entries of a type once there are n of them: the proxy
// records an answer or a delivery just after the controller has it.
func (s *memSink) await(t *testing.T, typ trace.Type, n int) []trace.Entry {
	t.Helper()
	var got []trace.Entry
	waitFor(t, fmt.Sprintf("%d %s entries", n, typ), func() bool {
		got = got[:0]
		for _, e := range s.entries() {
			if e.Type == typ {
				got = append(got, e)
			}
		}
		return len(got) >= n
	})
	return got
}

// waitFor polls cond until it holds, for a few seconds at most.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// seen is a request as the fake upstream received it.
type seen struct {
	Method, Path, Query, Accept, Auth, ContentType string
	Body                                           []byte
}

// fakeAPI is an httptest upstream whose answers the test supplies.
type fakeAPI struct {
	srv    *httptest.Server
	mu     sync.Mutex
	reqs   []seen
	handle func(w http.ResponseWriter, r *http.Request)
}

func newFakeAPI(t *testing.T, handle func(w http.ResponseWriter, r *http.Request)) *fakeAPI {
	f := &fakeAPI{handle: handle}
	f.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.reqs = append(f.reqs, seen{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Accept"), r.Header.Get("Authorization"), r.Header.Get("Content-Type"), b})
		f.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(b))
		f.handle(w, r)
	}))
	f.srv.EnableHTTP2 = true
	f.srv.StartTLS()
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) seen() []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seen(nil), f.reqs...)
}

func (f *fakeAPI) config() *rest.Config {
	return &rest.Config{Host: f.srv.URL, BearerToken: "upstream-admin", TLSClientConfig: rest.TLSClientConfig{Insecure: true}}
}

// startProxy starts a proxy in front of f with a table mapper. It offers
// HTTP/2, so that the unit tests cover it; the end-to-end tests cover the
// default, HTTP/1.1.
func startProxy(t *testing.T, f *fakeAPI, h Hooks, sink Sink) *Proxy {
	t.Helper()
	p, err := Start(Options{Upstream: f.config(), Mapper: testKinds, Hooks: h, Sink: sink, HTTP2: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// client is an HTTP client that trusts the proxy and sends its token.
func client(t *testing.T, p *Proxy) *http.Client {
	t.Helper()
	rt, err := rest.TransportFor(p.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Transport: rt}
}

func do(t *testing.T, c *http.Client, p *Proxy, method, path, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, p.URL()+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func pod(name, rv string) string {
	return fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":%q,"namespace":"default","resourceVersion":%q}}`, name, rv)
}

// TestRoutes parses each request line of testdata/routes.txtar and
// compares with the golden answer (SIEVE_UPDATE=1 refreshes it).
func TestRoutes(t *testing.T) {
	path := filepath.Join("testdata", "routes.txtar")
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {})
	p := startProxy(t, f, Hooks{}, nil)
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(golden.Files(ar)["in"])), "\n") {
		method, target, _ := strings.Cut(line, " ")
		hr := httptest.NewRequest(method, target, strings.NewReader(`{"metadata":{"name":"fromBody"}}`))
		r, err := p.parse(hr)
		if err != nil {
			t.Fatal(err)
		}
		p.decode(r) // as a hook or the trace sees it
		fmt.Fprintf(&out, "%s -> %s %s sub=%q res=%v\n", line, r.Verb, r.Key, r.Subresource, r.IsResource())
	}
	golden.Check(t, path, ar, map[string][]byte{"out": []byte(out.String())})
}

func TestUnauthorized(t *testing.T) {
	f := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {})
	p := startProxy(t, f, Hooks{}, nil)
	cfg := p.RESTConfig()
	cfg.BearerToken = "wrong"
	rt, _ := rest.TransportFor(cfg)
	resp, err := (&http.Client{Transport: rt}).Get(p.URL() + "/api/v1/pods")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || len(f.seen()) != 0 {
		t.Fatalf("wrong token: got %d and %d upstream requests, want 401 and none", resp.StatusCode, len(f.seen()))
	}
}

// TestForward checks what the upstream receives and what the sink records.
func TestForward(t *testing.T) {
	f := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprint(w, pod("a", "11"))
	})
	sink := &memSink{}
	p := startProxy(t, f, Hooks{}, sink)
	req, _ := http.NewRequest("POST", p.URL()+"/api/v1/namespaces/default/pods?fieldManager=x", strings.NewReader(`{"metadata":{"name":"a"}}`))
	req.Header.Set("Accept", "application/vnd.kubernetes.protobuf, application/json")
	req.Header.Set("Content-Type", "application/json")
	resp, err := client(t, p).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	s := f.seen()[0]
	if s.Accept != "application/vnd.kubernetes.protobuf, application/json" || s.Auth != "Bearer upstream-admin" || s.Query != "fieldManager=x" || string(s.Body) != `{"metadata":{"name":"a"}}` {
		t.Errorf("upstream saw %+v", s)
	}
	if resp.StatusCode != 201 || string(body) != pod("a", "11") || resp.ProtoMajor != 2 {
		t.Errorf("controller got %d %s over HTTP/%d", resp.StatusCode, body, resp.ProtoMajor)
	}
	es := sink.await(t, trace.Request, 1)
	if len(es) != 1 {
		t.Fatalf("sink has %d entries, want 1", len(es))
	}
	e := es[0]
	if e.Type != trace.Request || e.Verb != "create" || e.Key.String() != "pod/default/a" || e.Code != 201 ||
		string(e.Body) != `{"metadata":{"name":"a"}}` || string(e.Response) != pod("a", "11") || e.Done == nil || e.Done.Before(e.Time) {
		t.Errorf("recorded %+v", e)
	}
}

// TestAnyMedia checks that the controller's request is forwarded with its
// Accept header, and that a protobuf answer comes back to it as it is. The
// After hook and the record see the answer in JSON (a list's answer is
// not recorded).
func TestAnyMedia(t *testing.T) {
	info, _ := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), mediaProtobuf)
	pb, err := runtime.Encode(scheme.Codecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion),
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "default"}})
	if err != nil {
		t.Fatal(err)
	}
	f := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", mediaProtobuf)
		_, _ = w.Write(pb)
	})
	var mu sync.Mutex
	hooked := map[string]string{}
	after := func(_ context.Context, r *Request, resp *Response) error {
		mu.Lock()
		defer mu.Unlock()
		hooked[r.Verb] = string(resp.Body)
		return nil
	}
	sink := &memSink{}
	p := startProxy(t, f, Hooks{After: after}, sink)
	const accept = "application/vnd.kubernetes.protobuf, */*"
	for _, path := range []string{"/api/v1/namespaces/default/pods", "/api/v1/namespaces/default/pods/a"} {
		req, _ := http.NewRequest("GET", p.URL()+path, nil)
		req.Header.Set("Accept", accept)
		resp, err := client(t, p).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !bytes.Equal(body, pb) || resp.Header.Get("Content-Type") != mediaProtobuf {
			t.Errorf("GET %s: controller got %q as %s, want the protobuf answer", path, body, resp.Header.Get("Content-Type"))
		}
	}
	for _, s := range f.seen() {
		if s.Accept != accept {
			t.Errorf("upstream saw Accept %q, want the controller's %q", s.Accept, accept)
		}
	}
	const want = `"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"default"`
	mu.Lock()
	if got := hooked["get"]; !strings.Contains(got, want) {
		t.Errorf("the After hook saw the get's answer as %q, want JSON with %s", got, want)
	}
	mu.Unlock()
	for _, e := range sink.await(t, trace.Request, 2) {
		switch {
		case e.Verb == "get" && !strings.Contains(string(e.Response), want):
			t.Errorf("get: recorded answer %q, want JSON with %s", e.Response, want)
		case e.Verb == "list" && len(e.Response) != 0:
			t.Errorf("list: recorded answer %q, want none", e.Response)
		}
	}
}

// TestHookOrder checks Before → upstream → After → controller, and that an
// After hook returning ErrAbort leaves the write done but unanswered.
func TestHookOrder(t *testing.T) {
	var mu sync.Mutex
	var order []string
	note := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
	f := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		note("upstream " + r.Method)
		fmt.Fprint(w, pod("a", "1"))
	})
	h := Hooks{
		Before: func(_ context.Context, r *Request) error { note("before " + r.Verb); return nil },
		After: func(_ context.Context, r *Request, resp *Response) error {
			note(fmt.Sprintf("after %s %d", r.Verb, resp.Code))
			if r.Verb == "update" {
				return ErrAbort
			}
			return nil
		},
	}
	p := startProxy(t, f, h, nil)
	c := client(t, p)
	code, _ := do(t, c, p, "GET", "/api/v1/namespaces/default/pods/a", "")
	note(fmt.Sprintf("controller %d", code))
	req, _ := http.NewRequest("PUT", p.URL()+"/api/v1/namespaces/default/pods/a", strings.NewReader(pod("a", "1")))
	if resp, err := c.Do(req); err == nil {
		resp.Body.Close()
		t.Errorf("aborted update: got HTTP %d, want a broken connection", resp.StatusCode)
	}
	want := "before get,upstream GET,after get 200,controller 200,before update,upstream PUT,after update 200"
	if got := strings.Join(order, ","); got != want {
		t.Errorf("order:\n got %s\nwant %s", got, want)
	}
}

// watchAPI is a fake upstream that serves lists from a table of revisions
// and watches from a channel.
type watchAPI struct {
	events chan string
	lists  map[string]string // resourceVersion → list body
}

func (a *watchAPI) handle(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	q := r.URL.Query()
	if q.Get("watch") != "" {
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		for {
			select {
			case ev := <-a.events:
				fmt.Fprintln(w, ev)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	}
	fmt.Fprint(w, a.lists[q.Get("resourceVersion")])
}

func watchEvent(typ, name, rv string) string {
	return fmt.Sprintf(`{"type":%q,"object":%s}`, typ, pod(name, rv))
}

// readEvents reads n events from a watch body.
func readEvents(t *testing.T, body io.Reader, n int) []string {
	t.Helper()
	dec := json.NewDecoder(body)
	var out []string
	for len(out) < n {
		var we struct {
			Type   string
			Object objectMeta
		}
		if err := dec.Decode(&we); err != nil {
			t.Fatalf("after %v: %v", out, err)
		}
		out = append(out, we.Type+" "+we.Object.Metadata.Name+"@"+we.Object.Metadata.ResourceVersion)
	}
	return out
}

func openWatch(t *testing.T, p *Proxy, query string) io.ReadCloser {
	t.Helper()
	resp, err := client(t, p).Get(p.URL() + "/api/v1/namespaces/default/pods?watch=true" + query)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("watch: %v %v", resp, err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp.Body
}

// TestHoldAndCoalesce hides MODIFIED a@2: it is held until a@4 arrives,
// then discarded; the controller sees a@1, b@3, a@4.
func TestHoldAndCoalesce(t *testing.T) {
	a := &watchAPI{events: make(chan string, 10)}
	f := newFakeAPI(t, a.handle)
	sink := &memSink{}
	held := make(chan struct{}, 1)
	h := Hooks{Filter: func(s *Stream, ev *Event) Verdict {
		switch {
		case ev.Key.Name == "a" && ev.ResourceVersion == "2":
			held <- struct{}{}
			return Hold
		case ev.Key.Name == "a" && ev.ResourceVersion == "4":
			return Supersede
		}
		return Deliver
	}}
	p := startProxy(t, f, h, sink)
	body := openWatch(t, p, "")
	a.events <- watchEvent("ADDED", "a", "1")
	a.events <- watchEvent("MODIFIED", "a", "2")
	<-held
	waitFor(t, "the stream to store the held event", func() bool { return p.Activity().Held == 1 })
	a.events <- watchEvent("MODIFIED", "b", "3")
	a.events <- watchEvent("MODIFIED", "a", "4")
	got := strings.Join(readEvents(t, body, 3), ", ")
	if want := "ADDED a@1, MODIFIED b@3, MODIFIED a@4"; got != want {
		t.Errorf("delivered %s, want %s", got, want)
	}
	var rec []string
	for _, e := range sink.await(t, trace.Delivery, 3) {
		rec = append(rec, e.Event+" "+e.Key.Name+"@"+e.ResourceVersion)
	}
	if strings.Join(rec, ", ") != got {
		t.Errorf("recorded %v, delivered %s", rec, got)
	}
	if p.Activity().Held != 0 {
		t.Errorf("held events after coalescing: %d", p.Activity().Held)
	}
}

// TestReleaseCoalesces holds every event of four pods and releases them.
// Each pod's newest state comes, in the order of their last events, typed
// by what the watcher had. a, which it had, was deleted and created again;
// b was created meanwhile; c was created and deleted meanwhile and comes
// as nothing; d was deleted.
func TestReleaseCoalesces(t *testing.T) {
	a := &watchAPI{events: make(chan string, 20)}
	f := newFakeAPI(t, a.handle)
	h := Hooks{Filter: func(s *Stream, ev *Event) Verdict {
		if ev.Key.Name == "e" {
			return Deliver
		}
		return Hold
	}}
	p := startProxy(t, f, h, nil)
	body := openWatch(t, p, "")
	for _, ev := range []string{
		watchEvent("MODIFIED", "a", "2"), watchEvent("DELETED", "a", "3"), watchEvent("ADDED", "b", "4"),
		watchEvent("ADDED", "a", "5"), watchEvent("ADDED", "c", "6"), watchEvent("MODIFIED", "d", "7"),
		watchEvent("MODIFIED", "b", "8"), watchEvent("DELETED", "c", "9"), watchEvent("MODIFIED", "a", "10"),
		watchEvent("DELETED", "d", "11"),
	} {
		a.events <- ev
	}
	a.events <- watchEvent("ADDED", "e", "12") // delivered: every event before it is held
	if got := readEvents(t, body, 1)[0]; got != "ADDED e@12" {
		t.Fatalf("first delivered %s, want ADDED e@12", got)
	}
	if n := p.Release(func(*Stream, *Event) bool { return true }); n != 3 {
		t.Errorf("released %d events, want 3", n)
	}
	got := strings.Join(readEvents(t, body, 3), ", ")
	if want := "ADDED b@8, MODIFIED a@10, DELETED d@11"; got != want {
		t.Errorf("delivered %s, want %s", got, want)
	}
	if p.Activity().Held != 0 {
		t.Errorf("held events after release: %d", p.Activity().Held)
	}
}

// TestStaleView checks the rewrites of a stale view and that its watch
// events wait for Resume.
func TestStaleView(t *testing.T) {
	a := &watchAPI{events: make(chan string, 10), lists: map[string]string{
		"7": `{"apiVersion":"v1","kind":"PodList","metadata":{"resourceVersion":"7"},"items":[{"metadata":{"name":"a","namespace":"default","resourceVersion":"6"}}]}`,
	}}
	f := newFakeAPI(t, a.handle)
	p := startProxy(t, f, Hooks{}, nil)
	if err := p.StaleView(Scope{Kind: "pod", Namespace: "default", Name: "a"}, "7"); err != nil {
		t.Fatal(err)
	}
	c := client(t, p)
	_, list := do(t, c, p, "GET", "/api/v1/namespaces/default/pods?limit=500", "")
	code, got := do(t, c, p, "GET", "/api/v1/namespaces/default/pods/a", "")
	var item objectMeta
	_ = json.Unmarshal([]byte(got), &item)
	if code != 200 || item.Metadata.ResourceVersion != "6" || !strings.Contains(got, `"kind":"Pod"`) {
		t.Errorf("stale get: %d %s", code, got)
	}
	if !strings.Contains(list, `"resourceVersion":"6"`) {
		t.Errorf("stale list: %s", list)
	}
	a.lists["7"] = `{"apiVersion":"v1","kind":"PodList","metadata":{"resourceVersion":"7"},"items":[]}`
	if code, _ := do(t, c, p, "GET", "/api/v1/namespaces/default/pods/a", ""); code != 404 {
		t.Errorf("stale get of an object absent at the revision: %d, want 404", code)
	}
	a.lists["7"] = `{"apiVersion":"v1","kind":"PodList","metadata":{"resourceVersion":"7"},"items":[{"metadata":{"name":"a","namespace":"default","resourceVersion":"6"}}]}`
	body := openWatch(t, p, "&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")
	a.events <- watchEvent("MODIFIED", "a", "8")
	a.events <- watchEvent("MODIFIED", "b", "9")
	first := readEvents(t, body, 3)
	if got, want := strings.Join(first, ", "), "ADDED a@6, BOOKMARK @7, MODIFIED b@9"; got != want {
		t.Errorf("stale watch delivered %s, want %s", got, want)
	}
	if n := p.Resume(Scope{Kind: "pod", Namespace: "default", Name: "a"}); n != 1 {
		t.Errorf("resume released %d events, want 1", n)
	}
	if got := readEvents(t, body, 1)[0]; got != "MODIFIED a@8" {
		t.Errorf("after resume: %s", got)
	}
	var queries []string
	for _, s := range f.seen() {
		queries = append(queries, s.Path+"?"+s.Query)
	}
	path := "testdata/stale.txtar"
	golden.Check(t, path, mustParse(t, path), map[string][]byte{"upstream": []byte(strings.Join(queries, "\n") + "\n")})
}

func mustParse(t *testing.T, path string) *txtar.Archive {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		if os.IsNotExist(err) && golden.Update() {
			return &txtar.Archive{Comment: []byte("Upstream requests of TestStaleView.\n")}
		}
		t.Fatal(err)
	}
	return ar
}

// TestArrivingEventIsPending counts an event the proxy has read from the
// API server as arriving, not settled, until it is passed on, however long
// its filter takes; then it is neither arriving nor held.
func TestArrivingEventIsPending(t *testing.T) {
	a := &watchAPI{events: make(chan string, 10)}
	f := newFakeAPI(t, a.handle)
	inFilter, goOn := make(chan struct{}), make(chan struct{})
	h := Hooks{Filter: func(s *Stream, ev *Event) Verdict {
		inFilter <- struct{}{}
		<-goOn
		return Deliver
	}}
	p := startProxy(t, f, h, &memSink{})
	body := openWatch(t, p, "")
	a.events <- watchEvent("ADDED", "a", "1")
	<-inFilter
	if act := p.Activity(); act.Arriving != 1 || p.Quiet(0) {
		t.Errorf("while filtered: arriving %d, quiet %v; want 1, false", act.Arriving, p.Quiet(0))
	}
	close(goOn)
	readEvents(t, body, 1)
	waitFor(t, "the event to be passed on", func() bool { return p.Activity().Arriving == 0 })
	if act := p.Activity(); act.Held != 0 {
		t.Errorf("after delivery: held %d", act.Held)
	}
}

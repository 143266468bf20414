package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// Scope is what a stale view covers: every object of a kind (Name empty),
// optionally only in one namespace, or one object.
type Scope struct {
	Kind      string // a trace kind name, e.g. "pod", "datastore.example.com"
	Namespace string
	Name      string
}

// Covers reports whether the object with key k is in the scope.
func (s Scope) Covers(k trace.Key) bool {
	return k.Kind == s.Kind && (s.Namespace == "" || k.Namespace == s.Namespace) && (s.Name == "" || k.Name == s.Name)
}

// reads reports whether a read of key k (Name empty for a list; Namespace
// empty for a read across namespaces) may see an object of the scope.
func (s Scope) reads(k trace.Key) bool {
	if k.Kind != s.Kind || (s.Namespace != "" && k.Namespace != "" && k.Namespace != s.Namespace) {
		return false
	}
	return k.Name == "" || s.Name == "" || k.Name == s.Name
}

// staleView is a scope frozen at a resourceVersion.
type staleView struct {
	scope Scope
	rv    string
}

// staleViews are the active stale views.
type staleViews struct {
	mu    sync.RWMutex
	views []staleView
}

// StaleView freezes the controller's view of the scope at resourceVersion
// rv. From now on its lists of the scope's kind are answered at exactly
// rv (the whole kind, so a list is one consistent snapshot), and its gets
// of the scope's objects too. Watch lists (sendInitialEvents) start from
// rv, and watch events of the scope are held until Resume. Writes still
// reach the real server. The controller is usually restarted next, so
// that it rebuilds its cache from the stale view. rv must still be in the
// API server's history (not compacted) and, for watches, in its watch
// cache window.
func (p *Proxy) StaleView(s Scope, rv string) error {
	if s.Kind == "" || rv == "" {
		return fmt.Errorf("proxy: stale view needs a kind and a resourceVersion")
	}
	p.stale.mu.Lock()
	defer p.stale.mu.Unlock()
	p.stale.views = append(p.stale.views, staleView{scope: s, rv: rv})
	return nil
}

// Resume ends the stale views of the scope and delivers the newest state
// of each object whose watch events they held (see Release). The view
// catches up at once, as after a relist, and the controller acts on no
// state between the frozen one and the current one. It returns how many
// events it delivered.
func (p *Proxy) Resume(s Scope) int {
	p.stale.mu.Lock()
	keep := p.stale.views[:0]
	for _, v := range p.stale.views {
		if v.scope != s {
			keep = append(keep, v)
		}
	}
	p.stale.views = keep
	p.stale.mu.Unlock()
	return p.Release(func(_ *Stream, ev *Event) bool {
		if ev.Type == "BOOKMARK" {
			return ev.Key.Kind == s.Kind && !p.stale.holds(ev)
		}
		return s.Covers(ev.Key)
	})
}

// forRead returns the view that answers a list or get, if any.
func (sv *staleViews) forRead(r *Request) (staleView, bool) {
	switch {
	case r.Verb == "list" && r.Query.Get("continue") == "":
	case r.Verb == "get" && (r.Subresource == "" || r.Subresource == "status"):
	default:
		return staleView{}, false
	}
	return sv.find(r.Key)
}

// forWatch returns the view that covers a watch, if any.
func (sv *staleViews) forWatch(r *Request) (staleView, bool) { return sv.find(r.Key) }

func (sv *staleViews) find(k trace.Key) (staleView, bool) {
	sv.mu.RLock()
	defer sv.mu.RUnlock()
	for _, v := range sv.views {
		if v.scope.reads(k) {
			return v, true
		}
	}
	return staleView{}, false
}

// holds reports whether a stale view holds the event back: an object event
// in a scope, or a bookmark of a stale kind (so the controller's
// resourceVersion does not move past held events).
func (sv *staleViews) holds(ev *Event) bool {
	sv.mu.RLock()
	defer sv.mu.RUnlock()
	for _, v := range sv.views {
		switch ev.Type {
		case "BOOKMARK":
			if v.scope.Kind == ev.Key.Kind {
				return true
			}
		case "ADDED", "MODIFIED", "DELETED":
			if v.scope.Covers(ev.Key) {
				return true
			}
		}
	}
	return false
}

// collectionPath is the path of the request's collection (no name, no
// subresource, no legacy /watch/ segment).
func collectionPath(r *Request) string {
	var b strings.Builder
	if r.Group == "" {
		b.WriteString("/api/" + r.Version)
	} else {
		b.WriteString("/apis/" + r.Group + "/" + r.Version)
	}
	if r.Key.Namespace != "" && r.Resource != "namespaces" {
		b.WriteString("/namespaces/" + r.Key.Namespace)
	}
	b.WriteString("/" + r.Resource)
	return b.String()
}

// exactList lists the request's collection at exactly rv, with the
// request's selectors.
func (p *Proxy) exactList(ctx context.Context, r *Request, rv string) (*Response, http.Header) {
	q := cloneQuery(r.Query)
	for _, k := range []string{"watch", "sendInitialEvents", "allowWatchBookmarks", "timeoutSeconds", "resourceVersionMatch"} {
		q.Del(k)
	}
	q.Set("resourceVersion", rv)
	q.Set("resourceVersionMatch", "Exact")
	if r.Verb == "get" {
		q.Set("fieldSelector", "metadata.name="+r.Key.Name)
	}
	resp, hdr := p.roundTrip(ctx, http.MethodGet, collectionPath(r), q, nil, r)
	resp.Stale = true
	return resp, hdr
}

// fetchStale answers a list or get from the view's revision.
func (p *Proxy) fetchStale(ctx context.Context, r *Request, v staleView) (*Response, http.Header) {
	resp, hdr := p.exactList(ctx, r, v.rv)
	if r.Verb == "list" || resp.Err != nil || resp.Code != http.StatusOK {
		return resp, hdr
	}
	items, err := listItems(resp.Body)
	switch {
	case err != nil:
		resp.Err = err
	case len(items) == 0:
		resp.Code, resp.Body = http.StatusNotFound, notFound(r)
	default:
		resp.Body = items[0]
	}
	return resp, hdr
}

// staleWatch prepares a watch in a stale view: a watch list gets its
// initial events from the exact list at the view's revision, and the
// upstream watch starts there.
func (p *Proxy) staleWatch(ctx context.Context, r *Request, v staleView) (q url.Values, initial []*Event, resp *Response) {
	q = cloneQuery(r.Query)
	resp = &Response{Stale: true}
	if !isTrue(q.Get("sendInitialEvents")) {
		return q, nil, resp
	}
	lr, _ := p.exactList(ctx, r, v.rv)
	if lr.Err == nil && lr.Code != http.StatusOK {
		lr.Err = fmt.Errorf("stale list at resourceVersion %s: HTTP %d: %s", v.rv, lr.Code, lr.Body)
	}
	if lr.Err != nil {
		resp.Err = lr.Err
		return q, nil, resp
	}
	items, err := listItems(lr.Body)
	if err != nil {
		resp.Err = err
		return q, nil, resp
	}
	for _, it := range items {
		initial = append(initial, newEvent(r.Key.Kind, "ADDED", it))
	}
	initial = append(initial, initialEventsEnd(r.Key.Kind, lr.Body, v.rv))
	q.Del("sendInitialEvents")
	q.Del("resourceVersionMatch")
	q.Set("resourceVersion", v.rv)
	return q, initial, resp
}

// listItems returns a list's items with apiVersion and kind filled in
// (the API server leaves them out of built-in lists).
func listItems(body []byte) ([]json.RawMessage, error) {
	var l struct {
		APIVersion string                       `json:"apiVersion"`
		Kind       string                       `json:"kind"`
		Items      []map[string]json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(body, &l); err != nil {
		return nil, fmt.Errorf("stale list: %w", err)
	}
	av, _ := json.Marshal(l.APIVersion)
	k, _ := json.Marshal(strings.TrimSuffix(l.Kind, "List"))
	out := make([]json.RawMessage, 0, len(l.Items))
	for _, it := range l.Items {
		it["apiVersion"], it["kind"] = av, k
		b, err := json.Marshal(it)
		if err != nil {
			return nil, fmt.Errorf("stale list: %w", err)
		}
		out = append(out, b)
	}
	return out, nil
}

// initialEventsEnd is the bookmark that ends a watch list's initial events.
func initialEventsEnd(kind string, listBody []byte, rv string) *Event {
	var l struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	_ = json.Unmarshal(listBody, &l)
	obj, _ := json.Marshal(map[string]any{
		"apiVersion": l.APIVersion, "kind": strings.TrimSuffix(l.Kind, "List"),
		"metadata": map[string]any{
			"resourceVersion": rv,
			"annotations":     map[string]string{"k8s.io/initial-events-end": "true"},
		},
	})
	ev := newEvent(kind, "BOOKMARK", obj)
	return ev
}

func notFound(r *Request) json.RawMessage {
	b, _ := json.Marshal(map[string]any{
		"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure",
		"message": fmt.Sprintf("%s %q not found", r.Resource, r.Key.Name), "reason": "NotFound",
		"details": map[string]any{"name": r.Key.Name, "kind": r.Resource}, "code": http.StatusNotFound,
	})
	return b
}

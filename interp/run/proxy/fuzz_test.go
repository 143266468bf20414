package proxy

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/sievetool/sieve/internal/hostile"
)

// FuzzRequest feeds a controller's arbitrary request (path, query, content
// type and body) to what the proxy reads of it before it records it: the
// route, the verb and the body as JSON. None of it may panic, a route it
// accepts names a resource, and the body it records is valid JSON, of a
// bounded size, whatever the body was (the trace holds it as JSON).
func FuzzRequest(f *testing.F) {
	f.Add("/api/v1/namespaces/default/pods/p", "watch=1", "application/json", []byte(`{"metadata":{"name":"p"}}`))
	f.Add("/apis/apps/v1/watch/namespaces/default/statefulsets", "fieldSelector=metadata.name%3Dx", "application/apply-patch+yaml", []byte("metadata:\n  name: x\n"))
	f.Add("/api/v1/namespaces/ns/status", "", "application/vnd.kubernetes.protobuf", []byte("k8s\x00\n\x0f\n\x02v1\x12\tConfigMap\x12\x00\x1a\x00\"\x00"))
	f.Add("/apis/x.io/v1/widgets/w/scale", "", "application/cbor", []byte{0xd9, 0xd9, 0xf7, 0xa1, 0x61, 0x61, 0x01})
	f.Add("/api/v1/pods", "", "text/plain; charset=utf-8", []byte("not json"))
	f.Fuzz(func(t *testing.T, path, query, contentType string, body []byte) {
		q, _ := url.ParseQuery(query)
		var rt route
		var ok bool
		var out json.RawMessage
		hostile.Within(t, hostile.MaxTime, func() {
			rt, ok = parsePath(path)
			for _, m := range []string{http.MethodGet, http.MethodDelete, "PATCH", "weird"} {
				apiVerb(m, rt, q)
			}
			nameFromFieldSelector(q.Get("fieldSelector"))
			out = bodyJSON(contentType, body)
			nameFromBody(out)
		})
		if ok && (rt.resource == "" || rt.version == "" || strings.Contains(rt.resource, "/")) {
			t.Fatalf("%q: route %+v", path, rt)
		}
		if len(body) > 0 && !json.Valid(out) {
			t.Fatalf("recorded body is not JSON: %q", out)
		}
		if len(out) > 16*len(body)+1024 {
			t.Fatalf("a body of %d bytes recorded as %d", len(body), len(out))
		}
	})
}

package proxy

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// Request is one request of the controller, parsed. Hooks receive it; they
// must not modify it, except Stale-related fields documented below.
type Request struct {
	// ID numbers the requests the proxy received, from 1.
	ID int64
	// Verb is the API verb: get, list, watch, create, update, patch,
	// delete or deletecollection; for a path outside the resource API
	// (discovery, /version, /healthz) it is the HTTP method in lower case.
	Verb string
	// Key is the object concerned. Name is empty for list, watch and
	// deletecollection unless a metadata.name field selector names one,
	// and for create when the body has only generateName.
	Key trace.Key
	// Group, Version and Resource are the request's resource; Resource is
	// empty for a path outside the resource API.
	Group, Version, Resource string
	// Subresource is "status", "scale" and the like.
	Subresource string
	// Method, Path and Query are the HTTP request line, as received.
	Method string
	Path   string
	Query  url.Values
	// Header is the controller's request header.
	Header http.Header
	// ContentType is the request body's media type as the controller sent
	// it; Body is the body in JSON (decoded from protobuf or YAML), or
	// nil. RawBody is the body as received.
	ContentType string
	Body        json.RawMessage
	RawBody     []byte
	// Start is when the request arrived.
	Start time.Time

	// route is the parsed path; pending says that Body, and the parts of
	// Key only the body says, are still to be decoded (Proxy.decode):
	// a request no hook sees is decoded after its answer has left.
	route   route
	pending bool
	// anyMedia says that the upstream may answer in any media type the
	// controller accepts, not only JSON: the controller's own request,
	// whose answer it gets as the upstream sent it (Response.wire).
	anyMedia bool
}

// IsResource reports whether the request is for the resource API (as
// opposed to discovery and other paths).
func (r *Request) IsResource() bool { return r.Resource != "" }

// IsWrite reports whether the request can change the cluster.
func (r *Request) IsWrite() bool {
	switch r.Verb {
	case "create", "update", "patch", "delete", "deletecollection":
		return r.IsResource()
	}
	return false
}

// Response is the upstream's answer to a request, before it reaches the
// controller.
type Response struct {
	// Code is the HTTP status, 0 when the upstream could not be reached.
	Code int
	// Body is the response body in JSON; nil for a watch, whose events go
	// through the filter instead. A list's (unrecorded) answer is in the
	// media type the controller asked for, JSON or protobuf.
	Body json.RawMessage
	// Err is the transport error when the upstream could not be reached.
	Err error
	// Stale is set when the proxy answered from a past revision.
	Stale bool
	// Output is what an exec the proxy answered itself wrote.
	Output *trace.ExecOutput

	// wire is the answer as the controller gets it, of type media, when
	// the upstream sent it in protobuf (which client-go asks for built-in
	// kinds) or CBOR. Body holds it in JSON once decoded (decode), for a
	// hook or the record.
	wire  []byte
	media string
}

// decode sets Body from an answer in another media type, once.
func (r *Response) decode() {
	if r.wire != nil && r.Body == nil {
		r.Body = bodyJSON(r.media, r.wire)
	}
}

// written returns the answer as the controller gets it.
func (r *Response) written() []byte {
	if r.wire != nil {
		return r.wire
	}
	return r.Body
}

// route is the parsed path of a request.
type route struct {
	group, version, resource, sub string
	namespace, name               string
	watchPath                     bool // legacy /watch/ path segment
}

// parsePath splits an API path into its parts. It returns ok false for
// paths outside /api and /apis resources, and for paths with an empty
// segment ("/api//pods"), which name no resource.
func parsePath(p string) (route, bool) {
	parts := splitPath(p)
	if slices.Contains(parts, "") {
		return route{}, false
	}
	var rt route
	switch {
	case len(parts) >= 3 && parts[0] == "api":
		rt.version, parts = parts[1], parts[2:]
	case len(parts) >= 4 && parts[0] == "apis":
		rt.group, rt.version, parts = parts[1], parts[2], parts[3:]
	default:
		return rt, false
	}
	if parts[0] == "watch" {
		rt.watchPath, parts = true, parts[1:]
	}
	return rt.rest(parts)
}

// rest parses what follows the group version: [namespaces/NS/]RES[/NAME[/SUB...]].
func (rt route) rest(parts []string) (route, bool) {
	if len(parts) == 0 {
		return rt, false
	}
	if parts[0] == "namespaces" && len(parts) > 1 {
		if len(parts) == 2 || parts[2] == "status" || parts[2] == "finalize" {
			rt.resource, rt.name = "namespaces", parts[1]
			if len(parts) > 2 {
				rt.sub = parts[2]
			}
			return rt, true
		}
		rt.namespace, parts = parts[1], parts[2:]
	}
	rt.resource = parts[0]
	if len(parts) > 1 {
		rt.name = parts[1]
	}
	if len(parts) > 2 {
		rt.sub = strings.Join(parts[2:], "/")
	}
	return rt, true
}

func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// apiVerb maps the HTTP method and route to the API verb.
func apiVerb(method string, rt route, q url.Values) string {
	switch method {
	case http.MethodGet, http.MethodHead:
		switch {
		case rt.watchPath || isTrue(q.Get("watch")):
			return "watch"
		case rt.name == "":
			return "list"
		}
		return "get"
	case http.MethodPost:
		return "create"
	case http.MethodPut:
		return "update"
	case http.MethodPatch:
		return "patch"
	case http.MethodDelete:
		if rt.name == "" {
			return "deletecollection"
		}
		return "delete"
	}
	return strings.ToLower(method)
}

func isTrue(s string) bool { return s == "true" || s == "1" }

// nameFromFieldSelector returns X when the selector is exactly
// metadata.name=X (or ==X).
func nameFromFieldSelector(sel string) string {
	for _, prefix := range []string{"metadata.name==", "metadata.name="} {
		if rest, ok := strings.CutPrefix(sel, prefix); ok && !strings.Contains(rest, ",") {
			return rest
		}
	}
	return ""
}

// nameFromBody returns metadata.name of a JSON object, or "".
func nameFromBody(body json.RawMessage) string {
	var obj struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if json.Unmarshal(body, &obj) != nil {
		return ""
	}
	return obj.Metadata.Name
}

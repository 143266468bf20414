// Package proxy is sieve's interception proxy: a reverse proxy between the
// controller under test and the API server, through which sieve sees and
// steers everything the controller does without changing its code.
//
// The proxy listens on loopback with its own certificate authority and
// bearer token (WriteKubeconfig, CA, Token) and forwards to the upstream
// with admin credentials, over HTTP/1.1: watches through net/http's
// transport, every other request over connections it writes and reads on
// the request's own goroutine (syncTransport), which is measurably faster
// on a small machine. It parses every request into an API verb and an
// object key (trace.Key, kinds from the upstream's discovery), forwards
// request and answer in the client's own media type (protobuf, which
// client-go uses for built-in kinds, is encoded and decoded faster than
// JSON; bodies and answers in protobuf or CBOR are decoded to JSON for the
// hooks when there are any, else for the record after the answer has left;
// watches are asked for in JSON, whose events the proxy reads), and offers
// hooks: Before a request is forwarded, After the
// upstream answered but before the controller sees the answer, and Filter
// on every watch event (deliver, drop, hold, or supersede the held events
// of the same object: hold-and-coalesce). A stale view (StaleView, Resume)
// answers reads of a scope from a past resourceVersion and holds its watch
// events; Release and Resume deliver of each object only the newest held
// state. Relist ends the controller's watches with 410 Expired, as an API
// server whose watch cache moved on does, so that its informers list again
// and see every object anew (a resync on demand). It writes Request and
// Delivery entries to a Sink and reports activity (in-flight requests,
// events arriving and held, retries the controller was told to make) and
// decides from it whether the controller has settled (Settled), so callers
// can wait until it has.
//
// Upgrade requests (pods/exec, pods/attach, pods/portforward over SPDY or
// WebSocket) leave the ordinary path: they are recorded with verb connect
// and forwarded with the connections joined, or, for an exec the Exec
// option claims, answered by the proxy itself with the remote command
// protocol (v4 and v5: a kubelet's answer, with a stand-in in place of the
// container) or refused as a kubelet refuses an exec into a container it
// does not run.
//
// It does not start or kill the controller (package controller does), nor
// decide what to inject (the injector, through the hooks), nor watch the
// cluster for the history (the recorder). Requests outside the resource
// API (discovery, /version, /healthz) are forwarded but not recorded.
package proxy

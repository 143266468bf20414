// Package proxy is sieve's interception proxy: a reverse proxy between the
// controller under test and the API server. Through it sieve sees and
// steers everything the controller does without changing its code.
//
// The proxy listens on loopback with its own certificate authority and
// bearer token (WriteKubeconfig, CA, Token). It forwards to the upstream
// with admin credentials over HTTP/1.1. Watches go through net/http's
// transport; other requests run on the request's own goroutine
// (syncTransport). It parses each request into an API verb and an object
// key (trace.Key, with kinds from the upstream's discovery). Requests and
// answers keep the client's media type (protobuf, JSON or CBOR). They are
// decoded to JSON for the hooks when there are any, else for the record
// after the answer has left. Watches are asked for in JSON.
//
// Hooks steer the controller. Before runs before a request is forwarded.
// After runs once the upstream answered, before the controller sees the
// answer. Filter decides the fate of each watch event: deliver, drop,
// hold, supersede the held events of the same object, or deliver it and
// end its watch with 410 Expired (Gone), as an API server whose history
// was compacted past the watch does. A stale view
// (StaleView) answers reads of a scope from a past resourceVersion and
// holds its watch events. Release and Resume deliver only the newest held
// state of each object. Relist ends the controller's watches with 410
// Expired, so its informers list again.
//
// It writes Request and Delivery entries to a Sink. It reports activity
// (Activity): requests in flight, events arriving and held, and retries
// the controller was told to make. From that it decides whether the
// controller has settled (Settled), and whether its watches have been
// passed a version of an object a workload wrote (Shown).
//
// Upgrade requests (pods/exec, attach, portforward over SPDY or WebSocket)
// are recorded with verb connect and forwarded with the connections
// joined. The Exec option may claim an exec instead. The proxy then
// answers it itself with the remote command protocol (v4 and v5), or
// refuses it as a kubelet refuses an exec into a container it does not
// run (ContainerNotFound).
//
// It does not start or kill the controller (interp/run/controller), decide
// what to inject (the injector, through the hooks), or watch the cluster
// for the history (the recorder). Requests outside the resource API
// (discovery, /version, /healthz) are forwarded but not recorded.
package proxy

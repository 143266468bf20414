// Package netns gives a controller a private network: a Linux network
// namespace with only its loopback. sieve listens in it (the proxy, the
// DNS responder), dials in it (readiness checks) and starts processes in
// it (the controller, stand-ins), each from an OS thread that has entered
// it. So no veth or route is needed, and fixed ports never collide between
// workers.
//
// It does not decide what to serve in the namespace (package session
// does) nor answer DNS (package clusterdns does). On other systems, or
// without the privilege to create namespaces, New returns an error that
// wraps ErrUnsupported, and callers fall back to the host's network.
package netns

// Package pki makes the short-lived credentials of sieve's own servers: a
// self-signed certificate authority (NewCA), certificates it signs
// (Issue), signing keys (NewSigningKey) and random bearer tokens (Token).
// Keys are P-256, serials random, and certificates valid from an hour ago.
// Everything is PEM encoded for files and parsed for Go's TLS. The
// embedded control plane (interp/cluster/embedded) and the interception
// proxy (interp/run/proxy) both issue theirs here.
//
// It does not decide what a certificate is for: names, addresses, key
// usages and lifetimes are the caller's template. It does not write files
// or configure TLS servers.
package pki

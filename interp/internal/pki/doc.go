// Package pki makes the short-lived credentials sieve's own servers use:
// a self-signed certificate authority, certificates it signs (P-256 keys,
// random serials, valid from an hour ago), signing keys and random bearer
// tokens, PEM encoded for files and parsed for Go's TLS. The embedded
// control plane (interp/cluster/embedded) and the interception proxy
// (interp/run/proxy) both issue theirs here.
//
// It does not decide what a certificate is for (names, addresses, key
// usages and lifetimes are the caller's template), write files or
// configure TLS servers.
package pki

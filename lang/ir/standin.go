package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseStandinKey reads a stand-in's "SERVICE:PORT[,PORT...]". On a bad
// key it returns a message and a hint for the diagnostic.
func ParseStandinKey(key string) (svc string, ports []int, msg, hint string) {
	svc, list, ok := strings.Cut(key, ":")
	if !ok || !DNSLabel(svc) {
		return "", nil, fmt.Sprintf("standin %q: want SERVICE:PORT", key),
			`a Service name of the controller's namespace and its port(s): "db-client:5000" or "db:5000,5001"`
	}
	for _, p := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 65535 {
			return "", nil, fmt.Sprintf("standin %s: bad port %q (want 1 to 65535)", svc, p), ""
		}
		ports = append(ports, n)
	}
	return svc, ports, "", ""
}

// DNSLabel reports whether s is a DNS label, as Service and namespace
// names are.
func DNSLabel(s string) bool {
	if s == "" || len(s) > 63 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for _, c := range s {
		if c != '-' && (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// CheckControllerName says what is wrong with name as the name of a
// controller that runs as an emulated pod (incluster): it names the pod
// (NAME-sieve) and labels it, so it must be a DNS label. It returns a
// summary ("" when name is one, or the controller has no pod) and a hint:
// the name in lowercase with "-" for "_", or, where names are
// identifiers (ident: .sieve), with "_" dropped. Both front ends report
// with it.
func CheckControllerName(name string, incluster, ident bool) (summary, hint string) {
	if !incluster || DNSLabel(name) {
		return "", ""
	}
	summary = fmt.Sprintf("controller name %q is not a DNS label, and kubeconfig incluster makes it the name of the controller's emulated pod (%s-sieve)", name, name)
	dash, want := "-", "lowercase letters, digits and -"
	if ident {
		dash, want = "", "lowercase letters and digits"
	}
	s := strings.Trim(strings.ReplaceAll(strings.ToLower(name), "_", dash), "-")
	if !DNSLabel(s) {
		return summary, want + ", at most 63 characters"
	}
	return summary, fmt.Sprintf("%s, such as %s", want, s)
}

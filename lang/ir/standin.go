package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// standinKeyHint is the hint for a key that is neither form.
const standinKeyHint = `a Service name of the controller's namespace and its port(s): "db-client:5000" or "db:5000,5001"; or "pods" and a label selector: "pods app=agent:9090"`

// selectorHint is the hint for a bad label selector.
const selectorHint = `KEY=VALUE, KEY!=VALUE, KEY or !KEY, comma-separated, as in "pods app=agent,tier!=cache:9090"`

// ParseStandinKey reads a stand-in's key, "SERVICE:PORT[,PORT...]" or
// "pods SELECTOR:PORT[,PORT...]", into a Standin with Service or Pods,
// and Ports. On a bad key it returns a message and a hint for the
// diagnostic.
func ParseStandinKey(key string) (s *Standin, msg, hint string) {
	i := strings.LastIndex(key, ":")
	if sel, ok := strings.CutPrefix(key, "pods"); ok && (sel == "" || sel[0] == ' ' || sel[0] == '\t') {
		if i < 0 || strings.TrimSpace(key[len("pods"):i]) == "" {
			return nil, fmt.Sprintf("standin %q: want pods SELECTOR:PORT", key), standinKeyHint
		}
		s = &Standin{}
		if s.Pods, msg = NormalizeSelector(key[len("pods"):i]); msg != "" {
			return nil, fmt.Sprintf("standin %q: %s", key, msg), selectorHint
		}
	} else {
		if i < 0 || !DNSLabel(key[:i]) {
			return nil, fmt.Sprintf("standin %q: want SERVICE:PORT", key), standinKeyHint
		}
		s = &Standin{Service: key[:i]}
	}
	for _, p := range strings.Split(key[i+1:], ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Sprintf("standin %s: bad port %q (want 1 to 65535)", s.Name(), p), ""
		}
		s.Ports = append(s.Ports, n)
	}
	return s, "", ""
}

// Name is how messages name s: its Service, or "pods SELECTOR".
func (s *Standin) Name() string {
	if s.Pods != "" {
		return "pods " + s.Pods
	}
	return s.Service
}

// SecondStandin is the message for a stand-in whose Service or selector
// an earlier one of the same controller already has.
func SecondStandin(s *Standin) string {
	of := "service"
	if s.Pods != "" {
		of = "pods"
	}
	return fmt.Sprintf("standin %s: a second stand-in for the same %s", s.Name(), of)
}

// NormalizeSelector checks an equality-based label selector (KEY=VALUE,
// KEY==VALUE, KEY!=VALUE, KEY, !KEY, comma-separated) and returns it in
// the form Kubernetes prints it; or, when it is not one, a message.
func NormalizeSelector(sel string) (norm, msg string) {
	var out []string
	for _, req := range strings.Split(sel, ",") {
		req = strings.TrimSpace(req)
		if strings.ContainsAny(req, "()") || strings.Contains(req, " in ") || strings.Contains(req, " notin ") {
			return "", "set-based requirements (in, notin) are not supported"
		}
		key, op, val := req, "", ""
		for _, o := range []string{"!=", "==", "="} {
			if k, v, ok := strings.Cut(req, o); ok {
				key, op, val = strings.TrimSpace(k), o, strings.TrimSpace(v)
				break
			}
		}
		if op == "" && strings.HasPrefix(key, "!") {
			key, op = strings.TrimSpace(key[1:]), "!"
		}
		if m := labelKeyProblem(key); m != "" {
			return "", "bad label selector: " + m
		}
		if op != "" && op != "!" && !labelValue(val) {
			return "", fmt.Sprintf("bad label selector: bad value %q for %s", val, key)
		}
		switch op {
		case "!":
			out = append(out, "!"+key)
		case "":
			out = append(out, key)
		case "==":
			out = append(out, key+"="+val)
		default:
			out = append(out, key+op+val)
		}
	}
	return strings.Join(out, ","), ""
}

// labelKeyProblem says what is wrong with a label key, [PREFIX/]NAME:
// "" when nothing is.
func labelKeyProblem(key string) string {
	prefix, name, ok := strings.Cut(key, "/")
	if !ok {
		prefix, name = "", key
	}
	switch {
	case key == "":
		return "a requirement without a label key"
	case ok && !dnsSubdomain(prefix):
		return fmt.Sprintf("bad label key %q (its prefix must be a DNS subdomain)", key)
	case name == "" || !labelValue(name):
		return fmt.Sprintf("bad label key %q (want at most 63 letters, digits, -, _ or ., starting and ending with a letter or digit)", key)
	}
	return ""
}

// labelValue reports whether v is a label value: empty, or at most 63
// letters, digits, '-', '_' and '.', beginning and ending with a letter
// or digit.
func labelValue(v string) bool {
	if v == "" {
		return true
	}
	if len(v) > 63 || !alnum(rune(v[0])) || !alnum(rune(v[len(v)-1])) {
		return false
	}
	for _, c := range v {
		if !alnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func alnum(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// dnsSubdomain reports whether s is a DNS subdomain: DNS labels joined
// by dots, at most 253 characters.
func dnsSubdomain(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, l := range strings.Split(s, ".") {
		if !DNSLabel(l) {
			return false
		}
	}
	return true
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

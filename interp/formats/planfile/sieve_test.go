package planfile

import (
	"strings"
	"testing"

	"github.com/sievetool/sieve/lang/syntax"
)

// everyForm is a plan with every action and every trigger form the .sieve
// form has.
const everyForm = `{"sievePlan": 1, "name": "every", "actions": [
  {"kind": "stale-on", "scope": {"kind": "pod", "namespace": "default", "name": "web-0"},
   "at": {"op": "event", "on": "update", "target": {"kind": "pod", "namespace": "default", "name": "web-0"}, "count": 2},
   "trigger": {"op": "event", "on": "update", "target": {"kind": "pod", "namespace": "default", "name": "web-0"}, "subresource": "status", "seen": "cluster",
     "diff": {"prev": {"status": {"phase": "Pending", "ready": false, "n": -1.5, "big": 1000000, "l": [1, "a\"b", null]}}, "cur": null}}},
  {"kind": "stale-off", "scope": {"kind": "pod", "namespace": "default", "name": "web-0"},
   "trigger": {"op": "then", "args": [
     {"op": "any", "args": [{"op": "timeout", "duration": "5s"}, {"op": "quiet", "duration": "1s", "target": {"kind": "pod", "name": "x"}}]},
     {"op": "all", "args": [{"op": "write", "on": "delete", "failed": true, "target": {"kind": "pod", "namespace": "default", "name": "web-*"}}, {"op": "write", "on": "create", "target": {"kind": "pod", "namespace": "default", "name": "a"}, "where": {"expr": "object.spec.x == \"y\""}}]}]}},
  {"kind": "hold", "scope": {"kind": "pod", "namespace": "default", "name": "web-1"}, "bound": "2s",
   "trigger": {"op": "event", "on": "delete", "target": {"kind": "pod", "namespace": "default", "name": "web-1"}, "noLonger": {"metadata": {"finalizers": ["a/b"]}}, "where": {"path": "metadata.labels.\"app.kubernetes.io/name\"", "value": "web"}}},
  {"kind": "release", "scope": {"kind": "pod", "namespace": "default", "name": "web-1"},
   "trigger": {"op": "write", "on": "patch", "target": {"kind": "pod", "namespace": "default", "name": "web-1"}, "where": {"path": "spec.containers[0].image", "exists": true}}},
  {"kind": "wait", "duration": "1m30s"},
  {"kind": "pause", "duration": "3s"},
  {"kind": "resume"},
  {"kind": "pause"},
  {"kind": "resume"},
  {"kind": "crash"},
  {"kind": "restart", "trigger": {"op": "timeout", "duration": "500ms"}},
  {"kind": "error", "error": "conflict", "trigger": {"op": "write", "on": "update", "sent": true, "target": {"kind": "statefulset", "namespace": "default", "name": "ds"}, "count": 2}},
  {"kind": "error", "error": "gone", "trigger": {"op": "event", "on": "update", "target": {"kind": "pod", "namespace": "default", "name": "web-0"}}},
  {"kind": "app-fault", "appFault": "unavailable", "trigger": {"op": "call", "on": "http", "standin": "kv-admin", "method": "DELETE", "path": "/members/kv-2?force=1"}},
  {"kind": "app-fault", "appFault": "reset", "trigger": {"op": "call", "on": "http", "standin": "pods app=kv", "target": {"kind": "pod", "namespace": "default", "name": "kv-0"}}},
  {"kind": "app-fault", "appFault": "exec_error", "trigger": {"op": "call", "on": "exec", "command": ["db-ctl", "leave", "a\"b"], "target": {"kind": "pod", "namespace": "default", "name": "web-0"}, "count": 2}},
  {"kind": "crash", "trigger": {"op": "call"}},
  {"kind": "error", "error": "internal_error", "trigger": {"op": "read", "on": "list", "target": {"kind": "pod", "namespace": "default", "name": "*"}, "count": 2}},
  {"kind": "error", "error": "timeout", "trigger": {"op": "read", "on": "get", "target": {"kind": "statefulset", "namespace": "default", "name": "ds"}}}
]}`

// everyFormText is the .sieve form of everyForm, as the hand-written
// printer before lang/format's builders wrote it.
const everyFormText = `// made from every form
plan p {
  on update pod/default/web-0 subresource status in cluster changing { "status": { "big": 1000000, "l": [1, "a\"b", null], "n": -1.5, "phase": "Pending", "ready": false } } to {}: stale on pod/default/web-0 at on update pod/default/web-0 #2
  (after 5s | quiet for 1s after reading pod/x) ; (after failed write delete pod/default/web-* & after write create pod/default/a where "object.spec.x == \"y\""): stale off pod/default/web-0
  on delete pod/default/web-1 without { "metadata": { "finalizers": ["a/b"] } } where metadata.labels."app.kubernetes.io/name" == "web": hold pod/default/web-1 for 2s
  after write patch pod/default/web-1 where spec.containers[0].image exists: release pod/default/web-1
  wait 1m30s
  pause for 3s
  resume
  pause
  resume
  crash
  after 500ms: restart
  after sending write update statefulset/default/ds #2: error conflict
  on update pod/default/web-0: error gone
  on call DELETE "/members/kv-2?force=1" to "kv-admin": appfault unavailable
  on call to "pods app=kv" in pod/default/kv-0: appfault reset
  on call exec ["db-ctl", "leave", "a\"b"] in pod/default/web-0 #2: appfault exec_error
  on call: crash
  on read list pod/default/* #2: error internal_error
  on read get statefulset/default/ds: error timeout
}
`

// TestSieveEveryForm holds the .sieve form of a plan with every action
// and trigger form, and that it parses.
func TestSieveEveryForm(t *testing.T) {
	p, err := Decode([]byte(everyForm))
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Sieve("p", "made from every form")
	if err != nil {
		t.Fatal(err)
	}
	if got != everyFormText {
		t.Errorf("got:\n%s\nwant:\n%s", got, everyFormText)
	}
	if _, ds := syntax.Parse("p.sieve", []byte(got)); len(ds) > 0 {
		t.Errorf("does not parse: %v", ds)
	}
}

// TestSieveErrors holds the plans that have no .sieve form.
func TestSieveErrors(t *testing.T) {
	cases := map[string]string{
		`{"kind": "stale-on", "scope": {"kind": "pod", "name": "x"}, "revision": "12"}`:                                                                "revision 12: a reference run's revision has no .sieve form",
		`{"kind": "crash", "trigger": {"op": "event", "target": {"kind": "pod", "name": "x"}}}`:                                                        "event leaf on any verb",
		`{"kind": "hold", "scope": {"kind": "pod", "namespace": "default"}}`:                                                                           "a leaf or scope without a name has no resource key",
		`{"kind": "wait", "duration": "1.5s"}`:                                                                                                         "duration 1.5s: not a .sieve duration",
		`{"kind": "crash", "trigger": {"op": "then", "args": [{"op": "timeout", "duration": "1s"}]}}`:                                                  "trigger then with 1 arguments",
		`{"kind": "crash", "trigger": {"op": "any", "args": [{"op": "sideways"}, {"op": "sideways"}]}}`:                                                "trigger sideways with 0 arguments",
		`{"kind": "crash", "trigger": {"op": "event", "on": "update", "target": {"kind": "pod", "name": "x"}, "subresource": "a/b"}}`:                  "subresource: identifier \"a/b\"",
		`{"kind": "crash", "trigger": {"op": "event", "on": "update", "target": {"kind": "pod", "name": "x"}, "where": {"path": "a..b", "value": 1}}}`: "where: field path \"a..b\"",
		`{"kind": "crash", "trigger": {"op": "event", "on": "patch", "target": {"kind": "pod", "name": "x"}}}`:                                         `event verb "patch"`,
		`{"kind": "crash", "trigger": {"op": "write", "on": "get", "target": {"kind": "pod", "name": "x"}}}`:                                           `write verb "get"`,
		`{"kind": "crash", "trigger": {"op": "event", "on": "update", "target": {"kind": "pod", "name": "x y"}}}`:                                      "resource key \"pod/x y\"",
		`{"kind": "app-fault", "appFault": "re-set", "trigger": {"op": "call"}}`:                                                                       `identifier "re-set"`,
		`{"kind": "crash", "trigger": {"op": "call", "on": "http", "method": "M-SEARCH"}}`:                                                             `call method "M-SEARCH"`,
		`{"kind": "crash", "trigger": {"op": "call", "on": "http", "method": "in"}}`:                                                                   `call method "in"`,
		`{"kind": "crash", "trigger": {"op": "call", "on": "http"}}`:                                                                                   "an http call with no method, path or stand-in",
		`{"kind": "crash", "trigger": {"op": "call", "on": "exec", "method": "GET"}}`:                                                                  "a command goes with an exec",
		`{"kind": "crash", "trigger": {"op": "call", "on": "pipe"}}`:                                                                                   `call channel "pipe"`,
	}
	for action, want := range cases {
		p, err := Decode([]byte(`{"sievePlan": 1, "name": "bad", "actions": [` + action + `]}`))
		if err != nil {
			t.Fatalf("%s: %v", action, err)
		}
		_, err = p.Sieve("p")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got error %v, want %q", action, err, want)
		}
	}
}

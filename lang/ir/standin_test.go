package ir

import (
	"slices"
	"strings"
	"testing"
)

// TestStandinKeys reads both forms of a stand-in's key: a Service and
// its ports, or pods by a selector written back in Kubernetes' form.
func TestStandinKeys(t *testing.T) {
	for key, want := range map[string]Standin{
		"db-client:5000":                     {Service: "db-client", Ports: []int{5000}},
		"db:5000, 5001":                      {Service: "db", Ports: []int{5000, 5001}},
		"pods:80":                            {Service: "pods", Ports: []int{80}},
		"pods app=agent:9090":                {Pods: "app=agent", Ports: []int{9090}},
		"pods  app == agent , tier!=c:1,2":   {Pods: "app=agent,tier!=c", Ports: []int{1, 2}},
		"pods example.com/role, !canary:443": {Pods: "example.com/role,!canary", Ports: []int{443}},
		"pods\tapp=:9090":                    {Pods: "app=", Ports: []int{9090}},
	} {
		got, msg, _ := ParseStandinKey(key)
		if msg != "" {
			t.Errorf("%q: %s", key, msg)
			continue
		}
		if got.Service != want.Service || got.Pods != want.Pods || !slices.Equal(got.Ports, want.Ports) {
			t.Errorf("%q: got %+v, want %+v", key, *got, want)
		}
	}
}

// TestStandinKeyErrors names what is wrong with a bad key.
func TestStandinKeyErrors(t *testing.T) {
	for key, want := range map[string]string{
		"db":                       "want SERVICE:PORT",
		"Db:80":                    "want SERVICE:PORT",
		"db:80:81":                 "want SERVICE:PORT",
		"pods app=agent":           "want pods SELECTOR:PORT",
		"pods :80":                 "want pods SELECTOR:PORT",
		"pods app=a,:80":           "a requirement without a label key",
		"pods app=a b:80":          `bad value "a b"`,
		"pods x/y/z=a:80":          `bad label key "x/y/z"`,
		"pods Bad_Prefix/a=b:80":   `bad label key "Bad_Prefix/a"`,
		"pods app in (a):80":       "set-based requirements",
		"pods app=" + long + ":80": "bad value",
		"pods app=a:http":          `bad port "http"`,
		"pods app=a:65536":         `bad port "65536"`,
	} {
		_, msg, _ := ParseStandinKey(key)
		if !strings.Contains(msg, want) {
			t.Errorf("%q: got %q, want it to say %q", key, msg, want)
		}
	}
}

var long = strings.Repeat("a", 64)
